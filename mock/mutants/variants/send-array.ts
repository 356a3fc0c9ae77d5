/** Gap row send-array: a send returns "a JSON array containing payment-intent objects", possibly several. */
import { isObject, isSuccess } from '../behaviour-hooks.ts';
import type { Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

export function sendArrayVariants(): Variant[] {
  return [
    variant({
      name: 'variant.send-several-intents',
      gaps: ['send-array'],
      rules: ['SEND-SCHEMA', 'SEND-AMOUNT-MATCHES'],
      operations: ['sendTransaction'],
      description: 'the send answer holds two payment intents',
      create: () => ({
        onSend: (c) =>
          isSuccess(c.status) && Array.isArray(c.json) && isObject(c.json[0])
            ? { json: [...c.json, { ...c.json[0], reference: `${String(c.json[0].reference)}_2` }] }
            : undefined,
      }),
    }),
  ];
}
