/**
 * A transparent reverse proxy: whatever a client sends to http://127.0.0.1:PORT/v1 goes to the
 * upstream's base address, and the upstream's answer comes back, byte for byte, while a bounded
 * copy of each exchange is kept for whoever judges it afterwards.
 *
 * What passes unchanged: the method, the request target (the proxy's /v1 moved onto the
 * upstream's base path; anything outside /v1 goes to the same path at the upstream's origin), the
 * headers in their order, case and duplicates (Host rewritten to the upstream's), the body; the
 * answer's status, reason phrase, headers and body, compressed or not, streamed as they come. What
 * is the proxy's own on each side: the hop-by-hop headers (Connection, Keep-Alive, Proxy-*, TE,
 * Trailer, Transfer-Encoding, Upgrade, and those Connection names), hence the framing: an answer the
 * upstream ended by closing, or sent chunked, reaches a keep-alive client chunked, with the same bytes.
 *
 * Informational answers (1xx, 100 Continue among them: the upstream decides an Expect:
 * 100-continue) and trailers pass both ways; header sections up to maxHeaderSize (1 MiB, what the
 * most permissive servers accept) are read. Each client connection has an upstream connection of
 * its own (upstream-links.ts), and no request is ever sent twice. One request's life, step by step,
 * is in forwarded-exchange.ts.
 *
 * The copy is handed to the hook after the answer was sent, through a queue the forwarding never
 * waits on while it has room (exchange-queue.ts): judging costs the traffic nothing but CPU. When the
 * hook falls behind, the queue spills bodies to disk past its memory budget, and past its length (or
 * a full spill file) new requests wait before they are forwarded: the traffic is slowed, never a copy
 * forgotten. Only the inspect option (an answer header naming what an exchange broke) holds an
 * answer back, and only while the inspector runs.
 *
 * The proxy answers on its own only where there is no answer of the upstream to pass on, saying why
 * in the body and in an event (proxy-events.ts): 502 when the upstream could not be reached, 504 when
 * it did not answer within the time-out, 400 or 431 for a request it cannot read as HTTP.
 */
