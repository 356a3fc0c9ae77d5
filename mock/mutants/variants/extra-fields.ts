/** Gap row extra-fields: fields beyond those shown are not excluded, so every answer may carry more. */
import { bodyObjects, isSuccess } from '../hooks.ts';
import type { Variant } from '../hooks.ts';
import { variant } from './shared.ts';

export function extraFieldsVariants(): Variant[] {
  return [
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
