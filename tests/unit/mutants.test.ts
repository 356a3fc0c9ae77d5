/**
 * The mutant catalogue (mock/mutants/): big enough, every mutant names a rule of the
 * catalogue, and every mutant and variant really changes what the mock answers. The last
 * point is checked by replaying one fixed sequence of requests (app.inject, no network)
 * against the reference and against each behaviour, and comparing the answers once values
 * that change from run to run (timestamps, random tokens and references) are masked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildMockApp } from '../../mock/app.ts';
import { behaviours, mutants, variants, installMutant, UnknownMutantError } from '../../mock/mutants/index.ts';
import { referenceExtras } from '../../mock/mutants/shape-mutants.ts';
import { documentedResponses } from '../../mock/mutants/documented-responses.ts';
import { isRuleId, rule } from '../../contract/rules.ts';
import { operationRules, operations } from '../../contract/operations.ts';
import {
  attribute,
  coveringTests,
  firstRuleTests,
  impactTests,
  layOut,
  mapGaps,
  ruleTests,
  wholeSample,
} from '../../lab/mutation/plan.ts';
import { grepOf, ruleOfMessage, type TestOutcome } from '../../lab/mutation/outcomes.ts';
import { writeSuiteCopies } from '../../lab/mutation/suite-copies.ts';

interface Answer {
  status: number;
  contentType: string | undefined;
  /** Connection and Retry-After, where a behaviour sets them. */
  connection: string | undefined;
  retryAfter: string | undefined;
  body: unknown;
}

type Inject = (
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  options?: { body?: unknown; raw?: string; contentType?: string; auth?: string | null },
) => Promise<Answer>;

const isoDateTime = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

/** Masks what differs between two runs of the same requests: times, random tokens, references, keys. */
function mask(value: unknown): unknown {
  if (typeof value === 'string') {
    if (isoDateTime.test(value) && !value.startsWith('2024-01-15')) return '<now>';
    return value
      .replace(/(trx|pi)_[0-9a-f]{12}/g, '$1_<random>')
      .replace(/\b[0-9a-f]{32}\b/g, '<hex>')
      .replace(/\d{10,}/g, '<digits>');
  }
  if (Array.isArray(value)) return value.map(mask);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mask(item)]));
  return value;
}

function injector(mutant: string | undefined): {
  inject: Inject;
  keys: { sandbox: string; live: string; second: string };
  close: () => Promise<void>;
} {
  const mock = buildMockApp(mutant === undefined ? {} : { mutant });
  const inject: Inject = async (method, url, options = {}) => {
    const headers: Record<string, string> = {};
    const auth = options.auth === undefined ? `Bearer ${mock.sandboxKey}` : options.auth;
    if (auth !== null) headers.authorization = auth;
    let payload: string | undefined;
    if (options.raw !== undefined) {
      payload = options.raw;
      headers['content-type'] = options.contentType ?? 'application/json';
    } else if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const response = await mock.app.inject({ method, url, headers, payload });
    let body: unknown = response.body;
    try {
      body = response.body === '' ? '' : JSON.parse(response.body);
    } catch {
      body = response.body;
    }
    const header = (name: string): string | undefined => {
      const value = response.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    return {
      status: response.statusCode,
      contentType: header('content-type'),
      connection: header('connection'),
      retryAfter: header('retry-after'),
      body,
    };
  };
  return {
    inject,
    keys: { sandbox: mock.sandboxKey, live: mock.liveKey, second: mock.secondSandboxKey },
    close: () => mock.app.close(),
  };
}

const transaction = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  description: 'probe',
  amount: 1500,
  currency: { iso: 'XOF' },
  callback_url: 'https://example.com/cb',
  custom_metadata: { probe: true },
  ...extra,
});

const idOf = (answer: Answer): number => (answer.body as { id?: number } | undefined)?.id ?? 999_999;

