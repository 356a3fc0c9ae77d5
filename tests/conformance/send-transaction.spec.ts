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
  statusIsClientError,
  statusIsNotServerError,
  statusIsNotSuccess,
  statusIsSuccess,
} from '../../support/judgment/checks.ts';
import { describeValue } from '../../contract/json-pointer.ts';
import { sendPhoneNumber } from '../../support/generation/bodies.ts';
import { unknownToken } from '../../support/generation/ids.ts';

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

  test('a body without token is refused', covers('SEND-TOKEN-REQUIRED'), async ({ api, target }) => {
    requireWrites(target);
    const exchange = await api.call('sendTransaction', {
      params: { mode: target.paymentMode },
      body: { phone_number: sendPhoneNumber(target) },
    });
    expectRule('SEND-TOKEN-REQUIRED', exchange, statusIsNotSuccess(exchange));
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
