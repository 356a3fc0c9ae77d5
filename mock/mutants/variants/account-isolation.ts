/**
 * Gap row account-isolation: how a resource of another account answers is not shown, so any
 * 4xx conforms, as for a resource that does not exist.
 */
import { errorJson, isObject, otherAccountStore } from '../behaviour-hooks.ts';
import type { Hooks, Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

/** Another account's resource answers 403 where the reference mock answers 404. */
function foreignResources403(): Hooks {
  return {
    onSend: (c) => {
      const other = otherAccountStore(c);
      if (c.status !== 404 || other === undefined) return undefined;
      const id = Number((c.request.params as { id?: string }).id);
      const body = c.request.body;
      const token = isObject(body) ? String(body.token) : '';
      const foreign =
        (c.operation === 'deleteCustomer' && other.customers.has(id)) ||
        (c.operation === 'getPaymentLink' && other.transactions.has(id)) ||
        (c.operation === 'getBalance' && other.balances.has(id)) ||
        (c.operation === 'sendTransaction' && other.tokens.has(token));
      return foreign
        ? { status: 403, json: errorJson(403, 'forbidden', 'this resource belongs to another account') }
        : undefined;
    },
  };
}

export function accountIsolationVariants(): Variant[] {
  return [
    variant({
      name: 'variant.foreign-resources-403',
      gaps: ['account-isolation'],
      rules: ['ACCOUNT-ISOLATION-4XX', 'ACCOUNT-ISOLATION-UNCHANGED', 'ACCOUNT-DATA-OWN'],
      operations: ['deleteCustomer', 'getPaymentLink', 'sendTransaction', 'getBalance'],
      description: 'a resource of another account answers 403 Forbidden (it exists, but not for the caller), not 404',
      create: foreignResources403,
    }),
  ];
}
