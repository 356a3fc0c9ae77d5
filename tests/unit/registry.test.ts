/** The check registry: which rules judge an answer, under what expectation, and which a test of one kind asserts. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseJsonBody, type Exchange } from '../../http/exchange.ts';
import {
  assertedJudgements,
  checksOf,
  historyChecksOf,
  judgeAnswer,
  judgeHistory,
  registeredRules,
  wasJudged,
  type Judgement,
} from '../../judgment/registry.ts';
import {
  accepted,
  authorised,
  classified,
  either,
  exactly,
  notAccepted,
  notServerError,
  noting,
  refused,
  type Expectation,
} from '../../judgment/expectations.ts';
import { operations, type OperationId } from '../../contract/operations.ts';
import { isRuleId, rule } from '../../contract/rules.ts';
import { classifyField } from '../../judgment/input-class.ts';
import { bodyAsRead } from '../../judgment/accepted-input.ts';
import { defaultAnswerSettings } from '../../judgment/answer-settings.ts';
import { bySuite, History } from '../../judgment/history.ts';
import { registeredWithHistory } from '../../judgment/rules/define.ts';

/** The default reading: no --strict, the default clock tolerance. */
const judge = (answer: Exchange, expectation: Expectation): Judgement[] =>
  judgeAnswer(answer, expectation, defaultAnswerSettings);

const paths: Partial<Record<OperationId, string>> = {
  createTransaction: '/transactions',
  getPaymentLink: '/transactions/7/token',
  sendTransaction: '/transactions/mtn',
  getBalance: '/balances/3',
  deleteCustomer: '/customers/9',
};

function exchange(operation: OperationId, status: number, body: unknown, contentType = 'application/json'): Exchange {
  const text = body === undefined ? '' : JSON.stringify(body);
  return {
    operation,
    method: 'POST',
    path: paths[operation] ?? '/',
    url: `http://127.0.0.1:4010/v1${paths[operation] ?? '/'}`,
    requestHeaders: {},
    requestBody: undefined,
    status,
    responseHeaders: body === undefined ? {} : { 'content-type': contentType },
    bodyText: text,
    ...parseJsonBody(text),
    durationMs: 1,
  };
}

// Now: what a creation answers carries the present time (TIME-NOW).
const stamp = new Date().toISOString();
const transaction = (fields: Record<string, unknown> = {}) => ({
  id: 7,
  reference: 'r',
  amount: 1500,
  description: 'd',
  callback_url: 'https://a.example/cb',
  status: 'pending',
  created_at: stamp,
  updated_at: stamp,
  ...fields,
});
const sent = { amount: 1500, description: 'd', callback_url: 'https://a.example/cb', currency: { iso: 'XOF' } };

const failing = (judgements: Judgement[]): string[] =>
  judgements.filter((j) => j.violations.length > 0).map((j) => j.rule);

const registeredRulesTitle =
  'every documented operation has its registered rules, ' +
  'each an id of the catalogue; the helper operations have none';
test(registeredRulesTitle, () => {
  const registered = registeredRules();
  for (const entry of operations) {
    if (entry.rules === undefined) {
      assert.deepEqual(checksOf(entry.id), [], entry.id);
      continue;
    }
    const rules = registered.get(entry.id) ?? [];
    assert.ok(rules.includes(entry.rules.shape), `${entry.id} is judged by its shape rule`);
    if (entry.rules.contentType)
      assert.ok(rules.includes(entry.rules.contentType), `${entry.id} is judged by its content type rule`);
    for (const id of rules) assert.ok(isRuleId(id), `${entry.id}: ${id} is in specs/rules.json`);
  }
  assert.deepEqual(registered.get('createTransaction'), [
    'TXN-CREATE-SCHEMA',
    'JSON-CONTENT-TYPE',
    'TXN-CREATE-ECHO',
    'TXN-CREATE-CUSTOMER-KEPT',
    'TIME-NOW',
    'TIME-ORDER',
  ]);
});

