/**
 * createTransaction: POST /transactions (reference: Endpoints > 2. Create a transaction).
 * The success status is not shown: any 2xx passes and the actual one is recorded.
 */
import { test, expectAnswer, expectRule, requireWrites } from '../../suite/fixtures.ts';
import { covers } from '../../judgment/covers.ts';
import {
  callbackBase,
  creationPhoneNumber,
  customerBody,
  sendPhoneNumber,
  transactionBody,
} from '../../generation/bodies.ts';
import { lenientTextExamples, pinnedValues } from '../../generation/arbitraries.ts';
import { classifyText } from '../../judgment/text-class.ts';
import { classifyField, classPhrase, declaredContentType, type ClassifiedInput } from '../../judgment/input-class.ts';
import { bodyAsRead, creationRule } from '../../judgment/accepted-input.ts';
import { accepted, classified, refused } from '../../judgment/expectations.ts';
import { isSuccess } from '../../judgment/checks.ts';
import {
  amountPointer,
  notGivenAmountViolations,
  owesAnswerWithoutAmount,
  withoutAmount,
} from '../../judgment/rules/money.ts';
import { namedCustomerIds } from '../../judgment/rules/references.ts';
import type { Reading } from '../../judgment/readings.ts';
import { replaceAt } from '../../contract/schema-paths.ts';

// Every accepted creation is judged by the registry (judgment/registry.ts): its shape (TXN-CREATE-SCHEMA),
// its Content-Type (JSON-CONTENT-TYPE) and the echo of what was sent (TXN-CREATE-ECHO); the tests that name those
// rules in their titles are where a failure of the rule is expected first.

