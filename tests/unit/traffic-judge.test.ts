/**
 * The traffic judge (judge/traffic-judge.ts) over exchanges written by hand, as a client's traffic
 * would show them: each rule it names is held to what the exchange and the earlier ones showed, and
 * nothing the traffic did not show is assumed. A rate limit or a gateway's fault is undecided, an
 * answer recorded in part is judged by its status alone, and a request recorded in part is not judged.
 *
 *   node --import tsx --test tests/unit/traffic-judge.test.ts
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyBody } from '../../judge/body-class.ts';
import { TrafficJudge, type JudgedExchange, type JudgeOptions } from '../../judge/traffic-judge.ts';
import type { TrafficExchange } from '../../judge/traffic-exchange.ts';
import { judgeOptions, trafficSequence } from './traffic-exchanges.ts';

const key = 'sk_sandbox_traffic_judge_0001';
const second = 'sk_sandbox_traffic_judge_0002';
const base = 'http://127.0.0.1:9/v1';
const now = Date.parse('2026-11-28T01:24:44Z');
const stamp = new Date(now).toISOString();

function judgeOf(overrides: Partial<JudgeOptions> = {}): TrafficJudge {
  return new TrafficJudge(
    judgeOptions(key, now, { keys: { first: key, second }, balanceIds: { first: 1, second: 11 }, ...overrides }),
  );
}

const next = trafficSequence();
function exchange(
  method: string,
  path: string,
  status: number,
  answer: unknown,
  options: { credential?: string | null; body?: unknown; raw?: string; extra?: Partial<TrafficExchange> } = {},
): TrafficExchange {
  const built = next({
    method,
    url: `${base}${path}`,
    status,
    responseBody: answer === undefined ? '' : JSON.stringify(answer),
    requestBody: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    credential: options.credential === undefined ? key : options.credential,
    source: (exchange) => ({ kind: 'proxy', exchange }),
    at: now,
  });
  return { ...built, ...options.extra };
}

const transaction = (id: number, amount: number, description = 'x') => ({
  id,
  reference: `trx_${id}`,
  status: 'pending',
  amount,
  description,
  callback_url: '',
  currency_id: 1,
  customer_id: null,
  mode: null,
  custom_metadata: {},
  created_at: stamp,
  updated_at: stamp,
});

const intent = (transactionId: number, amount: number) => ({
  id: 2000,
  reference: 'pi_1',
  amount,
  status: 'pending',
  currency_id: 1,
  mode: 'mtn',
  last_error_code: null,
  created_at: stamp,
  updated_at: stamp,
  approved_at: null,
  canceled_at: null,
  deleted_at: null,
  payment_method_id: 1,
  transaction_key: 'k',
  account_id: 7301,
  transaction_id: transactionId,
  phone_number: null,
});

const error = (status: number) => ({ error: { status, message: 'no' } });

const broken = (judged: JudgedExchange): string[] =>
  [...new Set(judged.records.filter((record) => record.kind === 'broken').map((record) => record.rule))].sort();
const held = (judged: JudgedExchange): string[] => [
  ...new Set(judged.records.filter((record) => record.kind === 'held').map((record) => record.rule)),
];
const creation = { description: 'x', amount: 1500, currency: { iso: 'XOF' } };

describe('the traffic judge', () => {
  test('a conforming creation, link and send hold every rule they meet', () => {
    const judge = judgeOf();
    const created = judge.judge(exchange('POST', '/transactions', 201, transaction(1000, 1500), { body: creation }));
    assert.deepEqual(broken(created), []);
    assert.ok(held(created).includes('TXN-CREATE-ECHO'), held(created).join(' '));
    const link = judge.judge(
      exchange('POST', '/transactions/1000/token', 200, { token: '6338211228932', url: 'https://pay.example/x' }),
    );
    assert.deepEqual(broken(link), []);
    assert.ok(held(link).includes('LINK-2XX'));
    const sent = judge.judge(
      exchange('POST', '/transactions/mtn', 200, [intent(1000, 1500)], { body: { token: '6338211228932' } }),
    );
    assert.deepEqual(broken(sent), []);
  });

  test('a send whose body a lenient parser reads (a comment, single quotes) carries its token as read', () => {
    const judge = judgeOf();
    judge.judge(exchange('POST', '/transactions', 201, transaction(1000, 1500), { body: creation }));
    judge.judge(
      exchange('POST', '/transactions/1000/token', 200, { token: '6338211228932', url: 'https://p.example/x' }),
    );
    for (const raw of ['{/* note */"token":"6338211228932"}', '{\'token\':"6338211228932"}']) {
      const sent = judge.judge(exchange('POST', '/transactions/mtn', 200, [intent(1000, 1500)], { raw }));
      assert.deepEqual(broken(sent), [], raw);
    }
  });

  test('a send in JSON a lenient parser reads is learnt as sent, as judged: its token sent again is open', () => {
    const judge = judgeOf();
    judge.judge(exchange('POST', '/transactions', 201, transaction(1000, 1500), { body: creation }));
    judge.judge(exchange('POST', '/transactions/1000/token', 200, { token: 't-lenient', url: 'https://p.example/x' }));
    const raw = '{/* note */"token":"t-lenient"}';
    const sent = judge.judge(exchange('POST', '/transactions/mtn', 200, [intent(1000, 1500)], { raw }));
    assert.deepEqual(broken(sent), []);
    assert.equal(judge.history.tokens.get('t-lenient')?.sent, true);
    // Sent once, its token may be refused the second time (the reference says nothing of sending a token twice).
    const again = judge.judge(exchange('POST', '/transactions/mtn', 400, error(400), { body: { token: 't-lenient' } }));
    assert.deepEqual(broken(again), []);
  });

  test('a token that pays another transaction of the traffic breaks LINK-TOKEN-OWN on the send', () => {
    const judge = judgeOf();
    judge.judge(exchange('POST', '/transactions', 201, transaction(1000, 1500), { body: creation }));
    judge.judge(
      exchange('POST', '/transactions', 201, transaction(1001, 2500), { body: { ...creation, amount: 2500 } }),
    );
    judge.judge(exchange('POST', '/transactions/1000/token', 200, { token: 't-1000', url: 'https://p.example/x' }));
    const sent = judge.judge(
      exchange('POST', '/transactions/mtn', 200, [intent(1001, 2500)], { body: { token: 't-1000' } }),
    );
    assert.deepEqual(broken(sent), ['LINK-TOKEN-OWN', 'SEND-2XX', 'SEND-AMOUNT-MATCHES']);
  });

  test('a creation answered with another amount breaks the echo', () => {
    const judged = judgeOf().judge(exchange('POST', '/transactions', 201, transaction(1000, 1499), { body: creation }));
    assert.ok(broken(judged).length > 0);
    const violation = judged.records.flatMap((record) => record.violations).find((v) => v.location === 'body /amount');
    assert.match(violation?.actual ?? '', /^1499\b/);
  });

  test('a send whose intents carry another amount than the token’s transaction breaks SEND-AMOUNT-MATCHES', () => {
    const judge = judgeOf();
    judge.judge(exchange('POST', '/transactions', 201, transaction(1000, 1500), { body: creation }));
    judge.judge(exchange('POST', '/transactions/1000/token', 200, { token: 't-1', url: 'https://pay.example/x' }));
    const sent = judge.judge(
      exchange('POST', '/transactions/mtn', 200, [intent(1000, 15)], { body: { token: 't-1' } }),
    );
    assert.ok(broken(sent).includes('SEND-AMOUNT-MATCHES'), broken(sent).join(' '));
  });

  test('a missing or wrong key answered 2xx breaks the authentication rules; 401 holds them', () => {
    const judge = judgeOf();
    const currency = [{ id: 1, name: 'FCFA', iso: 'XOF', account_id: 7301 }];
    assert.deepEqual(broken(judge.judge(exchange('GET', '/currencies/1', 200, currency, { credential: null }))), [
      'AUTH-OTHERS-401',
    ]);
    assert.deepEqual(
      broken(judge.judge(exchange('GET', '/currencies/1', 200, currency, { credential: `${key.slice(0, -1)}2x` }))),
      ['AUTH-KEY-EXACT'],
    );
    assert.deepEqual(broken(judge.judge(exchange('GET', '/currencies/1', 401, error(401), { credential: null }))), []);
    // A valid key refused for its credential.
    assert.deepEqual(broken(judge.judge(exchange('GET', '/currencies/1', 401, error(401)))), [
      'AUTH-BEARER-ACCEPTED',
      'CURRENCY-2XX',
    ]);
  });

  test('the other account’s key on a transaction the traffic showed as this one’s must be refused', () => {
    const judge = judgeOf();
    judge.judge(exchange('POST', '/transactions', 201, transaction(1000, 1500), { body: creation }));
    const theirs = judge.judge(
      exchange(
        'POST',
        '/transactions/1000/token',
        200,
        { token: 't', url: 'https://pay.example/x' },
        { credential: second },
      ),
    );
    assert.deepEqual(broken(theirs), ['ACCOUNT-ISOLATION-4XX']);
    const refused = judgeOf();
    refused.judge(exchange('POST', '/transactions', 201, transaction(1000, 1500), { body: creation }));
    assert.deepEqual(
      broken(refused.judge(exchange('POST', '/transactions/1000/token', 404, error(404), { credential: second }))),
      [],
    );
  });

  test('a customer deleted with 204 is gone: a second deletion owes 404', () => {
    const judge = judgeOf();
    judge.judge(
      exchange('POST', '/customers', 201, { id: 100, email: 'a@example.com' }, { body: { email: 'a@example.com' } }),
    );
    assert.deepEqual(broken(judge.judge(exchange('DELETE', '/customers/100', 204, undefined))), []);
    const again = judge.judge(exchange('DELETE', '/customers/100', 204, undefined));
    assert.deepEqual(broken(again), ['CUSTOMER-DELETE-GONE']);
  });

  test('an id or a token given out twice breaks TXN-ID-UNIQUE or LINK-TOKEN-OWN', () => {
    const judge = judgeOf();
    assert.deepEqual(
      broken(judge.judge(exchange('POST', '/transactions', 201, transaction(7, 1500), { body: creation }))),
      [],
    );
    assert.deepEqual(
      broken(judge.judge(exchange('POST', '/transactions', 201, transaction(7, 1500), { body: creation }))),
      ['TXN-ID-UNIQUE'],
    );
    judge.judge(exchange('POST', '/transactions', 201, transaction(8, 1500), { body: creation }));
    const link = { token: 'shared', url: 'https://pay.example/x' };
    assert.deepEqual(broken(judge.judge(exchange('POST', '/transactions/7/token', 200, link))), []);
    // The same transaction may be given its token again; another transaction may not get it.
    assert.deepEqual(broken(judge.judge(exchange('POST', '/transactions/7/token', 200, link))), []);
    assert.deepEqual(broken(judge.judge(exchange('POST', '/transactions/8/token', 200, link))), ['LINK-TOKEN-OWN']);
  });

  test('a 64-bit id is compared by its digits: given out twice, it breaks TXN-ID-UNIQUE naming them', () => {
    const judge = judgeOf();
    const wide = '9200000000000000731';
    const answer = JSON.stringify(transaction(1, 1500)).replace('"id":1,', `"id":${wide},`);
    const created = () =>
      judge.judge(
        exchange('POST', '/transactions', 201, undefined, { body: creation, extra: { responseBody: answer } }),
      );
    assert.deepEqual(broken(created()), []);
    const again = created();
    assert.deepEqual(broken(again), ['TXN-ID-UNIQUE']);
    const violation = again.records.find((record) => record.rule === 'TXN-ID-UNIQUE')?.violations[0];
    assert.match(violation?.actual ?? '', new RegExp(`^${wide},`));
    // Its link, asked by the same digits, is a link of a transaction the traffic showed: owed acceptance.
    assert.deepEqual(broken(judge.judge(exchange('POST', `/transactions/${wide}/token`, 404, error(404)))), [
      'LINK-2XX',
    ]);
  });

  test('ids are compared within one recording: a server restarted between two HAR files may reuse them', () => {
    const judge = judgeOf();
    const fromFile = (file: string) => ({
      extra: { source: { kind: 'har' as const, file, entry: 0 } },
      body: creation,
    });
    judge.judge(exchange('POST', '/transactions', 201, transaction(7, 1500), fromFile('monday.har')));
    assert.deepEqual(
      broken(judge.judge(exchange('POST', '/transactions', 201, transaction(7, 1500), fromFile('tuesday.har')))),
      [],
    );
  });

  test('a transaction whose customer was deleted since may be refused its link and its send, never a 5xx', () => {
    const judge = judgeOf();
    const customer = { email: 'c@example.com' };
    judge.judge(exchange('POST', '/customers', 201, { id: 300, ...customer }, { body: customer }));
    const byId = { ...creation, customer: { id: 300 } };
    judge.judge(exchange('POST', '/transactions', 201, { ...transaction(30, 1500), customer_id: 300 }, { body: byId }));
    judge.judge(exchange('POST', '/transactions', 201, { ...transaction(31, 1500), customer_id: 300 }, { body: byId }));
    judge.judge(exchange('POST', '/transactions/31/token', 200, { token: 't-31', url: 'https://p.example/x' }));
    judge.judge(exchange('DELETE', '/customers/300', 204, undefined));
    assert.deepEqual(broken(judge.judge(exchange('POST', '/transactions/30/token', 404, error(404)))), []);
    assert.deepEqual(broken(judge.judge(exchange('POST', '/transactions/30/token', 500, error(500)))), [
      'CUSTOMER-REFERENCE-NOT-5XX',
    ]);
    const send = (status: number) =>
      judge.judge(exchange('POST', '/transactions/mtn', status, error(status), { body: { token: 't-31' } }));
    assert.deepEqual(broken(send(409)), []);
    assert.deepEqual(broken(send(500)), ['CUSTOMER-REFERENCE-NOT-5XX']);
  });

  test('a customer only named by a transaction may be gone: deleting it may answer 404', () => {
    const judge = judgeOf();
    judge.judge(
      exchange(
        'POST',
        '/transactions',
        201,
        { ...transaction(9, 1500), customer_id: 232 },
        {
          body: { ...creation, customer: { id: 232 } },
        },
      ),
    );
    assert.deepEqual(broken(judge.judge(exchange('DELETE', '/customers/232', 404, error(404)))), []);
    assert.deepEqual(broken(judge.judge(exchange('DELETE', '/customers/232', 204, undefined))), [
      'CUSTOMER-DELETE-GONE',
    ]);
  });

  test('an amount that is no number is judged as the suite judges it: never read as an amount', () => {
    const judge = judgeOf();
    const callback_url = 'https://example.com/cb';
    const body = (amount: unknown) => ({ ...creation, callback_url, amount });
    const answer = (id: number, amount: number) => ({ ...transaction(id, amount), callback_url });
    // true has no reading as an amount: accepting it (as 1) is a value read as another.
    assert.deepEqual(broken(judge.judge(exchange('POST', '/transactions', 201, answer(1, 1), { body: body(true) }))), [
      'TXN-CREATE-AMOUNT-EXACT',
    ]);
    // null may be read as not given, which owes what the same account's creation without an amount was answered.
    const accepted = (id: number) => exchange('POST', '/transactions', 201, answer(id, 0), { body: body(null) });
    assert.deepEqual(
      broken(judge.judge(accepted(2))),
      [],
      'no creation without an amount shown yet: nothing to compare',
    );
    const { amount: _amount, ...withoutAmount } = body(undefined);
    // Refused for its credential, a body without an amount shows nothing of how the target reads the body.
    judge.judge(exchange('POST', '/transactions', 401, error(401), { body: withoutAmount, credential: null }));
    assert.deepEqual(broken(judge.judge(accepted(20))), []);
    judge.judge(exchange('POST', '/transactions', 400, error(400), { body: withoutAmount }));
    assert.deepEqual(broken(judge.judge(accepted(3))), ['TXN-CREATE-AMOUNT-EXACT']);
    assert.deepEqual(broken(judge.judge(accepted(4))).length, 1);
    // A target that gives a body without an amount 0 gives null the same: not given, alike.
    const lenient = judgeOf();
    lenient.judge(exchange('POST', '/transactions', 201, answer(5, 0), { body: withoutAmount }));
    assert.deepEqual(
      broken(lenient.judge(exchange('POST', '/transactions', 201, answer(6, 0), { body: body(null) }))),
      [],
    );
    assert.deepEqual(
      broken(lenient.judge(exchange('POST', '/transactions', 201, answer(7, 1500), { body: body([1500]) }))),
      ['TXN-CREATE-AMOUNT-EXACT'],
    );
  });

  test('the integer of a token that starts with 0 names another token: accept or refuse, never a 5xx', () => {
    const judge = judgeOf();
    judge.judge(exchange('POST', '/transactions', 201, transaction(1000, 1500), { body: creation }));
    judge.judge(
      exchange('POST', '/transactions/1000/token', 200, { token: '06338211228', url: 'https://p.example/x' }),
    );
    const send = (status: number, answer: unknown) =>
      judge.judge(exchange('POST', '/transactions/mtn', status, answer, { body: { token: 6338211228 } }));
    assert.deepEqual(broken(send(404, error(404))), []);
    assert.deepEqual(broken(send(500, error(500))), ['SEND-TOKEN-INTEGER']);
    assert.deepEqual(broken(send(200, [intent(1000, 1500)])), []);
    assert.deepEqual(broken(send(200, [intent(1000, 99)])), ['SEND-AMOUNT-MATCHES', 'SEND-TOKEN-INTEGER']);
  });

  test('a creation that references a living customer by id names that customer, where its answer names one', () => {
    const judge = judgeOf();
    judge.judge(
      exchange('POST', '/customers', 201, { id: 77, email: 'a@example.com' }, { body: { email: 'a@example.com' } }),
    );
    const callback_url = 'https://example.com/cb';
    const body = { ...creation, callback_url, customer: { id: 77 } };
    const created = (answer: Record<string, unknown>) =>
      judge.judge(exchange('POST', '/transactions', 201, { ...answer, callback_url }, { body }));
    // The answer's fault, named under the rule its input was judged by and under the rule whose check found it.
    const contradicts = ['TXN-CREATE-2XX', 'TXN-CREATE-CUSTOMER-KEPT'];
    assert.deepEqual(broken(created({ ...transaction(1, 1500), customer_id: 78 })), contradicts);
    assert.deepEqual(
      broken(created({ ...transaction(2, 1500), customer: { id: 78, email: 'a@example.com' } })),
      contradicts,
    );
    assert.deepEqual(broken(created({ ...transaction(3, 1500), customer_id: 77 })), []);
    assert.deepEqual(broken(created({ ...transaction(4, 1500), customer: { id: '77', email: 'A@EXAMPLE.COM' } })), []);
    const { customer_id: _id, ...unnamed } = transaction(5, 1500);
    assert.deepEqual(broken(created(unnamed)), []);
  });

  test('a customer of a 64-bit id referenced by a creation is known by its digits: its answer owes that one', () => {
    const judge = judgeOf();
    const wide = '9200000000000000777';
    const email = 'a@example.com';
    judge.judge(
      exchange('POST', '/customers', 201, undefined, {
        body: { email },
        extra: { responseBody: `{"id":${wide},"email":"${email}"}` },
      }),
    );
    const raw = JSON.stringify({ ...creation, customer: { id: 0 } }).replace('"id":0', `"id":${wide}`);
    const created = (id: number, customerId: string) =>
      judge.judge(
        exchange('POST', '/transactions', 201, undefined, {
          raw,
          extra: {
            responseBody: JSON.stringify(transaction(id, 1500)).replace(
              '"customer_id":null',
              `"customer_id":${customerId}`,
            ),
          },
        }),
      );
    // An id beyond 2^53 is open input (not every reader holds it); accepted, its answer still names that customer.
    assert.deepEqual(broken(created(1, '78')), ['TXN-CREATE-CUSTOMER-KEPT', 'TXN-CREATE-OPEN-INPUT']);
    assert.deepEqual(broken(created(2, wide)), []);
  });

  test('a valid key answered 403 on another account’s resource is no refusal of the key; 401 is', () => {
    const judge = judgeOf();
    judge.judge(exchange('POST', '/transactions', 201, transaction(1000, 1500), { body: creation }));
    assert.deepEqual(
      broken(judge.judge(exchange('POST', '/transactions/1000/token', 403, error(403), { credential: second }))),
      [],
    );
    assert.deepEqual(
      broken(judge.judge(exchange('POST', '/transactions/1000/token', 401, error(401), { credential: second }))),
      ['AUTH-BEARER-ACCEPTED'],
    );
  });

  test('nothing is assumed of an id the traffic never showed', () => {
    const judge = judgeOf();
    assert.deepEqual(broken(judge.judge(exchange('DELETE', '/customers/987654321', 204, undefined))), []);
    assert.deepEqual(broken(judge.judge(exchange('DELETE', '/customers/987654321', 404, error(404)))), []);
    assert.deepEqual(broken(judge.judge(exchange('POST', '/transactions/55/token', 404, error(404)))), []);
  });

  test('malformed JSON must be refused; a 5xx is never an answer', () => {
    const judge = judgeOf();
    assert.deepEqual(
      broken(judge.judge(exchange('POST', '/transactions', 201, transaction(1, 12), { raw: '{"amount": 12' }))),
      ['MALFORMED-JSON-4XX'],
    );
    assert.deepEqual(
      broken(judge.judge(exchange('POST', '/transactions', 400, error(400), { raw: '{"amount": 12' }))),
      [],
    );
    assert.ok(broken(judge.judge(exchange('GET', '/balances/987654321', 500, error(500)))).length > 0);
  });

  test('a rate limit or a gateway’s fault is undecided, never a finding', () => {
    const judge = judgeOf();
    for (const [status, kind] of [
      [429, 'rate-limited'],
      [503, 'unavailable'],
      [502, 'unavailable'],
    ] as const) {
      const judged = judge.judge(exchange('POST', '/transactions', status, error(status), { body: creation }));
      assert.deepEqual(broken(judged), []);
      assert.ok(judged.records.length > 0);
      assert.ok(judged.records.every((record) => record.kind === kind));
    }
    assert.ok(broken(judge.judge(exchange('POST', '/transactions', 500, error(500), { body: creation }))).length > 0);
  });

  test('an answer recorded in part is judged by status and headers; a request recorded in part by its status', () => {
    const judge = judgeOf();
    const partial = judge.judge(
      exchange('POST', '/transactions', 201, undefined, {
        body: creation,
        extra: { responseBody: '{"id":1000,"amo', incomplete: 'the answer’s body passed the capture limit' },
      }),
    );
    assert.deepEqual(broken(partial), []);
    const refusedPartial = judge.judge(
      exchange('POST', '/transactions', 500, undefined, {
        body: creation,
        extra: { responseBody: '{"err', incomplete: 'the answer’s body passed the capture limit' },
      }),
    );
    assert.ok(broken(refusedPartial).length > 0);
    const cut = judge.judge(
      exchange('POST', '/transactions', 201, transaction(1000, 1), {
        raw: '{"description":"x","amount":15',
        extra: { requestIncomplete: 'the request’s body was not kept whole' },
      }),
    );
    // Filed under its operation (never "outside the reference"), owed no 5xx whatever its input was.
    assert.equal(cut.outside, undefined);
    assert.equal(cut.route?.operation, 'createTransaction');
    assert.deepEqual(broken(cut), []);
    assert.deepEqual(cut.clientFindings, [], 'a body not kept whole is no finding of the client');
    const cutFailing = judge.judge(
      exchange('POST', '/transactions', 500, error(500), {
        raw: '{"description":"x","amount":15',
        extra: { requestIncomplete: 'the request’s body was not kept whole' },
      }),
    );
    assert.deepEqual(broken(cutFailing), ['TXN-CREATE-OPEN-INPUT']);
  });

  test('a path the reference does not show is listed, not judged', () => {
    const judged = judgeOf().judge(exchange('GET', '/refunds/1', 500, error(500)));
    assert.equal(judged.records.length, 0);
    assert.ok(judged.outside);
  });

  test('a client’s request off the reference is its finding, never the server’s', () => {
    const judged = judgeOf().judge(
      exchange('POST', '/transactions', 400, error(400), { body: { amount: 'abc', currency: { iso: 'XOF' } } }),
    );
    assert.deepEqual(broken(judged), []);
    assert.ok(judged.clientFindings[0]?.violations.some((violation) => violation.location === 'body /amount'));
  });
});