import { createServer, request as httpRequest, type ClientRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { type CapturedBody, decodeBody, defaultCaptureLimit } from './body-capture.ts';
import type { CapturedExchange, ExchangeHook, ExchangeInspector } from './captured-exchange.ts';
import { ExchangeQueue, type QueueCounts } from './exchange-queue.ts';
import { errorCode, errorMessage, forwardExchange, type ForwardingContext } from './forwarded-exchange.ts';
import { headerValue } from './header-list.ts';
import { emptyCounts, type ForwardingCounts, type ProxyEvent } from './proxy-events.ts';
import { SpillFile } from './spill-file.ts';
import { UpstreamLinks, type UpstreamTls } from './upstream-links.ts';
import { parseUpstream, ProxyConfigError, proxyBasePath, type Upstream } from './upstream-address.ts';

export type { CapturedExchange, ExchangeHook, ExchangeInspector } from './captured-exchange.ts';
export type { CapturedBody, DecodedBody } from './body-capture.ts';
export type { HeaderPair } from './header-list.ts';
export type { EventOf, ProxyEvent, UnansweredReason } from './proxy-events.ts';
export { ProxyConfigError } from './upstream-address.ts';

/** The largest header section read, of a request or an answer: Go's default, the most any common server takes. */
export const defaultMaxHeaderSize = 1024 * 1024;

export interface ForwardingProxyOptions {
  /** The upstream's base address: http(s)://host[:port]/.../v1 */
  upstream: string;
  /** The port to listen on, on 127.0.0.1; 0 (the default) takes a free one. */
  port?: number;
  /** Each exchange, after its answer was sent (or cut: answerCut says so). */
  onExchange?: ExchangeHook;
  /** Each event; called synchronously, so it should only record. */
  onEvent?: (event: ProxyEvent) => void;
  /** Headers to add to an answer, decided from the whole exchange; answers are buffered when set. */
  inspect?: ExchangeInspector;
  /** Bytes kept of each body (and of a decompressed copy); default 1 MiB. */
  captureLimit?: number;
  /** Exchanges waiting for the hook before new requests are held back; default 4096. */
  maxQueuedExchanges?: number;
  /** Body bytes the exchanges waiting for the hook hold in memory; past it they are spilled. Default 64 MiB. */
  maxQueuedBodyBytes?: number;
  /** Bytes of bodies the spill file holds before new requests are held back; default 4 GiB, 0: no spilling. */
  maxSpillBytes?: number;
  /** How long the upstream has to begin its answer once the whole request was sent; default 0: no limit. */
  answerTimeoutMs?: number;
  /** The largest header section read, of a request or an answer; default 1 MiB. */
  maxHeaderSize?: number;
  /** How long close() lets exchanges in flight finish before cutting them; default 5000 ms. */
  closeTimeoutMs?: number;
  /** TLS settings for an https upstream (a private CA, a client certificate). */
  tls?: UpstreamTls;
}

export interface ForwardingStats extends ForwardingCounts {
  queue: QueueCounts;
  /** Bodies written to the spill file while the hook was behind, and their bytes. */
  spill: { bodies: number; bytes: number };
}

export interface RunningForwardingProxy {
  /** The proxy's base address: http://127.0.0.1:PORT/v1 */
  url: string;
  port: number;
  upstream: Upstream;
  stats(): ForwardingStats;
  /** Stops accepting, lets exchanges in flight finish (at most closeTimeoutMs), then flushes the hook's queue. */
  close(): Promise<void>;
}

export interface ForwardingProxy {
  readonly upstream: Upstream;
  start(): Promise<RunningForwardingProxy>;
}

const now = (): number => performance.timeOrigin + performance.now();

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name}: expected a number >= 0, got ${value}`);
  return value;
}

function heldBytes(exchange: CapturedExchange): number {
  return (
    exchange.requestBody.bytes.length +
    exchange.responseBody.bytes.length +
    (exchange.decodedResponseBody?.bytes.length ?? 0)
  );
}

/** The exchange with its bodies in the spill file, or undefined when the file is full. */
function spilled(exchange: CapturedExchange, file: SpillFile): CapturedExchange | undefined {
  const out = (body: CapturedBody): CapturedBody | undefined => {
    if (body.bytes.length === 0) return body;
    const where = file.write(body.bytes);
    return where === undefined
      ? undefined
      : { bytes: Buffer.alloc(0), size: body.size, truncated: body.truncated, spilled: where };
  };
  const requestBody = out(exchange.requestBody);
  if (requestBody === undefined) return undefined;
  const responseBody = out(exchange.responseBody);
  if (responseBody === undefined) {
    // Its request body went out already: it comes back at once, so that the exchange stays whole.
    if (requestBody.spilled !== undefined) file.take(requestBody.spilled);
    return undefined;
  }
  return { ...exchange, requestBody, responseBody };
}

/** The exchange with its spilled bodies read back into memory. */
function restored(exchange: CapturedExchange, file: SpillFile): CapturedExchange {
  const back = (body: CapturedBody): CapturedBody =>
    body.spilled === undefined ? body : { bytes: file.take(body.spilled), size: body.size, truncated: body.truncated };
  if (exchange.requestBody.spilled === undefined && exchange.responseBody.spilled === undefined) return exchange;
  return { ...exchange, requestBody: back(exchange.requestBody), responseBody: back(exchange.responseBody) };
}

export function createForwardingProxy(options: ForwardingProxyOptions): ForwardingProxy {
  const upstream = parseUpstream(options.upstream);
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ProxyConfigError('--port', `${port} is not a port number (0 to 65535; 0 takes a free one)`);
  return { upstream, start: () => start(upstream, port, options) };
}

/** createForwardingProxy(options).start(), with a bad option a rejection like a port in use. */
export async function startForwardingProxy(options: ForwardingProxyOptions): Promise<RunningForwardingProxy> {
  return createForwardingProxy(options).start();
}

/** The queue in front of the hook: it restores spilled bodies and decompresses an answer, off the forwarding path. */
function hookQueue(
  options: ForwardingProxyOptions,
  captureLimit: number,
  spill: SpillFile,
  report: (event: ProxyEvent) => void,
): ExchangeQueue<CapturedExchange> {
  const { onExchange } = options;
  const maxSpillBytes = positive('maxSpillBytes', options.maxSpillBytes, 4 * 1024 ** 3);
  return new ExchangeQueue<CapturedExchange>(
    {
      maxItems: Math.max(1, positive('maxQueuedExchanges', options.maxQueuedExchanges, 4096)),
      maxMemoryBytes: positive('maxQueuedBodyBytes', options.maxQueuedBodyBytes, 64 * 1024 * 1024),
    },
    {
      bodyBytes: heldBytes,
      ...(maxSpillBytes > 0 ? { spill: (exchange: CapturedExchange) => spilled(exchange, spill) } : {}),
      deliver: async (waiting) => {
        const exchange = restored(waiting, spill);
        if (onExchange === undefined) return;
        // Decompressed here, off the forwarding path, unless the inspector already needed it.
        let ready = exchange;
        if (exchange.decodedResponseBody === null) {
          const encoding = headerValue(exchange.responseHeaders, 'content-encoding');
          const decoded =
            encoding === undefined ? null : await decodeBody(exchange.responseBody, encoding, captureLimit);
          if (decoded !== null) ready = { ...exchange, decodedResponseBody: decoded };
        }
        await onExchange(ready);
      },
      failed: (exchange, error) =>
        report({
          kind: 'hook-failed',
          sequence: exchange.sequence,
          method: exchange.method,
          url: exchange.url,
          at: now(),
          message: errorMessage(error),
        }),
    },
  );
}

/** The one line a request the proxy cannot read as HTTP gets, and its status: 431 for a header section too large. */
function refusalOf(error: NodeJS.ErrnoException, maxHeaderSize: number): { status: 400 | 431; head: string } {
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const detail = tooLarge
    ? `the request's header section is larger than the ${maxHeaderSize} bytes the proxy reads`
    : `the request is not HTTP the proxy can read (${error.code ?? error.message})`;
  const body = JSON.stringify({ error: tooLarge ? 'request header fields too large' : 'bad request', detail });
  const status = tooLarge ? 431 : 400;
  const reason = tooLarge ? 'Request Header Fields Too Large' : 'Bad Request';
  return {
    status,
    head:
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  };
}

