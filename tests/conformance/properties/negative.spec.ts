/**
 * Negative properties: generated requests off the safe path. Bodies with one field of another
 * JSON type, a send body without its required token, malformed JSON, valid JSON declared with
 * another Content-Type, and path parameters that name nothing. Each input is judged by its
 * class, computed from schemas/ (judgment/input-class.ts): a 4xx where no reading
 * makes it valid (must refuse); a 4xx, or a 2xx whose answer carries the value as read, where
 * the reference leaves it open (accept or refuse; --strict: refuse); "never a 2xx" for the
 * documented required token, "never a 5xx" for unknown path parameters, 404 for unknown
 * customer ids (documented).
 */
import fc from 'fast-check';
import { test, requireWrites } from '../../../suite/fixtures.ts';
import { covers } from '../../../judgment/covers.ts';
import {
  acceptedSendPhone,
  acceptedTransactionBody,
  asText,
  lenientTextExamples,
  oneWrongField,
  oneWrongFieldExamples,
  pinnedValues,
  schemaAt,
  unicodeText,
  wrongTypeFor,
  type TextCase,
} from '../../../generation/arbitraries.ts';
import { holds, holdsAnswer, needsAnswer, runProperty } from '../../../generation/properties.ts';
import { isSuccess } from '../../../judgment/checks.ts';
import {
  amountPointer,
  notGivenAmountViolations,
  owesAnswerWithoutAmount,
  withoutAmount,
} from '../../../judgment/rules/money.ts';
import { edgeLargeId, edgeOddId, edgeUnknownId, isLargeId, readsAsInteger } from '../../../generation/edges.ts';
import { classifyField, declaredContentType } from '../../../judgment/input-class.ts';
import { classifyText } from '../../../judgment/text-class.ts';
import { bodyAsRead, creationRule, sendRule } from '../../../judgment/accepted-input.ts';
import {
  accepted,
  classified,
  exactly,
  notAccepted,
  notServerError,
  noting,
  refused,
  type AnswerContext,
} from '../../../judgment/expectations.ts';
import type { Reading } from '../../../judgment/readings.ts';
import type { FastClient } from '../../../http/fast-client.ts';
import type { Target } from '../../../settings/target.ts';
import type { CreateTransactionBody, SendTransactionBody } from '../../../contract/types.ts';

interface Issued {
  token: unknown;
  /** The amount of the transaction the token pays: an accepted send answers intents of it. */
  amount: number;
}

/** Creates a transaction and issues its link once per property: the token the send bodies carry. */
async function issuedToken(client: FastClient, target: Target): Promise<Issued> {
  const body = fc.sample(acceptedTransactionBody<CreateTransactionBody>(target), { numRuns: 1, seed: 1 })[0]!;
  const created = await client.call('createTransaction', { body });
  needsAnswer(created, accepted('TXN-CREATE-2XX', { read: { ...body } }));
  const link = await client.call('getPaymentLink', { params: { id: (created.json as { id: number }).id } });
  needsAnswer(link, accepted('LINK-2XX'));
  return { token: (link.json as { token: unknown }).token, amount: body.amount };
}

/** The issued token in the forms a send accepts: as returned, and its integer form when it is digits. */
function namesToken(token: unknown): (value: unknown) => boolean {
  return (value) =>
    value === token || (typeof token === 'string' && typeof value === 'number' && String(value) === token);
}

/**
 * Path parameter values that name nothing, or are not even ids:
 * huge, negative, fractional, text, Unicode, the id edges.
 */
/** Path ids every run meets first (fast-check examples): each kind of odd id once, 16 digits and more among them. */
const oddPathExamples: Array<string | number> = [
  0,
  -1,
  '007',
  2 ** 31,
  2 ** 53 - 1,
  '9007199254740993',
  '18446744073709551616',
  '12345678901234567890',
  '1.5',
  'abc',
];

const oddPathValue: fc.Arbitrary<string | number> = fc.oneof(
  edgeUnknownId,
  edgeOddId,
  edgeLargeId,
  fc.integer({ min: -(2 ** 31), max: 0 }),
  fc.constantFrom('99999999999999999999999', '1.5', '1e3', '0x10', ' 1', 'null', 'undefined', '%00'),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 40 }),
  unicodeText(1, 40),
);