test('a creation that referenced a customer by id names that one wherever its answer names a customer', () => {
  const judged = (fields: Record<string, unknown>) =>
    failing(
      judge(
        exchange('createTransaction', 201, transaction(fields)),
        accepted('TXN-CREATE-2XX', { read: sent, customerId: 4217 }),
      ),
    );
  assert.deepEqual(judged({}), [], 'an answer that names no customer conforms');
  assert.deepEqual(judged({ customer_id: 4217 }), []);
  assert.deepEqual(judged({ customer_id: '4217' }), [], 'the id written as a text');
  assert.deepEqual(judged({ customer_id: null }), [], 'null names no customer');
  assert.deepEqual(judged({ customer: { id: 4217, email: 'SOMEONE@EXAMPLE.COM' } }), [], 'other values not compared');
  assert.deepEqual(judged({ customer: 4217 }), [], 'the customer as its id');
  assert.deepEqual(judged({ customer: 'Ada Lovelace' }), [], 'a name is no id');
  assert.deepEqual(judged({ customer_id: 6001 }), ['TXN-CREATE-CUSTOMER-KEPT']);
  assert.deepEqual(judged({ customer: { id: 6001 } }), ['TXN-CREATE-CUSTOMER-KEPT']);
  assert.deepEqual(judged({ customer_id: 4217, customer: { id: 6001 } }), ['TXN-CREATE-CUSTOMER-KEPT']);
  // Without the id the request referenced, nothing is compared (a customer the test did not reference).
  const unreferenced = judge(
    exchange('createTransaction', 201, transaction({ customer_id: 6001 })),
    accepted('TXN-CREATE-2XX', { read: sent }),
  );
  assert.ok(!unreferenced.some((judgement) => judgement.rule === 'TXN-CREATE-CUSTOMER-KEPT'));
});

const acceptedAnswerTitle =
  'an accepted answer is judged by the expectation, ' +
  'then by every registered rule of its operation, each under its own id';
test(acceptedAnswerTitle, () => {
  const good = judge(exchange('createTransaction', 201, transaction()), accepted('TXN-CREATE-2XX', { read: sent }));
  assert.deepEqual(
    good.map((j) => j.rule),
    ['TXN-CREATE-2XX', 'TXN-CREATE-SCHEMA', 'JSON-CONTENT-TYPE', 'TXN-CREATE-ECHO', 'TIME-NOW', 'TIME-ORDER'],
  );
  assert.deepEqual(failing(good), []);
  const echoBroken = judge(
    exchange('createTransaction', 201, transaction({ amount: 1501 })),
    accepted('TXN-CREATE-2XX', { read: sent }),
  );
  assert.deepEqual(failing(echoBroken), ['TXN-CREATE-ECHO']);
  const text = judge(
    exchange('createTransaction', 201, transaction(), 'text/plain'),
    accepted('TXN-CREATE-2XX', { read: sent }),
  );
  assert.deepEqual(failing(text), ['JSON-CONTENT-TYPE']);
  // A refused request owes nothing but its status: the registered rules judge accepted answers only.
  const refusedAnswer = judge(
    exchange('createTransaction', 400, { error: 'x' }),
    accepted('TXN-CREATE-2XX', { read: sent }),
  );
  assert.deepEqual(
    refusedAnswer.map((j) => j.rule),
    ['TXN-CREATE-2XX'],
  );
  assert.deepEqual(failing(refusedAnswer), ['TXN-CREATE-2XX']);
});

const missingContextTitle =
  'a check whose context the test did not give is not applied ' +
  '(the echo without the body, the id without the id asked)';
test(missingContextTitle, () => {
  const noContext = judge(exchange('createTransaction', 201, transaction({ amount: 1 })), accepted('TXN-CREATE-2XX'));
  assert.deepEqual(
    noContext.map((j) => j.rule),
    ['TXN-CREATE-2XX', 'TXN-CREATE-SCHEMA', 'JSON-CONTENT-TYPE', 'TIME-NOW', 'TIME-ORDER'],
  );
  const balance = [{ id: 4, amount: 0, mode: 'mtn', account_id: 1, created_at: stamp, updated_at: stamp }];
  assert.deepEqual(failing(judge(exchange('getBalance', 200, balance), accepted('BALANCE-2XX'))), []);
  assert.deepEqual(failing(judge(exchange('getBalance', 200, balance), accepted('BALANCE-2XX', { id: 3 }))), [
    'BALANCE-CONTAINS-ID',
  ]);
});

test('a field read as "not given" may come back null or absent; a field given must come back as read', () => {
  const read = { amount: 1500, callback_url: 'https://a.example/cb' };
  const judgeFields = (fields: Record<string, unknown>, as = read) =>
    failing(judge(exchange('createTransaction', 201, transaction(fields)), accepted('TXN-CREATE-2XX', { read: as })));
  assert.deepEqual(judgeFields({ description: null }), []);
  assert.deepEqual(judgeFields({ description: undefined }), []);
  assert.deepEqual(judgeFields({ description: '' }), []);
  assert.deepEqual(judgeFields({ description: 5 }), ['TXN-CREATE-SCHEMA']);
  assert.deepEqual(judgeFields({ callback_url: null }), ['TXN-CREATE-SCHEMA', 'TXN-CREATE-ECHO']);
  assert.deepEqual(judgeFields({ description: null }, { ...read, description: 'd' } as typeof read), [
    'TXN-CREATE-SCHEMA',
    'TXN-CREATE-ECHO',
  ]);
});

