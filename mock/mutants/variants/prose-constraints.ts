/**
 * Gap row prose-constraints: formats the reference states only as prose (an upper-case
 * two-letter country, an international-style number, a currency code) are constraints only
 * under --strict, so a lenient reading of them conforms by default.
 */
import { isObject } from '../behaviour-hooks.ts';
import type { Hooks, Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

export const lenientFormats = (): Hooks => ({
  preHandler: (c) => {
    const body = c.request.body;
    if (!isObject(body)) return undefined;
    if (c.operation === 'sendTransaction' && isObject(body.phone_number)) {
      const phone = body.phone_number;
      // Country codes in any case and of two or three letters; phone numbers with spaces or dashes.
      if (typeof phone.country === 'string' && /^[A-Za-z]{2,3}$/.test(phone.country))
        phone.country = phone.country.slice(0, 2).toUpperCase();
      if (typeof phone.number === 'string') phone.number = phone.number.replace(/[\s.-]/g, '');
    }
    if (c.operation === 'createTransaction' && isObject(body.currency) && typeof body.currency.iso === 'string')
      body.currency.iso = body.currency.iso.toUpperCase();
    return undefined;
  },
});

export function proseConstraintsVariants(): Variant[] {
  return [
    variant({
      name: 'variant.lenient-formats',
      gaps: ['prose-constraints'],
      rules: ['SEND-OPEN-INPUT', 'TXN-CREATE-OPEN-INPUT'],
      strictKills: 'SEND-OPEN-INPUT',
      operations: ['createTransaction', 'sendTransaction'],
      description:
        'country codes in any case and of three letters, phone numbers with spaces, lower-case currency codes accepted',
      create: lenientFormats,
    }),
  ];
}