/** Content-Types other than JSON's, declared on a JSON body (none at all is generated too). */
const otherContentTypes = fc.constantFrom(
  'text/plain',
  'text/html',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=collect-conformance',
  'application/octet-stream',
);

test.describe('properties: invalid requests', () => {
  test(
    'property: a creation body with a field of another JSON type is refused, unless a reading makes it valid',
    covers('TXN-CREATE-INVALID-4XX', 'TXN-CREATE-AMOUNT-EXACT', 'TXN-CREATE-OPEN-INPUT'),
    async ({ target }, testInfo) => {
      requireWrites(target);
      const pointers = ['/amount', '/currency', '/currency/iso', '/description', '/callback_url', '/custom_metadata'];
      const wrongField = oneWrongField(
        'create-transaction-body',
        acceptedTransactionBody<CreateTransactionBody>(target),
        pointers,
      );
      const notAnObject = wrongTypeFor(schemaAt('create-transaction-body', '')).map((body) => ({
        valid: undefined,
        pointer: '',
        value: body,
        body,
      }));
      const [safeBody] = fc.sample(acceptedTransactionBody<CreateTransactionBody>(target), { numRuns: 1, seed: 42 });
      await runProperty({
        testInfo,
        target,
        // Each value of another type the input cases name for a field first (an amount true, null, [1500], "0x10").
        examples: oneWrongFieldExamples<CreateTransactionBody | undefined>(
          'create-transaction-body',
          safeBody!,
          pointers,
        ),
        arbitrary: fc.oneof({ weight: 5, arbitrary: wrongField }, { weight: 1, arbitrary: notAnObject }),
        async predicate(wrong, client) {
          const input = classifyField('create-transaction-body', wrong.pointer, wrong.value);
          // An amount read as "not given" owes what the same body without an amount is given (rules/money.ts): that
          // body goes first, so that a proxy's judge meets it first too.
          const notGiven = owesAnswerWithoutAmount(input, wrong.value);
          const twin = notGiven
            ? await client.call('createTransaction', { body: withoutAmount(wrong.body) })
            : undefined;
          if (twin !== undefined) {
            const missing = classifyField('create-transaction-body', amountPointer, undefined);
            holdsAnswer(
              twin,
              classified('TXN-CREATE-OPEN-INPUT', missing, target.strict, (reading) => ({
                read: bodyAsRead(wrong.valid, amountPointer, reading),
              })),
            );
          }
          const exchange = await client.call('createTransaction', { body: wrong.body });
          const read = (reading: Reading): AnswerContext => ({ read: bodyAsRead(wrong.valid, wrong.pointer, reading) });
          holdsAnswer(exchange, classified(creationRule(input), input, target.strict, read));
          if (twin !== undefined && isSuccess(exchange.status))
            holds('TXN-CREATE-AMOUNT-EXACT', exchange, notGivenAmountViolations(exchange, twin, input.what));
        },
      });
    },
  );

  test(
    'property: a send body with a field of another JSON type is refused, unless a reading makes it valid',
    covers('SEND-INVALID-4XX', 'SEND-OPEN-INPUT'),
    async ({ target }, testInfo) => {
      requireWrites(target);
      await runProperty({
        testInfo,
        target,
        setup: (client) => issuedToken(client, target),
        // The valid document is rebuilt around the real token inside the predicate; here only the change is generated.
        arbitrary: oneWrongField<SendTransactionBody>(
          'send-transaction-body',
          acceptedSendPhone(target).map((phone) => ({
            token: 'TOKEN',
            phone_number: phone ?? {
              number: `+${target.phoneNumber.replace(/^\+/, '')}`,
              country: target.phoneCountry,
            },
          })),
          ['/token', '/phone_number', '/phone_number/number', '/phone_number/country'],
        ),
        async predicate(wrong, client, issued) {
          const body = wrong.pointer === '/token' ? wrong.body : { ...(wrong.body as object), token: issued.token };
          const exchange = await client.call('sendTransaction', { params: { mode: target.paymentMode }, body });
          // A token of another type is usable only if a reading of it is the token issued.
          const input = classifyField(
            'send-transaction-body',
            wrong.pointer,
            wrong.value,
            wrong.pointer === '/token' ? { usable: namesToken(issued.token) } : {},
          );
          holdsAnswer(
            exchange,
            classified(sendRule(input), input, target.strict, () => ({ amount: issued.amount })),
          );
        },
      });
    },
  );

  test(
    'property: a send body without token is never accepted',
    covers('SEND-TOKEN-REQUIRED'),
    async ({ target }, testInfo) => {
      requireWrites(target);
      await runProperty({
        testInfo,
        target,
        arbitrary: acceptedSendPhone(target).map((phone) => (phone === undefined ? {} : { phone_number: phone })),
        async predicate(body, client) {
          const exchange = await client.call('sendTransaction', { params: { mode: target.paymentMode }, body });
          holdsAnswer(exchange, notAccepted('SEND-TOKEN-REQUIRED'));
        },
      });
    },
  );

  test(
    'property: bodies no mainstream JSON parser reads are refused with a 4xx',
    covers('MALFORMED-JSON-4XX'),
    async ({ target }, testInfo) => {
      requireWrites(target);
      await runProperty({
        testInfo,
        target,
        setup: (client) => issuedToken(client, target),
        arbitrary: fc.oneof(
          asText(acceptedTransactionBody<CreateTransactionBody>(target), 'malformed').map(({ text }) => ({
            operation: 'createTransaction' as const,
            text,
          })),
          // The token is a placeholder replaced by the real one (same length class) before sending.
          asText(fc.constant({ token: '@TOKEN@' }), 'malformed').map(({ text }) => ({
            operation: 'sendTransaction' as const,
            text,
          })),
        ),
        async predicate(input, client, issued) {
          const exchange =
            input.operation === 'createTransaction'
              ? await client.call('createTransaction', { rawBody: input.text, contentType: 'application/json' })
              : await client.call('sendTransaction', {
                  params: { mode: target.paymentMode },
                  rawBody: input.text.replace('@TOKEN@', String(issued.token)),
                  contentType: 'application/json',
                });
          holdsAnswer(exchange, refused('MALFORMED-JSON-4XX'));
        },
      });
    },
  );

  test(
    'property: a body a mainstream JSON parser reads beyond RFC 8259 (comments, unknown escapes, trailing commas, ' +
      'single quotes, leading zeros, NaN, text after it) is refused, or accepted as that parser read it',
    covers('TXN-CREATE-OPEN-INPUT', 'SEND-OPEN-INPUT', 'MALFORMED-JSON-4XX'),
    async ({ target }, testInfo) => {
      requireWrites(target);
      const creations = acceptedTransactionBody<CreateTransactionBody>(target);
      const [example] = fc.sample(creations, { numRuns: 1, seed: 42 });
      const sendBody = { token: '@TOKEN@' };
      type Lenient = TextCase<CreateTransactionBody | { token: unknown }> & { operation: 'create' | 'send' };
      const tagged =
        (operation: Lenient['operation']) =>
        (entry: TextCase<CreateTransactionBody | { token: unknown }>): Lenient => ({ ...entry, operation });
      await runProperty({
        testInfo,
        target,
        setup: (client) => issuedToken(client, target),
        // Every form first, on one creation and on a send; then random forms at random places.
        examples: [
          ...lenientTextExamples<CreateTransactionBody | { token: unknown }>(example!).map(tagged('create')),
          ...lenientTextExamples<CreateTransactionBody | { token: unknown }>(sendBody).map(tagged('send')),
        ],
        arbitrary: fc.oneof(
          {
            weight: 3,
            arbitrary: asText<CreateTransactionBody | { token: unknown }>(creations, 'lenient').map(tagged('create')),
          },
          {
            weight: 1,
            arbitrary: asText<CreateTransactionBody | { token: unknown }>(fc.constant(sendBody), 'lenient').map(
              tagged('send'),
            ),
          },
        ),
        async predicate(input, client, issued) {
          if (input.operation === 'create') {
            const exchange = await client.call('createTransaction', {
              rawBody: input.text,
              contentType: 'application/json',
            });
            const classifiedText = classifyText('create-transaction-body', input.valid, input.text, () => ({
              pinned: pinnedValues(target),
            }));
            const read = (reading: Reading): AnswerContext => ({ read: bodyAsRead(undefined, '', reading) });
            holdsAnswer(exchange, classified(creationRule(classifiedText), classifiedText, target.strict, read));
            return;
          }
          // The issued token, spelled in JSON as the placeholder was (a string's quotes stay the text's own).
          const token = JSON.stringify(issued.token);
          const text = input.text.replace(/"@TOKEN@"|'@TOKEN@'|@TOKEN@/, (found) =>
            found.startsWith("'") ? `'${token.slice(1, -1)}'` : found.startsWith('"') ? token : token.slice(1, -1),
          );
          const exchange = await client.call('sendTransaction', {
            params: { mode: target.paymentMode },
            rawBody: text,
            contentType: 'application/json',
          });
          const classifiedText = classifyText('send-transaction-body', { token: issued.token }, text, (pointer) =>
            pointer === '/token' ? { usable: namesToken(issued.token) } : {},
          );
          holdsAnswer(
            exchange,
            classified(sendRule(classifiedText), classifiedText, target.strict, () => ({ amount: issued.amount })),
          );
        },
      });
    },
  );

  test(
    'property: valid JSON declared with another Content-Type may be refused or accepted as JSON',
    covers('TXN-CREATE-OPEN-INPUT', 'SEND-OPEN-INPUT'),
    async ({ target }, testInfo) => {
      requireWrites(target);
      await runProperty({
        testInfo,
        target,
        setup: (client) => issuedToken(client, target),
        arbitrary: fc.record({
          operation: fc.constantFrom('createTransaction' as const, 'sendTransaction' as const),
          body: acceptedTransactionBody<CreateTransactionBody>(target),
          contentType: fc.option(otherContentTypes, { nil: undefined }),
        }),
        async predicate(input, client, issued) {
          const declared = input.contentType === undefined ? {} : { contentType: input.contentType };
          if (input.operation === 'createTransaction') {
            const exchange = await client.call('createTransaction', {
              rawBody: JSON.stringify(input.body),
              ...declared,
            });
            const declaredInput = declaredContentType(input.contentType, input.body);
            holdsAnswer(
              exchange,
              classified('TXN-CREATE-OPEN-INPUT', declaredInput, target.strict, () => ({ read: { ...input.body } })),
            );
          } else {
            const exchange = await client.call('sendTransaction', {
              params: { mode: target.paymentMode },
              rawBody: JSON.stringify({ token: issued.token }),
              ...declared,
            });
            const declaredInput = declaredContentType(input.contentType, { token: issued.token });
            holdsAnswer(
              exchange,
              classified('SEND-OPEN-INPUT', declaredInput, target.strict, () => ({ amount: issued.amount })),
            );
          }
        },
      });
    },
  );

  test(
    'property: deleting a customer id that does not exist gives 404',
    covers('CUSTOMER-DELETE-404'),
    async ({ target }, testInfo) => {
      // Random deletes: kept off live targets without write permission, however unlikely a hit is.
      requireWrites(target);
      await runProperty({
        testInfo,
        target,
        // Plain positive integers up to 2^53 - 1 that name nothing
        // (2^31 and up: no service is likely to have reached them).
        arbitrary: edgeUnknownId,
        async predicate(id, client) {
          const exchange = await client.call('deleteCustomer', { params: { id } });
          holdsAnswer(exchange, exactly('CUSTOMER-DELETE-404', 404));
        },
      });
    },
  );

  test(
    'property: customer ids that are not plain positive integers up to 2^64 - 1 are refused with a 4xx; ' +
      'larger ones than 2^53 - 1 never give a 5xx',
    covers('CUSTOMER-ID-INTEGER'),
    async ({ target }, testInfo) => {
      requireWrites(target);
      await runProperty({
        testInfo,
        target,
        // Anything but a plain id: text, fractions, negatives, and the id edges (zero, leading zeros, 2^64 and beyond);
        // and integers from 2^53 to 2^64 - 1, which a service with 64-bit ids may know: 204 or a 4xx, never a 5xx.
        // "." and ".." are left out, since a client or proxy may resolve them as path segments.
        arbitrary: fc.oneof(
          fc
            .oneof(
              fc
                .double({ noNaN: true, noDefaultInfinity: true })
                .filter((value) => !Number.isInteger(value))
                .map(String),
              fc.integer({ min: -(2 ** 31), max: -1 }).map(String),
              fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 20 }),
              unicodeText(1, 20),
            )
            .filter((id) => !/^\d+$/.test(id) && !/^\.{1,2}$/.test(id))
            // An integer part before a dot is moved far past any id in use: a server that reads "2.5" as customer 2
            // (a router's format suffix) would otherwise delete another test's customer. The example test with a
            // customer of its own catches that reading.
            .map((id) => id.replace(/^(\d+)(?=\.)/, (digits) => `7${digits.padStart(14, '0')}`)),
          edgeOddId,
          edgeLargeId,
        ),
        async predicate(id, client) {
          const exchange = await client.call('deleteCustomer', { params: { id } });
          // A 64-bit id may name a customer this target has: 204 is its answer then.
          // A 64-bit id, or one an integer parser reads as a number (" 42", "+42", "0042"), may name a customer.
          const mayName = isLargeId(id) || readsAsInteger(id);
          const deleted = mayName && exchange.status === 204;
          const largeNote = mayName
            ? 'or 204: a customer with the id as an integer parser reads it existed'
            : undefined;
          // A slash in the id, which a framework may decode into a path separator (Starlette decodes %2F, Go's mux
          // cleans the path), may be answered with a redirect to the normalised path: not an acceptance either.
          const redirected = /[/\\]/.test(id) && exchange.status >= 300 && exchange.status < 400;
          holdsAnswer(
            exchange,
            deleted
              ? exactly('CUSTOMER-ID-INTEGER', 204)
              : redirected
                ? notAccepted('CUSTOMER-ID-INTEGER')
                : noting(refused('CUSTOMER-ID-INTEGER'), largeNote),
          );
        },
      });
    },
  );

  test('property: random link ids never give a 5xx', covers('UNKNOWN-ID-NOT-5XX'), async ({ target }, testInfo) => {
    requireWrites(target);
    await runProperty({
      testInfo,
      target,
      arbitrary: oddPathValue,
      examples: oddPathExamples,
      async predicate(id, client) {
        const exchange = await client.call('getPaymentLink', { params: { id } });
        holdsAnswer(exchange, notServerError('UNKNOWN-ID-NOT-5XX'));
      },
    });
  });

  test(
    'property: random modes and unknown tokens never give a 5xx',
    covers('UNKNOWN-ID-NOT-5XX'),
    async ({ target }, testInfo) => {
      requireWrites(target);
      await runProperty({
        testInfo,
        target,
        arbitrary: fc.record({
          mode: fc.oneof(oddPathValue, fc.stringMatching(/^[a-z][a-z_]{1,12}$/)),
          token: fc.oneof(fc.stringMatching(/^0\d{12,15}$/), fc.integer({ min: 0, max: 99 })),
        }),
        async predicate({ mode, token }, client) {
          const exchange = await client.call('sendTransaction', { params: { mode }, body: { token } });
          holdsAnswer(exchange, notServerError('UNKNOWN-ID-NOT-5XX'));
        },
      });
    },
  );

  for (const operationId of ['getBalance', 'getCurrency'] as const) {
    test(
      `property: random ${operationId === 'getBalance' ? 'balance' : 'currency'} ids never give a 5xx`,
      covers('UNKNOWN-ID-NOT-5XX'),
      async ({ target }, testInfo) => {
        await runProperty({
          testInfo,
          target,
          arbitrary: oddPathValue,
          examples: oddPathExamples,
          async predicate(id, client) {
            const exchange = await client.call(operationId, { params: { id } });
            holdsAnswer(exchange, notServerError('UNKNOWN-ID-NOT-5XX'));
          },
        });
      },
    );
  }
});
