/**
 * Gap row timestamps: "ISO 8601 date-time" is read as any RFC 3339 date-time, so an offset, no
 * fraction or more digits of one all conform.
 */
import { bodyObjects, isSuccess } from '../behaviour-hooks.ts';
import type { Hooks, Variant } from '../behaviour-hooks.ts';
import { dateTimeFields, variant } from './shared-choices.ts';

function rewriteDates(render: (date: Date) => string): () => Hooks {
  const fields = dateTimeFields();
  return () => ({
    onSend: (c) => {
      const names = fields.get(c.operation) ?? [];
      if (!isSuccess(c.status) || names.length === 0 || c.json === undefined) return undefined;
      for (const object of bodyObjects(c.json)) {
        for (const name of names) {
          const value = object[name];
          if (typeof value === 'string') object[name] = render(new Date(value));
        }
      }
      return { json: c.json };
    },
  });
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** The same instant written in UTC+01:00. */
function withOffset(date: Date): string {
  const shifted = new Date(date.getTime() + 3_600_000);
  return `${shifted.toISOString().slice(0, 23)}+01:00`;
}

export const microseconds = rewriteDates(
  (d) => `${d.toISOString().slice(0, 23)}${pad(d.getUTCMilliseconds() % 1000, 3)}Z`,
);

export function timestampsVariants(): Variant[] {
  return [
    variant({
      name: 'variant.date-time-offset',
      gaps: ['timestamps'],
      rules: ['TXN-CREATE-SCHEMA', 'SEND-SCHEMA', 'BALANCE-ARRAY', 'CURRENCY-ARRAY', 'SEND-INTENT-EVENT-TIMESTAMPS'],
      operations: 'all',
      description: 'date-times written with a +01:00 offset',
      create: rewriteDates(withOffset),
    }),
    variant({
      name: 'variant.date-time-no-fraction',
      gaps: ['timestamps'],
      rules: ['TXN-CREATE-SCHEMA', 'SEND-SCHEMA', 'BALANCE-ARRAY', 'CURRENCY-ARRAY', 'SEND-INTENT-EVENT-TIMESTAMPS'],
      operations: 'all',
      description: 'date-times without a fraction of a second',
      create: rewriteDates((d) => `${d.toISOString().slice(0, 19)}Z`),
    }),
    variant({
      name: 'variant.date-time-microseconds',
      gaps: ['timestamps'],
      rules: ['TXN-CREATE-SCHEMA', 'SEND-SCHEMA', 'BALANCE-ARRAY', 'CURRENCY-ARRAY', 'SEND-INTENT-EVENT-TIMESTAMPS'],
      operations: 'all',
      description: 'date-times with microseconds',
      create: microseconds,
    }),
  ];
}
