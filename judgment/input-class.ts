/**
 * The outcome class of a request input, computed from the layers of schemas/ rather than
 * written by hand (docs/explanations/outcome-classes.md):
 *
 * - must accept: the value has the documented type, meets what --strict reads into the
 *   reference's prose, and lies in the suite's safe range (x-pcs-safe): a 2xx and a
 *   conforming answer are required;
 * - must refuse: the value has another JSON type and no reading makes it valid, or it is null
 *   (or missing) where the reference requires the field: a 4xx is required;
 * - accept or refuse: the reference leaves the value open: a 4xx, or a 2xx whose answer
 *   conforms and carries the value as read; never a 5xx. Either because only a lenient
 *   reading makes it valid (null as "not given", a coercion, a constraint the reference states
 *   only as prose), which --strict turns into "must refuse", or because it has the documented
 *   type but lies outside the suite's usual range (an edge), which stays open under --strict.
 */
import { canonicalText } from './canonical-text.ts';
import type { InputClass } from '../contract/rules.ts';
import { describeValue } from '../contract/json-pointer.ts';
import { operations } from '../contract/operations.ts';
import { validateFieldInLayer, type SchemaName } from '../contract/schemas.ts';
import type { JSONSchemaType } from '../contract/json-schema.ts';
import { isRequiredAt, schemaAt } from '../contract/schema-paths.ts';
import { namesNumber, readingsOf, type Reading } from './readings.ts';
import { doubleReading } from '../contract/big-integers.ts';

/**
 * The value as sent and, for an integer beyond 2^53, as a parser reading numbers as doubles
 * reads it; an empty (or white-space-only) text in a field the reference does not require,
 * also as "not given", as frameworks that trim input and turn empty strings into null read it.
 */
function asSent(value: unknown, required: boolean): Reading[] {
  const readings: Reading[] = [{ kind: 'as-sent', value }];
  const rounded = typeof value === 'number' ? doubleReading(value) : undefined;
  if (rounded !== undefined)
    readings.push({
      kind: 'coerced',
      value: rounded,
      how: 'read as the nearest double (a JSON parser reading numbers as 64-bit floats)',
    });
  // Blank by any runtime's trim (PHP's also strips NUL): a framework that trims input may read it as "not given".
  if (!required && typeof value === 'string' && canonicalText(value) === '')
    readings.push({ kind: 'absent', how: 'an empty text read as "not given"' });
  return readings;
}

export type { InputClass } from '../contract/rules.ts';

export interface ClassifiedInput {
  class: InputClass;
  /** accept-or-refuse only: --strict requires a refusal (a lenient reading, not an edge of the documented type). */
  strictRefuses: boolean;
  /** How a server that accepts the input may have read it (must accept: as sent). */
  readings: Reading[];
  /** The input in a few words, for titles and messages: `/amount = "1000" (string)`. */
  what: string;
  /** The field the input sets (a JSON pointer of the body), when it is one field's value. */
  subject?: string;
  /** Why it has its class, in a few words. */
  why: string;
  /**
   * must-refuse only: the rule its refusal is owed under when it is not the operation's invalid-input rule (an
   * amount that names no integer exactly: the operation's exactAmount rule, contract/operations.ts).
   */
  refusedUnder?: string;
}

/** The class the current mode judges by: with --strict, a lenient reading must be refused. */
export function effectiveClass(input: Pick<ClassifiedInput, 'class' | 'strictRefuses'>, strict: boolean): InputClass {
  return strict && input.class === 'accept-or-refuse' && input.strictRefuses ? 'must-refuse' : input.class;
}

/** The rule of the operation whose request body `name` is, when `pointer` is its amount of money. */
function exactAmountRule(name: SchemaName, pointer: string): string | undefined {
  const exact = operations.find((operation) => operation.requestBody === name)?.rules?.exactAmount;
  return exact?.pointer === pointer ? exact.rule : undefined;
}

/** A number, or the text of one, with a fraction: it names no integer (1500.5, "1500.5", "1e-3"). */
function namesFraction(value: unknown): boolean {
  const number =
    typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(number) && !Number.isInteger(number);
}