test('the statuses each expectation allows', () => {
  const at = (status: number) => exchange('deleteCustomer', status, undefined);
  const verdicts = (make: () => ReturnType<typeof refused>) =>
    [200, 204, 302, 400, 401, 404, 500].filter((s) => failing(judge(at(s), make())).length === 0);
  assert.deepEqual(
    verdicts(() => accepted('CUSTOMER-DELETE-204')),
    [204],
  );
  assert.deepEqual(
    verdicts(() => exactly('CUSTOMER-DELETE-404', 404)),
    [404],
  );
  assert.deepEqual(
    verdicts(() => refused('CUSTOMER-ID-INTEGER')),
    [400, 401, 404],
  );
  assert.deepEqual(
    verdicts(() => notAccepted('CUSTOMER-ID-INTEGER')),
    [302, 400, 401, 404, 500],
  );
  assert.deepEqual(
    verdicts(() => notServerError('CUSTOMER-ID-INTEGER')),
    [200, 204, 302, 400, 401, 404],
  );
  assert.deepEqual(
    verdicts(() => either('CUSTOMER-ID-INTEGER')),
    [200, 204, 302, 400, 401, 404],
  );
  assert.deepEqual(
    verdicts(() => authorised('AUTH-BEARER-ACCEPTED')),
    [200, 204, 302, 400, 404, 500],
  );
  // 204 with a body breaks the no-body shape of the deletion: status and shape merge under the one rule.
  const withBody = judge(exchange('deleteCustomer', 204, { deleted: true }), accepted('CUSTOMER-DELETE-204'));
  assert.deepEqual(
    withBody.map((j) => j.rule),
    ['CUSTOMER-DELETE-204'],
  );
  assert.equal(withBody[0]?.violations[0]?.location, 'body');
  const noted = judge(at(500), noting(refused('CUSTOMER-ID-INTEGER'), 'or 204 for a 64-bit id'));
  assert.match(noted[0]!.violations[0]!.expected, /a 4xx status \(or 204 for a 64-bit id\)/);
});

const knownClassTitle =
  'an input of a known class: its rule carries the whole verdict, ' +
  'the registered rules judged as the server read it';
test(knownClassTitle, () => {
  const input = classifyField('create-transaction-body', '/description', null);
  const rule = 'TXN-CREATE-OPEN-INPUT';
  const judgeFields = (fields: Record<string, unknown>, status = 201) =>
    judge(
      exchange('createTransaction', status, transaction(fields)),
      classified(rule, input, false, (reading) => ({
        read: bodyAsRead({ ...sent, description: null }, '/description', reading),
      })),
    );
  assert.deepEqual(
    judgeFields({ description: null }).map((j) => [j.rule, j.violations.length]),
    [[rule, 0]],
  );
  assert.deepEqual(
    judgeFields({ amount: 2 }).map((j) => [j.rule, j.violations.length > 0]),
    [[rule, true]],
  );
  assert.deepEqual(
    judgeFields({}, 422).map((j) => [j.rule, j.violations.length]),
    [[rule, 0]],
  );
  assert.deepEqual(
    judgeFields({}, 500).map((j) => [j.rule, j.violations.length]),
    [[rule, 1]],
  );
});

