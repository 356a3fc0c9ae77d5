/**
 * sendTransaction: POST /transactions/{mode} (reference: Endpoints > 4. Send a transaction
 * for payment). The body's token is typed as an integer while the link operation returns
 * a string; the response is an array of payment intents.
 */
import { test, expectAnswer, preconditionAnswer, requireWrites } from '../../suite/fixtures.ts';
import { covers } from '../../judgment/covers.ts';
import { intentsWithEvents } from '../../judgment/rules/send.ts';
import { describeValue } from '../../contract/json-pointer.ts';
import type { ApiClient } from '../../suite/api-client.ts';
import { anotherTokenInput, integerForm } from '../../judgment/token-forms.ts';
import { sendPhoneNumber, transactionBody } from '../../generation/bodies.ts';
import { unknownToken } from '../../generation/ids.ts';
import { classifyField, classPhrase, declaredContentType } from '../../judgment/input-class.ts';
import { replaceAt } from '../../contract/schema-paths.ts';
import type { Target } from '../../settings/target.ts';
import { sendRule } from '../../judgment/accepted-input.ts';
import { accepted, classified, either, notAccepted, notServerError, refused } from '../../judgment/expectations.ts';

/** Links asked for at most to find a token with an integer form (one in ten starts with 0: five all do 1 in 10^5). */
const maxLinksForAnIntegerToken = 5;

/** A new transaction and its link: a token the test may send. */
async function anotherLink(api: ApiClient, target: Target, title: string): Promise<{ token: unknown; amount: number }> {
  const sent = transactionBody(target, title);
  const created = await api.call('createTransaction', { body: sent });
  preconditionAnswer(created, accepted('TXN-CREATE-2XX', { read: { ...sent } }));
  const link = await api.call('getPaymentLink', { params: { id: (created.json as { id: number }).id } });
  preconditionAnswer(link, accepted('LINK-2XX'));
  return { token: (link.json as { token: unknown }).token, amount: sent.amount };
}

