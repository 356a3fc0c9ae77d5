/** Gap row currency-affixes: a currency's prefix and suffix are strings, possibly empty. */
import { bodyObjects, isSuccess } from '../behaviour-hooks.ts';
import type { Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

export function currencyAffixesVariants(): Variant[] {
  return [
    variant({
      name: 'variant.currency-affixes',
      gaps: ['currency-affixes'],
      rules: ['CURRENCY-ARRAY'],
      operations: ['getCurrency'],
      description: 'currencies with a non-empty prefix and an empty suffix',
      create: () => ({
        onSend: (c) => {
          if (!isSuccess(c.status) || !Array.isArray(c.json)) return undefined;
          for (const currency of bodyObjects(c.json)) {
            currency.prefix = '₣ ';
            currency.suffix = '';
          }
          return { json: c.json };
        },
      }),
    }),
  ];
}
