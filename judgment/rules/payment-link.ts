/**
 * What a payment link owes beyond its shape: its token as a JSON string (LINK-TOKEN-STRING, whatever
 * the send shape types it as), its url as an absolute URL (LINK-URL-ABSOLUTE), and, where the url
 * visibly carries a token, its own transaction's, its token no other transaction's, and a send with it pays its
 * transaction (LINK-TOKEN-OWN: a history check, applied by whoever knows the other transactions' tokens, the suite's
 * stateful tests and the judge of traffic).
 */
import { describeValue, jsonType, valueAtPointer } from '../../contract/json-pointer.ts';
import type { Exchange } from '../../http/exchange.ts';
import { isSuccess, type Violation } from '../checks.ts';
import type { Asked, History } from '../history.ts';
import { registered, registeredWithHistory, type HistoryCheck, type RegisteredCheck } from './define.ts';

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

/** LINK-TOKEN-OWN on a link: its token is none an earlier link gave another transaction, nor does its url carry one. */
function linkTokenIsOwn(exchange: Exchange, asked: Asked, history: History): Violation[] | undefined {
  if (asked.key !== 'valid' || !isSuccess(exchange.status)) return undefined;
  const { token, url } = (exchange.json ?? {}) as { token?: unknown; url?: unknown };
  if (typeof token !== 'string') return undefined;
  const transaction = asked.id ?? '';
  const earlier = history.tokens.get(token);
  const violations: Violation[] =
    earlier !== undefined && earlier.transactionId !== transaction
      ? [
          {
            location: 'body /token',
            expected: `a token of its own (transaction ${transaction})`,
            actual: `${describeValue(token)}, also the token of transaction ${earlier.transactionId}`,
          },
        ]
      : [];
  const others = typeof url === 'string' ? history.tokensIn(url) : [];
  violations.push(
    ...urlCarriesOwnToken(
      { transaction, token, url },
      others.map((other) => ({ transaction: other.transactionId, token: other.token })),
    ),
  );
  return violations;
}

/**
 * LINK-TOKEN-OWN on a send: a token history gave one transaction pays that one, not another: no intent carries the
 * amount of another transaction history knows instead of its own (any other amount is SEND-AMOUNT-MATCHES's).
 */
function sendPaysTokensTransaction(exchange: Exchange, asked: Asked, history: History): Violation[] | undefined {
  if (asked.key !== 'valid' || !isSuccess(exchange.status) || !Array.isArray(exchange.json)) return undefined;
  const token = history.tokenFor(valueAtPointer(asked.sent, '/token'));
  if (token === undefined || token.account !== asked.account) return undefined;
  const own = history.transactions.get(token.transactionId)?.amount;
  if (own === undefined) return undefined;
  return exchange.json.flatMap((intent: unknown, position): Violation[] => {
    const amount = (intent as { amount?: unknown } | null)?.amount;
    if (JSON.stringify(amount) === JSON.stringify(own)) return [];
    const other = typeof amount === 'number' ? history.amounts.get(amount) : undefined;
    if (other === undefined || other === token.transactionId) return [];
    return [
      {
        location: `body /${position}/amount`,
        expected: `${own} (the token was issued for transaction ${token.transactionId})`,
        actual: `${describeValue(amount)}, the amount of transaction ${other}`,
      },
    ];
  });
}

export const paymentLinkHistoryChecks = (): HistoryCheck[] => [
  registeredWithHistory('LINK-TOKEN-OWN', ['getPaymentLink'], linkTokenIsOwn),
  registeredWithHistory('LINK-TOKEN-OWN', ['sendTransaction'], sendPaysTokensTransaction),
];
