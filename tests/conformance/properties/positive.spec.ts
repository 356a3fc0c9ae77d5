/**
 * Positive properties: generated valid requests for every operation, each checked against
 * the rules of one kind (documented and inferred tests are separate, so that a
 * "documented only" run is exact). Bodies come from schemas/ through generation/arbitraries.ts.
 */
import fc from 'fast-check';
import { test, requireWrites } from '../../../suite/fixtures.ts';
import { covers } from '../../../judgment/covers.ts';
import { acceptedSendPhone, acceptedTransactionBody } from '../../../generation/arbitraries.ts';
import { holdsAnswer, needsAnswer, runProperty } from '../../../generation/properties.ts';
import { accepted } from '../../../judgment/expectations.ts';
import { integerForm } from '../../../judgment/token-forms.ts';
import type { FastClient } from '../../../http/fast-client.ts';
import type { Exchange } from '../../../http/exchange.ts';
import type { Target } from '../../../settings/target.ts';
import type { CreateTransactionBody } from '../../../contract/types.ts';

interface Created {
  body: CreateTransactionBody;
  exchange: Exchange;
  id: number;
}

/** Creates a transaction as a step of a case; its rules are preconditions of the link and send properties. */
async function createTransaction(client: FastClient, body: CreateTransactionBody): Promise<Created> {
  const exchange = await client.call('createTransaction', { body });
  needsAnswer(exchange, accepted('TXN-CREATE-2XX', { read: { ...body } }));
  return { body, exchange, id: (exchange.json as { id: number }).id };
}

async function issueLink(client: FastClient, created: Created): Promise<Exchange> {
  const exchange = await client.call('getPaymentLink', { params: { id: created.id } });
  needsAnswer(exchange, accepted('LINK-2XX'));
  return exchange;
}

interface SendSample {
  body: CreateTransactionBody;
  phone: { number: string; country: string } | undefined;
}

/** The send arbitrary of every send property: a creation body and, sometimes, the send-shape phone number. */
const sendSample = (target: Target) =>
  fc.record({ body: acceptedTransactionBody<CreateTransactionBody>(target), phone: acceptedSendPhone(target) });

/**
 * Creates a transaction, gets its link, and sends it with the token in the form `tokenForm`
 * gives (exactly as returned by default); undefined from `tokenForm` means nothing to send.
 */
async function sendIssuedToken(
  client: FastClient,
  target: Target,
  { body, phone }: SendSample,
  tokenForm: (token: unknown) => unknown = (token) => token,
): Promise<Exchange | undefined> {
  const link = await issueLink(client, await createTransaction(client, body));
  const token = tokenForm((link.json as { token: unknown }).token);
  if (token === undefined) return undefined;
  return client.call('sendTransaction', {
    params: { mode: target.paymentMode },
    body: phone === undefined ? { token } : { token, phone_number: phone },
  });
}

function configuredId(target: Target, which: 'balance' | 'currency'): number {
  const id = which === 'balance' ? target.balanceId : target.currencyId;
  test.skip(id === null, `PCS_${which.toUpperCase()}_ID is not set: no ${which} id to ask for`);
  return id!;
}

