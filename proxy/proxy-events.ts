/**
 * What the forwarding proxy says of the traffic besides its exchanges: every request it received
 * either became an exchange handed over for judging (its answer whole, or cut with its status and
 * headers whole), or an event saying why there is no answer to judge. Each event is counted in the
 * proxy's stats too, so that forwarded = judged + reported not judged holds to the last request.
 */

interface EventBase {
  sequence: number;
  method: string;
  /** The request target as the client sent it. */
  url: string;
  /** Epoch milliseconds. */
  at: number;
}

/**
 * Why a request got no answer of the upstream to judge:
 * - unreachable: no connection to the upstream could be made (refused, DNS, TLS); the client got 502;
 * - no-answer: the upstream sent no answer within the proxy's time-out; the client got 504;
 * - connection-closed: the upstream closed a kept-alive connection as the request went out (the
 *   keep-alive race); the client's connection was closed the same way, for the client to retry or not;
 * - client-gone: the client went away before the upstream answered;
 * - answer-unreadable: the answer is not HTTP node reads, or its header section is larger than the proxy
 *   reads; the client got 502;
 * - not-sent: node would not write the request as the client sent it; the client got 502;
 * - refused: the request could not be read as HTTP, or its header section is larger than the proxy
 *   reads (400 or 431, said in the answer's body); nothing was forwarded.
 */
export const unansweredReasons = [
  'unreachable',
  'no-answer',
  'connection-closed',
  'client-gone',
  'answer-unreadable',
  'not-sent',
  'refused',
] as const;
export type UnansweredReason = (typeof unansweredReasons)[number];

/** Said once for each reason in a report. */
export const unansweredText: Record<UnansweredReason, string> = {
  unreachable: 'the upstream could not be reached, or closed a new connection before answering (the client got 502)',
  'no-answer': 'the upstream did not answer within the time-out (the client got 504)',
  'connection-closed':
    'the upstream closed a kept-alive connection as the request went out (the client saw its connection close)',
  'client-gone': 'the client went away before the upstream answered',
  'answer-unreadable':
    "the upstream's answer could not be read as HTTP, or its header section is larger than the proxy reads " +
    '(the client got 502)',
  'not-sent': 'the request could not be written as sent (the client got 502)',
  refused: 'the request was not HTTP the proxy could read, or its header section too large (400 or 431)',
};

/** The reasons that say the upstream was (in part) unavailable: exit code 3 when no rule broke. */
export const unavailableReasons: ReadonlySet<UnansweredReason> = new Set(['unreachable', 'no-answer', 'client-gone']);

export type ProxyEvent =
  | (EventBase & {
      kind: 'unanswered';
      reason: UnansweredReason;
      /** The system or parser error code (ECONNREFUSED, ETIMEDOUT, HPE_HEADER_OVERFLOW...), when there is one. */
      code: string | null;
      message: string;
      /** What the client got: the proxy's status, or its connection closed. */
      answered: 400 | 431 | 502 | 504 | 'connection closed';
    })
  | (EventBase & {
      kind: 'answer-cut';
      /** Who cut it: the upstream closed mid-answer, or the client went away. */
      by: 'upstream' | 'client';
      code: string | null;
      message: string;
    })
  | (EventBase & { kind: 'inspect-failed'; message: string })
  | (EventBase & { kind: 'inspect-skipped'; message: string })
  | (EventBase & { kind: 'hook-failed'; message: string });

export type EventOf<K extends ProxyEvent['kind']> = Extract<ProxyEvent, { kind: K }>;

export interface ForwardingCounts {
  /** Requests received (those the proxy refused to read included). */
  received: number;
  /** Exchanges whose whole answer reached the client. */
  completed: number;
  inFlight: number;
  /** Exchanges whose answer was cut (by the upstream or the client): handed over with their status and headers. */
  cut: number;
  /** Requests with no answer of the upstream, by why. */
  unanswered: Record<UnansweredReason, number>;
  /** Informational (1xx) answers passed to the client, and those that could not be (an HTTP/1.0 client). */
  informational: number;
  informationalNotPassed: number;
  /** Exchanges handed to the hook. */
  captured: number;
  /** Bodies whose capture stopped at the capture limit. */
  truncatedBodies: number;
  /** Requests held back while the queue in front of the hook was full (back-pressure). */
  held: number;
  inspectFailed: number;
  /** Answers too large to hold for the inspector, streamed without its headers. */
  inspectSkipped: number;
}

export function emptyCounts(): ForwardingCounts {
  return {
    received: 0,
    completed: 0,
    inFlight: 0,
    cut: 0,
    unanswered: Object.fromEntries(unansweredReasons.map((reason) => [reason, 0])) as Record<UnansweredReason, number>,
    informational: 0,
    informationalNotPassed: 0,
    captured: 0,
    truncatedBodies: 0,
    held: 0,
    inspectFailed: 0,
    inspectSkipped: 0,
  };
}
