/**
 * The outcome class of a request body sent as text (docs/explanations/outcome-classes.md), from how mainstream
 * parsers read it (judgment/json-dialects.ts) and how the body each reads is classified field by field
 * (judgment/input-class.ts):
 *
 * - JSON text is the body it spells; an integer spelled with a fraction or an exponent (1500.0, 15e2) names the
 *   same integer, which JSON Schema calls an integer and typed parsers (Go's encoding/json, pydantic's strict int)
 *   refuse: accept or refuse, in both modes;
 * - text no mainstream parser reads (cut short, unbalanced, not JSON at all) must be refused (MALFORMED-JSON-4XX),
 *   and so must text a parser reads only into a body no reading makes valid (NaN for the amount);
 * - text some mainstream parser reads beyond RFC 8259 (section 9 lets a parser accept extensions) is accept or
 *   refuse, an accepted answer carrying the body as that parser read it; --strict refuses it.
 */
import { describeValue, escapePointerToken } from '../contract/json-pointer.ts';
import { schemaAt } from '../contract/schema-paths.ts';
import type { SchemaName } from '../contract/schemas.ts';
import { parseJson } from '../contract/big-integers.ts';
import { bodyAsRead } from './accepted-input.ts';
import { classifyField, type ClassifiedInput, type ClassifyOptions } from './input-class.ts';
import { dialectReadings } from './json-dialects.ts';
import type { Reading } from './readings.ts';

/** The rule text no reading makes a valid body of is refused under. */
export const malformedRule = 'MALFORMED-JSON-4XX';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const same = (a: unknown, b: unknown): boolean =>
  Object.is(a, b) || (typeof a === 'object' && JSON.stringify(a) === JSON.stringify(b));

/**
 * Where a body differs from the valid one, among the properties its schema declares (a property it does not declare
 * is a field the reference lets a body carry): each pointer with the value read there (undefined: not there).
 */
function differences(
  name: SchemaName,
  valid: unknown,
  read: unknown,
  pointer = '',
): Array<{ pointer: string; value: unknown }> {
  if (!isObject(valid) || !isObject(read)) return same(valid, read) ? [] : [{ pointer, value: read }];
  return Object.keys(schemaAt(name, pointer).properties ?? {}).flatMap((key) => {
    const at = `${pointer}/${escapePointerToken(key)}`;
    const [before, after] = [valid[key], read[key]];
    if (isObject(before) && isObject(after)) return differences(name, before, after, at);
    return same(before, after) ? [] : [{ pointer: at, value: after }];
  });
}

/** The bodies a server may have made of a body read: its own, or with each differing field as that field is read. */
function bodyReadings(
  name: SchemaName,
  valid: unknown,
  read: unknown,
  optionsAt: (pointer: string) => ClassifyOptions,
): { bodies: unknown[]; lenient: boolean } {
  const changed = differences(name, valid, read);
  let bodies: unknown[] = [read];
  let lenient = false;
  for (const { pointer, value } of changed) {
    const field = classifyField(name, pointer, value, optionsAt(pointer));
    if (field.class === 'must-refuse') return { bodies: [], lenient };
    lenient ||= field.strictRefuses;
    bodies = bodies.flatMap((body) => field.readings.map((reading) => bodyAsRead(body, pointer, reading)));
  }
  return { bodies, lenient };
}

/** An integer written with a fraction or an exponent (1500.0, 15e2) outside the strings of JSON text. */
export function spellsIntegerOtherwise(text: string): boolean {
  const outsideStrings = text.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  return (outsideStrings.match(/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g) ?? []).some(
    (token) => /[.eE]/.test(token) && Number.isInteger(Number(token)),
  );
}

const excerpt = (text: string): string => describeValue(text.length > 80 ? `${text.slice(0, 77)}...` : text);

/**
 * The class of a body sent as `text`, made from the valid body `valid` (what the other fields are). `name` is the
 * body's schema; `optionsAt` gives classifyField's options for a field (the target's own values, a usable token).
 */
export function classifyText(
  name: SchemaName,
  valid: unknown,
  text: string,
  optionsAt: (pointer: string) => ClassifyOptions = () => ({}),
): ClassifiedInput {
  const what = `the body as text ${excerpt(text)}`;
  let json: unknown;
  try {
    json = parseJson(text);
  } catch {
    json = undefined;
  }
  if (json !== undefined) {
    const changed = differences(name, valid, json);
    if (!spellsIntegerOtherwise(text)) {
      if (changed.length === 0)
        return {
          class: 'must-accept',
          strictRefuses: false,
          readings: [{ kind: 'as-sent', value: json }],
          what,
          why: 'JSON',
        };
      if (changed.length === 1)
        return { ...classifyField(name, changed[0]!.pointer, changed[0]!.value, optionsAt(changed[0]!.pointer)), what };
    }
    const { bodies, lenient } = bodyReadings(name, valid, json, optionsAt);
    if (bodies.length === 0)
      return {
        class: 'must-refuse',
        strictRefuses: false,
        readings: [],
        what,
        why: 'JSON of a body no reading makes valid',
      };
    return {
      class: 'accept-or-refuse',
      strictRefuses: lenient,
      readings: bodies.map((body): Reading => ({ kind: 'as-sent', value: body })),
      what,
      why: spellsIntegerOtherwise(text)
        ? 'an integer spelled with a fraction or an exponent: JSON Schema calls it an integer, ' +
          "typed parsers (Go's encoding/json, pydantic's strict int) refuse it"
        : 'JSON whose fields the reference leaves open',
    };
  }
  const read = dialectReadings(text);
  if (read.length === 0)
    return {
      class: 'must-refuse',
      strictRefuses: false,
      readings: [],
      what,
      why: 'no mainstream JSON parser reads it',
      refusedUnder: malformedRule,
    };
  const readings = read.flatMap(({ dialect, value }) =>
    bodyReadings(name, valid, value, optionsAt).bodies.map(
      (body): Reading => ({ kind: 'coerced', value: body, how: `read by ${dialect.name} (${dialect.source})` }),
    ),
  );
  const readers = read.map(({ dialect }) => dialect.name).join(', ');
  if (readings.length === 0)
    return {
      class: 'must-refuse',
      strictRefuses: false,
      readings: [],
      what,
      why: `read only by ${readers}, into a body no reading makes valid`,
      refusedUnder: malformedRule,
    };
  return {
    class: 'accept-or-refuse',
    strictRefuses: true,
    readings,
    what,
    why: `not JSON, but ${readers} read${read.length === 1 ? 's' : ''} it (RFC 8259 section 9 allows extensions)`,
  };
}