test.describe('properties: valid requests', () => {
  test(
    'property: any valid creation body gives a Transaction echoing amount, description and callback_url',
    covers('TXN-CREATE-SCHEMA', 'TXN-CREATE-ECHO'),
    async ({ target }, testInfo) => {
      requireWrites(target);
      await runProperty({
        testInfo,
        target,
        arbitrary: acceptedTransactionBody<CreateTransactionBody>(target),
        async predicate(body, client) {
          const exchange = await client.call('createTransaction', { body });
          holdsAnswer(exchange, accepted('TXN-CREATE-2XX', { read: { ...body } }));
        },
      });
    },
  );

  test(
    'property: any valid creation body is accepted with a 2xx status',
    covers('TXN-CREATE-2XX'),
    async ({ target }, testInfo) => {
      requireWrites(target);
      await runProperty({
        testInfo,
        target,
        arbitrary: acceptedTransactionBody<CreateTransactionBody>(target),
        async predicate(body, client) {
          const exchange = await client.call('createTransaction', { body });
          holdsAnswer(exchange, accepted('TXN-CREATE-2XX', { read: { ...body } }));
        },
      });
    },
  );

  test(
    'property: any created transaction yields a link with a string token and a url',
    covers('LINK-SCHEMA', 'LINK-TOKEN-STRING'),
    async ({ target }, testInfo) => {
      requireWrites(target);
      await runProperty({
        testInfo,
        target,
        arbitrary: acceptedTransactionBody<CreateTransactionBody>(target),
        async predicate(body, client) {
          const created = await createTransaction(client, body);
          const exchange = await client.call('getPaymentLink', { params: { id: created.id } });
          holdsAnswer(exchange, accepted('LINK-2XX'));
        },
      });
    },
  );

  test(
    'property: any created transaction yields its link with a 2xx status and an absolute url',
    covers('LINK-2XX', 'LINK-URL-ABSOLUTE'),
    async ({ target }, testInfo) => {
      requireWrites(target);
      await runProperty({
        testInfo,
        target,
        arbitrary: acceptedTransactionBody<CreateTransactionBody>(target),
        async predicate(body, client) {
          const created = await createTransaction(client, body);
          const exchange = await client.call('getPaymentLink', { params: { id: created.id } });
          holdsAnswer(exchange, accepted('LINK-2XX'), { prerequisite: true });
        },
      });
    },
  );

  test(
    'property: sending with the token exactly as returned gives ' +
      'schema-valid payment intents with their event timestamps',
    covers('SEND-SCHEMA', 'SEND-TOKEN-AS-RETURNED', 'SEND-INTENT-EVENT-TIMESTAMPS'),
    async ({ target }, testInfo) => {
      requireWrites(target);
      await runProperty({
        testInfo,
        target,
        arbitrary: sendSample(target),
        async predicate(sample, client) {
          const exchange = (await sendIssuedToken(client, target, sample))!;
          holdsAnswer(exchange, accepted('SEND-TOKEN-AS-RETURNED', { amount: sample.body.amount }));
        },
      });
    },
  );

  test(
    'property: a token of digits sent as a JSON integer is accepted',
    covers('SEND-TOKEN-INTEGER'),
    async ({ target }, testInfo) => {
      requireWrites(target);
      let integerForms = 0;
      await runProperty({
        testInfo,
        target,
        arbitrary: sendSample(target),
        async predicate(sample, client) {
          // Only a token a JSON integer keeps has an integer form (judgment/token-forms.ts: JSON cannot keep
          // "0123"); other tokens have nothing to check here.
          const exact = (token: unknown): number | undefined => {
            const form = integerForm(token);
            return form.kind === 'exact' ? form.value : undefined;
          };
          const exchange = await sendIssuedToken(client, target, sample, exact);
          if (exchange === undefined) return;
          integerForms++;
          holdsAnswer(exchange, accepted('SEND-TOKEN-INTEGER', { amount: sample.body.amount }));
        },
      });
      test.skip(integerForms === 0, 'not checked: no token the target returned has an integer form that keeps it');
    },
  );

  test(
    'property: sending a created transaction gives a 2xx and intents of the transaction amount',
    covers('SEND-2XX', 'SEND-AMOUNT-MATCHES'),
    async ({ target }, testInfo) => {
      requireWrites(target);
      await runProperty({
        testInfo,
        target,
        arbitrary: sendSample(target),
        async predicate(sample, client) {
          const exchange = (await sendIssuedToken(client, target, sample))!;
          holdsAnswer(exchange, accepted('SEND-2XX', { amount: sample.body.amount }), { prerequisite: true });
        },
      });
    },
  );

  for (const which of ['balance', 'currency'] as const) {
    const operationId = which === 'balance' ? 'getBalance' : 'getCurrency';
    const documented = which === 'balance' ? 'BALANCE-ARRAY' : 'CURRENCY-ARRAY';
    const success = which === 'balance' ? 'BALANCE-2XX' : 'CURRENCY-2XX';
    const contains = which === 'balance' ? 'BALANCE-CONTAINS-ID' : 'CURRENCY-CONTAINS-ID';

    // The generated part is the repetition (and order among the
    // other workers' requests): the answer must hold every time.
    test(
      `property: the configured ${which} id always gives an array of valid ${which} objects`,
      covers(documented),
      async ({ target }, testInfo) => {
        const id = configuredId(target, which);
        await runProperty({
          testInfo,
          target,
          arbitrary: fc.constant(id),
          async predicate(value, client) {
            const exchange = await client.call(operationId, { params: { id: value } });
            holdsAnswer(exchange, accepted(success, { id: value }));
          },
        });
      },
    );

    test(
      `property: the configured ${which} id always gives a 2xx array containing that id`,
      covers(success, contains),
      async ({ target }, testInfo) => {
        const id = configuredId(target, which);
        await runProperty({
          testInfo,
          target,
          arbitrary: fc.constant(id),
          async predicate(value, client) {
            const exchange = await client.call(operationId, { params: { id: value } });
            holdsAnswer(exchange, accepted(success, { id: value }), { prerequisite: true });
          },
        });
      },
    );
  }
});
