/**
 * sendTransaction: POST /transactions/{mode} (reference: Endpoints > 4. Send a transaction
 * for payment). The body's token is typed as an integer while the link operation returns
 * a string; the response is an array of payment intents.
 */
import { test, expectRule, precondition, requireWrites } from '../../support/fixtures.ts';
import { covers } from '../../support/judgment/covers.ts';
import {
  bodyMatchesSchema,
  contentTypeIsJson,
  eachElementValueEquals,
  intentEventTimestamps,
  intentsWithEvents,
  statusIsClientError,
  statusIsNotServerError,
  statusIsNotSuccess,
  statusIsSuccess,
} from '../../support/judgment/checks.ts';
import { describeValue } from '../../contract/json-pointer.ts';
import { sendPhoneNumber } from '../../support/generation/bodies.ts';
import { unknownToken } from '../../support/generation/ids.ts';
import { classifyField, classPhrase, declaredContentType } from '../../support/judgment/input-class.ts';
import { expectInput } from '../../support/judgment/expect-rule.ts';
import { replaceAt } from '../../contract/schema-paths.ts';
import type { Target } from '../../support/lifecycle/target.ts';
import { acceptedIntents, sendRule } from '../../support/judgment/accepted.ts';

test.describe('sendTransaction: POST /transactions/{mode}', () => {
  test('sending with a valid token is accepted with a 2xx status', covers('SEND-2XX'), async ({ api, target, issuedLink }) => {
    const exchange = await api.call('sendTransaction', { params: { mode: target.paymentMode }, body: { token: issuedLink.token } });
    expectRule('SEND-2XX', exchange, statusIsSuccess(exchange));
  });

  test('quirk: the token exactly as returned by the link operation is accepted', covers('SEND-TOKEN-AS-RETURNED'), async ({ api, target, issuedLink }) => {
    const exchange = await api.call('sendTransaction', { params: { mode: target.paymentMode }, body: { token: issuedLink.token } });
    expectRule('SEND-TOKEN-AS-RETURNED', exchange, statusIsSuccess(exchange));
  });

  test('the response is an array of payment intents', covers('SEND-SCHEMA'), async ({ api, target, issuedLink }) => {
    const exchange = await api.call('sendTransaction', { params: { mode: target.paymentMode }, body: { token: issuedLink.token } });
    precondition('SEND-2XX', exchange, statusIsSuccess(exchange));
    expectRule('SEND-SCHEMA', exchange, bodyMatchesSchema(exchange, 'payment-intent-list'));
  });

  test('the response declares Content-Type application/json', covers('JSON-CONTENT-TYPE'), async ({ api, target, issuedLink }) => {
    const exchange = await api.call('sendTransaction', { params: { mode: target.paymentMode }, body: { token: issuedLink.token } });
    precondition('SEND-2XX', exchange, statusIsSuccess(exchange));
    expectRule('JSON-CONTENT-TYPE', exchange, contentTypeIsJson(exchange));
  });

  test('quirk: a token of digits sent as a JSON integer is accepted', covers('SEND-TOKEN-INTEGER'), async ({ api, target, issuedLink }) => {
    const token = issuedLink.token;
    const numeric = typeof token === 'string' && /^\d{1,16}$/.test(token) && Number.isSafeInteger(Number(token));
    test.skip(!numeric, `the returned token is not a string of digits (${describeValue(token)}), so it has no integer form`);
    const exchange = await api.call('sendTransaction', { params: { mode: target.paymentMode }, body: { token: Number(token) } });
    expectRule('SEND-TOKEN-INTEGER', exchange, statusIsSuccess(exchange));
  });

  test('quirk: phone_number with a string number and an upper-case country is accepted', covers('SEND-PHONE-NUMBER-STRING'), async ({ api, target, issuedLink }) => {
    const phone = sendPhoneNumber(target);
    const exchange = await api.call('sendTransaction', {
      params: { mode: target.paymentMode },
      body: { token: issuedLink.token, phone_number: phone },
    });
    expectRule('SEND-PHONE-NUMBER-STRING', exchange, statusIsSuccess(exchange));
  });

  test('an intent whose status says it was sent or failed carries the timestamp of that event', covers('SEND-INTENT-EVENT-TIMESTAMPS'), async ({ api, target, issuedLink }) => {
    // With a phone number the target may carry the payment out at once (sent, or failed): what the rule is about.
    const exchange = await api.call('sendTransaction', { params: { mode: target.paymentMode }, body: { token: issuedLink.token, phone_number: sendPhoneNumber(target) } });
    precondition('SEND-2XX', exchange, statusIsSuccess(exchange));
    precondition('SEND-SCHEMA', exchange, bodyMatchesSchema(exchange, 'payment-intent-list'));
    test.skip(
      intentsWithEvents(exchange) === 0,
      `no intent of the answer is sent, failed or deleted (statuses ${describeValue((exchange.json as Array<{ status?: unknown }>).map((intent) => intent.status))}): no event timestamp to check`,
    );
    expectRule('SEND-INTENT-EVENT-TIMESTAMPS', exchange, intentEventTimestamps(exchange));
  });

  for (const [name, body] of [
    ['without token', (target: Target) => ({ phone_number: sendPhoneNumber(target) })],
    ['with token null', () => ({ token: null })],
  ] as const) {
    test(`a body ${name} is refused`, covers('SEND-TOKEN-REQUIRED'), async ({ api, target }) => {
      requireWrites(target);
      const exchange = await api.call('sendTransaction', { params: { mode: target.paymentMode }, body: body(target) });
      expectRule('SEND-TOKEN-REQUIRED', exchange, statusIsNotSuccess(exchange));
    });
  }

  // A field of the send body with another value than the send shape's: its class is computed from schemas/
  // (support/judgment/input-class.ts). A JSON number for the phone number is read as its digits by a coercing
  // parser, a lower-case country is what the prose rules out only: accept or refuse (--strict: refuse).
  const mistyped: Array<[pointer: string, value: unknown]> = [
    ['/phone_number/number', 22997000001],
    ['/phone_number/number', null],
    ['/phone_number/country', 'bj'],
    ['/phone_number/country', 'BEN'],
    ['/phone_number', null],
    ['/phone_number', []],
    ['/phone_number', [1]],
    ['/phone_number/number', { digits: '22997000001' }],
  ];
  for (const [pointer, value] of mistyped) {
    const input = classifyField('send-transaction-body', pointer, value);
    const ruleId = sendRule(input);
    test(`input ${input.what}: ${classPhrase(input)}`, covers(ruleId), async ({ api, target, issuedLink, createdTransaction }) => {
      const body = replaceAt({ token: issuedLink.token, phone_number: sendPhoneNumber(target) }, pointer, value);
      const exchange = await api.call('sendTransaction', { params: { mode: target.paymentMode }, body });
      expectInput(ruleId, exchange, input, target.strict, () => acceptedIntents(exchange, createdTransaction.amount));
    });
  }

  test(`input ${declaredContentType('text/plain', {}).what}: ${classPhrase(declaredContentType('text/plain', {}))}`, covers('SEND-OPEN-INPUT'), async ({ api, target, issuedLink, createdTransaction }) => {
    const exchange = await api.call('sendTransaction', { params: { mode: target.paymentMode }, rawBody: JSON.stringify({ token: issuedLink.token }), contentType: 'text/plain' });
    expectInput('SEND-OPEN-INPUT', exchange, declaredContentType('text/plain', {}), target.strict, () => acceptedIntents(exchange, createdTransaction.amount));
  });

  test('every payment intent carries the transaction amount', covers('SEND-AMOUNT-MATCHES'), async ({ api, target, issuedLink, createdTransaction }) => {
    const exchange = await api.call('sendTransaction', { params: { mode: target.paymentMode }, body: { token: issuedLink.token } });
    precondition('SEND-2XX', exchange, statusIsSuccess(exchange));
    precondition('SEND-SCHEMA', exchange, bodyMatchesSchema(exchange, 'payment-intent-list'));
    expectRule('SEND-AMOUNT-MATCHES', exchange, eachElementValueEquals(exchange, 'amount', createdTransaction.amount));
  });

  test('a token that was never issued is refused with a 4xx', covers('SEND-UNKNOWN-TOKEN-4XX'), async ({ api, target }) => {
    requireWrites(target);
    const exchange = await api.call('sendTransaction', { params: { mode: target.paymentMode }, body: { token: unknownToken() } });
    expectRule('SEND-UNKNOWN-TOKEN-4XX', exchange, statusIsClientError(exchange));
  });

  for (const [name, token] of [
    ['a boolean', true],
    ['an object', { value: 1 }],
    ['an array', [1]],
  ] as const) {
    test(`a token that is ${name} is refused with a 4xx`, covers('SEND-INVALID-4XX'), async ({ api, target }) => {
      requireWrites(target);
      const exchange = await api.call('sendTransaction', { params: { mode: target.paymentMode }, body: { token } });
      expectRule('SEND-INVALID-4XX', exchange, statusIsClientError(exchange));
    });
  }

  test('a phone_number that is a string, not an object, is refused with a 4xx', covers('SEND-INVALID-4XX'), async ({ api, target, issuedLink }) => {
    const exchange = await api.call('sendTransaction', {
      params: { mode: target.paymentMode },
      body: { token: issuedLink.token, phone_number: sendPhoneNumber(target).number },
    });
    expectRule('SEND-INVALID-4XX', exchange, statusIsClientError(exchange));
  });

  test('a body that is not valid JSON is refused with a 4xx', covers('MALFORMED-JSON-4XX'), async ({ api, target }) => {
    requireWrites(target);
    const exchange = await api.call('sendTransaction', { params: { mode: target.paymentMode }, rawBody: '{"token": ', contentType: 'application/json' });
    expectRule('MALFORMED-JSON-4XX', exchange, statusIsClientError(exchange));
  });

  test('an unknown payment mode never gives a 5xx', covers('UNKNOWN-ID-NOT-5XX'), async ({ api, issuedLink }) => {
    const exchange = await api.call('sendTransaction', { params: { mode: 'cc-no-such-mode' }, body: { token: issuedLink.token } });
    expectRule('UNKNOWN-ID-NOT-5XX', exchange, statusIsNotServerError(exchange));
  });
});
