/**
 * Integers beyond JavaScript's safe range (2^53) in JSON, kept exact.
 *
 * The reference types ids as integers with no bound, and a server may well use 64-bit ids,
 * which JSON.parse would round (a path built from a rounded id names another resource). So
 * every JSON body the suite reads goes through parseJson, which replaces each such integer
 * with a stand-in: a safe integer in [2^52, 2^53), derived from the digits by a hash (the
 * same digits give the same stand-in in every process) and remembered. Stand-ins are
 * integers, so schemas, comparisons and models work on them unchanged; exactText and
 * stringifyJson give the digits back wherever the suite writes JSON or builds a path.
 */
import { createHash } from 'node:crypto';

const standInBase = 2 ** 52;
const standInOf = new Map<string, number>();
const digitsOf = new Map<number, string>();

/** The stand-in of an integer literal that is not a safe integer (deterministic across processes). */
export function standInFor(digits: string): number {
  const known = standInOf.get(digits);
  if (known !== undefined) return known;
  const hash = createHash('sha256').update(digits).digest();
  let standIn = standInBase + (hash.readUIntBE(0, 6) % standInBase);
  // Two different literals hashing alike: take the next free stand-in (per process; astronomically rare).
  while (digitsOf.has(standIn) && digitsOf.get(standIn) !== digits)
    standIn = standInBase + ((standIn + 1) % standInBase);
  standInOf.set(digits, standIn);
  digitsOf.set(standIn, digits);
  return standIn;
}

/** The exact digits a stand-in replaces, or the value itself. */
export function exactText(value: string | number): string {
  return typeof value === 'number' ? (digitsOf.get(value) ?? String(value)) : value;
}

/** True for a decimal integer literal that JavaScript numbers cannot hold exactly. */
export function isUnsafeIntegerText(digits: string): boolean {
  return /^-?\d+$/.test(digits) && !Number.isSafeInteger(Number(digits));
}

const numberToken = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;

/** JSON.parse, with integers beyond 2^53 replaced by their stand-ins (outside strings only). */
export function parseJson(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  let out = '';
  let index = 0;
  let inString = false;
  while (index < text.length) {
    const char = text[index]!;
    if (inString) {
      if (char === '\\') {
        out += text.slice(index, index + 2);
        index += 2;
        continue;
      }
      if (char === '"') inString = false;
      out += char;
      index += 1;
      continue;
    }
    if (char === '"') {
      inString = true;
      out += char;
      index += 1;
      continue;
    }
    if (char === '-' || (char >= '0' && char <= '9')) {
      numberToken.lastIndex = index;
      const match = numberToken.exec(text);
      const token = match?.[0] ?? char;
      // A leading zero is not JSON: left as written, for JSON.parse to refuse.
      const integer = match !== null && match[1] === undefined && match[2] === undefined && !/^-?0\d/.test(token);
      out += integer && isUnsafeIntegerText(token) ? String(standInFor(token)) : token;
      index += token.length;
      continue;
    }
    out += char;
    index += 1;
  }
  return JSON.parse(out);
}

const marker = '\u2063pcs-big-integer:';

/** JSON.stringify (undefined for undefined, as it), writing every stand-in as the exact digits it replaces. */
export function stringifyJson(value: unknown): string | undefined {
  if (digitsOf.size === 0) return JSON.stringify(value) as string | undefined;
  const text = JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'number' && digitsOf.has(item) ? `${marker}${digitsOf.get(item)}` : item,
  ) as string | undefined;
  return text?.replace(new RegExp(`"${marker}(-?\\d+)"`, 'g'), '$1');
}

/**
 * How a JSON parser that reads numbers as IEEE doubles (JavaScript's JSON.parse, most others by
 * default) reads an integer beyond 2^53 that the suite sent exactly: the nearest double. For a
 * stand-in whose digits a double does not hold, the stand-in of that double's digits; undefined
 * otherwise (the value reads exactly).
 */
export function doubleReading(value: number): number | undefined {
  const digits = digitsOf.get(value);
  if (digits === undefined) return undefined;
  const read = BigInt(Number(digits)).toString();
  return read === digits ? undefined : isUnsafeIntegerText(read) ? standInFor(read) : Number(read);
}
