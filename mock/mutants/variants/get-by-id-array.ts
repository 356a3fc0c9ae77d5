/** Gap row get-by-id-array: GET-by-id returns "a JSON array", which may hold more than the object asked for. */
import { isObject, isSuccess } from '../behaviour-hooks.ts';
import type { Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

export function getByIdArrayVariants(): Variant[] {
  return [
    variant({
      name: 'variant.lists-with-other-elements',
      gaps: ['get-by-id-array'],
      rules: ['BALANCE-ARRAY', 'CURRENCY-ARRAY', 'BALANCE-CONTAINS-ID', 'CURRENCY-CONTAINS-ID'],
      operations: ['getBalance', 'getCurrency'],
      description: 'GET-by-id arrays hold other elements besides the requested one',
      create: () => ({
        onSend: (c) => {
          if (!isSuccess(c.status) || !Array.isArray(c.json)) return undefined;
          const others =
            c.operation === 'getBalance' ? [...c.store.balances.values()] : [...c.store.currencies.values()];
          const asked = c.json as unknown[];
          return { json: [...others.filter((item) => !asked.some((a) => isObject(a) && a.id === item.id)), ...asked] };
        },
      }),
    }),
  ];
}