async function start(
  upstream: Upstream,
  listenPort: number,
  options: ForwardingProxyOptions,
): Promise<RunningForwardingProxy> {
  const captureLimit = positive('captureLimit', options.captureLimit, defaultCaptureLimit);
  const closeTimeoutMs = positive('closeTimeoutMs', options.closeTimeoutMs, 5000);
  const maxHeaderSize = positive('maxHeaderSize', options.maxHeaderSize, defaultMaxHeaderSize);
  const { onExchange, onEvent, inspect } = options;
  const secure = upstream.protocol === 'https:';
  const counts = emptyCounts();
  const links = new UpstreamLinks(secure, options.tls);
  const spill = new SpillFile(positive('maxSpillBytes', options.maxSpillBytes, 4 * 1024 ** 3));

  const report = (event: ProxyEvent): void => {
    if (onEvent === undefined) return;
    try {
      onEvent(event);
    } catch {
      // A listener's failure is its own: the traffic goes on.
    }
  };
  const queue = hookQueue(options, captureLimit, spill, report);

  let closing = false;
  let drained: (() => void) | undefined;
  const context: ForwardingContext = {
    upstream,
    captureLimit,
    capturing: onExchange !== undefined || inspect !== undefined,
    inspect,
    answerTimeoutMs: positive('answerTimeoutMs', options.answerTimeoutMs, 0),
    maxHeaderSize,
    counts,
    links,
    send: (request: RequestOptions): ClientRequest => (secure ? httpsRequest(request) : httpRequest(request)),
    report,
    handOver: (exchange) => {
      if (onExchange !== undefined) queue.push(exchange);
    },
    admission: () => (onExchange !== undefined && queue.isFull() ? queue.whenRoom() : undefined),
    isClosing: () => closing,
    ended: () => {
      if (!closing) return;
      server.closeIdleConnections();
      if (counts.inFlight === 0) drained?.();
    },
  };

  const forward = forwardExchange.bind(undefined, context);
  const server = createServer({ noDelay: true, requireHostHeader: false, maxHeaderSize }, forward);
  // The upstream decides what an Expect header gets (100 Continue, 417, or its answer): node would answer itself.
  server.on('checkContinue', forward);
  server.on('checkExpectation', forward);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || !error.code?.startsWith('HPE_')) {
      socket.destroy();
      return;
    }
    const refusal = refusalOf(error, maxHeaderSize);
    counts.received++;
    counts.unanswered.refused++;
    socket.end(refusal.head);
    report({
      kind: 'unanswered',
      reason: 'refused',
      sequence: counts.received,
      method: '',
      url: '',
      at: now(),
      code: error.code,
      message: errorMessage(error),
      answered: refusal.status,
    });
  });
  await new Promise<void>((done, fail) => {
    const failed = (error: Error): void => {
      const code = errorCode(error);
      if (code === 'EADDRINUSE')
        fail(new ProxyConfigError('--port', `port ${listenPort} is in use on 127.0.0.1 (0 takes a free one)`));
      else if (code === 'EACCES')
        fail(new ProxyConfigError('--port', `port ${listenPort} is not allowed for this user on 127.0.0.1`));
      else fail(error);
    };
    server.once('error', failed);
    server.listen(listenPort, '127.0.0.1', () => {
      server.off('error', failed);
      done();
    });
  });
  const { port } = server.address() as AddressInfo;

  let closed: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    closing = true;
    const stopped = new Promise<void>((done) => server.close(() => done()));
    server.closeIdleConnections();
    if (counts.inFlight > 0) {
      await new Promise<void>((done) => {
        const timer = setTimeout(done, closeTimeoutMs);
        timer.unref();
        drained = () => {
          clearTimeout(timer);
          done();
        };
      });
    }
    server.closeAllConnections();
    await stopped;
    links.destroyAll();
    await queue.flush();
    spill.close();
  };

  return {
    url: `http://127.0.0.1:${port}${proxyBasePath}`,
    port,
    upstream,
    stats: () => ({
      ...counts,
      unanswered: { ...counts.unanswered },
      queue: queue.stats(),
      spill: { bodies: spill.bodies, bytes: spill.written },
    }),
    close: () => {
      closed ??= close();
      return closed;
    },
  };
}