test.describe('createTransaction: POST /transactions', () => {
  for (const [title, rule] of [
    ['a valid body is accepted with a 2xx status', 'TXN-CREATE-2XX'],
    ['the response is a Transaction object', 'TXN-CREATE-SCHEMA'],
    ['the response declares Content-Type application/json', 'JSON-CONTENT-TYPE'],
    ['the created transaction echoes amount, description and callback_url', 'TXN-CREATE-ECHO'],
    ["the created transaction's created_at and updated_at are the server's present time", 'TIME-NOW'],
    ["the created transaction's updated_at is not before its created_at", 'TIME-ORDER'],
  ] as const) {
    test(title, covers(rule), async ({ api, target }, testInfo) => {
      requireWrites(target);
      const sent = transactionBody(target, testInfo.title);
      const exchange = await api.call('createTransaction', { body: sent });
      expectAnswer(exchange, accepted('TXN-CREATE-2XX', { read: { ...sent } }));
    });
  }

  test(
    'quirk: mode, absent from the documented body shape, is accepted',
    covers('TXN-CREATE-MODE-ACCEPTED'),
    async ({ api, target }, testInfo) => {
      requireWrites(target);
      const sent = transactionBody(target, testInfo.title);
      const exchange = await api.call('createTransaction', { body: { ...sent, mode: target.paymentMode } });
      expectAnswer(exchange, accepted('TXN-CREATE-MODE-ACCEPTED', { read: { ...sent } }));
    },
  );

  test(
    'quirk: customer.phone_number.number sent as a JSON number is accepted',
    covers('TXN-CREATE-PHONE-NUMBER-NUMERIC'),
    async ({ api, target }, testInfo) => {
      requireWrites(target);
      const phone = creationPhoneNumber(target);
      test.expect(typeof phone.number, 'the creation shape types the number as a number').toBe('number');
      const { email, firstname, lastname } = customerBody(target);
      const sent = transactionBody(target, testInfo.title);
      const body = { ...sent, customer: { email, firstname, lastname, phone_number: phone } };
      const exchange = await api.call('createTransaction', { body });
      expectAnswer(exchange, accepted('TXN-CREATE-PHONE-NUMBER-NUMERIC', { read: { ...sent } }));
    },
  );

  // The resource table types the number "string or integer", the creation shape a number: a server following the
  // shape may refuse the string form. Accept or refuse; never a 5xx.
  const stringPhone: ClassifiedInput = {
    class: 'accept-or-refuse',
    strictRefuses: false,
    readings: [{ kind: 'as-sent', value: undefined }],
    what: '/customer/phone_number/number as a string of the international form',
    why: 'the resource types the number "string or integer", the creation shape types it as a number',
  };
  test(
    `input ${stringPhone.what}: ${classPhrase(stringPhone)}`,
    covers('TXN-CREATE-OPEN-INPUT'),
    async ({ api, target }, testInfo) => {
      requireWrites(target);
      const { email, firstname, lastname } = customerBody(target);
      const sent = transactionBody(target, testInfo.title);
      const body = { ...sent, customer: { email, firstname, lastname, phone_number: sendPhoneNumber(target) } };
      const exchange = await api.call('createTransaction', { body });
      expectAnswer(
        exchange,
        classified('TXN-CREATE-OPEN-INPUT', stringPhone, target.strict, () => ({ read: { ...sent } })),
      );
    },
  );

  test(
    'an existing customer referenced by id alone is accepted',
    covers('TXN-CREATE-CUSTOMER-BY-ID'),
    async ({ api, target, customers }, testInfo) => {
      const { id } = await customers.create();
      const sent = transactionBody(target, testInfo.title);
      const exchange = await api.call('createTransaction', { body: { ...sent, customer: { id } } });
      expectAnswer(exchange, accepted('TXN-CREATE-CUSTOMER-BY-ID', { read: { ...sent }, customerId: id }));
    },
  );

  test(
    'a transaction referencing an existing customer by id names that customer, where its answer names one',
    covers('TXN-CREATE-CUSTOMER-KEPT'),
    async ({ api, target, customers }, testInfo) => {
      const { id } = await customers.create();
      const sent = transactionBody(target, testInfo.title);
      const exchange = await api.call('createTransaction', { body: { ...sent, customer: { id } } });
      expectAnswer(exchange, accepted('TXN-CREATE-CUSTOMER-BY-ID', { read: { ...sent }, customerId: id }));
      // An answer that names no customer conforms; with nothing compared, the rule is not checked.
      test.skip(
        testInfo.errors.length === 0 && namedCustomerIds(exchange.json).length === 0,
        'the answer names no customer (no customer_id, customer.id or customer): nothing to compare',
      );
    },
  );

  // One field of another JSON type, with the rule it is judged under. Its class is computed from schemas/
  // (judgment/input-class.ts), and a rule that disagrees with the class is an error at load time. No reading
  // makes "abc" an integer: must refuse; none makes 1500.5 or "1500.5" one either, and accepting them charges another
  // amount (TXN-CREATE-AMOUNT-EXACT). A coercing parser reads "1500" as 1500, a framework casts false to "false",
  // "False", "f" or "0", a parameter filter drops a field of another kind, and a server may read null as "not given":
  // accept or refuse, and an accepted answer carries the value as read.
  const mistyped: Array<[pointer: string, value: unknown, rule: string]> = [
    ['/amount', '1500', 'TXN-CREATE-OPEN-INPUT'],
    ['/amount', 'abc', 'TXN-CREATE-INVALID-4XX'],
    ['/amount', true, 'TXN-CREATE-AMOUNT-EXACT'],
    ['/amount', false, 'TXN-CREATE-AMOUNT-EXACT'],
    ['/amount', '0x10', 'TXN-CREATE-AMOUNT-EXACT'],
    ['/amount', { value: 1500 }, 'TXN-CREATE-OPEN-INPUT'],
    ['/amount', 1500.5, 'TXN-CREATE-AMOUNT-EXACT'],
    ['/amount', '1500.5', 'TXN-CREATE-AMOUNT-EXACT'],
    ['/amount', [1500], 'TXN-CREATE-OPEN-INPUT'],
    ['/amount', null, 'TXN-CREATE-OPEN-INPUT'],
    ['/currency', 'XOF', 'TXN-CREATE-OPEN-INPUT'],
    ['/currency', 952, 'TXN-CREATE-OPEN-INPUT'],
    ['/currency', null, 'TXN-CREATE-OPEN-INPUT'],
    ['/currency/iso', null, 'TXN-CREATE-OPEN-INPUT'],
    ['/description', 1500, 'TXN-CREATE-OPEN-INPUT'],
    ['/description', false, 'TXN-CREATE-OPEN-INPUT'],
    ['/description', { text: 'x' }, 'TXN-CREATE-OPEN-INPUT'],
    ['/custom_metadata', 'x', 'TXN-CREATE-OPEN-INPUT'],
    ['/custom_metadata', null, 'TXN-CREATE-OPEN-INPUT'],
    ['/custom_metadata', [], 'TXN-CREATE-OPEN-INPUT'],
  ];
  // An amount that names no number (null, an array, an object) is never read as an amount: accepted as "not given",
  // it owes what the same body without an amount is given (judgment/rules/money.ts), which is sent first, so
  // that a proxy's judge meets it first too.
  for (const [pointer, value, rule] of mistyped) {
    const input = classifyField('create-transaction-body', pointer, value);
    if (creationRule(input) !== rule)
      throw new Error(`${input.what}: class ${input.class} is judged under ${creationRule(input)}, not ${rule}`);
    const notGiven = owesAnswerWithoutAmount(input, value);
    const rules = notGiven ? [rule, 'TXN-CREATE-AMOUNT-EXACT'] : [rule];
    test(`input ${input.what}: ${classPhrase(input)}`, covers(...rules), async ({ api, target }, testInfo) => {
      requireWrites(target);
      const sent = transactionBody(target, testInfo.title);
      const body = replaceAt(sent, pointer, value);
      const read = (at: string) => (reading: Reading) => ({ read: bodyAsRead(sent, at, reading) });
      const twin = notGiven ? await api.call('createTransaction', { body: withoutAmount(body) }) : undefined;
      if (twin !== undefined) {
        const missing = classifyField('create-transaction-body', amountPointer, undefined);
        expectAnswer(twin, classified('TXN-CREATE-OPEN-INPUT', missing, target.strict, read(amountPointer)), {
          soft: true,
        });
      }
      const exchange = await api.call('createTransaction', { body });
      expectAnswer(exchange, classified(rule, input, target.strict, read(pointer)), { soft: notGiven });
      if (twin !== undefined && isSuccess(exchange.status))
        expectRule('TXN-CREATE-AMOUNT-EXACT', exchange, notGivenAmountViolations(exchange, twin, input.what));
    });
  }

  // The body as JSON text that a mainstream parser reads beyond RFC 8259, or with an integer spelled otherwise: one
  // form each (generation/json-text.ts). Its class comes from how each parser reads it
  // (judgment/text-class.ts): accept or refuse, an accepted answer carrying the body as that parser read it
  // (--strict: refuse); read only into a body no reading makes valid (NaN for the amount): must refuse.
  const representative = {
    description: 'collect-conformance example',
    amount: 1500,
    currency: { iso: 'XOF' },
    callback_url: `${callbackBase}/cc-example`,
    custom_metadata: { collect_conformance_run: 'cc-example' },
  };
  for (const { form, text } of lenientTextExamples(representative)) {
    const input = classifyText('create-transaction-body', representative, text);
    test(
      `input the body as text with ${form}: ${classPhrase(input)}`,
      covers(creationRule(input)),
      async ({ api, target }, testInfo) => {
        requireWrites(target);
        const sent = transactionBody(target, testInfo.title);
        const example = lenientTextExamples(sent).find((candidate) => candidate.form === form);
        test.skip(example === undefined, `the body has no place for ${form}`);
        const exchange = await api.call('createTransaction', {
          rawBody: example!.text,
          contentType: 'application/json',
        });
        const classifiedText = classifyText('create-transaction-body', sent, example!.text, () => ({
          pinned: pinnedValues(target),
        }));
        expectAnswer(
          exchange,
          classified(creationRule(classifiedText), classifiedText, target.strict, (reading) => ({
            read: bodyAsRead(undefined, '', reading),
          })),
        );
      },
    );
  }

  for (const [name, body] of [
    ['a JSON array', []],
    ['JSON null', null],
    ['a JSON string', 'amount=1500'],
  ] as const) {
    test(
      `a body that is ${name}, not an object, is refused with a 4xx`,
      covers('TXN-CREATE-INVALID-4XX'),
      async ({ api, target }) => {
        requireWrites(target);
        const exchange = await api.call('createTransaction', {
          rawBody: JSON.stringify(body),
          contentType: 'application/json',
        });
        expectAnswer(exchange, refused('TXN-CREATE-INVALID-4XX'));
      },
    );
  }

  for (const contentType of ['text/plain', undefined]) {
    const input = declaredContentType(contentType, {});
    test(
      `input ${input.what}: ${classPhrase(input)}`,
      covers('TXN-CREATE-OPEN-INPUT'),
      async ({ api, target }, testInfo) => {
        requireWrites(target);
        const sent = transactionBody(target, testInfo.title);
        const exchange = await api.call('createTransaction', {
          rawBody: JSON.stringify(sent),
          ...(contentType === undefined ? {} : { contentType }),
        });
        expectAnswer(
          exchange,
          classified('TXN-CREATE-OPEN-INPUT', input, target.strict, () => ({ read: { ...sent } })),
        );
      },
    );
  }

  test('a body that is not valid JSON is refused with a 4xx', covers('MALFORMED-JSON-4XX'), async ({ api, target }) => {
    requireWrites(target);
    const exchange = await api.call('createTransaction', {
      rawBody: '{"amount": 1500, "currency": {"iso": ',
      contentType: 'application/json',
    });
    expectAnswer(exchange, refused('MALFORMED-JSON-4XX'));
  });

  test(
    'a body that is not JSON (XML), whatever it declares, is refused with a 4xx',
    covers('MALFORMED-JSON-4XX'),
    async ({ api, target }) => {
      requireWrites(target);
      const exchange = await api.call('createTransaction', {
        rawBody: '<transaction><amount>1500</amount></transaction>',
        contentType: 'application/xml',
      });
      expectAnswer(exchange, refused('MALFORMED-JSON-4XX'));
    },
  );
});