describe('client findings: one request, one finding', () => {
  const phoneAsNumber = { token: 'tok_1', phone_number: { number: 22997000001, country: 'BJ' } };

  test('a send whose phone number is a number is one finding, its departure said once', () => {
    const judged = judgeOf().judge(exchange('POST', '/transactions/mtn', 400, error(400), { body: phoneAsNumber }));
    assert.equal(judged.clientFindings.length, 1);
    assert.deepEqual(
      judged.clientFindings[0]!.violations.map((violation) => violation.location),
      ['body /phone_number/number'],
    );
  });

  test('a request with several departures is still one finding, holding each of them', () => {
    const judged = judgeOf().judge(
      exchange('POST', '/transactions/mtn', 401, error(401), { credential: null, body: phoneAsNumber }),
    );
    assert.equal(judged.clientFindings.length, 1);
    assert.deepEqual(
      judged.clientFindings[0]!.violations.map((violation) => violation.location),
      ['header authorization', 'body /phone_number/number'],
    );
  });

  test('a request to a path or method the reference does not define is a finding, not judged', () => {
    const judged = judgeOf().judge(exchange('POST', '/mtn', 200, {}, { body: { token: 'tok_1' } }));
    assert.ok(judged.outside);
    assert.deepEqual(judged.records, []);
    assert.equal(judged.clientFindings.length, 1);
    assert.equal(judged.clientFindings[0]!.outside, true);
    assert.match(judged.clientFindings[0]!.violations[0]!.actual, /^POST \/mtn: /);
    const wrongMethod = judgeOf().judge(exchange('GET', '/transactions', 405, error(405)));
    assert.equal(wrongMethod.clientFindings[0]?.outside, true);
    // Customer creation exists, but the reference does not show it.
    const customer = judgeOf().judge(exchange('POST', '/customers', 201, { id: 5 }, { body: { email: 'a@b.c' } }));
    assert.equal(customer.clientFindings[0]?.outside, true);
  });

  test('a request that is not to the API (no /v1 in its path) is no finding of the client', () => {
    const judged = judgeOf({ basePath: undefined }).judge({
      ...exchange('GET', '/x', 200, {}),
      url: 'http://127.0.0.1:9/static/app.js',
    });
    assert.ok(judged.outside);
    assert.deepEqual(judged.clientFindings, []);
  });
});

