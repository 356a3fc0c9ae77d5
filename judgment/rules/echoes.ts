/**
 * The echo of a created transaction: the answer carries the amount, description and
 * callback_url that were sent (TXN-CREATE-ECHO), as the server read them.
 *
 * An echo is judged by equivalence, not by a list of the forms one runtime writes: the answer
 * and the sent value are the same once both are brought to one canonical form (canonicalText, canonicalUrl).
 * A stack may store a value in any lossless form of it: a text trimmed of white space at its ends
 * by any runtime's definition (PHP's trim(), which also strips NUL and vertical tab; Python's
 * str.strip(); Go's strings.TrimSpace; .NET's String.Trim; JavaScript's trim()), in another Unicode
 * normalization form of the same characters (NFC or NFD), and a URL as any normalizer writes it
 * (WHATWG URL, RFC 3986 section 6.2.2: scheme and host case, an internationalised host in
 * punycode, the default port dropped, percent-encoding of unreserved characters decoded and its
 * hex digits in either case, dot segments resolved, an empty query or fragment delimiter dropped),
 * with or without its fragment (which an HTTP client never sends to the callback). A truncated
 * text, a replaced or removed character that is not white space at an end, a dropped query string
 * or another number is another value.
 */
import { describeValue, jsonType } from '../../contract/json-pointer.ts';
import { valueAtPointer } from '../../contract/json-pointer.ts';
import type { Violation } from '../checks.ts';
import type { Exchange } from '../../http/exchange.ts';
import { registered, type RegisteredCheck } from './define.ts';
import { canonicalText } from '../canonical-text.ts';

/** Fields of a creation body whose value the created transaction carries. */
export const echoedFields = ['amount', 'description', 'callback_url'] as const;
export type EchoedField = (typeof echoedFields)[number];

const unreserved = /[A-Za-z0-9\-._~]/;

/** RFC 3986 6.2.2.1 and 6.2.2.2: percent-encoding in upper case, and unreserved characters decoded. */
function normalisePercentEncoding(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_match, hex: string) => {
    const character = String.fromCharCode(Number.parseInt(hex, 16));
    return unreserved.test(character) ? character : `%${hex.toUpperCase()}`;
  });
}

/**
 * A URL in one canonical form, or undefined when it does not parse as one: trimmed as a text,
 * parsed by a WHATWG URL parser (scheme and host in lower case, IDNA to punycode, default port
 * dropped, dot segments resolved), then RFC 3986's percent-encoding normalization; the fragment
 * is cut when `withoutFragment`.
 */
export function canonicalUrl(value: string, withoutFragment = false): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(canonicalText(value));
  } catch {
    return undefined;
  }
  // An empty query or fragment ("/cb?", "/cb#") carries nothing: pydantic and others drop the delimiter.
  if (parsed.search === '') parsed.search = '';
  if (withoutFragment || parsed.hash === '') parsed.hash = '';
  // The parser leaves percent-encoding as it found it; a decoded unreserved character re-parses to itself.
  const normalised = normalisePercentEncoding(parsed.href);
  try {
    return new URL(normalised).href;
  } catch {
    return normalised;
  }
}

/**
 * True when an answer is an equivalent form of the sent value of an echoed field: equal as JSON,
 * or, for texts, equal in canonical form (for a callback URL, as URLs, with or without fragment).
 */
export function echoEquivalent(field: EchoedField, sent: unknown, answer: unknown): boolean {
  if (Object.is(sent, answer) || JSON.stringify(sent) === JSON.stringify(answer)) return true;
  if (typeof sent !== 'string' || typeof answer !== 'string') return false;
  if (canonicalText(sent) === canonicalText(answer)) return true;
  if (field !== 'callback_url') return false;
  const answered = canonicalUrl(answer);
  if (answered === undefined) return false;
  return answered === canonicalUrl(sent) || canonicalUrl(answer, true) === canonicalUrl(sent, true);
}

/** What an echo violation says was expected: the sent value, and the canonical form it is compared in. */
function expectedEcho(field: EchoedField, sent: unknown): string {
  if (typeof sent !== 'string') return describeValue(sent);
  const canonical = field === 'callback_url' ? (canonicalUrl(sent) ?? canonicalText(sent)) : canonicalText(sent);
  return canonical === sent
    ? `${describeValue(sent)} or an equivalent form`
    : `${describeValue(sent)} or an equivalent form (canonical ${describeValue(canonical)})`;
}

/**
 * Echo violations of a creation answer for a body as the server read it: fields absent from
 * `read` (sent as null and read as "not given", or not sent) are not checked.
 */
export function echoViolations(exchange: Pick<Exchange, 'json'>, read: Record<string, unknown>): Violation[] {
  const violations: Violation[] = [];
  for (const field of echoedFields) {
    if (!(field in read) || read[field] === undefined) continue;
    const actual = valueAtPointer(exchange.json, `/${field}`);
    if (!echoEquivalent(field, read[field], actual)) {
      violations.push({
        location: `body /${field}`,
        expected: expectedEcho(field, read[field]),
        actual: describeValue(actual),
        actualType: jsonType(actual),
      });
    }
  }
  return violations;
}

export const echoChecks = (): RegisteredCheck[] => [
  registered('TXN-CREATE-ECHO', ['createTransaction'], (exchange, { read }) =>
    read === undefined ? undefined : echoViolations(exchange, read),
  ),
];
