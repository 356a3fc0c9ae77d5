/**
 * What the payment intents of a send owe beyond their shape: the timestamp their status says
 * is set (SEND-INTENT-EVENT-TIMESTAMPS), the mode of the path they were sent through
 * (SEND-INTENT-MODE), and the amount of the transaction sent (SEND-AMOUNT-MATCHES).
 */
import { isDateTime } from '../../contract/schemas.ts';
import { describeValue, escapePointerToken, jsonType } from '../../contract/json-pointer.ts';
import type { Exchange } from '../../http/exchange.ts';
import { bodyValueEquals, type Violation } from '../checks.ts';
import { registered, type RegisteredCheck } from './define.ts';

/** Every element of a JSON array body holds `expected` at its member `key` (e.g. every intent's amount). */
export function eachElementValueEquals(exchange: Pick<Exchange, 'json'>, key: string, expected: unknown): Violation[] {
  const elements = Array.isArray(exchange.json) ? exchange.json : [];
  return elements.flatMap((_element, index) =>
    bodyValueEquals(exchange, `/${index}/${escapePointerToken(key)}`, expected),
  );
}

/**
 * The timestamp each intent status says is set (reference: States
 * and transitions). Status names compare case-insensitively.
 */
export const eventTimestamps: Readonly<Record<string, string>> = {
  sent: 'approved_at',
  failed: 'canceled_at',
  deleted: 'deleted_at',
};

/**
 * Every payment intent of an array body whose status says its event happened carries that
 * event's timestamp as a date-time (SEND-INTENT-EVENT-TIMESTAMPS). Intents in other statuses
 * (pending, scheduled, ...) are not constrained: their event fields may be absent or null.
 */
export function intentEventTimestamps(exchange: Pick<Exchange, 'json'>): Violation[] {
  const elements = Array.isArray(exchange.json) ? exchange.json : [];
  const violations: Violation[] = [];
  elements.forEach((element, index) => {
    if (element === null || typeof element !== 'object') return;
    const intent = element as Record<string, unknown>;
    const status = typeof intent.status === 'string' ? intent.status.trim().toLowerCase() : undefined;
    const field = status === undefined ? undefined : eventTimestamps[status];
    if (field === undefined || isDateTime(intent[field])) return;
    violations.push({
      location: `body /${index}/${field}`,
      expected: `a date-time (the intent's status is "${String(intent.status)}": the reference sets ${field} then)`,
      actual: describeValue(intent[field]),
      actualType: jsonType(intent[field]),
    });
  });
  return violations;
}

/** How many intents of an array body are in a status whose event the reference ties to a timestamp. */
export function intentsWithEvents(exchange: Pick<Exchange, 'json'>): number {
  const elements = Array.isArray(exchange.json) ? exchange.json : [];
  return elements.filter((element) => {
    const status = (element as { status?: unknown } | null)?.status;
    return typeof status === 'string' && eventTimestamps[status.trim().toLowerCase()] !== undefined;
  }).length;
}

/**
 * SEND-INTENT-MODE: every payment intent of a send carries the mode of the path it was sent through
 * (compared without regard to letter case: a server may store mode names in one case).
 */
export function intentModeIsPathMode(exchange: Pick<Exchange, 'json' | 'path'>): Violation[] {
  const segment = exchange.path.split('?')[0]!.split('/').filter(Boolean).pop() ?? '';
  let mode: string;
  try {
    mode = decodeURIComponent(segment);
  } catch {
    return [];
  }
  const elements = Array.isArray(exchange.json) ? exchange.json : [];
  return elements.flatMap((element, index): Violation[] => {
    const actual = (element as Record<string, unknown> | null)?.mode;
    return typeof actual === 'string' && actual.toLowerCase() === mode.toLowerCase()
      ? []
      : [
          {
            location: `body /${index}/mode`,
            expected: `${describeValue(mode)}, the mode of the path`,
            actual: describeValue(actual),
            actualType: jsonType(actual),
          },
        ];
  });
}

export const sendChecks = (): RegisteredCheck[] => [
  registered('SEND-INTENT-EVENT-TIMESTAMPS', ['sendTransaction'], intentEventTimestamps),
  registered('SEND-INTENT-MODE', ['sendTransaction'], intentModeIsPathMode),
  registered('SEND-AMOUNT-MATCHES', ['sendTransaction'], (exchange, { amount }) =>
    amount === undefined ? undefined : eachElementValueEquals(exchange, 'amount', amount),
  ),
];