describe('traffic recorded without its credentials', () => {
  const credentialRule = (ruleId: string): boolean => ruleId.startsWith('AUTH-');

  test('no credential rule is judged, of the client or of the server: 0 credential findings', () => {
    const judge = judgeOf({ credentialsRecorded: false });
    const bodyless = { credential: null } as const;
    const judged = [
      judge.judge(exchange('GET', '/balances/1', 401, error(401), bodyless)),
      judge.judge(exchange('GET', '/currencies/1', 403, error(403), bodyless)),
      judge.judge(exchange('POST', '/transactions', 401, error(401), { credential: null, body: creation })),
      judge.judge(exchange('DELETE', '/customers/5', 401, error(401), bodyless)),
    ];
    for (const one of judged) {
      assert.deepEqual(broken(one), [], `${one.traffic.method} ${one.traffic.url}`);
      assert.ok(!one.records.some((record) => credentialRule(record.rule)), 'no credential rule judged');
      assert.ok(
        !one.clientFindings.some((finding) => finding.violations.some((v) => v.location === 'header authorization')),
        'no credential finding of the client',
      );
    }
    // A 401 to a credential the recording does not show is not judged (skipped, with why), never held.
    assert.ok(
      judged[0]!.records.every((record) => record.kind === 'skipped' && /not judged/.test(record.reason ?? '')),
    );
  });

  test('recorded with them, a missing header is still the client’s finding and the server’s 401 is held', () => {
    const judged = judgeOf().judge(exchange('GET', '/balances/1', 401, error(401), { credential: null }));
    assert.deepEqual(held(judged), ['AUTH-OTHERS-401']);
    assert.equal(judged.clientFindings[0]?.violations[0]?.location, 'header authorization');
  });
});