function typesAt(name: SchemaName, pointer: string): JSONSchemaType[] {
  const schema = schemaAt(name, pointer);
  if (schema.type === undefined) return [];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

export interface ClassifyOptions {
  /**
   * Values the reference leaves to the account (the target's currency, mode, phone number), by
   * pointer (generation/arbitraries.ts pinnedValues): another value there is at most
   * "accept or refuse", whatever the schema's safe layer says.
   */
  pinned?: Readonly<Record<string, unknown>>;
  /**
   * Whether a value of the right type is one the target can act on (e.g. the send token must be
   * the one issued): a reading that is not is no reading. Default: any value of the right type.
   */
  usable?: (value: unknown) => boolean;
}

/**
 * The class of a body whose field at `pointer` holds `value` (absent: `undefined`), all other
 * fields being safe values. `name` is the body's schema.
 */
export function classifyField(
  name: SchemaName,
  pointer: string,
  value: unknown,
  options: ClassifyOptions = {},
): ClassifiedInput {
  return { ...classifyValueAt(name, pointer, value, options), subject: pointer };
}

function classifyValueAt(name: SchemaName, pointer: string, value: unknown, options: ClassifyOptions): ClassifiedInput {
  const what = `${pointer} = ${describeValue(value)}`;
  const required = pointer !== '' && isRequiredAt(name, pointer);
  const usable = options.usable ?? (() => true);
  if (value === undefined) {
    return required
      ? { class: 'must-refuse', strictRefuses: false, readings: [], what, why: 'the reference requires this field' }
      : {
          class: 'accept-or-refuse',
          strictRefuses: true,
          readings: [{ kind: 'absent', how: 'not given' }],
          what,
          why: 'the reference does not say the field is required',
        };
  }
  if (validateFieldInLayer('reference', name, pointer, value).length === 0) {
    if (!usable(value))
      return { class: 'must-refuse', strictRefuses: false, readings: [], what, why: 'no target can act on this value' };
    if (validateFieldInLayer('strict', name, pointer, value).length > 0) {
      return {
        class: 'accept-or-refuse',
        strictRefuses: true,
        readings: asSent(value, required),
        what,
        why:
          'the documented type, but not what the reference describes ' +
          '(--strict reads the description as a constraint)',
      };
    }
    if (validateFieldInLayer('safe', name, pointer, value).length > 0) {
      return {
        class: 'accept-or-refuse',
        strictRefuses: false,
        readings: asSent(value, required),
        what,
        why: "the documented type, outside the suite's usual range (the reference shows no bounds)",
      };
    }
    const pinned = options.pinned?.[pointer];
    if (pinned !== undefined && pinned !== value) {
      return {
        class: 'accept-or-refuse',
        strictRefuses: false,
        readings: asSent(value, required),
        what,
        why:
          `the documented type, but not the target's own value ${describeValue(pinned)} ` +
          `(the reference leaves it to the account)`,
      };
    }
    return {
      class: 'must-accept',
      strictRefuses: false,
      readings: [{ kind: 'as-sent', value }],
      what,
      why: 'the documented type, in the safe range',
    };
  }
  const exact = exactAmountRule(name, pointer);
  const all = readingsOf(value, typesAt(name, pointer), {
    required,
    valid: (reading) => validateFieldInLayer('reference', name, pointer, reading).length === 0 && usable(reading),
  });
  // An amount of money is read exactly or not at all: a coercion of what names no number (true as 1, null as 0,
  // [1500] as 1500, "0x10" as 16) charges an amount nobody sent, so it is no reading of it.
  const anotherAmount = exact !== undefined && !namesNumber(value);
  const readings = anotherAmount ? all.filter((reading) => reading.kind !== 'coerced') : all;
  if (readings.length === 0) {
    const coerced = all.find((reading) => reading.kind === 'coerced');
    if (exact !== undefined && coerced?.kind === 'coerced')
      return {
        class: 'must-refuse',
        strictRefuses: false,
        readings: [],
        what,
        why: `not a number: a coercing parser makes an amount of it (${coerced.how}), which the sender never wrote`,
        refusedUnder: exact,
      };
    if (exact !== undefined && namesFraction(value))
      return {
        class: 'must-refuse',
        strictRefuses: false,
        readings: [],
        what,
        why: 'an amount with a fraction: no lossless reading makes it an integer (accepted, another amount is charged)',
        refusedUnder: exact,
      };
    return {
      class: 'must-refuse',
      strictRefuses: false,
      readings: [],
      what,
      why:
        value === null && required
          ? 'null where the reference requires the field'
          : 'another JSON type, and no reading makes it valid',
    };
  }
  const coerced = readings.find((reading) => reading.kind === 'coerced');
  const as = coerced?.kind === 'coerced' ? ` as ${JSON.stringify(coerced.value)}` : '';
  const why =
    value === null
      ? `null, which a server may read as "not given"${as ? ` (or, coercing,${as})` : ''}`
      : as
        ? `another JSON type, which a coercing parser reads${as}`
        : 'another kind of value, which a parameter filter drops as "not given"';
  // Money read as "not given" is never read as an amount: accepted, it owes what a body without it owes.
  const notAnAmount = anotherAmount ? ' (never as an amount: accepted, it owes what a body without it owes)' : '';
  return { class: 'accept-or-refuse', strictRefuses: true, readings, what, why: `${why}${notAnAmount}` };
}

/** Phrases for titles: "must accept", "must refuse", "accept or refuse". */
export function classPhrase(input: Pick<ClassifiedInput, 'class' | 'strictRefuses'>): string {
  if (input.class === 'accept-or-refuse')
    return input.strictRefuses ? 'accept or refuse (--strict: refuse)' : 'accept or refuse';
  return input.class === 'must-accept' ? 'must accept' : 'must refuse';
}

/**
 * A valid JSON body declared with another Content-Type than application/json (or none): the
 * reference says what clients send ("JSON bodies use Content-Type application/json"), not
 * what a server must refuse, so a server may parse it as JSON or refuse it; --strict refuses.
 */
export function declaredContentType(contentType: string | undefined, body: unknown): ClassifiedInput {
  const media = contentType?.split(';')[0]?.trim().toLowerCase();
  const what =
    `a JSON body declared as ` +
    `${contentType === undefined ? 'nothing (no Content-Type)' : JSON.stringify(contentType)}`;
  if (media === 'application/json')
    return {
      class: 'must-accept',
      strictRefuses: false,
      readings: [{ kind: 'as-sent', value: body }],
      what,
      why: 'JSON declared as JSON',
    };
  return {
    class: 'accept-or-refuse',
    strictRefuses: true,
    readings: [{ kind: 'as-sent', value: body }],
    what,
    why: 'the reference says what clients send, not what a server must refuse',
  };
}
