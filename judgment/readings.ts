/**
 * How a server may read a value whose JSON type is not the one the reference documents.
 *
 * The reference types every field but never says how a server parses input, and common servers
 * read other types their own documented way. Such a value is neither valid nor meaningless: a
 * server may refuse it or accept it as it read it (the "accept or refuse" class), and the answer
 * of a server that accepted it must carry the value as read. Each reading below is a stack's
 * documented default, named where it is made:
 *
 * - ajv's type coercion (coerceTypes: 'array'), which Fastify applies to every body it validates
 *   (https://ajv.js.org/coercion.html): "1000" as 1000, 1000 as "1000", true as 1, a
 *   one-element array as its element, null as 0, "" or false;
 * - null, in a field the reference does not require, as "not given";
 * - a JSON array where an object is expected as the keyed object PHP's json_decode makes of it;
 * - pydantic 1's default (non-strict) validators: int() of a text ("1_000" as 1000), dict() of an
 *   empty text or of a list of pairs;
 * - the string casts of judgment/string-casts.ts (a boolean or a number sent for a text);
 * - Rails' strong parameters (ActionController::Parameters#permit): a value of the other kind
 *   than the one permitted (an object or array for a scalar field, a scalar for an object field) is
 *   filtered out, and the record is made as if the field were not given.
 *
 * A reading keeps the value. One that makes another value of it (a fraction truncated or rounded,
 * as pydantic 1's int() and Jackson's ACCEPT_FLOAT_AS_INT do with 1500.5; an integer wrapped; a
 * text cut) is no reading: a server that accepts the input that way is judged on what it kept. For
 * an amount of money, a coercion is a reading only of what names a number itself (namesNumber): true
 * as 1, null as 0, [1500] as 1500 or "0x10" as 16 make an amount of what was not one.
 */
import type { JSONSchemaType } from '../contract/json-schema.ts';
import { stringCasts } from './string-casts.ts';

export type Reading =
  /** The value as sent: it has the documented type. */
  | { kind: 'as-sent'; value: unknown }
  /** Another JSON value, as a coercing parser reads it. */
  | { kind: 'coerced'; value: unknown; how: string }
  /** Read as "not given" (null, or a value filtered out): the field's echo is not constrained. */
  | { kind: 'absent'; how: string };

const scalarTypes = new Set(['string', 'number', 'boolean']);

/** A decimal number as text: digits (Python's digit separators too), a fraction, an exponent, white space around. */
const decimalText = /^\s*[+-]?(?:\d+(?:_\d+)*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/**
 * Whether a value names a number by itself: a JSON number, or the text of a decimal number ("1500", " 1500 ",
 * "1_500", "1.5e3"). A coercing reader's number made of anything else (a boolean, null, an array, an object, a
 * text in another notation such as "0x10", a blank text) is a number the sender never wrote: for an amount of
 * money, another amount.
 */
export function namesNumber(value: unknown): boolean {
  return typeof value === 'number' || (typeof value === 'string' && decimalText.test(value));
}

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

/**
 * The value pydantic 1 makes of `value` for the first of `types` it reads differently from ajv, if any: int() of a
 * text for an integer, and dict() of an empty text or of an iterable of pairs for an object (the empty string is {};
 * [["a", 1]] is {"a": 1}). Its int() of a number with a fraction truncates it: another value, not a reading.
 */
export function pydanticValue(value: unknown, types: readonly JSONSchemaType[]): unknown {
  for (const type of types) {
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

const isContainer = (value: unknown): boolean => typeof value === 'object' && value !== null;
const scalarOnly = (types: readonly JSONSchemaType[]): boolean =>
  types.every((type) => type !== 'object' && type !== 'array');

/**
 * Whether Rails' strong parameters filter the value out: an object or an array where scalars are permitted
 * (`permit(:description)`), a scalar where an object is (`permit(currency: [:iso])`, `custom_metadata: {}`).
 */
function filteredOut(value: unknown, types: readonly JSONSchemaType[]): boolean {
  if (value === null || value === undefined) return false;
  if (scalarOnly(types)) return isContainer(value);
  return types.includes('object') && !types.includes('array') && !isContainer(value);
}

/**
 * The readings of a value that does not have the field's documented type: ajv's coercion (when its result is valid
 * for the field: `valid`), PHP's keyed arrays, pydantic 1's int() and dict(), the string casts of other stacks and,
 * in a field the reference does not require, null and a value strong parameters filter out as "not given". Empty: no
 * reading makes the value valid.
 */
export function readingsOf(
  value: unknown,
  types: readonly JSONSchemaType[],
  options: { required: boolean; valid: (reading: unknown) => boolean },
): Reading[] {
  const readings: Reading[] = [];
  const already = (candidate: unknown): boolean =>
    readings.some(
      (reading) => reading.kind === 'coerced' && JSON.stringify(reading.value) === JSON.stringify(candidate),
    );
  const add = (candidate: unknown, how: string): void => {
    if (candidate === undefined || already(candidate) || !options.valid(candidate)) return;
    readings.push({ kind: 'coerced', value: candidate, how: `read as ${JSON.stringify(candidate)} (${how})` });
  };
  if (value === null) {
    // A field the reference requires cannot be "not given", and 0 or "" in its place is not what was meant.
    if (options.required) return [];
    readings.push({ kind: 'absent', how: 'null read as "not given"' });
  }
  add(coercedValue(value, types), "a coercing parser's reading");
  // PHP decodes JSON objects and arrays to one kind of value, an array with keys: to a server written in it,
  // [] is {} and [1] is {"0": 1} (which the reference may allow: it shows no required field inside most objects).
  if (Array.isArray(value) && types.includes('object') && !types.includes('array')) {
    add(
      Object.fromEntries(value.map((element, index) => [String(index), element])),
      'a PHP-style decoder, for which arrays and objects are one kind of value',
    );
  }
  add(pydanticValue(value, types), "pydantic 1's reading: Python's int() or dict()");
  if (types.includes('string') && (typeof value === 'boolean' || typeof value === 'number')) {
    for (const { source, cast } of stringCasts) add(cast(value), source);
  }
  if (!options.required && filteredOut(value, types)) {
    readings.push({
      kind: 'absent',
      how: 'dropped as "not given" (Rails\' strong parameters filter out a value of another kind than permitted)',
    });
  }
  return readings;
}
