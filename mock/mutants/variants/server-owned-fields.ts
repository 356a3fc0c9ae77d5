/**
 * Gap row server-owned-fields: whether a creation body may carry the fields the server gives a
 * transaction is not shown, so they may be refused, or accepted (a client's reference kept).
 */
import { isObject, isSuccess } from '../behaviour-hooks.ts';
import type { Variant } from '../behaviour-hooks.ts';
import { bounds, variant } from './shared-choices.ts';

export function serverOwnedFieldsVariants(): Variant[] {
  return [
    variant({
      name: 'variant.server-owned-fields-refused',
      gaps: ['server-owned-fields'],
      rules: ['SERVER-OWNED-FIELDS', 'TXN-CREATE-2XX'],
      operations: ['createTransaction'],
      description: 'a creation body carrying id, created_at, updated_at or status refused with 422 (a strict schema)',
      create: bounds((operation, body) =>
        operation === 'createTransaction' && ['id', 'created_at', 'updated_at', 'status'].some((key) => key in body)
          ? 'id, created_at, updated_at and status are set by the server'
          : undefined,
      ),
    }),
    variant({
      name: 'variant.client-reference-kept',
      gaps: ['server-owned-fields'],
      rules: ['SERVER-OWNED-FIELDS', 'TXN-CREATE-SCHEMA'],
      operations: ['createTransaction'],
      description: "a creation body's reference kept as the transaction's reference (a merchant reference)",
      create: () => ({
        onSend: (c) => {
          const body = c.request.body;
          if (!isSuccess(c.status) || !isObject(c.json) || !isObject(body) || typeof body.reference !== 'string')
            return undefined;
          return { json: { ...c.json, reference: body.reference } };
        },
      }),
    }),
  ];
}
