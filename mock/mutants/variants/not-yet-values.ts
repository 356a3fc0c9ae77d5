/**
 * Gap row not-yet-values: the reference does not say what a record shows for a value it does not
 * have yet, so it may be null or left out (lenient: --strict requires these fields present).
 */
import { bodyObjects, isObject, isSuccess } from '../behaviour-hooks.ts';
import type { Hooks, Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

/** Values a record does not have yet, null or left out: payment_method_id before a phone number, currency affixes. */
function notYetValues(form: 'null' | 'absent'): () => Hooks {
  const unset = (object: Record<string, unknown>, field: string): void => {
    if (form === 'null') object[field] = null;
    else delete object[field];
  };
  return () => ({
    onSend: (c) => {
      if (!isSuccess(c.status) || !Array.isArray(c.json)) return undefined;
      if (c.operation === 'sendTransaction') {
        const body = c.request.body;
        if (isObject(body) && body.phone_number !== undefined && body.phone_number !== null) return undefined;
        for (const intent of bodyObjects(c.json)) unset(intent, 'payment_method_id');
      } else {
        for (const currency of bodyObjects(c.json)) {
          unset(currency, 'prefix');
          if (form === 'absent') unset(currency, 'suffix');
        }
      }
      return { json: c.json };
    },
  });
}

export function notYetValuesVariants(): Variant[] {
  return [
    variant({
      name: 'variant.not-yet-values-null',
      gaps: ['not-yet-values'],
      rules: ['SEND-SCHEMA', 'CURRENCY-ARRAY'],
      strictKills: 'SEND-SCHEMA',
      operations: ['sendTransaction', 'getCurrency'],
      description:
        'payment intents of a send without a phone number show payment_method_id null (no method known yet), ' +
        'and currencies show prefix null (none), ' +
        'as Go structs with pointer fields and pydantic Optional fields write them',
      create: notYetValues('null'),
    }),
    variant({
      name: 'variant.not-yet-values-absent',
      gaps: ['not-yet-values'],
      rules: ['SEND-SCHEMA', 'CURRENCY-ARRAY'],
      strictKills: 'CURRENCY-ARRAY',
      operations: ['sendTransaction', 'getCurrency'],
      description:
        'payment intents of a send without a phone number leave payment_method_id out, ' +
        'and currencies leave out prefix and suffix (omitempty)',
      create: notYetValues('absent'),
    }),
  ];
}
