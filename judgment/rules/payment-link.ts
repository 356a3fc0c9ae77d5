/**
 * What a payment link owes beyond its shape: its token as a JSON string (LINK-TOKEN-STRING, whatever
 * the send shape types it as), its url as an absolute URL (LINK-URL-ABSOLUTE), and, where the url
 * visibly carries a token, its own transaction's (LINK-TOKEN-OWN: checked by whoever knows the other
 * transactions' tokens, a stateful sequence of the suite or the judge of traffic).
 */
import { describeValue, jsonType, valueAtPointer } from '../../contract/json-pointer.ts';
import type { Exchange } from '../../http/exchange.ts';
import type { Violation } from '../checks.ts';
import { registered, type RegisteredCheck } from './define.ts';

/**
 * The value at a JSON pointer is an absolute URL: a scheme followed by what a URL parser
 * accepts. Any scheme passes (https, http, or an app's deep link such as momo://): the
 * reference says only that it is the payment link; a relative path is not a link.
 */
export function bodyValueIsAbsoluteUrl(exchange: Pick<Exchange, 'json'>, pointer: string): Violation[] {
  const value = valueAtPointer(exchange.json, pointer);
  let absolute = false;
  if (typeof value === 'string' && /^[A-Za-z][A-Za-z0-9+.-]*:/.test(value)) {
    try {
      absolute = new URL(value).href.length > 0;
    } catch {
      absolute = false;
    }
  }
  return absolute
    ? []
    : [
        {
          location: `body ${pointer}`,
          expected: 'an absolute URL (scheme and address)',
          actual: describeValue(value),
          actualType: jsonType(value),
        },
      ];
}

/** The value at a JSON pointer is a JSON string (the link operation's token, whatever the send shape says). */
export function bodyValueIsString(exchange: Pick<Exchange, 'json'>, pointer: string): Violation[] {
  const value = valueAtPointer(exchange.json, pointer);
  return typeof value === 'string'
    ? []
    : [
        {
          location: `body ${pointer}`,
          expected: 'a JSON string',
          actual: describeValue(value),
          actualType: jsonType(value),
        },
      ];
}

export const paymentLinkChecks = (): RegisteredCheck[] => [
  registered('LINK-TOKEN-STRING', ['getPaymentLink'], (exchange) => bodyValueIsString(exchange, '/token')),
  registered('LINK-URL-ABSOLUTE', ['getPaymentLink'], (exchange) => bodyValueIsAbsoluteUrl(exchange, '/url')),
];

/** A transaction the caller knows, and the token a link gave it. */
export interface KnownLinkToken {
  transaction: string | number;
  token: unknown;
}

/**
 * LINK-TOKEN-OWN: a link's url that visibly carries a token carries its own transaction's, not the token of
 * another transaction the caller knows (`others`). Tokens shorter than six characters are not looked for: they
 * would be found in any url by chance.
 */
export function urlCarriesOwnToken(
  link: KnownLinkToken & { url: unknown },
  others: Iterable<KnownLinkToken>,
): Violation[] {
  const { url, token } = link;
  if (typeof url !== 'string' || (typeof token === 'string' && token.length >= 6 && url.includes(token))) return [];
  for (const other of others) {
    if (String(other.transaction) === String(link.transaction)) continue;
    if (typeof other.token === 'string' && other.token.length >= 6 && url.includes(other.token))
      return [
        {
          location: 'body /url',
          expected: `a link of transaction ${link.transaction} (its token ${describeValue(token)})`,
          actual: `${describeValue(url)}, which carries the token of transaction ${other.transaction}`,
        },
      ];
  }
  return [];
}
