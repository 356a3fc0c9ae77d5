/**
 * Traffic that exercises every operation of the document, for validation proxies (Prism): a
 * customer created and deleted, a transaction created, its link issued and sent, a balance and a
 * currency read, then each operation once more with a wrong key (the document shows 401 for
 * every operation). The traffic asserts nothing itself: the proxy's verdict is what counts.
 */
export interface TrafficTarget {
  /** Address the requests go to (the proxy), without /v1: the proxy adds the upstream's base path. */
  baseUrl: string;
  key: string;
  mutantHeader?: string;
}

export interface ProxiedExchange {
  label: string;
  status: number;
  /** The proxy's violations (its sl-violations header or its own error answer), if any. */
  violations?: string;
}

const requestTimeoutMs = 10_000;

export async function probeTraffic(target: TrafficTarget): Promise<ProxiedExchange[]> {
  const exchanges: ProxiedExchange[] = [];
  const call = async (
    label: string,
    method: string,
    path: string,
    body?: unknown,
    key = target.key,
  ): Promise<unknown> => {
    const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${key}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (target.mutantHeader) headers['x-pcs-mutant'] = target.mutantHeader;
    const response = await fetch(`${target.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(requestTimeoutMs),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    const header = response.headers.get('sl-violations');
    const problem =
      (response.headers.get('content-type') ?? '').includes('problem+json') &&
      /stoplight\.io\/prism\/errors/.test(text);
    exchanges.push({
      label,
      status: response.status,
      ...(header ? { violations: header.slice(0, 300) } : problem ? { violations: text.slice(0, 300) } : {}),
    });
    return json;
  };
  const idOf = (json: unknown): string => String((json as { id?: unknown } | undefined)?.id ?? 1);

  const customerBody = (n: number) => ({ email: `peer-bench-${n}@example.com`, firstname: 'Peer', lastname: 'Bench' });
  const customer = await call('createCustomer', 'POST', '/customers', customerBody(1));
  await call('deleteCustomer', 'DELETE', `/customers/${idOf(customer)}`);
  const transaction = await call('createTransaction', 'POST', '/transactions', {
    description: 'peer benchmark',
    amount: 1500,
    currency: { iso: 'XOF' },
    callback_url: 'https://example.com/callback',
  });
  const link = await call('getPaymentLink', 'POST', `/transactions/${idOf(transaction)}/token`);
  const token = (link as { token?: unknown } | undefined)?.token ?? '0';
  await call('sendTransaction', 'POST', '/transactions/mtn', {
    token,
    phone_number: { number: '+22997000001', country: 'BJ' },
  });
  await call('getBalance', 'GET', '/balances/1');
  await call('getCurrency', 'GET', '/currencies/1');

  const wrong = 'not-the-account-key';
  const other = await call('createCustomer (second)', 'POST', '/customers', customerBody(2));
  await call('deleteCustomer with a wrong key', 'DELETE', `/customers/${idOf(other)}`, undefined, wrong);
  await call(
    'createTransaction with a wrong key',
    'POST',
    '/transactions',
    { description: 'x', amount: 1500, currency: { iso: 'XOF' }, callback_url: 'https://example.com/cb' },
    wrong,
  );
  await call('getPaymentLink with a wrong key', 'POST', `/transactions/${idOf(transaction)}/token`, undefined, wrong);
  await call('sendTransaction with a wrong key', 'POST', '/transactions/mtn', { token }, wrong);
  await call('getBalance with a wrong key', 'GET', '/balances/1', undefined, wrong);
  await call('getCurrency with a wrong key', 'GET', '/currencies/1', undefined, wrong);
  return exchanges;
}
