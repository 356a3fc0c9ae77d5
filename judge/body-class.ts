/**
 * The input class of a whole request body a client sent, from the classes of its fields, as the
 * suite's own inputs are classified (judgment/input-class.ts): each field the schema
 * declares is classified where the body has it (or its parent), every other field is open (a
 * server may ignore it, keep it, or refuse it: the suite's SERVER-OWNED-FIELDS reading), and the
 * body takes the strictest class of its fields: one field no reading makes valid, and the body
 * must be refused; one open field, and it may be accepted or refused, its answer owing the value
 * of each echoed field as sent or as one of that field's readings; only fields to accept, and it
 * must be accepted.
 */
import { parseJson } from '../contract/big-integers.ts';
import { valueAtPointer } from '../contract/json-pointer.ts';
import { propertyPointers, schemaAt } from '../contract/schema-paths.ts';
import type { SchemaName } from '../contract/schemas.ts';
import { classifyField, declaredContentType, type ClassifiedInput } from '../judgment/input-class.ts';
import type { Reading } from '../judgment/readings.ts';
import { dialectReadings } from '../judgment/json-dialects.ts';
import { spellsIntegerOtherwise } from '../judgment/text-class.ts';
import { echoedFields } from '../judgment/rules/echoes.ts';

export type BodyClass =
  /** The text is not JSON: refused under MALFORMED-JSON-4XX. */
  | { kind: 'malformed'; what: string }
  /** A JSON body classified as a whole. */
  | { kind: 'classified'; input: ClassifiedInput; body: unknown; fields: ClassifiedInput[] };

/** At most this many combinations of the echoed fields' readings are tried against an answer. */
const readingCombinations = 64;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The schema's pointers to classify in a body: those it holds, and, absent, those the suite always sends (the
 * safe layer's required fields, which the reference does not require either). An optional field a client leaves
 * out is simply not given: it has no reading to judge.
 */
function judgedPointers(name: SchemaName, body: Record<string, unknown>): string[] {
  return propertyPointers(name).filter((pointer) => {
    const cut = pointer.lastIndexOf('/');
    const parent = pointer.slice(0, cut);
    if (parent !== '' && !isObject(valueAtPointer(body, parent))) return false;
    if (valueAtPointer(body, pointer) !== undefined) return true;
    const safe = (schemaAt(name, parent)['x-pcs-safe'] as { required?: string[] } | undefined)?.required ?? [];
    return safe.includes(pointer.slice(cut + 1));
  });
}

/** The top-level members the schema does not declare. */
function undeclared(name: SchemaName, body: Record<string, unknown>): string[] {
  const declared = new Set(propertyPointers(name).filter((pointer) => pointer.split('/').length === 2));
  return Object.keys(body).filter((key) => !declared.has(`/${key}`));
}

const className = { 'must-refuse': 0, 'accept-or-refuse': 1, 'must-accept': 2 } as const;

/** Every combination of the echoed fields' readings (cut at readingCombinations), as whole bodies as read. */
function bodiesAsRead(body: Record<string, unknown>, fields: readonly ClassifiedInput[]): Reading[] {
  let combinations: Array<{ read: Record<string, unknown>; how: string[] }> = [{ read: { ...body }, how: [] }];
  for (const field of fields) {
    const name = field.subject?.slice(1);
    if (name === undefined || !(echoedFields as readonly string[]).includes(name) || field.readings.length === 0)
      continue;
    const next: typeof combinations = [];
    for (const combination of combinations)
      for (const reading of field.readings) {
        const read = { ...combination.read };
        if (reading.kind === 'absent') delete read[name];
        else read[name] = reading.value;
        next.push({ read, how: reading.kind === 'as-sent' ? combination.how : [...combination.how, field.what] });
      }
    combinations = next.slice(0, readingCombinations);
  }
  return combinations.map(({ read, how }) =>
    how.length === 0
      ? { kind: 'as-sent', value: read }
      : { kind: 'coerced', value: read, how: `read as ${how.join(', ')}` },
  );
}

/**
 * The class of a body of `name` sent as `text` with `contentType`. An empty body is open (a server may read no
 * body as an empty object). Text that is not JSON is malformed, unless a mainstream parser reads it beyond RFC 8259
 * (json-dialects.ts): then it is open, an accepted answer owing the body as one of them read it, and --strict
 * refuses it. `usableAt`: values a target can act on, by pointer (the send's token must be one it issued);
 * `pinned`: the target's own values where the reference leaves them to the account (another currency code or mode
 * is at most open).
 */
export function classifyBody(
  name: SchemaName,
  text: string | undefined,
  contentType: string | undefined,
  usableAt: Readonly<Record<string, (value: unknown) => boolean>> = {},
  pinned: Readonly<Record<string, unknown>> = {},
): BodyClass {
  if (text === undefined || text.trim() === '') return classifyValue(name, {}, false, contentType, usableAt, pinned);
  let body: unknown;
  try {
    body = parseJson(text);
  } catch {
    return classifyLenientText(name, text, contentType, usableAt, pinned);
  }
  const classified = classifyValue(name, body, true, contentType, usableAt, pinned);
  // 1500.0 or 15e2 names the integer JSON Schema calls it, which typed parsers refuse: open in both modes.
  if (classified.kind === 'classified' && classified.input.class === 'must-accept' && spellsIntegerOtherwise(text))
    return {
      ...classified,
      input: {
        ...classified.input,
        class: 'accept-or-refuse',
        strictRefuses: false,
        why:
          'an integer spelled with a fraction or an exponent, ' +
          "which typed parsers (Go's, pydantic's strict int) refuse",
      },
    };
  return classified;
}

