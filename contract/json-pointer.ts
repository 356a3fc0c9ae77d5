/** RFC 6901 JSON pointers, and a short printable form of a value for failure messages. */
import { stringifyJson } from './big-integers.ts';

export function valueAtPointer(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  let current: unknown = value;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

export function escapePointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

const maxShown = 120;

/** A value as JSON with its JSON type, cut to a readable length: `"100" (string)`. */
/** The JSON type of a value ('absent' where there is none), as messages and violations name it. */
export function jsonType(value: unknown): string {
  if (value === undefined) return 'absent';
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

export function describeValue(value: unknown): string {
  if (value === undefined) return 'absent';
  const type = jsonType(value);
  let text = stringifyJson(value) ?? String(value);
  if (text.length > maxShown) text = `${text.slice(0, maxShown)}…`;
  return `${text} (${type})`;
}
