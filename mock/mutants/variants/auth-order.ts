/** Gap row auth-order: the order of authentication and lookup is not shown, so a server may check either first. */
import { errorJson } from '../behaviour-hooks.ts';
import type { Hooks, Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

/** Operations with an id in the path, and the collection that id is looked up in. */
const lookupBeforeAuth = (): Hooks => ({
  onRequest: (c) => {
    const id = Number((c.request.params as Record<string, unknown>).id);
    const collection =
      c.operation === 'deleteCustomer'
        ? c.store.customers
        : c.operation === 'getPaymentLink'
          ? c.store.transactions
          : c.operation === 'getBalance'
            ? c.store.balances
            : c.store.currencies;
    if (Number.isSafeInteger(id) && (collection as Map<number, unknown>).has(id)) return undefined;
    return { status: 404, json: errorJson(404, 'not_found', 'no such resource') };
  },
});

export function authOrderVariants(): Variant[] {
  return [
    variant({
      name: 'variant.lookup-before-auth',
      gaps: ['auth-order'],
      rules: ['AUTH-DELETE-401', 'AUTH-OTHERS-401'],
      operations: ['deleteCustomer', 'getPaymentLink', 'getBalance', 'getCurrency'],
      description: 'the resource is looked up before the key is checked: an unknown id gets 404 whatever the key',
      create: lookupBeforeAuth,
    }),
  ];
}
