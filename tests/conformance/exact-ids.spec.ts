/**
 * Identifiers read exactly (ID-EXACT): an existing id followed by other characters is not that
 * resource. A server that reads `/customers/4218abc` as customer 4218 (a number parser that stops
 * at the first non-digit, a framework that strips `;` parameters or stops at NUL) deletes or
 * links a resource nobody named. Each case checks the refusal, then that the resource is untouched.
 */
import { test, expectAnswer } from '../../suite/fixtures.ts';
import { covers } from '../../judgment/covers.ts';
import { accepted, exactly, refused } from '../../judgment/expectations.ts';

/** What follows the existing id on the wire (written into the path as is). */
const suffixes = ['abc', 'x1', ';', '%00'];

test.describe('identifiers are read exactly', () => {
  test(
    'a customer id followed by other characters is not that customer: refused, and the customer stays',
    covers('ID-EXACT'),
    async ({ api, customers }) => {
      const { id } = await customers.create();
      for (const suffix of suffixes) {
        await test.step(`DELETE /customers/${id}${suffix}`, async () => {
          const exchange = await api.call('deleteCustomer', { params: { id: `${id}${suffix}` }, rawParams: true });
          expectAnswer(exchange, refused('ID-EXACT'), { soft: true });
        });
      }
      const owner = await api.call('deleteCustomer', { params: { id } });
      expectAnswer(owner, exactly('ID-EXACT', 204));
    },
  );

  test(
    'a transaction id followed by other characters is not that transaction: no link is returned for it',
    covers('ID-EXACT'),
    async ({ api, createdTransaction }) => {
      for (const suffix of suffixes) {
        await test.step(`POST /transactions/${createdTransaction.id}${suffix}/token`, async () => {
          const exchange = await api.call('getPaymentLink', {
            params: { id: `${createdTransaction.id}${suffix}` },
            rawParams: true,
          });
          expectAnswer(exchange, refused('ID-EXACT'), { soft: true });
        });
      }
      const owner = await api.call('getPaymentLink', { params: { id: createdTransaction.id } });
      expectAnswer(owner, accepted('ID-EXACT'));
    },
  );
});
