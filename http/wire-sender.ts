/**
 * The Sender of the generated requests (http/fast-client.ts): undici's Agent, a pool of
 * keep-alive connections per origin, driven through its documented handler API
 * (Dispatcher.dispatch). Only public APIs: an upgrade of Node cannot take the client away, as it
 * could the former sender, which read answers with Node's internal HTTP parser (_http_common).
 *
 * Why undici and why dispatch: the client's own CPU time per request, one request at a time to the
 * reference mock (npx tsx lab/bench-senders.ts, medians), was about 30 µs here, against 36 µs for
 * undici's request() (a body stream per answer) and 49 µs for node:http with a keep-alive agent
 * (ClientRequest and IncomingMessage per answer); the former sender cost about 21 µs. undici parses
 * with llhttp, as node:http does: chunked bodies, bodies delimited by the connection's end and
 * interim 1xx answers are read; the body is kept as the bytes received (64-bit ids are read from
 * the raw text, contract/big-integers.ts).
 *
 * One answer form is read differently from node:http: an unsolicited "100 Continue" (the suite
 * never sends Expect) ends the request as a reset ("bad response"), where node:http skips it.
 *
 * dispatch is the API undici documents as "less stable than the higher level APIs" across
 * major versions: the version is pinned in package.json, and tests/integration/wire-sender.test.ts
 * checks every answer form and failure this file relies on.
 */
import { Agent, errors, type Dispatcher } from 'undici';
import type { IncomingResponse, OutgoingRequest, Sender } from './transport.ts';

export interface WireSender {
  send: Sender;
  /** Closes every idle and busy connection. */
  destroy(): void;
}

export interface WireSenderOptions {
  /** Connections per origin: bursts of the concurrency property go out together. */
  connections?: number;
  /** How long opening a connection may take; the per-request timeout of send() bounds it too. */
  connectTimeoutMs?: number;
}

/** A failure as the transport policy reads it: "CODE: message", the code kept, and whether a resend is safe. */
export type SendFailure = Error & { code?: string; stale?: boolean };

/** Errors of a connection closed or reset under a request (undici's own, or the socket's). */
const resetCodes = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

function failure(code: string | undefined, message: string, stale = false): SendFailure {
  return Object.assign(new Error(code ? `${code}: ${message}` : message), { code, stale });
}

/**
 * Whether the connection had served earlier answers: undici's SocketError carries the socket's
 * byte counts (documented as SocketInfo). A raw reset of the socket carries none: then the
 * request counts as seen by the server, and is not resent.
 */
function servedEarlierAnswers(error: Error): boolean {
  if (!(error instanceof errors.SocketError)) return false;
  const bytesRead = (error as errors.SocketError & { socket?: { bytesRead?: number } | null }).socket?.bytesRead;
  return typeof bytesRead === 'number' && bytesRead > 0;
}

/** Header names in lower case, repeated headers joined with ", " (as node:http joins them). */
function headerRecord(raw: Buffer[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toString('latin1').toLowerCase();
    const value = raw[i + 1]!.toString('latin1');
    const earlier = record[name];
    record[name] = earlier === undefined ? value : `${earlier}, ${value}`;
  }
  return record;
}

/**
 * One request's handler: collects the final answer, times the request out, and tells a reset of
 * an idle connection (the server closed it as the request was written: the request was not
 * received, so it may be sent once more) from a reset of a request the server may have seen.
 */
class AnswerCollector implements Dispatcher.DispatchHandlers {
  private status = 0;
  private headers: Record<string, string> = {};
  private readonly chunks: Buffer[] = [];
  /** A byte of the answer arrived. */
  private answerStarted = false;
  private settled = false;
  private abortRequest: ((error?: Error) => void) | undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly resolve: (response: IncomingResponse) => void;
  private readonly reject: (error: SendFailure) => void;

  constructor(resolve: (response: IncomingResponse) => void, reject: (error: SendFailure) => void, timeoutMs: number) {
    this.resolve = resolve;
    this.reject = reject;
    this.timer = setTimeout(() => this.timeOut(timeoutMs), timeoutMs);
  }

  onConnect(abort: (error?: Error) => void): void {
    // Timed out while waiting for a free connection: it must not go out late.
    if (this.settled) abort();
    else this.abortRequest = abort;
  }

  onResponseStarted(): void {
    this.answerStarted = true;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    // Interim 1xx answers: the final answer follows on the same connection.
    if (statusCode >= 200) {
      this.status = statusCode;
      this.headers = headerRecord(rawHeaders);
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (this.settle()) {
      const body = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
      this.resolve({ status: this.status, headers: this.headers, body });
    }
  }

  onError(error: Error & { code?: string }): void {
    if (!this.settle()) return;
    const stale = !this.answerStarted && resetCodes.has(error.code ?? '') && servedEarlierAnswers(error);
    this.reject(failure(error.code, error.message, stale));
  }

  private timeOut(timeoutMs: number): void {
    if (!this.settle()) return;
    this.reject(failure('ETIMEDOUT', `Timeout ${timeoutMs}ms exceeded`));
    // The connection is closed: an answer arriving later must not be read as the next request's.
    this.abortRequest?.();
  }

  /** True the first time: an answer, an error or the time-out ends the request once. */
  private settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    clearTimeout(this.timer);
    return true;
  }
}

/** A pooled keep-alive sender for http: and https: URLs. */
export function wireSender(options: WireSenderOptions = {}): WireSender {
  const agent = new Agent({
    connections: options.connections ?? 16,
    // One request at a time per connection: a creation never waits behind another request's answer.
    pipelining: 1,
    connect: { timeout: options.connectTimeoutMs ?? 10_000 },
  });

  const send: Sender = (request: OutgoingRequest, timeoutMs: number) =>
    new Promise<IncomingResponse>((resolve, reject) => {
      const url = new URL(request.url);
      const dispatch: Dispatcher.DispatchOptions = {
        origin: url.origin,
        path: url.pathname + url.search,
        method: request.method.toUpperCase() as Dispatcher.HttpMethod,
        headers: request.headers,
        body: request.data ?? null,
      };
      // Invalid requests (a header value with a line break) reach onError, as undici refuses them.
      agent.dispatch(dispatch, new AnswerCollector(resolve, reject, timeoutMs));
    });

  return {
    send,
    destroy() {
      void agent.destroy().catch(() => undefined);
    },
  };
}
