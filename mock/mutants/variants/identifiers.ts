/** Gap row identifiers: ids are integers whose range is not shown, so 64-bit ones conform. */
import { isObject, isSuccess } from '../behaviour-hooks.ts';
import type { Hooks, Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

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
        // A transaction names its customer by the id the customer was given (TXN-CREATE-CUSTOMER-KEPT).
        const customer = typeof c.json.customer_id === 'number' ? { customer_id: c.json.customer_id + offset } : {};
        return { json: { ...c.json, id: c.json.id + offset, ...customer } };
      }
      return undefined;
    },
  };
}

/**
 * Customer ids given out as max(id) + 1 of the customers that live (SQLite's rowid without AUTOINCREMENT, which
 * Rails's schema load creates; an in-memory map keyed by its largest id): a deleted customer's id comes back with the
 * next creation. The reference does not forbid it.
 */
export function reusedIds(): Hooks {
  const first = new WeakMap<object, number>();
  return {
    onSend: (c) => {
      if (c.operation !== 'createCustomer' || !isSuccess(c.status) || !isObject(c.json)) return undefined;
      const created = typeof c.json.id === 'number' ? c.store.customers.get(c.json.id) : undefined;
      if (created === undefined) return undefined;
      if (!first.has(c.store)) first.set(c.store, created.id);
      let largest = 0;
      for (const id of c.store.customers.keys()) if (id !== created.id && id > largest) largest = id;
      // Never above the id the store gave: the store's own counter stays ahead of every id handed out here.
      const id = Math.min(created.id, largest === 0 ? first.get(c.store)! : largest + 1);
      if (id === created.id) return undefined;
      c.store.customers.delete(created.id);
      c.store.customers.set(id, { ...created, id });
      return { json: { ...c.json, id } };
    },
  };
}

export function identifiersVariants(): Variant[] {
  return [
    variant({
      name: 'variant.ids-large',
      gaps: ['identifiers'],
      rules: ['TXN-CREATE-SCHEMA', 'CUSTOMER-DELETE-204', 'LINK-2XX', 'TXN-CREATE-CUSTOMER-KEPT'],
      operations: ['createTransaction', 'createCustomer', 'deleteCustomer', 'getPaymentLink'],
      description: 'transaction and customer ids beyond 32 bits (a transaction names its customer by that id)',
      create: largeIds,
    }),
    variant({
      name: 'variant.ids-reused',
      gaps: ['identifiers'],
      rules: ['CUSTOMER-DELETE-GONE', 'CUSTOMER-DELETE-204'],
      operations: ['createCustomer', 'deleteCustomer'],
      description: "a deleted customer's id given to the next creation (max(id) + 1 of the living customers)",
      create: reusedIds,
    }),
  ];
}
