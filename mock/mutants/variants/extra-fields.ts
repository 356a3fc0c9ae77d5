/**
 * Gap row extra-fields: fields beyond those shown are not excluded, so every answer may carry more, or less of what
 * the reference does not show (a transaction's customer, named in any form or not at all).
 */
import { bodyObjects, isObject, isSuccess } from '../behaviour-hooks.ts';
import type { Hooks, Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

/**
 * A transaction's customer as an expanded object in place of customer_id (Stripe's `expand`, a serializer that nests
 * the relation), with the values a server normalises: the e-mail in lower case, the phone number as digits only.
 */
function customerExpanded(): Hooks {
  return {
    onSend: (c) => {
      if (!isSuccess(c.status) || !isObject(c.json) || !('customer_id' in c.json)) return undefined;
      const { customer_id: id, ...transaction } = c.json;
      const record = typeof id === 'number' ? c.store.customers.get(id) : undefined;
      const customer =
        record === undefined
          ? null
          : {
              id: record.id,
              email: record.email?.toLowerCase() ?? null,
              firstname: record.firstname,
              lastname: record.lastname,
              phone_number:
                record.phone_number === null
                  ? null
                  : { ...record.phone_number, number: String(record.phone_number.number).replace(/\D/g, '') },
            };
      return { json: { ...transaction, customer } };
    },
  };
}

export function extraFieldsVariants(): Variant[] {
  return [
    variant({
      name: 'variant.customer-expanded',
      gaps: ['extra-fields'],
      rules: ['TXN-CREATE-SCHEMA', 'TXN-CREATE-CUSTOMER-KEPT'],
      operations: ['createTransaction'],
      description:
        'a transaction names its customer as an expanded object (customer: {id, email, ...}) instead of ' +
        'customer_id, its e-mail in lower case and its phone number as digits only',
      create: customerExpanded,
    }),
    variant({
      name: 'variant.customer-not-named',
      gaps: ['extra-fields'],
      rules: ['TXN-CREATE-SCHEMA', 'TXN-CREATE-CUSTOMER-KEPT'],
      operations: ['createTransaction'],
      description: 'a transaction answer names no customer (no customer_id: the reference lists none)',
      create: () => ({
        onSend: (c) => {
          if (!isSuccess(c.status) || !isObject(c.json) || !('customer_id' in c.json)) return undefined;
          const { customer_id: _id, ...transaction } = c.json;
          return { json: transaction };
        },
      }),
    }),
    variant({
      name: 'variant.extra-fields',
      gaps: ['extra-fields'],
      rules: ['TXN-CREATE-SCHEMA', 'LINK-SCHEMA', 'SEND-SCHEMA', 'BALANCE-ARRAY', 'CURRENCY-ARRAY'],
      operations: 'all',
      description: 'every object of a success body carries extra fields',
      create: () => ({
        onSend: (c) => {
          if (!isSuccess(c.status) || c.json === undefined) return undefined;
          for (const object of bodyObjects(c.json)) {
            object.object = c.operation;
            object.livemode = false;
            object.metadata = { source: 'variant', nested: { list: [1, 2] } };
          }
          return { json: c.json };
        },
      }),
    }),
    variant({
      name: 'variant.extra-nested-objects',
      gaps: ['extra-fields'],
      rules: ['TXN-CREATE-SCHEMA', 'LINK-SCHEMA', 'SEND-SCHEMA', 'BALANCE-ARRAY', 'CURRENCY-ARRAY'],
      operations: 'all',
      description: 'success bodies carry deeply nested extra objects and arrays of objects',
      create: () => ({
        onSend: (c) => {
          if (!isSuccess(c.status) || c.json === undefined) return undefined;
          for (const object of bodyObjects(c.json)) {
            object.links = [
              { rel: 'self', href: `https://api.example.com/${c.operation}` },
              { rel: 'account', href: null },
            ];
            object._meta = {
              trace: { spans: [{ id: 1, children: [{ id: 2, tags: { a: [true, null, { deep: 'x' }] } }] }] },
            };
          }
          return { json: c.json };
        },
      }),
    }),
  ];
}
