/** Gap row status-values: the documented status values are examples, not an enumeration. */
import { bodyObjects, isSuccess } from '../behaviour-hooks.ts';
import type { Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

export function statusValuesVariants(): Variant[] {
  return [
    variant({
      name: 'variant.other-status-values',
      gaps: ['status-values'],
      rules: ['TXN-CREATE-SCHEMA', 'SEND-SCHEMA'],
      operations: ['createTransaction', 'sendTransaction'],
      description: 'status values other than the documented examples ("initiated" transactions, "processing" intents)',
      create: () => ({
        onSend: (c) => {
          if (!isSuccess(c.status) || c.json === undefined) return undefined;
          for (const object of bodyObjects(c.json)) {
            if (object.status === 'pending')
              object.status = c.operation === 'createTransaction' ? 'initiated' : 'processing';
          }
          return { json: c.json };
        },
      }),
    }),
  ];
}