/**
 * The body as the classifier reads it, without classifying it (an exchange learnt from but not judged): JSON, else
 * what the first mainstream parser that reads it beyond RFC 8259 reads; an empty body as an empty object; undefined
 * for text no parser reads.
 */
export function readBody(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return {};
  try {
    return parseJson(text);
  } catch {
    return dialectReadings(text)[0]?.value;
  }
}

const excerpt = (text: string): string => JSON.stringify(text.length > 40 ? `${text.slice(0, 37)}...` : text);

/** Text some mainstream parser reads beyond RFC 8259: open, read as each such parser reads it; else malformed. */
function classifyLenientText(
  name: SchemaName,
  text: string,
  contentType: string | undefined,
  usableAt: Readonly<Record<string, (value: unknown) => boolean>>,
  pinned: Readonly<Record<string, unknown>>,
): BodyClass {
  const malformed: BodyClass = { kind: 'malformed', what: `a body that is not JSON (${excerpt(text)})` };
  const readable: Array<{ body: unknown; input: ClassifiedInput; dialect: string }> = [];
  let refusedAsRead: BodyClass | undefined;
  for (const { dialect, value } of dialectReadings(text)) {
    const classified = classifyValue(name, value, true, contentType, usableAt, pinned);
    if (classified.kind === 'classified' && classified.input.class !== 'must-refuse')
      readable.push({ body: value, input: classified.input, dialect: dialect.name });
    else refusedAsRead ??= classified;
  }
  // Text no parser reads is refused as malformed; text a parser reads into a body that must be refused is judged as
  // that body (a token already spent in a comment-bearing body owes what it owes in plain JSON).
  if (readable.length === 0) return refusedAsRead ?? malformed;
  const dialects = [...new Set(readable.map((entry) => entry.dialect))];
  const input: ClassifiedInput = {
    class: 'accept-or-refuse',
    strictRefuses: true,
    readings: readable.flatMap((entry) => entry.input.readings),
    what: `the body as text ${excerpt(text)}`,
    why: `JSON text a mainstream parser reads beyond RFC 8259 (${dialects.join(', ')})`,
  };
  return { kind: 'classified', input, body: readable[0]!.body, fields: [input] };
}

/** The class of a body already parsed (`bodySent` false: none was, and it is read as an empty object). */
function classifyValue(
  name: SchemaName,
  body: unknown,
  bodySent: boolean,
  contentType: string | undefined,
  usableAt: Readonly<Record<string, (value: unknown) => boolean>>,
  pinned: Readonly<Record<string, unknown>>,
): BodyClass {
  const fields: ClassifiedInput[] = [];
  if (bodySent) fields.push(declaredContentType(contentType, body));
  if (!isObject(body)) {
    const whole = classifyField(name, '', body);
    return { kind: 'classified', input: whole, body, fields: [whole] };
  }
  const byPointer = new Map<string, ClassifiedInput>();
  for (const pointer of judgedPointers(name, body)) {
    const usable = usableAt[pointer];
    const value = valueAtPointer(body, pointer);
    const field = classifyField(name, pointer, value, { pinned, ...(usable ? { usable } : {}) });
    // Left out, a field the reference does not require is open in both modes: there is nothing lenient to read.
    byPointer.set(
      pointer,
      value === undefined && field.class === 'accept-or-refuse' ? { ...field, strictRefuses: false } : field,
    );
  }
  for (const [pointer, field] of byPointer) {
    // An object held to every member's documented type at once is refused where each member alone has a reading
    // (an integer phone number read as its digits): it is as open as its members are.
    const members = [...byPointer].filter(([other]) => other.startsWith(`${pointer}/`)).map(([, member]) => member);
    if (
      field.class === 'must-refuse' &&
      isObject(valueAtPointer(body, pointer)) &&
      members.length > 0 &&
      members.every((member) => member.class !== 'must-refuse')
    )
      fields.push({
        ...field,
        class: 'accept-or-refuse',
        strictRefuses: true,
        readings: [],
        why: 'each of its members has a reading',
      });
    else fields.push(field);
  }
  for (const key of undeclared(name, body))
    fields.push({
      class: 'accept-or-refuse',
      strictRefuses: false,
      readings: [],
      what: `/${key} (a field the reference does not show)`,
      why: 'a server may ignore, keep or refuse a field it does not know',
      subject: `/${key}`,
    });
  const worst = fields.reduce<ClassifiedInput['class']>(
    (found, field) => (className[field.class] < className[found] ? field.class : found),
    'must-accept',
  );
  const deciding = fields.filter((field) => field.class === worst);
  // A refusal owed under a rule of its own (an amount read as another: TXN-CREATE-AMOUNT-EXACT) is owed under it when
  // every field that must be refused says so, as the suite's own input of that field is.
  const refusedUnder = deciding[0]?.refusedUnder;
  const input: ClassifiedInput = {
    class: worst,
    strictRefuses: worst === 'accept-or-refuse' && fields.some((field) => field.strictRefuses),
    readings: worst === 'must-refuse' ? [] : bodiesAsRead(body, fields),
    what: deciding.map((field) => field.what).join('; ') || 'the body',
    why: deciding[0]?.why ?? 'every field of the documented type',
    ...(deciding.length === 1 && deciding[0]!.subject !== undefined ? { subject: deciding[0]!.subject } : {}),
    ...(refusedUnder !== undefined && deciding.every((field) => field.refusedUnder === refusedUnder)
      ? { refusedUnder }
      : {}),
  };
  return { kind: 'classified', input, body, fields };
}
