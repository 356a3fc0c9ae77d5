/**
 * Playwright fixtures of the conformance suite: the target, the API client, and the
 * resources tests need (a created transaction, its payment link, customers), each
 * owned by its fixture. A resource that cannot be obtained fails the test with a
 * "precondition" message naming the rule that broke, or skips it when the target lacks
 * something the reference does not promise (customer creation, configured ids).
 */
import { test as base } from '@playwright/test';
import type { CreateTransactionBody } from '../contract/types.ts';
import { ApiClient } from './client.ts';
import { transactionBody, customerBody } from './bodies.ts';
import { bodyMatchesSchema, statusIsSuccess, type Violation } from './checks.ts';
import type { Exchange } from './exchange.ts';
import { ruleFailureMessage } from './expect-rule.ts';
import { currentTarget, type Target } from './target.ts';

export interface CreatedTransaction {
  sent: CreateTransactionBody;
  exchange: Exchange;
  id: number;
  amount: number;
}

export interface IssuedLink {
  exchange: Exchange;
  /** The token exactly as the link operation returned it (the reference says: a string). */
  token: unknown;
  url: unknown;
}

export interface CustomerFactory {
  /** Creates a customer through POST /customers (the suite's helper; skips the test when the target has none). */
  create(): Promise<{ id: number; exchange: Exchange }>;
}

export class PreconditionError extends Error {
  override name = 'PreconditionError';
}

/** Fails the test before its own rule is checked, because a step it needs broke another rule. */
export function precondition(ruleId: string, exchange: Exchange, violations: Violation[]): void {
  if (violations.length > 0) {
    throw new PreconditionError(`precondition failed: ${ruleFailureMessage(ruleId, exchange, violations)}`);
  }
}

/** Skips a test that creates or deletes something when the target is live without PCS_ALLOW_LIVE_WRITES=yes. */
export function requireWrites(target: Target): void {
  base.skip(!target.writesAllowed, 'writes are off on a live target (set PCS_ALLOW_LIVE_WRITES=yes to allow them)');
}

/** An integer id at body /id, or at /data/id, or in the first element of an array: the customer helper's shape is not shown. */
function customerIdOf(json: unknown): number | undefined {
  const candidates: unknown[] = [];
  if (Array.isArray(json)) candidates.push(json[0]);
  else candidates.push(json);
  for (const candidate of candidates) {
    if (candidate && typeof candidate === 'object') {
      const record = candidate as Record<string, unknown>;
      for (const value of [record.id, (record.data as Record<string, unknown> | undefined)?.id, (record.customer as Record<string, unknown> | undefined)?.id]) {
        if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
      }
    }
  }
  return undefined;
}

type TestFixtures = {
  api: ApiClient;
  createdTransaction: CreatedTransaction;
  issuedLink: IssuedLink;
  customers: CustomerFactory;
};

type WorkerFixtures = { target: Target };

export const test = base.extend<TestFixtures, WorkerFixtures>({
  target: [
    async ({}, use) => {
      await use(currentTarget());
    },
    { scope: 'worker' },
  ],

  api: async ({ request, target }, use, testInfo) => {
    await use(new ApiClient(request, target, testInfo));
  },

  createdTransaction: async ({ api, target }, use, testInfo) => {
    requireWrites(target);
    const sent = transactionBody(target, testInfo.title);
    const exchange = await api.call('createTransaction', { body: sent });
    precondition('TXN-CREATE-2XX', exchange, statusIsSuccess(exchange));
    precondition('TXN-CREATE-SCHEMA', exchange, bodyMatchesSchema(exchange, 'transaction'));
    const json = exchange.json as { id: number; amount: number };
    await use({ sent, exchange, id: json.id, amount: sent.amount });
    // Transactions cannot be deleted: they carry the run id (description, custom_metadata) instead.
  },

  issuedLink: async ({ api, createdTransaction }, use) => {
    const exchange = await api.call('getPaymentLink', { params: { id: createdTransaction.id } });
    precondition('LINK-2XX', exchange, statusIsSuccess(exchange));
    precondition('LINK-SCHEMA', exchange, bodyMatchesSchema(exchange, 'payment-link'));
    const json = exchange.json as { token: unknown; url: unknown };
    await use({ exchange, token: json.token, url: json.url });
  },

  customers: async ({ api, target }, use) => {
    const created: number[] = [];
    await use({
      async create() {
        requireWrites(target);
        const exchange = await api.call('createCustomer', { body: customerBody(target) });
        const id = customerIdOf(exchange.json);
        base.skip(
          exchange.status === 404 || exchange.status === 405 || exchange.status === 501,
          `the target has no POST /customers (answered ${exchange.status}); the reference does not show customer creation`,
        );
        precondition('CUSTOMER-DELETE-204', exchange, [
          ...statusIsSuccess(exchange),
          ...(id === undefined ? [{ location: 'body /id', expected: 'an integer customer id', actual: exchange.bodyText.slice(0, 120) || 'empty' }] : []),
        ]);
        created.push(id!);
        return { id: id!, exchange };
      },
    });
    // Delete what is left: customers the test did not delete itself with a 204.
    const deleted = new Set(
      api.exchanges.filter((exchange) => exchange.operation === 'deleteCustomer' && exchange.status === 204).map((exchange) => exchange.path),
    );
    for (const id of created) {
      if (!deleted.has(`/customers/${id}`)) await api.call('deleteCustomer', { params: { id }, quiet: true });
    }
  },
});

export { expectRule } from './expect-rule.ts';
