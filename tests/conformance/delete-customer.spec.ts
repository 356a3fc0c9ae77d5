/**
 * deleteCustomer: DELETE /customers/{id} (reference: Endpoints > 1. Delete a customer).
 * The only operation whose statuses the reference shows: 204, 401, 404.
 */
import { test, expectAnswer, preconditionAnswer } from '../../suite/fixtures.ts';
import { covers } from '../../judgment/covers.ts';
import { isSuccess } from '../../judgment/checks.ts';
import { accepted, either, exactly, refused } from '../../judgment/expectations.ts';
import { transactionBody } from '../../generation/bodies.ts';
import { unknownIntegerId } from '../../generation/ids.ts';

test.describe('deleteCustomer: DELETE /customers/{id}', () => {
  test(
    'an existing customer is deleted with 204 and no body',
    covers('CUSTOMER-DELETE-204'),
    async ({ api, customers }) => {
      const { id } = await customers.create();
      const exchange = await api.call('deleteCustomer', { params: { id } });
      expectAnswer(exchange, accepted('CUSTOMER-DELETE-204'));
    },
  );

  test(
    'a deleted customer is gone: deleting it again gives 404',
    covers('CUSTOMER-DELETE-GONE'),
    async ({ api, customers }) => {
      const { id } = await customers.create();
      // A customer created after it, alive until the end: a store that gives out max(id) + 1 (SQLite without
      // AUTOINCREMENT) could otherwise hand the deleted id to another test's creation, which the reference allows.
      await customers.create();
      const first = await api.call('deleteCustomer', { params: { id } });
      preconditionAnswer(first, accepted('CUSTOMER-DELETE-204'));
      const second = await api.call('deleteCustomer', { params: { id } });
      expectAnswer(second, exactly('CUSTOMER-DELETE-GONE', 404));
    },
  );

  test('a customer id that does not exist gives 404', covers('CUSTOMER-DELETE-404'), async ({ api }) => {
    const exchange = await api.call('deleteCustomer', { params: { id: unknownIntegerId() } });
    expectAnswer(exchange, exactly('CUSTOMER-DELETE-404', 404));
  });

  for (const id of ['not-a-number', '-7']) {
    test(`a customer id that is not an integer (${id}) gives a 4xx`, covers('CUSTOMER-ID-INTEGER'), async ({ api }) => {
      const exchange = await api.call('deleteCustomer', { params: { id } });
      expectAnswer(exchange, refused('CUSTOMER-ID-INTEGER'));
    });
  }

  // The fraction's integer part is a customer of this test's own, so a server that reads "N.5" as N (a router taking
  // ".5" for a format suffix, Rails's default) deletes only what this test made, and the test shows it.
  test(
    'a fraction whose integer part is an existing customer (N.5) gives a 4xx and leaves customer N alone',
    covers('CUSTOMER-ID-INTEGER'),
    async ({ api, customers }) => {
      const { id } = await customers.create();
      const fraction = await api.call('deleteCustomer', { params: { id: `${id}.5` } });
      expectAnswer(fraction, refused('CUSTOMER-ID-INTEGER'));
      const own = await api.call('deleteCustomer', { params: { id } });
      expectAnswer(own, accepted('CUSTOMER-DELETE-204'));
    },
  );

  // The reference shows a customer referenced by id, and a customer deleted, not what follows for a transaction that
  // named it: its link and its send may be refused or go through, but a 5xx is the server failing (the random
  // sequences meet this only when they happen to delete a customer a transaction named).
  test(
    'the link and the send of a transaction whose customer was deleted afterwards are a 2xx or a 4xx, never a 5xx',
    covers('CUSTOMER-REFERENCE-NOT-5XX'),
    async ({ api, customers, target }, testInfo) => {
      const { id } = await customers.create();
      const sent = { ...transactionBody(target, testInfo.title), customer: { id } };
      const created = await api.call('createTransaction', { body: sent });
      preconditionAnswer(created, accepted('TXN-CREATE-2XX', { read: { ...sent } }));
      const transaction = (created.json as { id: number }).id;
      const deleted = await api.call('deleteCustomer', { params: { id } });
      preconditionAnswer(deleted, accepted('CUSTOMER-DELETE-204'));
      const link = await api.call('getPaymentLink', { params: { id: transaction } });
      expectAnswer(link, either('CUSTOMER-REFERENCE-NOT-5XX'));
      if (!isSuccess(link.status)) return;
      const { token } = link.json as { token: unknown };
      const send = await api.call('sendTransaction', { params: { mode: target.paymentMode }, body: { token } });
      expectAnswer(send, either('CUSTOMER-REFERENCE-NOT-5XX', { amount: sent.amount }));
    },
  );
});
