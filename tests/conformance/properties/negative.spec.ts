/**
 * Negative properties: generated invalid requests. Bodies with one field of a wrong JSON
 * type, a send body without its required token, malformed JSON, a wrong Content-Type, and
 * path parameters that name nothing. Only what the rules say is asserted: a 4xx where a
 * rule says so, "never a 2xx" for the documented required token, "never a 5xx" for
 * unknown path parameters, 404 for unknown customer ids (documented).
 */
import fc from 'fast-check';
import { test, requireWrites } from '../../../support/fixtures.ts';
import { covers } from '../../../support/judgment/covers.ts';
import { bodyMatchesSchema, statusIs, statusIsClientError, statusIsNotServerError, statusIsNotSuccess, statusIsSuccess } from '../../../support/judgment/checks.ts';
import { acceptedSendPhone, acceptedTransactionBody, oneWrongField, schemaAt, unicodeText, wrongTypeFor } from '../../../support/generation/arbitraries.ts';
import { holds, needs, runProperty } from '../../../support/generation/properties.ts';
import type { FastClient } from '../../../support/http/fast-client.ts';
import type { Target } from '../../../support/lifecycle/target.ts';
import type { CreateTransactionBody, SendTransactionBody } from '../../../contract/types.ts';

/** Creates a transaction and issues its link once per property: the token the invalid send bodies carry. */
async function issuedToken(client: FastClient, target: Target): Promise<unknown> {
  const [body] = fc.sample(acceptedTransactionBody<CreateTransactionBody>(target), { numRuns: 1, seed: 1 });
  const created = await client.call('createTransaction', { body });
  needs('TXN-CREATE-2XX', created, statusIsSuccess(created));
  needs('TXN-CREATE-SCHEMA', created, bodyMatchesSchema(created, 'transaction'));
  const link = await client.call('getPaymentLink', { params: { id: (created.json as { id: number }).id } });
  needs('LINK-2XX', link, statusIsSuccess(link));
  needs('LINK-SCHEMA', link, bodyMatchesSchema(link, 'payment-link'));
  return (link.json as { token: unknown }).token;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** JSON text broken by a cut or by one replaced character; kept only when it is really not JSON. */
function malformed(text: string): fc.Arbitrary<string> {
  const cut = fc.integer({ min: 1, max: Math.max(1, text.length - 1) }).map((at) => text.slice(0, at));
  const replaced = fc
    .tuple(fc.nat({ max: text.length - 1 }), fc.constantFrom('{', '}', '"', ',', ':', '[', '\\', "'", 'x'))
    .map(([at, char]) => text.slice(0, at) + char + text.slice(at + 1));
  return fc.oneof(cut, replaced).filter((broken) => !isJson(broken));
}

/** Path parameter values that name nothing, or are not even ids: huge, negative, fractional, text, Unicode. */
const oddPathValue: fc.Arbitrary<string | number> = fc.oneof(
  fc.integer({ min: 2_000_000_000, max: 2_147_483_000 }),
  fc.integer({ min: -(2 ** 31), max: 0 }),
  fc.constantFrom('99999999999999999999999', '1.5', '1e3', '0x10', ' 1', 'null', 'undefined', '%00'),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 40 }),
  unicodeText(1, 40),
);

const wrongContentTypes = fc.constantFrom(
  'text/plain',
  'text/html',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=collect-conformance',
  'application/octet-stream',
);

