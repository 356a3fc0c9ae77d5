/** Gap row success-status: the success codes of operations 2 to 6 are not shown, so any 2xx conforms. */
import { isObject, isSuccess } from '../behaviour-hooks.ts';
import type { Hooks, Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

export const creation200 = (): Hooks => ({ onSend: (c) => (c.status === 201 ? { status: 200 } : undefined) });

export function successStatusVariants(): Variant[] {
  return [
    variant({
      name: 'variant.creation-200',
      gaps: ['success-status'],
      rules: ['TXN-CREATE-2XX'],
      operations: ['createTransaction', 'createCustomer'],
      description: 'creations answered 200 instead of 201',
      create: creation200,
    }),
    variant({
      name: 'variant.link-201',
      gaps: ['success-status'],
      rules: ['LINK-2XX'],
      operations: ['getPaymentLink'],
      description: 'the payment link answered 201 (a token was created)',
      create: () => ({
        onSend: (c) => (c.status === 200 ? { status: 201 } : undefined),
      }),
    }),
    variant({
      name: 'variant.send-202-scheduled',
      gaps: ['success-status', 'event-fields'],
      rules: ['SEND-2XX', 'SEND-SCHEMA', 'SEND-INTENT-EVENT-TIMESTAMPS'],
      operations: ['sendTransaction'],
      description: 'sends answered 202 with every intent scheduled (no event yet)',
      create: () => ({
        onSend: (c) => {
          if (!isSuccess(c.status) || !Array.isArray(c.json)) return undefined;
          const intents = c.json.map((intent) =>
            isObject(intent)
              ? {
                  ...intent,
                  status: 'scheduled',
                  approved_at: null,
                  canceled_at: null,
                  deleted_at: null,
                  last_error_code: null,
                }
              : intent,
          );
          return { status: 202, json: intents };
        },
      }),
    }),
    variant({
      name: 'variant.reads-203',
      gaps: ['success-status'],
      rules: ['BALANCE-2XX', 'CURRENCY-2XX'],
      operations: ['getBalance', 'getCurrency'],
      description: 'reads answered 203 (from a cache)',
      create: () => ({
        onSend: (c) => (c.status === 200 ? { status: 203 } : undefined),
      }),
    }),
  ];
}
