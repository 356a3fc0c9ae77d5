/**
 * The echo of a created transaction: the answer carries the amount, description and
 * callback_url that were sent (TXN-CREATE-ECHO), as the server read them.
 *
 * Sent values are compared exactly, except for the forms a server may store them in without
 * losing anything the reference describes: a description trimmed of surrounding white space or
 * in Unicode normal form C, a callback URL as a URL parser writes it back (lower-case host,
 * default port dropped, percent-encoding normalised, an internationalised host in punycode),
 * with or without its fragment (which an HTTP client never sends to the callback anyway).
 * Everything else (a truncated text, replaced characters, a dropped query string, another
 * number) is a different value. The safe values the suite sends by default have one form only.
 */
import { describeValue } from '../../contract/json-pointer.ts';
import { valueAtPointer } from '../../contract/json-pointer.ts';
import type { Violation } from './checks.ts';
import type { Exchange } from '../http/exchange.ts';

/** Fields of a creation body whose value the created transaction carries. */
export const echoedFields = ['amount', 'description', 'callback_url'] as const;

function urlForm(value: string): string | undefined {
  try {
    return new URL(value).href;
  } catch {
    return undefined;
  }
}

/** The values a server may answer for a sent value of an echoed field. */
export function echoForms(field: (typeof echoedFields)[number], sent: unknown): unknown[] {
  if (typeof sent !== 'string') return [sent];
  if (field === 'description') {
    const nfc = sent.normalize('NFC');
    return [...new Set([sent, sent.trim(), nfc, nfc.trim()])];
  }
  if (field === 'callback_url') {
    const parsed = urlForm(sent);
    return parsed === undefined ? [sent] : [...new Set([sent, parsed, parsed.replace(/#.*$/, '')])];
  }
  return [sent];
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
    const forms = echoForms(field, read[field]);
    if (!forms.some((form) => Object.is(form, actual) || JSON.stringify(form) === JSON.stringify(actual))) {
      violations.push({
        location: `body /${field}`,
        expected:
          forms.length === 1
            ? describeValue(forms[0])
            : `one of ${forms.map((form) => describeValue(form)).join(', ')}`,
        actual: describeValue(actual),
      });
    }
  }
  return violations;
}