describe('the input a request was classified by', () => {
  test('a send outside the target’s own phone number is accept or refuse, and says which input and why', () => {
    const judge = judgeOf();
    judge.judge(exchange('POST', '/transactions', 201, transaction(4201, 1500), { body: creation }));
    judge.judge(
      exchange('POST', '/transactions/4201/token', 200, { token: 'tok_4201', url: 'https://pay.example/tok_4201' }),
    );
    const judged = judge.judge(
      exchange('POST', '/transactions/mtn', 400, error(400), {
        body: { token: 'tok_4201', phone_number: { number: '+33612345678', country: 'FR' } },
      }),
    );
    assert.equal(judged.input?.class, 'accept-or-refuse');
    assert.match(judged.input?.what ?? '', /\/phone_number\/number = "\+33612345678"/);
    assert.match(judged.input?.why ?? '', /target's own value/);
  });
});

describe('a body classified as a whole', () => {
  test('an object is judged by its members: an integer phone number in a send is open, not refused', () => {
    const body = JSON.stringify({ token: '1', phone_number: { number: 22997000001, country: 'BJ' } });
    const classified = classifyBody('send-transaction-body', body, 'application/json');
    assert.equal(classified.kind, 'classified');
    assert.equal(classified.kind === 'classified' && classified.input.class, 'accept-or-refuse');
    const wrong = classifyBody('send-transaction-body', JSON.stringify({ token: { value: '1' } }), 'application/json');
    assert.equal(wrong.kind === 'classified' && wrong.input.class, 'must-refuse');
  });

  test('text a mainstream parser reads beyond RFC 8259 is open; text none reads is malformed', () => {
    const of = (text: string) => {
      const classified = classifyBody('create-transaction-body', text, 'application/json');
      return classified.kind === 'classified' ? classified.input.class : classified.kind;
    };
    assert.equal(
      of('{"description":"x", /* a comment */ "amount": 1500, "currency": {"iso":"XOF"}}'),
      'accept-or-refuse',
    );
    assert.equal(of('{"description":"x", "amount": 1500, "currency": {"iso":"XOF"},}'), 'accept-or-refuse');
    assert.equal(of('{"description":"x", "amount": 15'), 'malformed');
    // NaN is read by some parsers, into an amount that must be refused: refused as that body, not as malformed.
    assert.equal(of('{"description":"x", "amount": NaN, "currency": {"iso":"XOF"}}'), 'must-refuse');
    // 1500.0 names the integer, which typed parsers refuse: open in both modes.
    const whole = (amount: string) =>
      `{"description":"x","amount": ${amount},"currency":{"iso":"XOF"},"callback_url":"https://example.com/cb"}`;
    assert.equal(of(whole('1500')), 'must-accept');
    assert.equal(of(whole('1500.0')), 'accept-or-refuse');
    assert.equal(of(whole('15e2')), 'accept-or-refuse');
  });

  test('an object missing a member the reference does not require is open', () => {
    for (const phone of [{ country: 'BJ' }, { number: '+22997000001' }]) {
      const classified = classifyBody(
        'send-transaction-body',
        JSON.stringify({ token: '1', phone_number: phone }),
        'application/json',
      );
      assert.equal(
        classified.kind === 'classified' && classified.input.class,
        'accept-or-refuse',
        JSON.stringify(phone),
      );
    }
  });
});
