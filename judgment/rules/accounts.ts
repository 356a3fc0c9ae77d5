/**
 * What an answer owes the account that asked, checked by the tests that cross accounts and keys
 * (tests/conformance/accounts.spec.ts, authentication.spec.ts) on answers they choose: no
 * account_id of another account in it (ACCOUNT-DATA-OWN), and none of a resource's data in a
 * refused answer (AUTH-REFUSED-NO-EFFECT, ACCOUNT-ISOLATION-4XX).
 */
import { describeValue, escapePointerToken } from '../../contract/json-pointer.ts';
import type { Exchange } from '../../http/exchange.ts';
import type { Violation } from '../checks.ts';

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
