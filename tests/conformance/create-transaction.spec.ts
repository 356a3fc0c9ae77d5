/**
 * createTransaction: POST /transactions (reference: Endpoints > 2. Create a transaction).
 * The success status is not shown: any 2xx passes and the actual one is recorded.
 */
import { test, expectRule, precondition, requireWrites } from '../../support/fixtures.ts';
import { covers } from '../../support/judgment/covers.ts';
import {
  bodyMatchesSchema,
  bodyValueEquals,
  contentTypeIsJson,
  statusIsClientError,
  statusIsSuccess,
} from '../../support/judgment/checks.ts';
import { creationPhoneNumber, customerBody, transactionBody } from '../../support/generation/bodies.ts';

test.describe('createTransaction: POST /transactions', () => {
  test('a valid body is accepted with a 2xx status', covers('TXN-CREATE-2XX'), async ({ api, target }, testInfo) => {
    requireWrites(target);
    const exchange = await api.call('createTransaction', { body: transactionBody(target, testInfo.title) });
    expectRule('TXN-CREATE-2XX', exchange, statusIsSuccess(exchange));
  });

  test('the response is a Transaction object', covers('TXN-CREATE-SCHEMA'), async ({ api, target }, testInfo) => {
    requireWrites(target);
    const exchange = await api.call('createTransaction', { body: transactionBody(target, testInfo.title) });
    precondition('TXN-CREATE-2XX', exchange, statusIsSuccess(exchange));
    expectRule('TXN-CREATE-SCHEMA', exchange, bodyMatchesSchema(exchange, 'transaction'));
  });

  test('the response declares Content-Type application/json', covers('JSON-CONTENT-TYPE'), async ({ createdTransaction }) => {
    const { exchange } = createdTransaction;
    expectRule('JSON-CONTENT-TYPE', exchange, contentTypeIsJson(exchange));
  });

  test('the created transaction echoes amount, description and callback_url', covers('TXN-CREATE-ECHO'), async ({ createdTransaction }) => {
    const { exchange, sent } = createdTransaction;
    expectRule('TXN-CREATE-ECHO', exchange, [
      ...bodyValueEquals(exchange, '/amount', sent.amount),
      ...bodyValueEquals(exchange, '/description', sent.description),
      ...bodyValueEquals(exchange, '/callback_url', sent.callback_url),
    ]);
  });

  test('quirk: mode, absent from the documented body shape, is accepted', covers('TXN-CREATE-MODE-ACCEPTED'), async ({ api, target }, testInfo) => {
    requireWrites(target);
    const body = { ...transactionBody(target, testInfo.title), mode: target.paymentMode };
    const exchange = await api.call('createTransaction', { body });
    expectRule('TXN-CREATE-MODE-ACCEPTED', exchange, statusIsSuccess(exchange));
  });

  test('quirk: customer.phone_number.number sent as a JSON number is accepted', covers('TXN-CREATE-PHONE-NUMBER-NUMERIC'), async ({ api, target }, testInfo) => {
    requireWrites(target);
    const phone = creationPhoneNumber(target);
    test.expect(typeof phone.number, 'the creation shape types the number as a number').toBe('number');
    const { email, firstname, lastname } = customerBody(target);
    const body = { ...transactionBody(target, testInfo.title), customer: { email, firstname, lastname, phone_number: phone } };
    const exchange = await api.call('createTransaction', { body });
    expectRule('TXN-CREATE-PHONE-NUMBER-NUMERIC', exchange, statusIsSuccess(exchange));
  });

  test('an existing customer referenced by id alone is accepted', covers('TXN-CREATE-CUSTOMER-BY-ID'), async ({ api, target, customers }, testInfo) => {
    const { id } = await customers.create();
    const body = { ...transactionBody(target, testInfo.title), customer: { id } };
    const exchange = await api.call('createTransaction', { body });
    expectRule('TXN-CREATE-CUSTOMER-BY-ID', exchange, statusIsSuccess(exchange));
  });

  // Wrong JSON types for the fields a transaction cannot do without (inferred: error statuses are not shown).
  const wrongTypes: Array<{ name: string; change: Record<string, unknown> }> = [
    { name: 'amount as a string', change: { amount: '1500' } },
    { name: 'amount as a boolean', change: { amount: true } },
    { name: 'amount as an object', change: { amount: { value: 1500 } } },
    { name: 'amount as a fraction', change: { amount: 1500.5 } },
    { name: 'currency as a string', change: { currency: 'XOF' } },
    { name: 'currency as a number', change: { currency: 952 } },
  ];
  for (const { name, change } of wrongTypes) {
    test(`a body with ${name} is refused with a 4xx`, covers('TXN-CREATE-INVALID-4XX'), async ({ api, target }, testInfo) => {
      requireWrites(target);
      const exchange = await api.call('createTransaction', { body: { ...transactionBody(target, testInfo.title), ...change } });
      expectRule('TXN-CREATE-INVALID-4XX', exchange, statusIsClientError(exchange));
    });
  }

  for (const [name, body] of [
    ['a JSON array', []],
    ['JSON null', null],
    ['a JSON string', 'amount=1500'],
  ] as const) {
    test(`a body that is ${name}, not an object, is refused with a 4xx`, covers('TXN-CREATE-INVALID-4XX'), async ({ api, target }) => {
      requireWrites(target);
      const exchange = await api.call('createTransaction', { rawBody: JSON.stringify(body), contentType: 'application/json' });
      expectRule('TXN-CREATE-INVALID-4XX', exchange, statusIsClientError(exchange));
    });
  }

  test('a body that is not valid JSON is refused with a 4xx', covers('MALFORMED-JSON-4XX'), async ({ api, target }) => {
    requireWrites(target);
    const exchange = await api.call('createTransaction', { rawBody: '{"amount": 1500, "currency": {"iso": ', contentType: 'application/json' });
    expectRule('MALFORMED-JSON-4XX', exchange, statusIsClientError(exchange));
  });

  test('a body not declared as application/json is refused with a 4xx', covers('MALFORMED-JSON-4XX'), async ({ api, target }) => {
    requireWrites(target);
    const exchange = await api.call('createTransaction', { rawBody: '<transaction><amount>1500</amount></transaction>', contentType: 'application/xml' });
    expectRule('MALFORMED-JSON-4XX', exchange, statusIsClientError(exchange));
  });
});
