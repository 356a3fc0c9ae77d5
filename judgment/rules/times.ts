/**
 * Time that agrees with itself (rules TIME-NOW and TIME-ORDER). The target's clock is read from
 * its own answers: the Date header an HTTP server sends with every answer, or, without one, the
 * suite's clock when the answer arrived. A target whose clock is off from the suite's but agrees
 * with its own Date header passes; one whose timestamps are an hour off its own clock (local time
 * written as UTC, a wrong zone) does not.
 */
import { describeValue, escapePointerToken, valueAtPointer } from '../../contract/json-pointer.ts';
import type { Exchange } from '../../http/exchange.ts';
import { registered, type RegisteredCheck } from './define.ts';
import type { Violation } from '../checks.ts';

/** The worker's start on the suite's clock: nothing this process created can be older. */
const processStartedAt = Date.now() - performance.now();

/** Times before this are not times (0001-01-01, the Unix epoch written for "not yet"). */
const earliestTime = Date.UTC(2000, 0, 1);

/** Timestamps of mixed precision (microseconds, whole seconds) may differ by this much and still be in order. */
const precisionSlackMs = 1000;

function parsed(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  // RFC 3339 allows a space for the T; an HTTP date (the Date header) has its own spaces.
  const time = Date.parse(/^\d{4}-\d{2}-\d{2} /.test(value) ? value.replace(' ', 'T') : value);
  return Number.isNaN(time) ? undefined : time;
}

/** The answer's time on the target's clock, and how far that clock is from the suite's (ms). */
function answerClock(exchange: Pick<Exchange, 'responseHeaders' | 'receivedAt'>): { at: number; skew: number } {
  const received = exchange.receivedAt ?? Date.now();
  const date = parsed(exchange.responseHeaders.date);
  // The Date header has a resolution of one second; a second is within every tolerance.
  return date === undefined ? { at: received, skew: 0 } : { at: date, skew: date - received };
}

/** The objects of a body whose times are judged: the body itself, or each element of an array body. */
function timedObjects(json: unknown): Array<{ pointer: string; object: Record<string, unknown> }> {
  const list = Array.isArray(json)
    ? json.map((item, index) => ({ item, pointer: `/${index}` }))
    : [{ item: json, pointer: '' }];
  return list.flatMap(({ item, pointer }) =>
    typeof item === 'object' && item !== null && !Array.isArray(item)
      ? [{ pointer, object: item as Record<string, unknown> }]
      : [],
  );
}

const field = (pointer: string, name: string): string => `body ${pointer}/${escapePointerToken(name)}`;

/**
 * TIME-NOW: created_at and updated_at of what the request created lie within the tolerance of the
 * answer's time. `window` 'now' (a creation: made by this very request) or 'this-run' (a send, whose
 * intents a target may also return from an earlier send of the same token: made since this process
 * started, and not in the future).
 */
export function createdNow(
  exchange: Pick<Exchange, 'json' | 'responseHeaders' | 'receivedAt'>,
  toleranceSeconds: number,
  window: 'now' | 'this-run',
  runStartedAt: number = processStartedAt,
): Violation[] {
  const tolerance = toleranceSeconds * 1000;
  const clock = answerClock(exchange);
  const earliest = window === 'now' ? clock.at - tolerance : runStartedAt + clock.skew - tolerance;
  const latest = clock.at + tolerance;
  const source = exchange.responseHeaders.date ? 'its Date header' : "the suite's clock";
  const violations: Violation[] = [];
  for (const { pointer, object } of timedObjects(exchange.json)) {
    for (const name of ['created_at', 'updated_at']) {
      const time = parsed(object[name]);
      if (time === undefined || (time >= earliest && time <= latest)) continue;
      const offBy = Math.round((time - clock.at) / 1000);
      violations.push({
        location: field(pointer, name),
        expected:
          `a time within ${toleranceSeconds} s of the answer's ` +
          `(${new Date(clock.at).toISOString()}, ${source})` +
          (window === 'this-run' ? ' or since the run began' : ''),
        actual: `${describeValue(object[name])}, ${Math.abs(offBy)} s ${offBy < 0 ? 'earlier' : 'later'}`,
      });
    }
  }
  return violations;
}

/**
 * TIME-ORDER: updated_at is not before created_at, an intent's event times are not before its
 * created_at, and no timestamp is a zero time.
 */
export function timesInOrder(exchange: Pick<Exchange, 'json'>): Violation[] {
  const violations: Violation[] = [];
  for (const { pointer, object } of timedObjects(exchange.json)) {
    const created = parsed(object.created_at);
    for (const name of ['created_at', 'updated_at', 'approved_at', 'canceled_at', 'deleted_at']) {
      const time = parsed(object[name]);
      if (time === undefined) continue;
      if (time < earliestTime) {
        violations.push({
          location: field(pointer, name),
          expected: 'a real time (a value that does not exist yet is null or absent)',
          actual: describeValue(object[name]),
        });
        continue;
      }
      if (
        name !== 'created_at' &&
        created !== undefined &&
        created >= earliestTime &&
        time < created - precisionSlackMs
      )
        violations.push({
          location: field(pointer, name),
          expected: `a time not before created_at ${describeValue(object.created_at)}`,
          actual: describeValue(valueAtPointer(object, `/${escapePointerToken(name)}`)),
        });
    }
  }
  return violations;
}

export const timeChecks = (): RegisteredCheck[] => [
  registered('TIME-NOW', ['createTransaction', 'sendTransaction'], (exchange, _context, settings) =>
    createdNow(
      exchange,
      settings.clockToleranceSeconds,
      exchange.operation === 'createTransaction' ? 'now' : 'this-run',
      settings.earliestMs,
    ),
  ),
  registered('TIME-ORDER', ['createTransaction', 'sendTransaction', 'getBalance', 'getCurrency'], timesInOrder),
];
