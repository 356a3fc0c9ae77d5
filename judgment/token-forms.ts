/**
 * The integer form of a payment-link token (SEND-TOKEN-INTEGER). The reference types the send's token as an integer
 * and returns the link's token as a string, so a token of digits may go back as a JSON integer, but only when that
 * integer names the same token:
 *
 * - no leading zero: a server that draws N random digits as a string issues one token in ten starting with 0
 *   ("06208307154"), and its integer 6208307154 is another token, which a conforming server may refuse;
 * - at most 2^53 - 1: beyond it, a reader of JSON numbers as doubles (JavaScript's JSON.parse, Go's interface{},
 *   most parsers by default) holds another number.
 *
 * A token with an exact integer form must be accepted as that integer; one whose integer is another token (a leading
 * zero) makes the integer send accept or refuse; one with no integer form at all has nothing to send.
 */
import type { ClassifiedInput } from './input-class.ts';

export type IntegerForm =
  /** The JSON integer that names the token itself. */
  | { kind: 'exact'; value: number }
  /** The integer of the token's digits, which names another token (why says how). */
  | { kind: 'another'; value: number; why: string }
  /** No JSON integer holds the token (why says why). */
  | { kind: 'none'; why: string };

/** The integer form of a token as the link operation returned it. */
export function integerForm(token: unknown): IntegerForm {
  if (typeof token !== 'string' || !/^\d+$/.test(token))
    return { kind: 'none', why: `the token ${describeToken(token)} is not a string of digits` };
  const value = Number(token);
  if (!Number.isSafeInteger(value))
    return {
      kind: 'none',
      why: `the token ${describeToken(token)} is beyond 2^53 - 1, which a reader of numbers as doubles does not keep`,
    };
  if (String(value) !== token)
    return {
      kind: 'another',
      value,
      why: `the token ${describeToken(token)} starts with 0: its integer ${value} is another token`,
    };
  return { kind: 'exact', value };
}

function describeToken(token: unknown): string {
  const text = typeof token === 'string' ? JSON.stringify(token) : String(JSON.stringify(token) ?? token);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/**
 * The class of sending `value`, the integer of a token's digits that names another token: accept or refuse. A server
 * may refuse it (no token it issued is that integer) or read it as the token it issued (its digits padded back with
 * zeros); accepted, the send owes intents of that token's transaction.
 */
export function anotherTokenInput(token: string, value: number): ClassifiedInput {
  return {
    class: 'accept-or-refuse',
    strictRefuses: false,
    readings: [{ kind: 'coerced', value: token, how: `read as the token ${JSON.stringify(token)}` }],
    what: `/token = ${value} (the integer of the token ${JSON.stringify(token)})`,
    why: 'a token that starts with 0 has no JSON integer that keeps it: its integer is another token',
    subject: '/token',
  };
}
