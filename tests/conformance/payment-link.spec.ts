/**
 * getPaymentLink: POST /transactions/{id}/token (reference: Endpoints > 3. Get the payment
 * link for a transaction). Returns { token: string, url: string }.
 */
import { test, expectAnswer } from '../../suite/fixtures.ts';
import { covers } from '../../judgment/covers.ts';
import { accepted, notServerError, refused } from '../../judgment/expectations.ts';
import { unknownIntegerId } from '../../generation/ids.ts';

// The answer's shape, content type, token and url are judged by the registry (judgment/registry.ts) on
// every answer of the operation: each test below is the one whose title names that rule.
test.describe('getPaymentLink: POST /transactions/{id}/token', () => {
  for (const [title, rule] of [
    ['an existing transaction gets its link with a 2xx status', 'LINK-2XX'],
    ['the response is an object with token and url strings', 'LINK-SCHEMA'],
    ['the response declares Content-Type application/json', 'JSON-CONTENT-TYPE'],
    ['quirk: the token is returned as a JSON string', 'LINK-TOKEN-STRING'],
    ['the url is an absolute URL', 'LINK-URL-ABSOLUTE'],
  ] as const) {
    test(title, covers(rule), async ({ api, createdTransaction }) => {
      const exchange = await api.call('getPaymentLink', { params: { id: createdTransaction.id } });
      expectAnswer(exchange, accepted('LINK-2XX'));
    });
  }

  test('a transaction that does not exist is refused with a 4xx', covers('LINK-UNKNOWN-TXN-4XX'), async ({ api }) => {
    const exchange = await api.call('getPaymentLink', { params: { id: unknownIntegerId() } });
    expectAnswer(exchange, refused('LINK-UNKNOWN-TXN-4XX'));
  });

  test('a transaction id that is not a number never gives a 5xx', covers('UNKNOWN-ID-NOT-5XX'), async ({ api }) => {
    const exchange = await api.call('getPaymentLink', { params: { id: 'not-a-number' } });
    expectAnswer(exchange, notServerError('UNKNOWN-ID-NOT-5XX'));
  });
});
