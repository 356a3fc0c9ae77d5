/**
 * What the forwarding proxy hands over of each exchange it forwarded, for judging: a copy taken
 * while the bytes passed, bounded, and given after the answer was sent.
 */
import type { CapturedBody, DecodedBody } from './body-capture.ts';
import type { HeaderPair } from './header-list.ts';

export interface ExchangeTimings {
  /** When the request's head arrived, in epoch milliseconds (fractional). */
  started: number;
  /** When the upstream's answer head arrived. */
  firstByte: number;
  /** When the upstream's answer ended. */
  ended: number;
}

export interface CapturedExchange {
  /** 1, 2, 3... in the order requests arrived at the proxy; exchanges are handed over in the order they ended. */
  sequence: number;
  method: string;
  /** The request target as the client sent it: /v1/transactions?limit=2 */
  url: string;
  /** The absolute address it was forwarded to. */
  forwardedUrl: string;
  /**
   * As the client sent them, hop-by-hop ones included, in their order and case. Names and values are
   * node's reading of the bytes: one character a byte (latin1), so that none is lost or replaced.
   */
  requestHeaders: HeaderPair[];
  requestBody: CapturedBody;
  status: number;
  /** The reason phrase as the upstream sent it (possibly empty). */
  statusMessage: string;
  /** As the upstream sent them, hop-by-hop ones included, in their order and case. */
  responseHeaders: HeaderPair[];
  /** The body as the upstream sent it (still compressed when it was). */
  responseBody: CapturedBody;
  /** A decompressed copy when the answer had a Content-Encoding; null otherwise. */
  decodedResponseBody: DecodedBody | null;
  timings: ExchangeTimings;
  /** Headers the inspect option added to the answer the client got (none without it). */
  addedHeaders: HeaderPair[];
  /** Set once the inspector saw it (it was judged there, before its answer went out). */
  inspected?: boolean;
  /**
   * Why the answer is not whole, when it is not: the client went away, or the upstream closed, in the
   * middle of it. Its status and headers are whole: it is judged by them.
   */
  answerCut?: string;
}

/** Called with each exchange, after its answer was sent; the forwarding never waits for it. */
export type ExchangeHook = (exchange: CapturedExchange) => void | Promise<void>;

/**
 * Called with each exchange before its answer is sent; the headers it returns are added to the
 * answer. Its answer is held until it returns.
 */
export type ExchangeInspector = (
  exchange: CapturedExchange,
) => readonly HeaderPair[] | undefined | Promise<readonly HeaderPair[] | undefined>;
