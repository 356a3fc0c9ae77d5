/**
 * createTransaction: POST /transactions (reference: Endpoints > 2. Create a transaction).
 * The success status is not shown: any 2xx passes and the actual one is recorded.
 */
import { test, expectRule, precondition, requireWrites } from '../../support/fixtures.ts';
import { covers } from '../../support/judgment/covers.ts';
import { bodyMatchesSchema, contentTypeIsJson, statusIsClientError, statusIsSuccess } from '../../support/judgment/checks.ts';
import { creationPhoneNumber, customerBody, sendPhoneNumber, transactionBody } from '../../support/generation/bodies.ts';
import { classifyField, classPhrase, declaredContentType, type ClassifiedInput } from '../../support/judgment/input-class.ts';
import { expectInput } from '../../support/judgment/expect-rule.ts';
import { echoViolations } from '../../support/judgment/echo.ts';
import { acceptedTransaction, bodyAsRead, creationRule } from '../../support/judgment/accepted.ts';
import { replaceAt } from '../../contract/schema-paths.ts';

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
    expectRule('TXN-CREATE-ECHO', exchange, echoViolations(exchange, { ...sent }));
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

  // The resource table types the number "string or integer", the creation shape a number: a server following the
  // shape may refuse the string form. Accept or refuse; never a 5xx.
  const stringPhone: ClassifiedInput = {
    class: 'accept-or-refuse',
    strictRefuses: false,
    readings: [{ kind: 'as-sent', value: undefined }],
    what: '/customer/phone_number/number as a string of the international form',
    why: 'the resource types the number "string or integer", the creation shape types it as a number',
  };
  test(`input ${stringPhone.what}: ${classPhrase(stringPhone)}`, covers('TXN-CREATE-OPEN-INPUT'), async ({ api, target }, testInfo) => {
    requireWrites(target);
    const { email, firstname, lastname } = customerBody(target);
    const sent = transactionBody(target, testInfo.title);
    const body = { ...sent, customer: { email, firstname, lastname, phone_number: sendPhoneNumber(target) } };
    const exchange = await api.call('createTransaction', { body });
    expectInput('TXN-CREATE-OPEN-INPUT', exchange, stringPhone, target.strict, () => acceptedTransaction(exchange, { ...sent }));
  });

  test('an existing customer referenced by id alone is accepted', covers('TXN-CREATE-CUSTOMER-BY-ID'), async ({ api, target, customers }, testInfo) => {
    const { id } = await customers.create();
    const body = { ...transactionBody(target, testInfo.title), customer: { id } };
    const exchange = await api.call('createTransaction', { body });
    expectRule('TXN-CREATE-CUSTOMER-BY-ID', exchange, statusIsSuccess(exchange));
  });

  // One field of another JSON type: its class is computed from schemas/ (support/judgment/input-class.ts), not
  // written here. No reading makes "abc" an integer: must refuse. A coercing parser reads "1500" as 1500, and a
  // server may read null as "not given": accept or refuse, and an accepted answer carries the value as read.
  const mistyped: Array<[pointer: string, value: unknown]> = [
    ['/amount', '1500'],
    ['/amount', 'abc'],
    ['/amount', true],
    ['/amount', { value: 1500 }],
    ['/amount', 1500.5],
    ['/amount', [1500]],
    ['/amount', null],
    ['/currency', 'XOF'],
    ['/currency', 952],
    ['/currency', null],
    ['/currency/iso', null],
    ['/description', 1500],
    ['/description', { text: 'x' }],
    ['/custom_metadata', 'x'],
    ['/custom_metadata', null],
    ['/custom_metadata', []],
  ];
  for (const [pointer, value] of mistyped) {
    const input = classifyField('create-transaction-body', pointer, value);
    const ruleId = creationRule(input);
    test(`input ${input.what}: ${classPhrase(input)}`, covers(ruleId), async ({ api, target }, testInfo) => {
      requireWrites(target);
      const sent = transactionBody(target, testInfo.title);
      const exchange = await api.call('createTransaction', { body: replaceAt(sent, pointer, value) });
      expectInput(ruleId, exchange, input, target.strict, (reading) => acceptedTransaction(exchange, bodyAsRead(sent, pointer, reading)));
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

  for (const contentType of ['text/plain', undefined]) {
    const input = declaredContentType(contentType, {});
    test(`input ${input.what}: ${classPhrase(input)}`, covers('TXN-CREATE-OPEN-INPUT'), async ({ api, target }, testInfo) => {
      requireWrites(target);
      const sent = transactionBody(target, testInfo.title);
      const exchange = await api.call('createTransaction', { rawBody: JSON.stringify(sent), ...(contentType === undefined ? {} : { contentType }) });
      expectInput('TXN-CREATE-OPEN-INPUT', exchange, input, target.strict, () => acceptedTransaction(exchange, { ...sent }));
    });
  }

  test('a body that is not valid JSON is refused with a 4xx', covers('MALFORMED-JSON-4XX'), async ({ api, target }) => {
    requireWrites(target);
    const exchange = await api.call('createTransaction', { rawBody: '{"amount": 1500, "currency": {"iso": ', contentType: 'application/json' });
    expectRule('MALFORMED-JSON-4XX', exchange, statusIsClientError(exchange));
  });

  test('a body that is not JSON (XML), whatever it declares, is refused with a 4xx', covers('MALFORMED-JSON-4XX'), async ({ api, target }) => {
    requireWrites(target);
    const exchange = await api.call('createTransaction', { rawBody: '<transaction><amount>1500</amount></transaction>', contentType: 'application/xml' });
    expectRule('MALFORMED-JSON-4XX', exchange, statusIsClientError(exchange));
  });
});
