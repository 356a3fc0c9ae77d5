/**
 * Gap row error-status: the error responses of operations 2 to 6 are not shown, so a refusal
 * is any 4xx, never a particular one.
 */
import { isObject } from '../behaviour-hooks.ts';
import type { Hooks, Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

export const invalid422 = (): Hooks => ({
  onSend: (c) =>
    c.status === 400 && isObject(c.json) && isObject(c.json.error)
      ? { status: 422, json: { error: { ...c.json.error, status: 422 } } }
      : undefined,
});

export function errorStatusVariants(): Variant[] {
  return [
    variant({
      name: 'variant.invalid-input-422',
      gaps: ['error-status'],
      rules: [
        'TXN-CREATE-INVALID-4XX',
        'SEND-INVALID-4XX',
        'SEND-TOKEN-REQUIRED',
        'MALFORMED-JSON-4XX',
        'CUSTOMER-ID-INTEGER',
      ],
      operations: 'all',
      description: 'invalid input answered 422 instead of 400',
      create: invalid422,
    }),
    variant({
      name: 'variant.unknown-ids-400',
      gaps: ['error-status', 'unknown-ids'],
      rules: ['LINK-UNKNOWN-TXN-4XX', 'SEND-UNKNOWN-TOKEN-4XX', 'UNKNOWN-ID-NOT-5XX', 'CUSTOMER-REFERENCE-NOT-5XX'],
      operations: ['getPaymentLink', 'sendTransaction', 'getBalance', 'getCurrency', 'createTransaction'],
      description: 'unknown resources (other than a customer to delete) answered 400 instead of 404',
      create: () => ({
        onSend: (c) =>
          c.status === 404 && isObject(c.json) && isObject(c.json.error)
            ? { status: 400, json: { error: { ...c.json.error, status: 400 } } }
            : undefined,
      }),
    }),
  ];
}
