/** Gap row identifiers: ids are integers whose range is not shown, so 64-bit ones conform. */
import { isObject, isSuccess } from '../hooks.ts';
import type { Hooks, Variant } from '../hooks.ts';
import { variant } from './shared.ts';

/** Ids far from the reference's ranges (beyond 32 bits): answers add an offset, requests remove it. */
export function largeIds(): Hooks {
  const offset = 7_000_000_000_000;
  const inward = (value: unknown): unknown => (typeof value === 'number' && value >= offset ? value - offset : value);
  const inwardText = (value: string): string =>
    /^\d{13,15}$/.test(value) && Number(value) >= offset ? String(Number(value) - offset) : value;
  return {
    preHandler: (c) => {
      const params = c.request.params as Record<string, string>;
      if (typeof params.id === 'string' && (c.operation === 'deleteCustomer' || c.operation === 'getPaymentLink'))
        params.id = inwardText(params.id);
      const b = c.request.body;
      if (c.operation === 'createTransaction' && isObject(b) && isObject(b.customer))
        b.customer.id = inward(b.customer.id);
    },
    onSend: (c) => {
      if (!isSuccess(c.status) || !isObject(c.json)) return undefined;
      if ((c.operation === 'createTransaction' || c.operation === 'createCustomer') && typeof c.json.id === 'number') {
        return { json: { ...c.json, id: c.json.id + offset } };
      }
      return undefined;
    },
  };
}

export function identifiersVariants(): Variant[] {
  return [
    variant({
      name: 'variant.ids-large',
      gaps: ['identifiers'],
      rules: ['TXN-CREATE-SCHEMA', 'CUSTOMER-DELETE-204', 'LINK-2XX'],
      operations: ['createTransaction', 'createCustomer', 'deleteCustomer', 'getPaymentLink'],
      description: 'transaction and customer ids beyond 32 bits',
      create: largeIds,
    }),
  ];
}
