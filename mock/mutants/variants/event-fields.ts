/**
 * Gap row event-fields: a payment intent's event times are "set when" their event happens, so
 * until then each may be absent as well as null.
 */
import { bodyObjects, isSuccess } from '../behaviour-hooks.ts';
import type { Hooks, Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

export const eventFieldsAbsent = (): Hooks => ({
  onSend: (c) => {
    if (c.operation !== 'sendTransaction' || !isSuccess(c.status) || !Array.isArray(c.json)) return undefined;
    for (const intent of bodyObjects(c.json)) {
      for (const field of ['approved_at', 'canceled_at', 'deleted_at', 'last_error_code'])
        if (intent[field] === null) delete intent[field];
    }
    return { json: c.json };
  },
});

export function eventFieldsVariants(): Variant[] {
  return [
    variant({
      name: 'variant.intent-event-fields-absent',
      gaps: ['event-fields'],
      rules: ['SEND-SCHEMA', 'SEND-INTENT-EVENT-TIMESTAMPS'],
      operations: ['sendTransaction'],
      description:
        'payment intents leave out approved_at, canceled_at, deleted_at and last_error_code until their event',
      create: eventFieldsAbsent,
    }),
  ];
}