test('a test asserts the rules of its kind, and of the other kind only what it relies on, as a precondition', () => {
  const answer = exchange('getPaymentLink', 200, { token: 12, url: '/relative' });
  const judgements = judge(answer, accepted('LINK-2XX'));
  assert.deepEqual(failing(judgements), ['LINK-SCHEMA', 'LINK-TOKEN-STRING', 'LINK-URL-ABSOLUTE']);
  const asserted = (kind: 'documented' | 'inferred', prerequisite = false) =>
    assertedJudgements(answer, accepted('LINK-2XX'), judgements, kind, prerequisite).map(
      (j) => `${j.rule}${j.precondition ? ' (precondition)' : ''}`,
    );
  // The operation's registered rules of each kind, in the registry's order (a rule added there changes no line here).
  const registered = (kind: 'documented' | 'inferred') =>
    checksOf('getPaymentLink')
      .map((entry) => entry.rule)
      .filter((id) => rule(id).kind === kind);
  assert.deepEqual(registered('documented'), ['LINK-SCHEMA', 'JSON-CONTENT-TYPE', 'LINK-TOKEN-STRING']);
  assert.deepEqual(asserted('inferred'), ['LINK-2XX', ...registered('inferred')]);
  assert.deepEqual(asserted('inferred', true), ['LINK-2XX', 'LINK-SCHEMA (precondition)', ...registered('inferred')]);
  assert.deepEqual(asserted('documented'), ['LINK-2XX (precondition)', ...registered('documented')]);
  // An expectation the test does not rely on (accept or refuse) is left to the other kind's tests.
  const open = judge(answer, either('CUSTOMER-REFERENCE-NOT-5XX'));
  assert.deepEqual(
    assertedJudgements(answer, either('CUSTOMER-REFERENCE-NOT-5XX'), open, 'documented').map((j) => j.rule),
    registered('documented'),
  );
});

test('judging marks the exchange, so that the API client can tell a test that left an answer unjudged', () => {
  const answer = exchange('getBalance', 200, []);
  assert.equal(wasJudged(answer), false);
  judge(answer, notServerError('UNKNOWN-ID-NOT-5XX'));
  assert.equal(wasJudged(answer), true);
});

test('history checks: an answer is judged by what earlier exchanges gave out, and by nothing history lacks', () => {
  const history = new History();
  history.learn(exchange('createTransaction', 201, transaction({ id: 7 })), bySuite({ sent }));
  history.learn(exchange('createTransaction', 201, transaction({ id: 8 })), bySuite({ sent }));
  const link = exchange('getPaymentLink', 200, { token: 'tok-of-seven', url: 'https://pay.example/tok-of-seven' });
  // Nothing history gave out is in the answer: the rules across exchanges hold.
  assert.deepEqual(
    judgeHistory(link, bySuite({ id: 7 }), history).map((judgement) => [judgement.rule, judgement.violations.length]),
    [['LINK-TOKEN-OWN', 0]],
  );
  history.learn(link, bySuite({ id: 7 }));
  // Transaction 8 given the same token, or a url carrying transaction 7's.
  const shared = exchange('getPaymentLink', 200, { token: 'tok-of-seven', url: 'https://pay.example/x' });
  const [token] = judgeHistory(shared, bySuite({ id: 8 }), history);
  assert.deepEqual(
    [token?.rule, token?.violations.map((violation) => violation.location)],
    ['LINK-TOKEN-OWN', ['body /token']],
  );
  const crossed = exchange('getPaymentLink', 200, { token: 'tok-of-eight', url: 'https://pay.example/tok-of-seven' });
  const [url] = judgeHistory(crossed, bySuite({ id: 8 }), history);
  assert.deepEqual(
    url?.violations.map((violation) => violation.location),
    ['body /url'],
  );
  // A creation given an id history saw: TXN-ID-UNIQUE; a body not kept whole is judged by its status only.
  const again = exchange('createTransaction', 201, transaction({ id: 8 }));
  assert.deepEqual(failing(judgeHistory(again, bySuite({ sent }), history)), ['TXN-ID-UNIQUE']);
  assert.deepEqual(judgeHistory(again, { ...bySuite({ sent }), incomplete: true }, history), []);
  // A customer history saw deleted by its owner owes 404, even when only the status was kept.
  history.learn(exchange('createCustomer', 201, { id: 9 }), bySuite());
  history.learn(exchange('deleteCustomer', 204, undefined), bySuite({ id: 9 }));
  const deleted = exchange('deleteCustomer', 204, undefined);
  assert.deepEqual(failing(judgeHistory(deleted, { ...bySuite({ id: 9 }), incomplete: true }, history)), [
    'CUSTOMER-DELETE-GONE',
  ]);
  // Requests history never saw, or refused for their credential, are not judged by it.
  assert.deepEqual(judgeHistory(deleted, bySuite({ id: 10 }), history), []);
  assert.deepEqual(judgeHistory(again, { ...bySuite({ sent }), key: 'refused' }, history), []);
});

test('a history check is declared for operations its rule concerns', () => {
  assert.throws(
    () => registeredWithHistory('TXN-ID-UNIQUE', ['deleteCustomer'], () => []),
    /registered for deleteCustomer/,
  );
  for (const id of operations.map((entry) => entry.id))
    for (const entry of historyChecksOf(id)) assert.ok(rule(entry.rule).operations.includes(id), entry.rule);
});
