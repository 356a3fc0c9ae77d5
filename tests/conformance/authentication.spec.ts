/**
 * Authentication (reference: Authentication; Endpoints > 1 for the documented 401).
 * Every operation is called with a valid key (accepted), then without a valid one
 * (missing header, malformed header, wrong key): 401. Each case reuses a real resource,
 * so a server that looks the resource up before checking the key cannot pass by luck.
 */
import { test, expectAnswer, expectRule, preconditionAnswer, requireWrites } from '../../suite/fixtures.ts';
import { covers } from '../../judgment/covers.ts';
import { accepted, authorised, classified, exactly } from '../../judgment/expectations.ts';
import { disclosesNothingOf } from '../../judgment/rules/accounts.ts';
import { almostRightKeys } from '../../generation/almost-right-keys.ts';
import { wireSender } from '../../http/wire-sender.ts';
import type { ClassifiedInput } from '../../judgment/input-class.ts';
import type { CallOptions, Auth } from '../../suite/api-client.ts';
import type { OperationId } from '../../contract/operations.ts';
import { transactionBody, sendPhoneNumber } from '../../generation/bodies.ts';
import type { ApiClient } from '../../suite/api-client.ts';
import type { Target } from '../../settings/target.ts';
import type { CustomerFactory, IssuedLink, CreatedTransaction } from '../../suite/fixtures.ts';
import type { Exchange } from '../../http/exchange.ts';
import { randomBytes } from 'node:crypto';

interface Resources {
  target: Target;
  customers: CustomerFactory;
  link: () => Promise<IssuedLink>;
  transaction: () => Promise<CreatedTransaction>;
}

interface AuthCase {
  operation: OperationId;
  rule: string;
  /** Builds the request: a real resource where the operation needs one. */
  request: (resources: Resources) => Promise<CallOptions>;
}

const idOrSkip = (id: number | null, variable: string): number => {
  test.skip(id === null, `${variable} is not set`);
  return id!;
};

const cases: AuthCase[] = [
  {
    operation: 'deleteCustomer',
    rule: 'AUTH-DELETE-401',
    request: async ({ customers }) => ({ params: { id: (await customers.create()).id } }),
  },
  {
    operation: 'createTransaction',
    rule: 'AUTH-OTHERS-401',
    request: async ({ target }) => {
      requireWrites(target);
      return { body: transactionBody(target, 'authentication check') };
    },
  },
  {
    operation: 'getPaymentLink',
    rule: 'AUTH-OTHERS-401',
    request: async ({ transaction }) => ({ params: { id: (await transaction()).id } }),
  },
  {
    operation: 'sendTransaction',
    rule: 'AUTH-OTHERS-401',
    request: async ({ target, link }) => ({
      params: { mode: target.paymentMode },
      body: { token: (await link()).token, phone_number: sendPhoneNumber(target) },
    }),
  },
  {
    operation: 'getBalance',
    rule: 'AUTH-OTHERS-401',
    request: async ({ target }) => ({ params: { id: idOrSkip(target.balanceId, 'PCS_BALANCE_ID') } }),
  },
  {
    operation: 'getCurrency',
    rule: 'AUTH-OTHERS-401',
    request: async ({ target }) => ({ params: { id: idOrSkip(target.currencyId, 'PCS_CURRENCY_ID') } }),
  },
];

function invalidCredentials(): Array<{ name: string; auth: Auth }> {
  const wrongKey = `cc_wrong_${randomBytes(12).toString('hex')}`;
  // Only headers that carry no valid key: a server that also accepts its key in another
  // form (another scheme, no scheme) is not refused for that, since the key itself is valid.
  return [
    { name: 'no Authorization header', auth: { kind: 'none' } },
    { name: 'a malformed header (the Bearer scheme without a key)', auth: { kind: 'header', value: 'Bearer' } },
    {
      name: 'a malformed header (a scheme and key with no separator)',
      auth: { kind: 'header', value: `Bearer_${wrongKey}` },
    },
    { name: 'a wrong key', auth: { kind: 'header', value: `Bearer ${wrongKey}` } },
  ];
}

