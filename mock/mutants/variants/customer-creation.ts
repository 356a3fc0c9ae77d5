/**
 * Gap row customer-creation: customer creation exists but is not shown, so a target may not
 * offer it (tests that need a customer are skipped) or answer it in its own shape.
 */
import { errorJson, isObject, isSuccess } from '../behaviour-hooks.ts';
import type { Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

export function customerCreationVariants(): Variant[] {
  return [
    variant({
      name: 'variant.no-customer-creation',
      gaps: ['customer-creation'],
      rules: ['CUSTOMER-DELETE-204', 'CUSTOMER-DELETE-GONE', 'TXN-CREATE-CUSTOMER-BY-ID'],
      operations: ['createCustomer'],
      description: 'POST /customers does not exist (404): tests that need a customer are skipped',
      create: () => ({
        preHandler: () => ({ status: 404, json: errorJson(404, 'not_found', 'no operation POST /customers') }),
      }),
    }),
    variant({
      name: 'variant.customer-creation-envelope',
      gaps: ['customer-creation'],
      rules: ['CUSTOMER-DELETE-204', 'CUSTOMER-DELETE-GONE', 'TXN-CREATE-CUSTOMER-BY-ID'],
      operations: ['createCustomer'],
      description: 'the created customer answered inside an envelope: {"data": {...}}',
      create: () => ({
        onSend: (c) => (isSuccess(c.status) && isObject(c.json) ? { json: { data: c.json } } : undefined),
      }),
    }),
  ];
}