/** One fixed sequence of requests touching every operator of the catalogue; returns every answer. */
async function probe(mutant: string | undefined): Promise<Answer[]> {
  const { inject, keys, close } = injector(mutant);
  const answers: Answer[] = [];
  const call: Inject = async (...args) => {
    const answer = await inject(...args);
    answers.push(answer);
    return answer;
  };
  try {
    const customer = (email: string) => call('POST', '/v1/customers', { body: { email } });
    const first = idOf(await customer('a@example.com'));
    const second = idOf(await customer('b@example.com'));
    await call('DELETE', `/v1/customers/${first}`);
    await call('DELETE', `/v1/customers/${first}`);
    await call('DELETE', '/v1/customers/999999');
    await call('DELETE', '/v1/customers/not-a-number');

    const created = await call('POST', '/v1/transactions', {
      body: transaction({
        mode: 'mtn',
        customer: { email: 'c@example.com', phone_number: { number: 22997000001, country: 'BJ' } },
      }),
    });
    const transactionId = idOf(created);
    await call('POST', '/v1/transactions', { body: transaction({ customer: { id: second } }) });
    await call('POST', '/v1/transactions', { body: transaction({ amount: '1500' }) });
    await call('POST', '/v1/transactions', { raw: '{"amount": ' });
    await call('POST', '/v1/transactions', { raw: '<amount/>', contentType: 'application/xml' });

    const link = await call('POST', `/v1/transactions/${transactionId}/token`);
    const rawToken = (link.body as { token?: unknown } | undefined)?.token;
    const token = typeof rawToken === 'string' || typeof rawToken === 'number' ? String(rawToken) : '0';
    await call('POST', '/v1/transactions/999999/token');
    await call('POST', '/v1/transactions/not-a-number/token');

    const phone = { number: '+22997000001', country: 'BJ' };
    await call('POST', '/v1/transactions/mtn', { body: { token } });
    if (/^\d{1,15}$/.test(token)) await call('POST', '/v1/transactions/mtn', { body: { token: Number(token) } });
    await call('POST', '/v1/transactions/mtn', { body: { phone_number: phone } });
    await call('POST', '/v1/transactions/mtn', { body: { token, phone_number: phone } });
    await call('POST', '/v1/transactions/mtn', { body: { token, phone_number: phone.number } });
    await call('POST', '/v1/transactions/mtn', { body: { token: '0123456789999' } });
    await call('POST', '/v1/transactions/mtn', { raw: '{"token": ' });
    await call('POST', '/v1/transactions/no-such-mode', { body: { token } });

    for (const resource of ['balances', 'currencies']) {
      for (const id of ['1', '999999', 'not-a-number']) await call('GET', `/v1/${resource}/${id}`);
    }

    // Authentication, per operation: no header, a wrong key, a malformed header, the other
    // environment's key, a transaction token; and the valid key last (it changes state).
    const third = idOf(await customer('d@example.com'));
    const requests: Array<[Parameters<Inject>[0], string, unknown]> = [
      ['DELETE', `/v1/customers/${third}`, undefined],
      ['POST', '/v1/transactions', transaction()],
      ['POST', `/v1/transactions/${transactionId}/token`, undefined],
      ['POST', '/v1/transactions/mtn', { token }],
      ['GET', '/v1/balances/1', undefined],
      ['GET', '/v1/currencies/1', undefined],
    ];
    for (const [method, url, body] of requests) {
      for (const auth of [
        null,
        'Bearer sk_wrong_0000',
        `Basic ${Buffer.from('x:').toString('base64')}`,
        `Bearer ${keys.live}`,
        `Bearer ${token}`,
      ]) {
        await call(method, url, { body, auth });
      }
    }
    for (const [method, url, body] of requests) await call(method, url, { body });
    // Unknown resources with a wrong key: a server may look up first (404) or check the key first (401).
    await call('DELETE', '/v1/customers/999999', { auth: null });
    await call('POST', '/v1/transactions/999999/token', { auth: 'Bearer sk_wrong_0000' });
    // Valid JSON declared as text/plain.
    await call('POST', '/v1/transactions', { raw: JSON.stringify(transaction()), contentType: 'text/plain' });

    // The valid key in other forms; null for fields a server may read as "not given".
    for (const auth of [keys.sandbox, `Token ${keys.sandbox}`]) await call('GET', '/v1/currencies/1', { auth });
    await call('POST', '/v1/transactions', { body: transaction({ currency: null, custom_metadata: null }) });
    await call('POST', '/v1/transactions', { body: transaction({ custom_metadata: [] }) });
    await call('POST', '/v1/transactions/mtn', { body: { token, phone_number: null } });

    await security(call, keys, (value) =>
      answers.push({ status: 0, contentType: undefined, connection: undefined, retryAfter: undefined, body: value }),
    );
    await edges(call);
    await bursts(call, (value) =>
      answers.push({ status: 0, contentType: undefined, connection: undefined, retryAfter: undefined, body: value }),
    );
    await manyRequests(call);
  } finally {
    await close();
  }
  return answers.map((answer) => ({ ...answer, body: mask(answer.body) }));
}