/** The valid key without the Bearer scheme: accept or refuse; --strict refuses (AUTH-BEARER-SCHEME). */
const bareKey: ClassifiedInput = {
  class: 'accept-or-refuse',
  strictRefuses: true,
  readings: [{ kind: 'as-sent', value: 'the key' }],
  what: 'Authorization: <the valid key> (no scheme)',
  why: 'the key is valid; the reference shows it after Bearer',
};

/** A transaction of the account, for the operations that need one. */
async function newTransaction(api: ApiClient, target: Target): Promise<CreatedTransaction> {
  requireWrites(target);
  const sent = transactionBody(target, 'authentication check');
  const exchange = await api.call('createTransaction', { body: sent });
  preconditionAnswer(exchange, accepted('TXN-CREATE-2XX', { read: { ...sent } }));
  return { sent, exchange, id: (exchange.json as { id: number }).id, amount: sent.amount };
}

/** The resources a request needs, made on first use and then reused: one transaction and one link per test. */
function lazyResources(api: ApiClient, target: Target, customers: CustomerFactory): Resources {
  let transaction: CreatedTransaction | undefined;
  let link: IssuedLink | undefined;
  const createdTransaction = async (): Promise<CreatedTransaction> => {
    transaction ??= await newTransaction(api, target);
    return transaction;
  };
  return {
    target,
    customers,
    transaction: createdTransaction,
    link: async () => {
      if (link) return link;
      const exchange = await api.call('getPaymentLink', { params: { id: (await createdTransaction()).id } });
      preconditionAnswer(exchange, accepted('LINK-2XX'));
      link = {
        exchange,
        token: (exchange.json as { token: unknown }).token,
        url: (exchange.json as { url: unknown }).url,
      };
      return link;
    },
  };
}

