/**
 * getPaymentLink: POST /transactions/{id}/token (reference: Endpoints > 3. Get the payment
 * link for a transaction). Returns { token: string, url: string }.
 */
import { test, expectRule, precondition } from '../../support/fixtures.ts';
import { covers } from '../../support/judgment/covers.ts';
import {
  bodyMatchesSchema,
  bodyValueIsAbsoluteUrl,
  bodyValueIsString,
  contentTypeIsJson,
  statusIsClientError,
  statusIsNotServerError,
  statusIsSuccess,
} from '../../support/judgment/checks.ts';
import { unknownIntegerId } from '../../support/generation/ids.ts';

test.describe('getPaymentLink: POST /transactions/{id}/token', () => {
  test('an existing transaction gets its link with a 2xx status', covers('LINK-2XX'), async ({ api, createdTransaction }) => {
    const exchange = await api.call('getPaymentLink', { params: { id: createdTransaction.id } });
    expectRule('LINK-2XX', exchange, statusIsSuccess(exchange));
  });

  test('the response is an object with token and url strings', covers('LINK-SCHEMA'), async ({ api, createdTransaction }) => {
    const exchange = await api.call('getPaymentLink', { params: { id: createdTransaction.id } });
    precondition('LINK-2XX', exchange, statusIsSuccess(exchange));
    expectRule('LINK-SCHEMA', exchange, bodyMatchesSchema(exchange, 'payment-link'));
  });

  test('the response declares Content-Type application/json', covers('JSON-CONTENT-TYPE'), async ({ issuedLink }) => {
    expectRule('JSON-CONTENT-TYPE', issuedLink.exchange, contentTypeIsJson(issuedLink.exchange));
  });

  test('quirk: the token is returned as a JSON string', covers('LINK-TOKEN-STRING'), async ({ api, createdTransaction }) => {
    const exchange = await api.call('getPaymentLink', { params: { id: createdTransaction.id } });
    precondition('LINK-2XX', exchange, statusIsSuccess(exchange));
    expectRule('LINK-TOKEN-STRING', exchange, bodyValueIsString(exchange, '/token'));
  });

  test('the url is an absolute URL', covers('LINK-URL-ABSOLUTE'), async ({ issuedLink }) => {
    expectRule('LINK-URL-ABSOLUTE', issuedLink.exchange, bodyValueIsAbsoluteUrl(issuedLink.exchange, '/url'));
  });

  test('a transaction that does not exist is refused with a 4xx', covers('LINK-UNKNOWN-TXN-4XX'), async ({ api }) => {
    const exchange = await api.call('getPaymentLink', { params: { id: unknownIntegerId() } });
    expectRule('LINK-UNKNOWN-TXN-4XX', exchange, statusIsClientError(exchange));
  });

  test('a transaction id that is not a number never gives a 5xx', covers('UNKNOWN-ID-NOT-5XX'), async ({ api }) => {
    const exchange = await api.call('getPaymentLink', { params: { id: 'not-a-number' } });
    expectRule('UNKNOWN-ID-NOT-5XX', exchange, statusIsNotServerError(exchange));
  });
});
