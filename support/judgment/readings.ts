/**
 * How a server may read a value whose JSON type is not the one the reference documents.
 *
 * The reference types every field but never says how a server parses input, and common
 * servers coerce: ajv's type coercion (coerceTypes: 'array'), which Fastify applies to every
 * body it validates by default, reads "1000" as 1000, 1000 as "1000", true as 1, a one-element
 * array as its element, and null as 0, "" or false. A server may also read null as "not
 * given" for a field the reference does not require, and a server written in PHP reads a JSON
 * array where an object is expected as the object with keys 0, 1, ... Such a value is neither
 * valid nor meaningless: a server may refuse it or accept it as it read it (the "accept or
 * refuse" class), and the answer of a server that accepted it must carry the value as read.
 *
 * The rules below are ajv's (https://ajv.js.org/coercion.html), written out so that the suite
 * judges what a server did without running ajv in coercing mode, and pydantic 1's (the version
 * Debian's FastAPI ships; its default, non-strict validators): a number or boolean in a string field
 * read as Python's str() writes it (False as "False", 1500.5 as "1500.5"), and a number with a
 * fraction in an integer field read as Python's int() truncates it (1500.5 as 1500).
 */
import type { JSONSchemaType } from '../../contract/json-schema.ts';

export type Reading =
  /** The value as sent: it has the documented type. */
  | { kind: 'as-sent'; value: unknown }
  /** Another JSON value, as a coercing parser reads it. */
  | { kind: 'coerced'; value: unknown; how: string }
  /** null read as "not given": the field's echo is not constrained. */
  | { kind: 'absent'; how: string };

const scalarTypes = new Set(['string', 'number', 'boolean']);

function isScalar(value: unknown): boolean {
  return value === null || scalarTypes.has(typeof value);
}

/** The one value ajv's coercion makes of `value` for the first of `types` it can coerce to, if any. */
export function coercedValue(value: unknown, types: readonly JSONSchemaType[]): unknown {
  let data = value;
  // coerceTypes: 'array': a one-element array of a scalar is read as its element.
  if (Array.isArray(data) && !types.includes('array')) {
    if (data.length !== 1 || !isScalar(data[0])) return undefined;
    data = data[0];
    if (types.some((type) => matchesType(data, type))) return data;
  }
  for (const type of types) {
    const coerced = coerceTo(data, type);
    if (coerced !== undefined) return coerced;
  }
  return undefined;
}

function matchesType(value: unknown, type: JSONSchemaType): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return typeof value === type;
  }
}

function coerceTo(data: unknown, type: JSONSchemaType): unknown {
  switch (type) {
    case 'string':
      if (typeof data === 'number' || typeof data === 'boolean') return String(data);
      return data === null ? '' : undefined;
    case 'number':
    case 'integer': {
      if (typeof data === 'boolean' || data === null) return Number(data);
      // ajv: `data && data == +data` (and no fraction for integers); JavaScript's own number reading.
      if (typeof data === 'string' && data !== '' && Number.isFinite(Number(data))) {
        const number = Number(data);
        if (type === 'integer' && number % 1 !== 0) return undefined;
        return number;
      }
      return undefined;
    }
    case 'boolean':
      if (data === 'false' || data === 0 || data === null) return false;
      if (data === 'true' || data === 1) return true;
      return undefined;
    case 'null':
      return data === '' || data === 0 || data === false ? null : undefined;
    default:
      // Objects and arrays are never coerced to (a scalar is not wrapped: no array fields in the bodies).
      return undefined;
  }
}

/** Python's repr() of a float: the shortest round-trip digits, in exponent form below 1e-4 and from 1e16. */
function pythonFloat(value: number): string {
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : value < 0 ? '-inf' : 'nan';
  const magnitude = Math.abs(value);
  if (magnitude !== 0 && (magnitude < 1e-4 || magnitude >= 1e16)) {
    const [mantissa, exponent] = value.toExponential().split('e') as [string, string];
    const sign = exponent.startsWith('-') ? '-' : '+';
    const digits = exponent.replace(/^[+-]/, '').padStart(2, '0');
    return `${mantissa}e${sign}${digits}`;
  }
  const fixed = String(value);
  return fixed.includes('.') || fixed.includes('e') ? fixed : `${fixed}.0`;
}