test.describe('authentication', () => {
  for (const authCase of cases) {
    test(
      `${authCase.operation} refuses requests without a valid key with 401`,
      covers(authCase.rule),
      async ({ api, target, customers }) => {
        const resources = lazyResources(api, target, customers);
        const request = await authCase.request(resources);
        for (const credential of invalidCredentials()) {
          await test.step(`with ${credential.name}`, async () => {
            const exchange = await api.call(authCase.operation, { ...request, auth: credential.auth });
            expectAnswer(exchange, exactly(authCase.rule, 401), { soft: true });
          });
        }
      },
    );

    test(
      `${authCase.operation} accepts the account's key as a bearer credential`,
      covers('AUTH-BEARER-ACCEPTED'),
      async ({ api, target, customers }) => {
        const resources = lazyResources(api, target, customers);
        const exchange = await api.call(authCase.operation, await authCase.request(resources));
        expectAnswer(exchange, authorised('AUTH-BEARER-ACCEPTED'));
      },
    );
  }

  for (const authCase of cases) {
    test(
      `${authCase.operation} refuses keys that are almost the valid one with 401`,
      covers('AUTH-KEY-EXACT'),
      async ({ api, target, customers }) => {
        const resources = lazyResources(api, target, customers);
        const request = await authCase.request(resources);
        for (const almost of almostRightKeys(target.secretKey)) {
          await test.step(`with the key ${almost.name}`, async () => {
            const exchange = await api.call(authCase.operation, {
              ...request,
              auth: { kind: 'header', value: `Bearer ${almost.key}` },
            });
            expectAnswer(exchange, exactly('AUTH-KEY-EXACT', 401), { soft: true });
          });
        }
      },
    );

    test(
      `${authCase.operation} checks the key on every request of a keep-alive connection`,
      covers('AUTH-PER-REQUEST'),
      async ({ api, target, customers }) => {
        const resources = lazyResources(api, target, customers);
        const request = await authCase.request(resources);
        // One connection for the whole test: the valid key opens it, then a wrong key and no key follow on it.
        const connection = wireSender({ connections: 1, connectTimeoutMs: target.timeoutMs });
        try {
          const opened = await api.call('getCurrency', {
            params: { id: target.currencyId ?? 1 },
            sender: connection.send,
          });
          expectAnswer(opened, authorised('AUTH-PER-REQUEST'), { soft: true });
          for (const auth of [
            { kind: 'header', value: `Bearer cc_wrong_${randomBytes(12).toString('hex')}` },
            { kind: 'none' },
          ] as Auth[]) {
            const exchange = await api.call(authCase.operation, { ...request, auth, sender: connection.send });
            expectAnswer(exchange, exactly('AUTH-PER-REQUEST', 401), { soft: true });
          }
        } finally {
          connection.destroy();
        }
      },
    );

    test(
      `${authCase.operation} with the bare key (no Bearer scheme): accept or refuse (--strict: refuse)`,
      covers('AUTH-BEARER-SCHEME'),
      async ({ api, target, customers }) => {
        const resources = lazyResources(api, target, customers);
        const request = await authCase.request(resources);
        const exchange = await api.call(authCase.operation, {
          ...request,
          auth: { kind: 'header', value: target.secretKey },
        });
        expectAnswer(exchange, classified('AUTH-BEARER-SCHEME', bareKey, target.strict));
      },
    );
  }

  test(
    'a DELETE refused with 401 leaves the customer: its owner then deletes it with 204',
    covers('AUTH-REFUSED-NO-EFFECT'),
    async ({ api, customers }) => {
      const { id } = await customers.create();
      for (const credential of invalidCredentials()) {
        const refusedDelete = await api.call('deleteCustomer', { params: { id }, auth: credential.auth });
        expectAnswer(refusedDelete, exactly('AUTH-REFUSED-NO-EFFECT', 401), { soft: true });
      }
      const owner = await api.call('deleteCustomer', { params: { id } });
      expectAnswer(owner, exactly('AUTH-REFUSED-NO-EFFECT', 204));
    },
  );

  for (const operationId of ['getBalance', 'getCurrency'] as const) {
    test(
      `a 401 answer of ${operationId} holds none of the resource's data`,
      covers('AUTH-REFUSED-NO-EFFECT'),
      async ({ api, target }) => {
        const id =
          operationId === 'getBalance'
            ? idOrSkip(target.balanceId, 'PCS_BALANCE_ID')
            : idOrSkip(target.currencyId, 'PCS_CURRENCY_ID');
        const owner = await api.call(operationId, { params: { id } });
        preconditionAnswer(owner, accepted(operationId === 'getBalance' ? 'BALANCE-2XX' : 'CURRENCY-2XX', { id }));
        const resource = (Array.isArray(owner.json) ? owner.json[0] : undefined) as Record<string, unknown>;
        for (const credential of invalidCredentials()) {
          const refusedRead = await api.call(operationId, { params: { id }, auth: credential.auth });
          expectAnswer(refusedRead, exactly('AUTH-REFUSED-NO-EFFECT', 401), { soft: true });
          expectRule('AUTH-REFUSED-NO-EFFECT', refusedRead, disclosesNothingOf(refusedRead, resource ?? {}), {
            soft: true,
          });
        }
      },
    );
  }

  test(
    'a transaction token is not a secret key',
    covers('AUTH-TOKEN-NOT-A-KEY'),
    async ({ api, target, issuedLink }) => {
      const id = idOrSkip(target.currencyId, 'PCS_CURRENCY_ID');
      const exchange: Exchange = await api.call('getCurrency', {
        params: { id },
        auth: { kind: 'header', value: `Bearer ${String(issuedLink.token)}` },
      });
      expectAnswer(exchange, exactly('AUTH-TOKEN-NOT-A-KEY', 401));
    },
  );

  test(
    "a key is refused at the other environment's base address",
    covers('ENV-KEY-SCOPED'),
    async ({ api, target }) => {
      test.skip(
        target.otherEnvironment === null,
        'needs the base address of the other environment: only known for the embedded mock',
      );
      const id = idOrSkip(target.currencyId, 'PCS_CURRENCY_ID');
      const exchange = await api.call('getCurrency', { params: { id }, baseUrl: target.otherEnvironment!.baseUrl });
      expectAnswer(exchange, exactly('ENV-KEY-SCOPED', 401));
    },
  );
});