/**
 * Requests of who may do what and of what the server owns (mock/mutants/security-mutants.ts): another account's key
 * on this account's resources, keys that are almost right, ids followed by other characters, server-owned
 * fields in a creation body, a send through another mode; and, since times are masked, what the answers' times
 * say relative to the clock and to each other (`note`).
 */
async function security(
  call: Inject,
  keys: { sandbox: string; second: string },
  note: (value: unknown) => void,
): Promise<void> {
  const other = `Bearer ${keys.second}`;
  const customer = idOf(await call('POST', '/v1/customers', { body: { email: 'iso@example.com' } }));
  await call('DELETE', `/v1/customers/${customer}abc`);
  await call('DELETE', `/v1/customers/${customer}.5`);
  await call('DELETE', `/v1/customers/${customer}`, { auth: other });
  await call('DELETE', `/v1/customers/${customer}`);
  const created = await call('POST', '/v1/transactions', { body: transaction() });
  const id = idOf(created);
  await call('POST', `/v1/transactions/${id}x1/token`);
  await call('POST', `/v1/transactions/${id}/token`, { auth: other });
  const rawToken = ((await call('POST', `/v1/transactions/${id}/token`)).body as { token?: unknown }).token;
  const token = String(rawToken);
  await call('POST', '/v1/transactions/mtn', { body: { token }, auth: other });
  const sent = await call('POST', '/v1/transactions/moov', { body: { token } });
  await call('GET', '/v1/balances/11');
  await call('GET', '/v1/balances/1', { auth: other });
  for (const key of [
    `${keys.sandbox}0`,
    keys.sandbox.slice(0, -1),
    keys.sandbox.toUpperCase(),
    `${keys.sandbox.slice(0, -1)}9`,
  ])
    await call('GET', '/v1/currencies/1', { auth: `Bearer ${key}` });
  const assigned = { id, created_at: '2001-02-03T04:05:06Z', status: 'approved', reference: 'client-reference' };
  const massAssigned = await call('POST', '/v1/transactions', { body: transaction(assigned) });
  await call('POST', `/v1/transactions/${id}/token`);
  // Times, relative: minutes from now, and whether each record's times are in order.
  const minutes = (value: unknown): number | null =>
    typeof value === 'string' ? Math.round((Date.parse(value) - Date.now()) / 60_000) || 0 : null;
  for (const answer of [created, sent, massAssigned]) {
    const records = (Array.isArray(answer.body) ? answer.body : [answer.body]) as Array<Record<string, unknown>>;
    note(
      records.map((record) => ({
        created: minutes(record?.created_at),
        updated: minutes(record?.updated_at),
        inOrder: Date.parse(String(record?.updated_at)) >= Date.parse(String(record?.created_at)),
        events: ['approved_at', 'canceled_at', 'deleted_at'].map((name) => String(record?.[name]).slice(0, 4)),
      })),
    );
  }
  const balances = (await call('GET', '/v1/balances/1')).body;
  const balance = (Array.isArray(balances) ? balances[0] : undefined) as Record<string, unknown> | undefined;
  note({ balanceInOrder: Date.parse(String(balance?.updated_at)) >= Date.parse(String(balance?.created_at)) });
}

