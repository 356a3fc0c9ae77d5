/**
 * What an answer owes the account that asked, checked by the tests that cross accounts and keys
 * (tests/conformance/accounts.spec.ts, authentication.spec.ts) on answers they choose, and, as history checks, on
 * every answer whose history shows the other account's data: no account_id of another account in it
 * (ACCOUNT-DATA-OWN), and none of a resource's data in a refused answer (AUTH-REFUSED-NO-EFFECT,
 * ACCOUNT-ISOLATION-4XX).
 */
import { describeValue, escapePointerToken } from '../../contract/json-pointer.ts';
import type { Exchange } from '../../http/exchange.ts';
import { isClientError, isSuccess, type Violation } from '../checks.ts';
import type { Asked, History } from '../history.ts';
import { registeredWithHistory, type HistoryCheck } from './define.ts';

/**
 * Visits every object of a JSON value, depth first, with its JSON pointer; when `visit` returns false, the
 * object's members are not visited.
 */
function visitObjects(
  value: unknown,
  visit: (object: Record<string, unknown>, pointer: string) => boolean | undefined,
  pointer = '',
): void {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) visitObjects(item, visit, `${pointer}/${index}`);
  } else if (typeof value === 'object' && value !== null) {
    const object = value as Record<string, unknown>;
    if (visit(object, pointer) === false) return;
    for (const [key, item] of Object.entries(object))
      visitObjects(item, visit, `${pointer}/${escapePointerToken(key)}`);
  }
}

/** ACCOUNT-DATA-OWN: no `account_id` anywhere in the body is another account's. */
export function accountIdIsNot(exchange: Pick<Exchange, 'json'>, otherAccountId: unknown): Violation[] {
  const violations: Violation[] = [];
  visitObjects(exchange.json, (object, pointer) => {
    if ('account_id' in object && JSON.stringify(object.account_id) === JSON.stringify(otherAccountId))
      violations.push({
        location: `body ${pointer}/account_id`,
        expected: "the caller's account_id (not another account's)",
        actual: `${describeValue(object.account_id)}, the other account's`,
      });
    return undefined;
  });
  return violations;
}

/**
 * AUTH-REFUSED-NO-EFFECT: a refused answer holds none of the resource's data: no object in it
 * carries two or more of the resource's fields with the resource's values (`resource`, as its
 * owner reads it).
 */
export function disclosesNothingOf(exchange: Pick<Exchange, 'json'>, resource: Record<string, unknown>): Violation[] {
  const fields = Object.entries(resource).filter(([, value]) => value !== null && value !== '' && value !== undefined);
  const violations: Violation[] = [];
  visitObjects(exchange.json, (object, pointer) => {
    const same = fields.filter(([key, item]) => key in object && JSON.stringify(object[key]) === JSON.stringify(item));
    if (same.length < 2) return undefined;
    violations.push({
      location: `body ${pointer || '/'}`,
      expected: "none of the resource's data in a refused answer",
      actual: `its ${same.map(([key]) => key).join(', ')}`,
    });
    return false;
  });
  return violations;
}

/** The rule a request for another account's resource is judged under (its refusal, or an answer without it). */
export const isolationRule = 'ACCOUNT-ISOLATION-4XX';

/** ACCOUNT-ISOLATION-4XX on a read of a balance of the other account: the answer holds nothing of it. */
export function otherBalanceLeaked(exchange: Pick<Exchange, 'json'>, theirs: number): Violation[] {
  const list = Array.isArray(exchange.json) ? (exchange.json as Array<{ id?: unknown } | null>) : [];
  return list.some((item) => item !== null && typeof item === 'object' && String(item.id) === String(theirs))
    ? [
        {
          location: 'body /*/id',
          expected: "nothing of the other account's balance (a 4xx, or a 2xx without it)",
          actual: `the balance ${theirs}`,
        },
      ]
    : [];
}

export const accountHistoryChecks = (): HistoryCheck[] => [
  // An answer to one account carries no account_id the other account's own answers showed.
  registeredWithHistory(
    'ACCOUNT-DATA-OWN',
    ['sendTransaction', 'getBalance', 'getCurrency'],
    (exchange: Exchange, asked: Asked, history: History) => {
      if (asked.key !== 'valid' || !isSuccess(exchange.status)) return undefined;
      const others = history.otherAccountIds(asked.account);
      return others.length === 0
        ? undefined
        : others.flatMap((id) => accountIdIsNot(exchange, JSON.parse(id) as unknown));
    },
  ),
  // A read refused for its credential discloses nothing of the resource asked for, as history showed it its owner.
  registeredWithHistory(
    'AUTH-REFUSED-NO-EFFECT',
    ['getBalance', 'getCurrency'],
    (exchange: Exchange, asked: Asked, history: History) => {
      if (asked.key !== 'refused' || !isClientError(exchange.status)) return undefined;
      const resource = history.resources.get(`${exchange.operation} ${asked.id ?? ''}`);
      return resource === undefined ? undefined : disclosesNothingOf(exchange, resource);
    },
  ),
];
