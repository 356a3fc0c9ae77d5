/**
 * Authentication (reference: Authentication; Endpoints > 1 for the documented 401).
 * Every operation is called with a valid key (accepted), then without a valid one
 * (missing header, malformed header, wrong key): 401. Each case reuses a real resource,
 * so a server that looks the resource up before checking the key cannot pass by luck.
 */
import { test, expectAnswer, preconditionAnswer, requireWrites } from '../../support/fixtures.ts';
import { covers } from '../../support/judgment/covers.ts';
import { accepted, authorised, exactly } from '../../support/judgment/expectations.ts';
import type { CallOptions, Auth } from '../../support/http/client.ts';
import type { OperationId } from '../../contract/operations.ts';
import { transactionBody, sendPhoneNumber } from '../../support/generation/bodies.ts';
import type { ApiClient } from '../../support/http/client.ts';
import type { Target } from '../../support/lifecycle/target.ts';
import type { CustomerFactory, IssuedLink, CreatedTransaction } from '../../support/fixtures.ts';
import type { Exchange } from '../../support/http/exchange.ts';
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

async function lazyResources(
  api: ApiClient,
  target: Target,
  customers: CustomerFactory,
  createdTransaction: () => Promise<CreatedTransaction>,
): Promise<Resources> {
  let link: IssuedLink | undefined;
  return {
    target,
    customers,
    transaction: createdTransaction,
    link: async () => {
      if (link) return link;
      const transaction = await createdTransaction();
      const exchange = await api.call('getPaymentLink', { params: { id: transaction.id } });
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
        let transaction: CreatedTransaction | undefined;
        const resources = await lazyResources(api, target, customers, async () => {
          if (transaction) return transaction;
          requireWrites(target);
          const sent = transactionBody(target, 'authentication check');
          const exchange = await api.call('createTransaction', { body: sent });
          preconditionAnswer(exchange, accepted('TXN-CREATE-2XX', { read: { ...sent } }));
          transaction = { sent, exchange, id: (exchange.json as { id: number }).id, amount: sent.amount };
          return transaction;
        });
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
        const resources = await lazyResources(api, target, customers, async () => {
          requireWrites(target);
          const sent = transactionBody(target, 'authentication check');
          const exchange = await api.call('createTransaction', { body: sent });
          preconditionAnswer(exchange, accepted('TXN-CREATE-2XX', { read: { ...sent } }));
          return { sent, exchange, id: (exchange.json as { id: number }).id, amount: sent.amount };
        });
        const exchange = await api.call(authCase.operation, await authCase.request(resources));
        expectAnswer(exchange, authorised('AUTH-BEARER-ACCEPTED'));
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
