/**
 * Gap row unknown-ids: how unknown balance and currency ids answer is not shown, so any answer
 * but a 5xx conforms, an empty array included; a read of another account's balance answers as
 * an unknown id does (row account-isolation).
 */
import type { Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

export function unknownIdsVariants(): Variant[] {
  return [
    variant({
      name: 'variant.unknown-reads-empty-array',
      gaps: ['unknown-ids', 'account-isolation'],
      rules: ['UNKNOWN-ID-NOT-5XX', 'ACCOUNT-ISOLATION-4XX'],
      operations: ['getBalance', 'getCurrency'],
      description: 'an unknown balance or currency id answered 200 with an empty array',
      create: () => ({
        onSend: (c) =>
          c.status === 404 ? { status: 200, contentType: 'application/json; charset=utf-8', json: [] } : undefined,
      }),
    }),
  ];
}
