/**
 * Gap row clock: which clock timestamps follow is not shown, so a server whose clock is off from
 * the suite's but agrees with its own Date header conforms.
 */
import { bodyObjects, isSuccess } from '../behaviour-hooks.ts';
import type { Hooks, Variant } from '../behaviour-hooks.ts';
import { dateTimeFields, variant } from './shared-choices.ts';

/** Every timestamp of an answer, and its Date header, `ms` ahead of the real clock. */
function clockAhead(ms: number): () => Hooks {
  const fields = dateTimeFields();
  return () => ({
    onSend: (c) => {
      const headers = { date: new Date(Date.now() + ms).toUTCString() };
      const names = fields.get(c.operation) ?? [];
      if (!isSuccess(c.status) || names.length === 0 || c.json === undefined) return { headers };
      for (const object of bodyObjects(c.json)) {
        for (const name of names) {
          const value = object[name];
          if (typeof value === 'string') object[name] = new Date(Date.parse(value) + ms).toISOString();
        }
      }
      return { json: c.json, headers };
    },
  });
}

export function clockVariants(): Variant[] {
  return [
    variant({
      name: 'variant.clock-ten-minutes-ahead',
      gaps: ['clock'],
      rules: ['TIME-NOW', 'TIME-ORDER', 'TXN-CREATE-SCHEMA', 'SEND-SCHEMA'],
      operations: 'all',
      description: "a server whose clock is ten minutes ahead of the suite's: its timestamps and its Date header agree",
      create: clockAhead(600_000),
    }),
  ];
}