/**
 * The value pydantic 1 makes of `value` for the first of `types` it coerces to differently from ajv, if any:
 * str() of a number or boolean for a string, int() of a number with a fraction for an integer, and dict() of
 * an iterable of pairs for an object (the empty string and the empty array are {}; [["a", 1]] is {"a": 1}).
 */
export function pydanticValue(value: unknown, types: readonly JSONSchemaType[]): unknown {
  for (const type of types) {
    if (type === 'string') {
      if (typeof value === 'boolean') return value ? 'True' : 'False';
      // A JSON number without a fraction reaches Python as an int (its digits); one with a fraction as a float.
      if (typeof value === 'number') return Number.isInteger(value) ? String(value) : pythonFloat(value);
    }
    if (type === 'integer' && typeof value === 'number' && Number.isFinite(value) && !Number.isInteger(value)) {
      return Math.trunc(value);
    }
    // int() of a text: white space around it, a sign, digit separators ("1_000"); ASCII digits only here.
    if (type === 'integer' && typeof value === 'string' && /^\s*[+-]?\d+(?:_\d+)*\s*$/.test(value)) {
      const number = Number(value.trim().replace(/_/g, ''));
      if (Number.isSafeInteger(number)) return number;
    }
    if (type === 'object') {
      if (value === '') return {};
      const pairs = Array.isArray(value) && value.every((item) => Array.isArray(item) && item.length === 2);
      if (pairs)
        return Object.fromEntries((value as Array<[unknown, unknown]>).map(([key, item]) => [String(key), item]));
    }
  }
  return undefined;
}

/**
 * The readings of a value that does not have the field's documented type: ajv's coercion
 * (when its result is valid for the field: `valid`) and, for null in a field the reference
 * does not require, "not given". Empty: no reading makes the value valid.
 */
export function readingsOf(
  value: unknown,
  types: readonly JSONSchemaType[],
  options: { required: boolean; valid: (reading: unknown) => boolean },
): Reading[] {
  const readings: Reading[] = [];
  if (value === null) {
    // A field the reference requires cannot be "not given", and 0 or "" in its place is not what was meant.
    if (options.required) return [];
    readings.push({ kind: 'absent', how: 'null read as "not given"' });
  }
  const coerced = coercedValue(value, types);
  if (coerced !== undefined && options.valid(coerced)) {
    readings.push({
      kind: 'coerced',
      value: coerced,
      how: `read as ${JSON.stringify(coerced)} (a coercing parser's reading)`,
    });
  }
  // PHP decodes JSON objects and arrays to one kind of value, an array with keys: to a server written in it,
  // [] is {} and [1] is {"0": 1} (which the reference may allow: it shows no required field inside most objects).
  if (Array.isArray(value) && types.includes('object') && !types.includes('array')) {
    const keyed = Object.fromEntries(value.map((element, index) => [String(index), element]));
    if (options.valid(keyed))
      readings.push({
        kind: 'coerced',
        value: keyed,
        how:
          `read as ${JSON.stringify(keyed)} (a PHP-style decoder, ` +
          `for which arrays and objects are one kind of value)`,
      });
  }
  const pydantic = pydanticValue(value, types);
  const already = (candidate: unknown): boolean =>
    readings.some(
      (reading) => reading.kind === 'coerced' && JSON.stringify(reading.value) === JSON.stringify(candidate),
    );
  if (pydantic !== undefined && !already(pydantic) && options.valid(pydantic)) {
    readings.push({
      kind: 'coerced',
      value: pydantic,
      how: `read as ${JSON.stringify(pydantic)} (pydantic 1's reading: Python's str(), int() or dict())`,
    });
  }
  return readings;
}