/** One request per edge the boundary mutants crash on or corrupt (mock/mutants/boundary-mutants.ts). */
async function edges(call: Inject): Promise<void> {
  const descriptions = [
    'd'.repeat(300),
    '',
    '   ',
    ' padded ',
    'emoji 💥',
    'café 漢字 שלום',
    'nul \u0000 zero\u200bwidth',
    'quote " back \\ slash',
  ];
  for (const description of descriptions)
    await call('POST', '/v1/transactions', { body: transaction({ description }) });
  for (const amount of [0, -5, 2 ** 31, 2 ** 53 - 1])
    await call('POST', '/v1/transactions', { body: transaction({ amount }) });
  // A large odd amount, linked and sent: the payment path's own handling of large amounts.
  const large = idOf(await call('POST', '/v1/transactions', { body: transaction({ amount: 2 ** 31 - 1 }) }));
  const largeToken = String(
    ((await call('POST', `/v1/transactions/${large}/token`)).body as { token?: unknown } | undefined)?.token ?? '0',
  );
  await call('POST', '/v1/transactions/mtn', { body: { token: largeToken } });
  const wide = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${i}`, i]));
  for (const custom_metadata of [{ a: { b: [1, { c: 2 }] } }, wide, { 'clé 鍵': 1 }])
    await call('POST', '/v1/transactions', { body: transaction({ custom_metadata }) });
  for (const callback_url of [
    'https://example.com/cb?a=%20b&c#frag',
    'https://example.com:8443/cb',
    'https://bücher.example/cb',
    'https://example.com/c%20b',
  ]) {
    await call('POST', '/v1/transactions', { body: transaction({ callback_url }) });
  }
  const plusCustomer = await call('POST', '/v1/transactions', {
    body: transaction({ customer: { email: 'a+b%c@example.com', firstname: 'Zoë', lastname: '王' } }),
  });
  // Deleting a customer whose e-mail holds a "+", which a transaction names.
  await call('DELETE', `/v1/customers/${String((plusCustomer.body as { customer_id?: unknown }).customer_id)}`);
  // Amounts read lossily or spelled otherwise: a fraction, values that are no number, and an integer written with one.
  for (const amount of [1500.5, true, [1500], null])
    await call('POST', '/v1/transactions', { body: transaction({ amount }) });
  await call('POST', '/v1/transactions', {
    raw: JSON.stringify(transaction()).replace('"amount":1500', '"amount":1500.0'),
  });
  await call('POST', '/v1/transactions', { body: transaction({ customer: { id: 987_654_321 } }) });
  await call('POST', '/v1/transactions', {
    body: transaction({
      customer: { email: 'p@example.com', phone_number: { number: '+22997000001', country: 'BJ' } },
    }),
  });

  // A customer deleted after a transaction references it.
  const customer = idOf(await call('POST', '/v1/customers', { body: { email: 'gone@example.com' } }));
  const orphan = idOf(await call('POST', '/v1/transactions', { body: transaction({ customer: { id: customer } }) }));
  await call('DELETE', `/v1/customers/${customer}`);
  const link = await call('POST', `/v1/transactions/${orphan}/token`);
  const token = String((link.body as { token?: unknown } | undefined)?.token ?? '0');
  for (const phone_number of [
    { number: '+22997000001', country: 'bj' },
    { number: '229 97 00 00 01', country: 'BJ' },
  ]) {
    await call('POST', '/v1/transactions/mtn', { body: { token, phone_number } });
  }
  // An odd amount sent with a phone number fails (the reference mock's choice): canceled_at is set.
  const odd = idOf(await call('POST', '/v1/transactions', { body: transaction({ amount: 1501 }) }));
  const oddToken = String(
    ((await call('POST', `/v1/transactions/${odd}/token`)).body as { token?: unknown } | undefined)?.token ?? '0',
  );
  await call('POST', '/v1/transactions/mtn', {
    body: { token: oddToken, phone_number: { number: '+22997000001', country: 'BJ' } },
  });
  for (const id of ['2147483648', '0', '007', '-1']) await call('DELETE', `/v1/customers/${id}`);
  await call('POST', '/v1/transactions/12345678901234567/token');
  await call('GET', '/v1/balances/12345678901234567');
  await call('GET', '/v1/currencies/12345678901234567');
  await call('GET', '/v1/currencies/1?expand=none');
  await call('GET', '/v1/currencies/1/');
  await call('POST', '/v1/transactions', {
    raw: JSON.stringify(transaction()),
    contentType: 'application/json; charset=utf-8',
  });
}

/** Requests sent together: creations, links and reads in flight at the same time. */
async function bursts(call: Inject, note: (value: unknown) => void): Promise<void> {
  const created = await Promise.all(
    Array.from({ length: 6 }, () => call('POST', '/v1/transactions', { body: transaction() })),
  );
  const links = await Promise.all(created.map((answer) => call('POST', `/v1/transactions/${idOf(answer)}/token`)));
  // Tokens are masked in the answers: whether they are all different is noted on its own.
  note({
    distinctTokens: new Set(links.map((link) => JSON.stringify((link.body as { token?: unknown } | undefined)?.token)))
      .size,
  });
  await Promise.all(Array.from({ length: 10 }, () => call('GET', '/v1/currencies/1')));
}

/** Long sequences: the first of many transactions and tokens must still be known. */
async function manyRequests(call: Inject): Promise<void> {
  const ids: number[] = [];
  for (let i = 0; i < 45; i++) ids.push(idOf(await call('POST', '/v1/transactions', { body: transaction() })));
  const tokens: string[] = [];
  for (const id of ids)
    tokens.push(
      String(
        ((await call('POST', `/v1/transactions/${id}/token`)).body as { token?: unknown } | undefined)?.token ?? '0',
      ),
    );
  await call('POST', '/v1/transactions/mtn', { body: { token: tokens[0] } });
}

test('the catalogue holds at least 60 mutants that are not equivalent', () => {
  const counted = mutants().filter((mutant) => !mutant.equivalent);
  assert.ok(counted.length >= 60, `only ${counted.length} non-equivalent mutants`);
});

test('every mutant names a rule of specs/rules.json that concerns one of its operations', () => {
  for (const mutant of mutants()) {
    assert.ok(isRuleId(mutant.rule), `${mutant.name}: rule ${mutant.rule} is not in specs/rules.json`);
    // An equivalent mutant may sit outside its rule's operations: that can be why it is unobservable.
    if (mutant.equivalent) continue;
    const ruleOperations = rule(mutant.rule).operations;
    const touched = mutant.operations === 'all' ? ruleOperations : mutant.operations;
    assert.ok(
      touched.some((operation) => ruleOperations.includes(operation)),
      `${mutant.name}: rule ${mutant.rule} concerns ${ruleOperations.join(', ')}, the mutant ${touched.join(', ')}`,
    );
  }
});

test('equivalent mutants say why, variants name the rules their choice tests, operations exist', () => {
  const known = new Set(operations.map((operation) => operation.id));
  for (const behaviour of behaviours()) {
    if (behaviour.kind === 'mutant' && behaviour.equivalent !== undefined) {
      assert.ok(behaviour.equivalent.length > 20, `${behaviour.name}: give the reason it is equivalent`);
    }
    if (behaviour.kind === 'variant') {
      assert.ok(behaviour.rules.length > 0, `${behaviour.name}: name the rules whose verdict the variant tests`);
      for (const id of behaviour.rules) assert.ok(isRuleId(id), `${behaviour.name}: rule ${id} is not in rules.json`);
      assert.equal(new Set(behaviour.rules).size, behaviour.rules.length, `${behaviour.name}: a rule named twice`);
      assert.ok(!('rule' in behaviour), `${behaviour.name}: a variant breaks no rule`);
    }
    if (behaviour.operations !== 'all')
      for (const operation of behaviour.operations) assert.ok(known.has(operation), `${behaviour.name}: ${operation}`);
  }
  assert.ok(variants().length >= 10);
});

test('the families generated per operation take their rule from the role it fills in the operations table', () => {
  const byName = new Map(mutants().map((mutant) => [mutant.name, mutant]));
  const ruleOf = (name: string): string | undefined => byName.get(name)?.rule;
  const reshapes = ['object-to-array', 'object-in-envelope', 'array-to-object', 'array-in-envelope'];
  for (const response of documentedResponses().filter((r) => !r.undocumented)) {
    const op = response.operation;
    const roles = operationRules(op);
    if (response.status === '2XX') assert.equal(ruleOf(`${op}.status.success-to-400`), roles.success, op);
    const refusals = ['missing-key-accepted', 'wrong-key-accepted', 'malformed-header-accepted', '403-instead-of-401'];
    for (const operator of refusals) assert.equal(ruleOf(`${op}.auth.${operator}`), roles.unauthorised, operator);
    assert.equal(ruleOf(`${op}.invalid-input-5xx`), roles.invalidInput, op);
    for (const name of reshapes.map((shape) => `${op}.body.${shape}`)) {
      if (byName.has(name)) assert.equal(ruleOf(name), roles.shape, name);
    }
  }
  assert.equal(ruleOf('deleteCustomer.status.204-to-200-with-body'), operationRules('deleteCustomer').success);
});

test('every documented response field has a drop mutant and at least one type-change mutant', () => {
  const names = new Set(mutants().map((mutant) => mutant.name));
  for (const response of documentedResponses().filter((r) => !r.undocumented)) {
    for (const field of response.fields) {
      assert.ok(names.has(`${response.operation}.${field.name}.drop`), `${response.operation}.${field.name}.drop`);
      assert.ok(
        [...names].some((name) => name.startsWith(`${response.operation}.${field.name}.`) && !name.endsWith('.drop')),
        `${response.operation}.${field.name} type change`,
      );
    }
  }
});

test('an unknown mutant name is refused when the mock is built', () => {
  assert.throws(() => buildMockApp({ mutant: 'no-such-mutant' }), UnknownMutantError);
  assert.equal(typeof installMutant, 'function');
});

test('referenceExtras lists exactly the undocumented fields the reference mock sends', async () => {
  const { inject, close } = injector(undefined);
  try {
    const created = await inject('POST', '/v1/transactions', { body: transaction() });
    const id = idOf(created);
    const link = await inject('POST', `/v1/transactions/${id}/token`);
    const token = (link.body as { token: string }).token;
    const answers: Record<string, unknown> = {
      createTransaction: created.body,
      getPaymentLink: link.body,
      sendTransaction: (await inject('POST', '/v1/transactions/mtn', { body: { token } })).body,
      getBalance: (await inject('GET', '/v1/balances/1')).body,
      getCurrency: (await inject('GET', '/v1/currencies/1')).body,
    };
    for (const response of documentedResponses().filter((r) => !r.undocumented && r.fields.length > 0)) {
      const answer = answers[response.operation];
      const object = (Array.isArray(answer) ? answer[0] : answer) as Record<string, unknown>;
      const documented = new Set(response.fields.map((field) => field.name));
      const extras = Object.keys(object)
        .filter((key) => !documented.has(key))
        .sort();
      assert.deepEqual(extras, [...(referenceExtras[response.operation] ?? [])].sort(), response.operation);
    }
  } finally {
    await close();
  }
});

test('the probe sequence is deterministic against the reference (masking is sufficient)', async () => {
  assert.deepEqual(await probe(undefined), await probe(undefined));
});

/**
 * Behaviours only a real keep-alive connection shows (app.inject gives every request its own socket): the
 * mutation run kills them over real connections (tests/conformance/authentication.spec.ts, AUTH-PER-REQUEST).
 */
const observableOnlyOverConnections = new Set(['all.auth.per-connection']);

test('every non-equivalent mutant and every variant changes what the mock answers', async () => {
  const reference = await probe(undefined);
  const unchanged: string[] = [];
  for (const behaviour of behaviours()) {
    if (behaviour.kind === 'mutant' && behaviour.equivalent) continue;
    if (observableOnlyOverConnections.has(behaviour.name)) continue;
    const answers = await probe(behaviour.name);
    try {
      assert.deepEqual(answers, reference);
      unchanged.push(behaviour.name);
    } catch {
      // It differs: the behaviour is active.
    }
  }
  assert.deepEqual(unchanged, [], `behaviours that change nothing: ${unchanged.join(', ')}`);
});

// ---- lab/mutation: how tests are assigned to mutants and how failures are read ----------------

const outcome = (id: string, operations: string[], tags: string[]): TestOutcome => ({
  project: 'reference',
  id,
  titlePath: id.split(' › '),
  file: id.split(' › ')[0]!,
  title: id.split(' › ').slice(1).join(' › '),
  grep: grepOf(id.split(' › ')),
  tags,
  status: 'passed',
  operations,
  durationMs: 1,
});

test('the run lays each test out once per behaviour over copies of the suite, and reads each back', () => {
  const a = outcome('a.spec.ts › one', ['getBalance'], ['BALANCE-ARRAY']);
  const b = outcome('b/c.spec.ts › two › deep', ['getBalance'], ['BALANCE-2XX']);
  const laid = layOut(
    [
      { behaviour: 'm1', tests: [a] },
      { behaviour: 'm2', tests: [a, b] },
      { behaviour: 'reference', tests: [b] },
    ],
    'default',
  );
  assert.equal(laid.copies, 2);
  assert.deepEqual(laid.project.behaviourByTest, {
    'c1/a.spec.ts › one': 'm1',
    'c2/a.spec.ts › one': 'm2',
    'c1/b/c.spec.ts › two › deep': 'm2',
    'c2/b/c.spec.ts › two › deep': 'reference',
  });
  assert.ok(laid.needs(2, 'b/c.spec.ts') && !laid.needs(3, 'a.spec.ts'));
  assert.ok(
    laid.project.grep!.some((source) => new RegExp(source).test('default c2/b/c.spec.ts two deep @BALANCE-2XX')),
  );
  const copyOf = (test: TestOutcome, copy: number): TestOutcome => {
    const titlePath = [`c${copy}/${test.file}`, ...test.titlePath.slice(1)];
    return { ...test, project: 'default', id: titlePath.join(' › '), titlePath, file: titlePath[0]! };
  };
  const relabelled = attribute(
    [{ ...copyOf(a, 2), status: 'failed' }, copyOf(b, 2), { ...b, project: 'elsewhere' }],
    [laid.project],
    ' [covering tests]',
  );
  assert.deepEqual(
    relabelled.map((o) => [o.project, o.id, o.file]),
    [
      ['m2 [covering tests]', a.id, 'a.spec.ts'],
      ['reference', b.id, 'b/c.spec.ts'],
      ['elsewhere', b.id, 'b/c.spec.ts'],
    ],
  );
});

test('a copy of a spec file imports what the original imports', () => {
  const root = mkdtempSync(join(tmpdir(), 'pcs-copies-'));
  try {
    const suite = join(root, 'tests', 'suite');
    mkdirSync(join(suite, 'properties'), { recursive: true });
    writeFileSync(
      join(suite, 'properties', 'p.spec.ts'),
      "import { test } from '../../../support/fixtures.ts';\nimport fc from 'fast-check';\n" +
        "import {\n  x,\n} from './helper.ts';\n",
    );
    writeFileSync(join(suite, 'q.spec.ts'), "import '../../support/x.ts';\n");
    const copies = writeSuiteCopies(suite, join(root, '.work'), (copy) => copy === 2, 2);
    const copied = readFileSync(join(copies.testDir, 'c2', 'properties', 'p.spec.ts'), 'utf8');
    const from = join(copies.testDir, 'c2', 'properties');
    assert.match(copied, /from 'fast-check'/);
    for (const [spec, target] of [
      [/from '([^']*fixtures\.ts)'/, join(root, 'support', 'fixtures.ts')],
      [/from '([^']*helper\.ts)'/, join(suite, 'properties', 'helper.ts')],
    ] as const)
      assert.equal(join(from, spec.exec(copied)![1]!), target);
    assert.match(
      readFileSync(join(copies.testDir, 'c2', 'q.spec.ts'), 'utf8'),
      /^import '\.\.\/\.\.\/\.\.\/support\/x\.ts';/,
    );
    assert.ok(!existsSync(join(copies.testDir, 'c1')), 'only the copies asked for are written');
    copies.remove();
    assert.ok(!existsSync(copies.testDir));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("copies left by a run killed outright are removed; a live run's are left alone", () => {
  const root = mkdtempSync(join(tmpdir(), 'pcs-copies-'));
  try {
    const suite = join(root, 'tests', 'suite');
    mkdirSync(suite, { recursive: true });
    writeFileSync(join(suite, 'q.spec.ts'), '');
    const parent = join(root, '.work');
    // A process id no process has (above Linux's largest), and the parent of this test's process (alive).
    const orphan = join(parent, 'mutation-copies-4194305');
    const live = join(parent, `mutation-copies-${process.ppid}`);
    for (const dir of [orphan, live]) mkdirSync(join(dir, 'c1'), { recursive: true });
    const copies = writeSuiteCopies(suite, parent, () => true, 1);
    assert.ok(!existsSync(orphan), 'the copies of a process that is gone are removed');
    assert.ok(existsSync(live), "a running process's copies stay");
    copies.remove();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("each mutant's first test is one of its rule's, the least shared, so that batches stay few", () => {
  const tests = ['x', 'y', 'z'].map((name) => ({
    ...outcome(`r.spec.ts › ${name}`, ['getBalance'], []),
    durationMs: 5,
  }));
  const [x, y, z] = tests as [TestOutcome, TestOutcome, TestOutcome];
  const picks = firstRuleTests(
    [
      { behaviour: 'many', tests: [x, y, z] },
      { behaviour: 'only-x', tests: [x] },
      { behaviour: 'x-or-y', tests: [x, y] },
    ],
    // A variant's map already holds z.
    [{ behaviour: 'variant.v', tests: [z] }],
  );
  assert.deepEqual(
    picks.map((pick) => [pick.behaviour, pick.tests.map((test) => test.id)]),
    [
      ['many', [x.id]],
      ['only-x', [x.id]],
      ['x-or-y', [y.id]],
    ],
    'the fewest choices pick first: only-x takes x, x-or-y then y, and many the least used (ties: the first)',
  );
  // Every test used at most twice: two copies of the suite, where each mutant with all its rule's tests made three.
  assert.equal(layOut([{ behaviour: 'variant.v', tests: [z] }, ...picks], 'default').copies, 2);
});

test("a variant's impact map: the tests of the rules its choice tests, among those calling its operations", () => {
  const tests = [
    outcome('b.spec.ts › array', ['getBalance'], ['documented', 'BALANCE-ARRAY']),
    outcome('b.spec.ts › contains', ['getBalance'], ['inferred', 'BALANCE-CONTAINS-ID']),
    outcome('c.spec.ts › currency', ['getCurrency'], ['documented', 'BALANCE-ARRAY']),
  ];
  const variant = { operations: ['getBalance'] as const, rules: ['BALANCE-ARRAY'] };
  assert.deepEqual(
    impactTests({ ...variant, operations: [...variant.operations] }, tests).map((t) => t.id),
    ['b.spec.ts › array'],
  );
  const failed = [tests[1]!, tests[0]!];
  assert.deepEqual(
    mapGaps({ ...variant, operations: [...variant.operations] }, failed, tests).map((t) => t.id),
    ['b.spec.ts › contains'],
    'a failure outside the map is a gap of the map',
  );
});

test('the sample of variants checked against every covering test is drawn by its seed', () => {
  const names = Array.from({ length: 66 }, (_, i) => `variant.${i}`);
  assert.deepEqual(wholeSample(names, 7, 42), wholeSample(names, 7, 42));
  assert.notDeepEqual(wholeSample(names, 7, 42), wholeSample(names, 7, 43));
  assert.equal(new Set(wholeSample(names, 7, 42)).size, 7);
  assert.equal(wholeSample(names, 100, 1).length, 66);
});

test('a mutant runs the tests of its rule among those calling its operations', () => {
  const mutant = mutants().find((m) => m.name === 'getBalance.id.drop')!;
  const tests = [
    outcome('b.spec.ts › array', ['getBalance'], ['documented', 'BALANCE-ARRAY']),
    outcome('b.spec.ts › contains', ['getBalance'], ['inferred', 'BALANCE-CONTAINS-ID']),
    outcome('c.spec.ts › currency', ['getCurrency'], ['documented', 'CURRENCY-ARRAY']),
  ];
  assert.deepEqual(
    ruleTests(mutant, tests).map((t) => t.id),
    ['b.spec.ts › array'],
  );
  assert.deepEqual(
    coveringTests(mutant, tests).map((t) => t.id),
    ['b.spec.ts › array', 'b.spec.ts › contains'],
  );
});

test('failure messages name the rule, also behind a precondition and an error class', () => {
  assert.equal(
    ruleOfMessage('TXN-CREATE-ECHO (documented) violated by createTransaction: POST /v1/transactions → 201'),
    'TXN-CREATE-ECHO',
  );
  assert.equal(
    ruleOfMessage('PreconditionError: precondition failed: LINK-2XX (inferred) violated by getPaymentLink: POST'),
    'LINK-2XX',
  );
  assert.equal(ruleOfMessage('TypeError: cannot read properties of undefined'), undefined);
});
