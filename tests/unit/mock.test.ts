/**
 * The reference mock, through Fastify's inject (no socket): the documented statuses,
 * the quirks, the two environments, and bad input answered with a 4xx JSON error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildMockApp, defaultBodyLimit } from '../../mock/app.ts';
import { mockVersion, mockVersionHeader } from '../../mock/version.ts';

const mock = buildMockApp();
const sandbox = { authorization: `Bearer ${mock.sandboxKey}` };

async function call(
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  body?: unknown,
  headers: Record<string, string> = sandbox,
) {
  const response = await mock.app.inject({
    method,
    url,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: response.statusCode,
    headers: response.headers,
    json: response.body ? (JSON.parse(response.body) as unknown) : undefined,
  };
}

const transactionBody = {
  description: 'd',
  amount: 2500,
  currency: { iso: 'XOF' },
  callback_url: 'https://example.com/cb',
};

test('create, link, send: the flow with the token as returned and as an integer', async () => {
  const created = await call('POST', '/v1/transactions', transactionBody);
  assert.equal(created.status, 201);
  const transaction = created.json as { id: number; amount: number };
  assert.equal(transaction.amount, 2500);
  const link = await call('POST', `/v1/transactions/${transaction.id}/token`);
  assert.equal(link.status, 200);
  const { token, url } = link.json as { token: string; url: string };
  assert.equal(typeof token, 'string');
  assert.match(token, /^\d+$/);
  assert.ok(url.includes(token));
  const again = await call('POST', `/v1/transactions/${transaction.id}/token`);
  assert.equal((again.json as { token: string }).token, token, 'the same transaction keeps its token');
  const sent = await call('POST', '/v1/transactions/mtn', {
    token,
    phone_number: { number: '+22997000001', country: 'BJ' },
  });
  assert.equal(sent.status, 200);
  assert.ok(Array.isArray(sent.json));
  assert.equal((sent.json as Array<{ amount: number }>)[0]?.amount, 2500);
  const asInteger = await call('POST', '/v1/transactions/mtn', { token: Number(token) });
  assert.equal(asInteger.status, 200);
});

test('customers: create, delete 204, delete again 404, unknown 404, non-integer 400', async () => {
  const created = await call('POST', '/v1/customers', { email: 'a@b.example', firstname: 'A', lastname: 'B' });
  assert.equal(created.status, 201);
  const { id } = created.json as { id: number };
  assert.equal((await call('DELETE', `/v1/customers/${id}`)).status, 204);
  assert.equal((await call('DELETE', `/v1/customers/${id}`)).status, 404);
  assert.equal((await call('DELETE', '/v1/customers/999999999')).status, 404);
  assert.equal((await call('DELETE', '/v1/customers/abc')).status, 400);
});

test('a transaction may reference an existing customer by id alone, and an unknown one is refused', async () => {
  const { id } = (await call('POST', '/v1/customers', { email: 'c@d.example' })).json as { id: number };
  assert.equal((await call('POST', '/v1/transactions', { ...transactionBody, customer: { id } })).status, 201);
  assert.equal(
    (await call('POST', '/v1/transactions', { ...transactionBody, customer: { id: 987654321 } })).status,
    404,
  );
  const numericPhone = {
    ...transactionBody,
    mode: 'mtn',
    customer: { email: 'e@f.example', phone_number: { number: 22997000001, country: 'BJ' } },
  };
  assert.equal((await call('POST', '/v1/transactions', numericPhone)).status, 201);
});

test('GET balance and currency return arrays holding the requested id', async () => {
  const balance = await call('GET', '/v1/balances/1');
  assert.equal(balance.status, 200);
  assert.deepEqual(
    (balance.json as Array<{ id: number }>).map((item) => item.id),
    [1],
  );
  const currency = await call('GET', '/v1/currencies/1');
  assert.equal((currency.json as Array<{ iso: string }>)[0]?.iso, 'XOF');
  assert.equal((await call('GET', '/v1/currencies/424242')).status, 404);
});

test('authentication: missing, malformed, wrong and other-environment keys get 401', async () => {
  assert.equal((await call('GET', '/v1/currencies/1', undefined, {})).status, 401);
  assert.equal((await call('GET', '/v1/currencies/1', undefined, { authorization: mock.sandboxKey })).status, 401);
  assert.equal((await call('GET', '/v1/currencies/1', undefined, { authorization: 'Bearer nope' })).status, 401);
  assert.equal(
    (await call('GET', '/v1/currencies/1', undefined, { authorization: `Bearer ${mock.liveKey}` })).status,
    401,
  );
  assert.equal((await call('GET', '/live/v1/currencies/1', undefined, sandbox)).status, 401);
  assert.equal(
    (await call('GET', '/live/v1/currencies/1', undefined, { authorization: `Bearer ${mock.liveKey}` })).status,
    200,
  );
  assert.equal((await call('DELETE', '/v1/customers/1', undefined, {})).status, 401);
});

test('the environments keep their own data', async () => {
  const created = await call('POST', '/v1/transactions', transactionBody);
  const { id } = created.json as { id: number };
  const live = { authorization: `Bearer ${mock.liveKey}` };
  assert.equal((await call('POST', `/live/v1/transactions/${id}/token`, undefined, live)).status, 404);
});

test('bad input gets a 4xx JSON error with a message, never a 5xx', async () => {
  const cases: Array<[string, unknown, number]> = [
    ['/v1/transactions', '{"amount": ', 400],
    ['/v1/transactions', [], 400],
    ['/v1/transactions', { ...transactionBody, amount: '2500' }, 400],
    ['/v1/transactions', { ...transactionBody, currency: { iso: 'ZZZ' } }, 422],
    ['/v1/transactions', { ...transactionBody, customer: 'x' }, 400],
    ['/v1/transactions/mtn', {}, 400],
    ['/v1/transactions/mtn', { token: true }, 400],
    ['/v1/transactions/mtn', { token: '1', phone_number: { number: 22997000001, country: 'BJ' } }, 400],
    ['/v1/transactions/mtn', { token: '000' }, 404],
    ['/v1/transactions/nope', { token: '1' }, 404],
  ];
  for (const [url, body, status] of cases) {
    const response = await call('POST', url, body);
    assert.equal(response.status, status, `${url} ${JSON.stringify(body)}`);
    const error = (response.json as { error: { message: string } }).error;
    assert.ok(error.message.length > 0 && !error.message.includes('\n'));
  }
  const huge = await call('POST', '/v1/transactions', JSON.stringify({ description: 'x'.repeat(defaultBodyLimit) }));
  assert.equal(huge.status, 413);
  const xml = await mock.app.inject({
    method: 'POST',
    url: '/v1/transactions',
    headers: { ...sandbox, 'content-type': 'application/xml' },
    payload: '<a/>',
  });
  assert.equal(xml.statusCode, 415);
  const odd = await call('GET', '/v1/%E0%A4%A');
  assert.ok(odd.status >= 400 && odd.status < 500, `odd path: ${odd.status}`);
});

test('every response carries the mock version header', async () => {
  const response = await call('GET', '/v1/currencies/1');
  assert.equal(response.headers[mockVersionHeader], mockVersion);
});