test.describe('properties: invalid requests', () => {
  test('property: a creation body with amount or currency of a wrong type, or not an object, is refused with a 4xx', covers('TXN-CREATE-INVALID-4XX'), async ({ target }, testInfo) => {
    requireWrites(target);
    const wrongField = oneWrongField('create-transaction-body', acceptedTransactionBody<CreateTransactionBody>(target), ['/amount', '/currency']).map((c) => c.body);
    const notAnObject = wrongTypeFor(schemaAt('create-transaction-body', ''));
    await runProperty({
      testInfo,
      target,
      arbitrary: fc.oneof({ weight: 4, arbitrary: wrongField }, { weight: 1, arbitrary: notAnObject }),
      async predicate(body, client) {
        const exchange = await client.call('createTransaction', { body });
        holds('TXN-CREATE-INVALID-4XX', exchange, statusIsClientError(exchange));
      },
    });
  });

  test('property: a send body with a field of a wrong type is refused with a 4xx', covers('SEND-INVALID-4XX'), async ({ target }, testInfo) => {
    requireWrites(target);
    await runProperty({
      testInfo,
      target,
      setup: (client) => issuedToken(client, target),
      // The valid document is rebuilt around the real token inside the predicate; here only the mutation is generated.
      arbitrary: oneWrongField<SendTransactionBody>(
        'send-transaction-body',
        acceptedSendPhone(target).map((phone) => ({ token: 'TOKEN', phone_number: phone ?? { number: `+${target.phoneNumber.replace(/^\+/, '')}`, country: target.phoneCountry } })),
        ['/token', '/phone_number', '/phone_number/number', '/phone_number/country'],
      ),
      async predicate(wrong, client, token) {
        const body = wrong.pointer === '/token' ? wrong.body : { ...(wrong.body as object), token };
        const exchange = await client.call('sendTransaction', { params: { mode: target.paymentMode }, body });
        holds('SEND-INVALID-4XX', exchange, statusIsClientError(exchange));
      },
    });
  });

  test('property: a send body without token is never accepted', covers('SEND-TOKEN-REQUIRED'), async ({ target }, testInfo) => {
    requireWrites(target);
    await runProperty({
      testInfo,
      target,
      arbitrary: acceptedSendPhone(target).map((phone) => (phone === undefined ? {} : { phone_number: phone })),
      async predicate(body, client) {
        const exchange = await client.call('sendTransaction', { params: { mode: target.paymentMode }, body });
        holds('SEND-TOKEN-REQUIRED', exchange, statusIsNotSuccess(exchange));
      },
    });
  });

  test('property: malformed JSON bodies are refused with a 4xx', covers('MALFORMED-JSON-4XX'), async ({ target }, testInfo) => {
    requireWrites(target);
    await runProperty({
      testInfo,
      target,
      setup: (client) => issuedToken(client, target),
      arbitrary: fc.oneof(
        acceptedTransactionBody<CreateTransactionBody>(target).chain((body) =>
          malformed(JSON.stringify(body)).map((text) => ({ operation: 'createTransaction' as const, text })),
        ),
        // The token is a placeholder replaced by the real one (same length class) before sending.
        malformed(JSON.stringify({ token: '@TOKEN@' })).map((text) => ({ operation: 'sendTransaction' as const, text })),
      ),
      async predicate(input, client, token) {
        const exchange =
          input.operation === 'createTransaction'
            ? await client.call('createTransaction', { rawBody: input.text, contentType: 'application/json' })
            : await client.call('sendTransaction', {
                params: { mode: target.paymentMode },
                rawBody: input.text.replace('@TOKEN@', String(token)),
                contentType: 'application/json',
              });
        holds('MALFORMED-JSON-4XX', exchange, statusIsClientError(exchange));
      },
    });
  });

  test('property: valid JSON declared with another Content-Type is refused with a 4xx', covers('MALFORMED-JSON-4XX'), async ({ target }, testInfo) => {
    requireWrites(target);
    await runProperty({
      testInfo,
      target,
      setup: (client) => issuedToken(client, target),
      arbitrary: fc.record({
        operation: fc.constantFrom('createTransaction' as const, 'sendTransaction' as const),
        body: acceptedTransactionBody<CreateTransactionBody>(target),
        contentType: wrongContentTypes,
      }),
      async predicate(input, client, token) {
        const exchange =
          input.operation === 'createTransaction'
            ? await client.call('createTransaction', { rawBody: JSON.stringify(input.body), contentType: input.contentType })
            : await client.call('sendTransaction', { params: { mode: target.paymentMode }, rawBody: JSON.stringify({ token }), contentType: input.contentType });
        holds('MALFORMED-JSON-4XX', exchange, statusIsClientError(exchange));
      },
    });
  });

  test('property: deleting a customer id that does not exist gives 404', covers('CUSTOMER-DELETE-404'), async ({ target }, testInfo) => {
    // Random deletes: kept off live targets without write permission, however unlikely a hit is.
    requireWrites(target);
    await runProperty({
      testInfo,
      target,
      arbitrary: fc.integer({ min: 2_000_000_000, max: 2_147_483_000 }),
      async predicate(id, client) {
        const exchange = await client.call('deleteCustomer', { params: { id } });
        holds('CUSTOMER-DELETE-404', exchange, statusIs(exchange, 404));
      },
    });
  });

  test('property: customer ids that are not integers are refused with a 4xx', covers('CUSTOMER-ID-INTEGER'), async ({ target }, testInfo) => {
    requireWrites(target);
    await runProperty({
      testInfo,
      target,
      // Anything but a string of digits; "." and ".." are left out, since a client or proxy may resolve them as path segments.
      arbitrary: fc
        .oneof(
          fc.double({ noNaN: true, noDefaultInfinity: true }).filter((value) => !Number.isInteger(value)).map(String),
          fc.integer({ min: -(2 ** 31), max: -1 }).map(String),
          fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 20 }),
          unicodeText(1, 20),
        )
        .filter((id) => !/^\d+$/.test(id) && !/^\.{1,2}$/.test(id)),
      async predicate(id, client) {
        const exchange = await client.call('deleteCustomer', { params: { id } });
        holds('CUSTOMER-ID-INTEGER', exchange, statusIsClientError(exchange));
      },
    });
  });

  test('property: random link ids never give a 5xx', covers('UNKNOWN-ID-NOT-5XX'), async ({ target }, testInfo) => {
    requireWrites(target);
    await runProperty({
      testInfo,
      target,
      arbitrary: oddPathValue,
      async predicate(id, client) {
        const exchange = await client.call('getPaymentLink', { params: { id } });
        holds('UNKNOWN-ID-NOT-5XX', exchange, statusIsNotServerError(exchange));
      },
    });
  });

  test('property: random modes and unknown tokens never give a 5xx', covers('UNKNOWN-ID-NOT-5XX'), async ({ target }, testInfo) => {
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
        holds('UNKNOWN-ID-NOT-5XX', exchange, statusIsNotServerError(exchange));
      },
    });
  });

  for (const operationId of ['getBalance', 'getCurrency'] as const) {
    test(`property: random ${operationId === 'getBalance' ? 'balance' : 'currency'} ids never give a 5xx`, covers('UNKNOWN-ID-NOT-5XX'), async ({ target }, testInfo) => {
      await runProperty({
        testInfo,
        target,
        arbitrary: oddPathValue,
        async predicate(id, client) {
          const exchange = await client.call(operationId, { params: { id } });
          holds('UNKNOWN-ID-NOT-5XX', exchange, statusIsNotServerError(exchange));
        },
      });
    });
  }
});
