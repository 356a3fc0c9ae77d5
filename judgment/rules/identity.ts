/**
 * What an id names across exchanges, as history checks (judgment/history.ts): a created transaction's id is its own,
 * never one an earlier creation was given (TXN-ID-UNIQUE), and a customer its owner deleted stays deleted: deleting
 * it again answers 404 (CUSTOMER-DELETE-GONE).
 */
import { exactText } from '../../contract/big-integers.ts';
import type { Exchange } from '../../http/exchange.ts';
import { isSuccess, statusIs, type Violation } from '../checks.ts';
import type { Asked, History } from '../history.ts';
import { registeredWithHistory, type HistoryCheck } from './define.ts';

/**
 * TXN-ID-UNIQUE: a created transaction's id is no id an earlier creation of the same recording was given (a server
 * restarted between two recordings may hand out the same ids again; a replay with an Idempotency-Key is the same
 * transaction).
 */
function createdIdIsNew(exchange: Exchange, asked: Asked, history: History): Violation[] | undefined {
  if (asked.key !== 'valid' || asked.replay || !isSuccess(exchange.status)) return undefined;
  const id = (exchange.json as { id?: unknown } | null | undefined)?.id;
  if (typeof id !== 'number' && typeof id !== 'string') return undefined;
  const earlier = history.transactions.get(exactText(id));
  if (earlier === undefined || earlier.origin !== asked.origin) return [];
  const amount = earlier.amount === undefined ? '' : ` (of amount ${earlier.amount})`;
  return [
    {
      location: 'body /id',
      expected: 'an id of its own (no earlier creation was given it)',
      actual: `${exactText(id)}, also the id of an earlier transaction${amount}`,
    },
  ];
}

/** A customer id as a path names it exactly: a positive integer in its plain spelling (64-bit ids too). */
const plainId = (id: string | undefined): id is string =>
  id !== undefined && /^[1-9]\d{0,19}$/.test(id) && BigInt(id) <= 2n ** 64n - 1n;

/** CUSTOMER-DELETE-GONE: deleting again a customer its owner deleted (as history saw) answers 404. */
function deletedStaysDeleted(exchange: Exchange, asked: Asked, history: History): Violation[] | undefined {
  if (asked.key !== 'valid' && asked.key !== 'unknown') return undefined;
  return deletedByItsOwner(asked, history) ? statusIs(exchange, 404) : undefined;
}

/** True when history holds what CUSTOMER-DELETE-GONE judges a deletion by (the expectation is then the check's). */
export function deletedByItsOwner(asked: Pick<Asked, 'account' | 'id'>, history: History): boolean {
  const customer = plainId(asked.id) ? history.customers.get(asked.id) : undefined;
  return customer?.deleted === true && customer.account === asked.account;
}

export const identityHistoryChecks = (): HistoryCheck[] => [
  registeredWithHistory('TXN-ID-UNIQUE', ['createTransaction'], createdIdIsNew),
  registeredWithHistory('CUSTOMER-DELETE-GONE', ['deleteCustomer'], deletedStaysDeleted, { statusOnly: true }),
];