// Every accepted send is judged by the registry (judgment/registry.ts): the intents' shape (SEND-SCHEMA),
// their event timestamps (SEND-INTENT-EVENT-TIMESTAMPS), their amount where the test knows it (SEND-AMOUNT-MATCHES)
// and the Content-Type (JSON-CONTENT-TYPE).
test.describe('sendTransaction: POST /transactions/{mode}', () => {
  // The same valid send, under each rule its answer owes: the test whose title names a rule is where its failure
  // is expected first; the registry judges every one of them on each answer.
  for (const [title, rule, judgedUnder] of [
    ['sending with a valid token is accepted with a 2xx status', 'SEND-2XX', 'SEND-2XX'],
    [
      'quirk: the token exactly as returned by the link operation is accepted',
      'SEND-TOKEN-AS-RETURNED',
      'SEND-TOKEN-AS-RETURNED',
    ],
    ['the response is an array of payment intents', 'SEND-SCHEMA', 'SEND-2XX'],
    ['the response declares Content-Type application/json', 'JSON-CONTENT-TYPE', 'SEND-2XX'],
    ['every payment intent carries the transaction amount', 'SEND-AMOUNT-MATCHES', 'SEND-2XX'],
    ['every payment intent carries the mode of the path', 'SEND-INTENT-MODE', 'SEND-2XX'],
    ["every payment intent was created at the server's present time", 'TIME-NOW', 'SEND-2XX'],
    ["every payment intent's times are in order", 'TIME-ORDER', 'SEND-2XX'],
  ] as const) {
    test(title, covers(rule), async ({ api, target, issuedLink, createdTransaction }) => {
      const exchange = await api.call('sendTransaction', {
        params: { mode: target.paymentMode },
        body: { token: issuedLink.token },
      });
      expectAnswer(exchange, accepted(judgedUnder, { amount: createdTransaction.amount }));
    });
  }

  // A token's integer names it only without a leading zero and within 2^53 - 1 (judgment/token-forms.ts).
  // A server drawing random digits issues one token in ten that starts with 0: its integer is another token, which
  // may be refused or accepted, and the rule is checked on the token of another link, a few links at most.
  test(
    'quirk: a token of digits sent as a JSON integer is accepted',
    covers('SEND-TOKEN-INTEGER'),
    async ({ api, target, issuedLink, createdTransaction }, testInfo) => {
      let link = { token: issuedLink.token, amount: createdTransaction.amount };
      for (let links = 1; ; links++) {
        const form = integerForm(link.token);
        if (form.kind === 'none') {
          test.skip(true, `not checked: ${form.why}: it has no integer form`);
          return;
        }
        if (form.kind === 'exact') {
          const exchange = await api.call('sendTransaction', {
            params: { mode: target.paymentMode },
            body: { token: form.value },
          });
          expectAnswer(exchange, accepted('SEND-TOKEN-INTEGER', { amount: link.amount }));
          return;
        }
        const { amount } = link;
        const another = await api.call('sendTransaction', {
          params: { mode: target.paymentMode },
          body: { token: form.value },
        });
        const input = anotherTokenInput(String(link.token), form.value);
        expectAnswer(
          another,
          classified('SEND-TOKEN-INTEGER', input, target.strict, () => ({ amount })),
          {
            soft: true,
          },
        );
        if (links >= maxLinksForAnIntegerToken) {
          // A failure of the sends above stays a failure; otherwise the rule is not checked, and says why.
          test.skip(
            testInfo.errors.length === 0,
            `not checked: ${links} tokens in a row start with 0, and none has an integer form (${form.why})`,
          );
          return;
        }
        link = await anotherLink(api, target, testInfo.title);
      }
    },
  );

  test(
    'quirk: phone_number with a string number and an upper-case country is accepted',
    covers('SEND-PHONE-NUMBER-STRING'),
    async ({ api, target, issuedLink, createdTransaction }) => {
      const phone = sendPhoneNumber(target);
      const exchange = await api.call('sendTransaction', {
        params: { mode: target.paymentMode },
        body: { token: issuedLink.token, phone_number: phone },
      });
      expectAnswer(exchange, accepted('SEND-PHONE-NUMBER-STRING', { amount: createdTransaction.amount }));
    },
  );

  test(
    'an intent whose status says it was sent or failed carries the timestamp of that event',
    covers('SEND-INTENT-EVENT-TIMESTAMPS'),
    async ({ api, target, issuedLink, createdTransaction }) => {
      // With a phone number the target may carry the payment out at once (sent, or failed): what the rule is about.
      const exchange = await api.call('sendTransaction', {
        params: { mode: target.paymentMode },
        body: { token: issuedLink.token, phone_number: sendPhoneNumber(target) },
      });
      // The registry judges the event timestamps of every accepted send; an answer whose intents had no event
      // checked none, so this test is skipped rather than passed.
      expectAnswer(exchange, accepted('SEND-2XX', { amount: createdTransaction.amount }));
      const statuses = Array.isArray(exchange.json)
        ? exchange.json.map((intent: { status?: unknown } | null) => intent?.status)
        : [];
      test.skip(
        test.info().errors.length === 0 && intentsWithEvents(exchange) === 0,
        `no intent of the answer is sent, failed or deleted (statuses ${describeValue(statuses)}): ` +
          `no event timestamp to check`,
      );
    },
  );

  for (const [name, body] of [
    ['without token', (target: Target) => ({ phone_number: sendPhoneNumber(target) })],
    ['with token null', () => ({ token: null })],
  ] as const) {
    test(`a body ${name} is refused`, covers('SEND-TOKEN-REQUIRED'), async ({ api, target }) => {
      requireWrites(target);
      const exchange = await api.call('sendTransaction', { params: { mode: target.paymentMode }, body: body(target) });
      expectAnswer(exchange, notAccepted('SEND-TOKEN-REQUIRED'));
    });
  }

  // A field of the send body with another value than the send shape's: its class is computed from schemas/
  // (judgment/input-class.ts). A JSON number for the phone number is read as its digits by a coercing
  // parser, a lower-case country is what the prose rules out only, a field of another kind is dropped as not given by
  // a parameter filter: accept or refuse (--strict: refuse).
  // Each with the rule it is judged under; a rule that disagrees with the computed class is an error at load time.
  const mistyped: Array<[pointer: string, value: unknown, rule: ReturnType<typeof sendRule>]> = [
    ['/phone_number/number', 22997000001, 'SEND-OPEN-INPUT'],
    ['/phone_number/number', null, 'SEND-OPEN-INPUT'],
    ['/phone_number/country', 'bj', 'SEND-OPEN-INPUT'],
    ['/phone_number/country', 'BEN', 'SEND-OPEN-INPUT'],
    ['/phone_number', null, 'SEND-OPEN-INPUT'],
    ['/phone_number', [], 'SEND-OPEN-INPUT'],
    ['/phone_number', [1], 'SEND-OPEN-INPUT'],
    // A field of another kind than permitted: Rails' strong parameters drop it, and the send goes on without it.
    ['/phone_number/number', { digits: '22997000001' }, 'SEND-OPEN-INPUT'],
    ['/phone_number/country', {}, 'SEND-OPEN-INPUT'],
    ['/phone_number', '+22997000001', 'SEND-OPEN-INPUT'],
  ];
  for (const [pointer, value, rule] of mistyped) {
    const input = classifyField('send-transaction-body', pointer, value);
    if (sendRule(input) !== rule)
      throw new Error(`${input.what}: class ${input.class} is judged under ${sendRule(input)}, not ${rule}`);
    test(
      `input ${input.what}: ${classPhrase(input)}`,
      covers(rule),
      async ({ api, target, issuedLink, createdTransaction }) => {
        const body = replaceAt({ token: issuedLink.token, phone_number: sendPhoneNumber(target) }, pointer, value);
        const exchange = await api.call('sendTransaction', { params: { mode: target.paymentMode }, body });
        expectAnswer(
          exchange,
          classified(rule, input, target.strict, () => ({ amount: createdTransaction.amount })),
        );
      },
    );
  }

  test(
    `input ${declaredContentType('text/plain', {}).what}: ${classPhrase(declaredContentType('text/plain', {}))}`,
    covers('SEND-OPEN-INPUT'),
    async ({ api, target, issuedLink, createdTransaction }) => {
      const exchange = await api.call('sendTransaction', {
        params: { mode: target.paymentMode },
        rawBody: JSON.stringify({ token: issuedLink.token }),
        contentType: 'text/plain',
      });
      const input = declaredContentType('text/plain', {});
      expectAnswer(
        exchange,
        classified('SEND-OPEN-INPUT', input, target.strict, () => ({ amount: createdTransaction.amount })),
      );
    },
  );

  test(
    'a token that was never issued is refused with a 4xx',
    covers('SEND-UNKNOWN-TOKEN-4XX'),
    async ({ api, target }) => {
      requireWrites(target);
      const exchange = await api.call('sendTransaction', {
        params: { mode: target.paymentMode },
        body: { token: unknownToken() },
      });
      expectAnswer(exchange, refused('SEND-UNKNOWN-TOKEN-4XX'));
    },
  );

  for (const [name, token] of [
    ['a boolean', true],
    ['an object', { value: 1 }],
    ['an array', [1]],
  ] as const) {
    test(`a token that is ${name} is refused with a 4xx`, covers('SEND-INVALID-4XX'), async ({ api, target }) => {
      requireWrites(target);
      const exchange = await api.call('sendTransaction', { params: { mode: target.paymentMode }, body: { token } });
      expectAnswer(exchange, refused('SEND-INVALID-4XX'));
    });
  }

  test('a body that is not valid JSON is refused with a 4xx', covers('MALFORMED-JSON-4XX'), async ({ api, target }) => {
    requireWrites(target);
    const exchange = await api.call('sendTransaction', {
      params: { mode: target.paymentMode },
      rawBody: '{"token": ',
      contentType: 'application/json',
    });
    expectAnswer(exchange, refused('MALFORMED-JSON-4XX'));
  });

  test(
    'a send through each mode the currency lists is accepted or refused; accepted, its intents carry that mode',
    covers('SEND-INTENT-MODE'),
    async ({ api, target }, testInfo) => {
      requireWrites(target);
      test.skip(target.currencyId === null, 'PCS_CURRENCY_ID is not set: the currency whose modes are read');
      const currency = await api.call('getCurrency', { params: { id: target.currencyId! } });
      preconditionAnswer(currency, accepted('CURRENCY-2XX', { id: target.currencyId! }));
      const listed = (currency.json as Array<{ id?: unknown; modes?: unknown }>).find(
        (entry) => entry?.id === target.currencyId,
      )?.modes;
      const modes = Array.isArray(listed) ? listed.filter((mode): mode is string => typeof mode === 'string') : [];
      test.skip(modes.length === 0, 'the currency lists no modes');
      // The configured mode is tested everywhere else; the others here (at most six, so a long list stays cheap).
      for (const mode of modes.filter((candidate) => candidate !== target.paymentMode).slice(0, 6)) {
        await test.step(`through ${mode}`, async () => {
          const sent = transactionBody(target, testInfo.title);
          const created = await api.call('createTransaction', { body: sent });
          preconditionAnswer(created, accepted('TXN-CREATE-2XX', { read: { ...sent } }));
          const link = await api.call('getPaymentLink', { params: { id: (created.json as { id: number }).id } });
          preconditionAnswer(link, accepted('LINK-2XX'));
          const exchange = await api.call('sendTransaction', {
            params: { mode },
            body: { token: (link.json as { token: unknown }).token, phone_number: sendPhoneNumber(target) },
          });
          expectAnswer(exchange, either('SEND-INTENT-MODE', { amount: sent.amount }), { soft: true });
        });
      }
    },
  );

  test('an unknown payment mode never gives a 5xx', covers('UNKNOWN-ID-NOT-5XX'), async ({ api, issuedLink }) => {
    const exchange = await api.call('sendTransaction', {
      params: { mode: 'cc-no-such-mode' },
      body: { token: issuedLink.token },
    });
    expectAnswer(exchange, notServerError('UNKNOWN-ID-NOT-5XX'));
  });
});
