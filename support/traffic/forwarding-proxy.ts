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
 * The copy is handed to the hook after the answer was sent, through a bounded queue the forwarding
 * never waits on: judging costs the traffic nothing but CPU. Only the inspect option (an answer
 * header naming what an exchange broke) holds an answer back, and only while the inspector runs.
 *
 * The proxy answers on its own in one case: the upstream could not be reached, or went away
 * before any byte of its answer had been sent on; then the client gets 502 and the event is
 * reported. An upstream that goes away later cuts the client's answer short the same way.
 */
import {
  Agent as HttpAgent,
  createServer,
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
  type RequestOptions,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest, type AgentOptions as HttpsAgentOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import { BodyCapture, type CapturedBody, decodeBody, defaultCaptureLimit, emptyBody } from './body-capture.ts';
import type { CapturedExchange, ExchangeHook, ExchangeInspector } from './captured-exchange.ts';
import { ExchangeQueue, type QueueCounts } from './exchange-queue.ts';
import { endToEndHeaders, flatHeaders, type HeaderPair, headerPairs, headerValue } from './headers.ts';
import { forwardedTarget, parseUpstream, ProxyConfigError, proxyBasePath, type Upstream } from './upstream.ts';

export type { CapturedExchange, ExchangeHook, ExchangeInspector } from './captured-exchange.ts';
export type { CapturedBody, DecodedBody } from './body-capture.ts';
export type { HeaderPair } from './headers.ts';
export { ProxyConfigError } from './upstream.ts';

interface EventBase {
  sequence: number;
  method: string;
  /** The request target as the client sent it. */
  url: string;
  /** Epoch milliseconds. */
  at: number;
}

/** What happened to the traffic that is not an exchange: each is also counted in the stats. */
export type ProxyEvent =
  | (EventBase & {
      kind: 'upstream-error';
      /** before-answer: nothing of an answer came (refused, unreachable, TLS, reset); mid-answer: it stopped short. */
      phase: 'before-answer' | 'mid-answer';
      /** The system error code (ECONNREFUSED, ECONNRESET...), when there is one. */
      code: string | null;
      message: string;
      /** Whether the client got the proxy's 502 (nothing had been sent yet) or had its answer cut. */
      answered502: boolean;
    })
  | (EventBase & { kind: 'client-aborted' })
  | (EventBase & { kind: 'inspect-failed'; message: string })
  | (EventBase & { kind: 'inspect-skipped'; message: string })
  | (EventBase & { kind: 'hook-failed'; message: string });

export interface ForwardingProxyOptions {
  /** The upstream's base address: http(s)://host[:port]/.../v1 */
  upstream: string;
  /** The port to listen on, on 127.0.0.1; 0 (the default) takes a free one. */
  port?: number;
  /** Each completed exchange, after its answer was sent. */
  onExchange?: ExchangeHook;
  /** Each event; called synchronously, so it should only record. */
  onEvent?: (event: ProxyEvent) => void;
  /** Headers to add to an answer, decided from the whole exchange; answers are buffered when set. */
  inspect?: ExchangeInspector;
  /** Bytes kept of each body (and of a decompressed copy); default 1 MiB. */
  captureLimit?: number;
  /** Exchanges waiting for the hook, at most; past it the oldest are dropped whole. Default 4096. */
  maxQueuedExchanges?: number;
  /** Body bytes held by the exchanges waiting for the hook; past it the oldest lose their bodies. Default 64 MiB. */
  maxQueuedBodyBytes?: number;
  /** How long close() lets exchanges in flight finish before cutting them; default 5000 ms. */
  closeTimeoutMs?: number;
  /** TLS settings for an https upstream (a private CA, a client certificate). */
  tls?: Pick<HttpsAgentOptions, 'ca' | 'cert' | 'key' | 'rejectUnauthorized' | 'servername'>;
}

export interface ForwardingStats {
  /** Requests received. */
  received: number;
  /** Exchanges whose whole answer reached the client. */
  completed: number;
  inFlight: number;
  /** Answered 502 by the proxy itself. */
  badGateway: number;
  /** Upstream failures: not reached, or gone mid-answer. */
  upstreamErrors: number;
  /** Requests sent again once, on a kept-alive connection the upstream had just closed. */
  retried: number;
  /** Clients that went away before their answer was whole. */
  clientAborted: number;
  /** Exchanges handed to the queue for the hook. */
  captured: number;
  /** Bodies whose capture stopped at the capture limit. */
  truncatedBodies: number;
  inspectFailed: number;
  /** Answers too large to hold for the inspector, streamed without its headers. */
  inspectSkipped: number;
  queue: QueueCounts;
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

/** Errors of a reused kept-alive connection the upstream closed as the request went out. */
const staleConnectionCodes = new Set(['ECONNRESET', 'EPIPE']);
/** Methods whose request may be sent twice (RFC 9110 9.2.2). */
const idempotentMethods = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);

function errorCode(error: unknown): string | null {
  if (typeof error !== 'object' || error === null || !('code' in error)) return null;
  return typeof error.code === 'string' ? error.code : null;
}

function errorMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!.slice(0, 300);
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name}: expected a number >= 0, got ${value}`);
  return value;
}

function withoutBodies(exchange: CapturedExchange): CapturedExchange {
  const dropped = (body: CapturedBody): CapturedBody =>
    body.size === 0 ? emptyBody : { bytes: Buffer.alloc(0), size: body.size, truncated: true };
  return {
    ...exchange,
    requestBody: dropped(exchange.requestBody),
    responseBody: dropped(exchange.responseBody),
    decodedResponseBody: null,
    bodiesDropped: true,
  };
}

function heldBytes(exchange: CapturedExchange): number {
  return (
    exchange.requestBody.bytes.length +
    exchange.responseBody.bytes.length +
    (exchange.decodedResponseBody?.bytes.length ?? 0)
  );
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

async function start(
  upstream: Upstream,
  listenPort: number,
  options: ForwardingProxyOptions,
): Promise<RunningForwardingProxy> {
  const captureLimit = positive('captureLimit', options.captureLimit, defaultCaptureLimit);
  const closeTimeoutMs = positive('closeTimeoutMs', options.closeTimeoutMs, 5000);
  const { onExchange, onEvent, inspect } = options;
  const capturing = onExchange !== undefined || inspect !== undefined;
  const secure = upstream.protocol === 'https:';
  const agent = secure
    ? new HttpsAgent({ keepAlive: true, noDelay: true, ...options.tls })
    : new HttpAgent({ keepAlive: true, noDelay: true });
  const send = (request: RequestOptions): ClientRequest => (secure ? httpsRequest(request) : httpRequest(request));

  const counts = {
    received: 0,
    completed: 0,
    inFlight: 0,
    badGateway: 0,
    upstreamErrors: 0,
    retried: 0,
    clientAborted: 0,
    captured: 0,
    truncatedBodies: 0,
    inspectFailed: 0,
    inspectSkipped: 0,
  };

  const report = (event: ProxyEvent): void => {
    if (onEvent === undefined) return;
    try {
      onEvent(event);
    } catch {
      // A listener's failure is its own: the traffic goes on.
    }
  };

  const queue = new ExchangeQueue<CapturedExchange>(
    {
      maxItems: positive('maxQueuedExchanges', options.maxQueuedExchanges, 4096),
      maxBodyBytes: positive('maxQueuedBodyBytes', options.maxQueuedBodyBytes, 64 * 1024 * 1024),
    },
    {
      bodyBytes: heldBytes,
      dropBodies: withoutBodies,
      deliver: async (exchange) => {
        if (onExchange === undefined) return;
        // Decompressed here, off the forwarding path, unless the inspector already needed it.
        let ready = exchange;
        if (exchange.decodedResponseBody === null && !exchange.bodiesDropped) {
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

  let closing = false;
  let drained: (() => void) | undefined;

  const forward = (req: IncomingMessage, res: ServerResponse): void => {
    const sequence = ++counts.received;
    const started = now();
    counts.inFlight++;
    // The upstream's Date, or none: the proxy's own would be a header the upstream never sent.
    res.sendDate = false;
    const method = req.method ?? 'GET';
    const target = req.url ?? '/';
    const path = forwardedTarget(upstream, target);
    const base = (): EventBase => ({ sequence, method, url: target, at: now() });
    const requestCapture = capturing ? new BodyCapture(captureLimit) : null;
    // RFC 9112 6.3: a request with neither Content-Length nor Transfer-Encoding has no body.
    const contentLength = req.headers['content-length'];
    const chunkedRequest = contentLength === undefined && req.headers['transfer-encoding'] !== undefined;
    const bodiless = contentLength === undefined ? !chunkedRequest : contentLength === '0';

    const headers = endToEndHeaders(req.rawHeaders);
    // Host rewritten where the client put it (every one of them, should it have sent several).
    let hosts = 0;
    for (let i = 0; i < headers.length; i += 2)
      if (headers[i]!.toLowerCase() === 'host') {
        headers[i + 1] = upstream.host;
        hosts++;
      }
    if (hosts === 0) headers.unshift('Host', upstream.host);
    // A body of unknown length stays one: node would not frame it by itself for every method.
    if (chunkedRequest) headers.push('Transfer-Encoding', 'chunked');

    let attempt = 0;
    let outgoing: ClientRequest | undefined;
    let answer: IncomingMessage | undefined;
    /** Set once the exchange failed (502, cut, client gone): it is then not handed to the hook. */
    let failed = false;
    let clientGone = false;
    let completed: CapturedExchange | undefined;
    let firstByte = 0;
    let ended = 0;

    const ownHead = (extra: string[]): string[] => (closing ? [...extra, 'Connection', 'close'] : extra);

    const stopRequestBody = (): void => {
      // The rest of the request is read and dropped, so that the client's connection can carry the next one.
      req.unpipe();
      req.resume();
    };

    const badGateway = (detail: string): boolean => {
      if (res.headersSent || res.destroyed) {
        res.destroy();
        return false;
      }
      counts.badGateway++;
      const body = JSON.stringify({ error: 'bad gateway', detail });
      const head = ['Content-Type', 'application/json', 'Content-Length', String(Buffer.byteLength(body))];
      res.writeHead(502, 'Bad Gateway', ownHead(head));
      res.end(body);
      return true;
    };

    const upstreamFailed = (phase: 'before-answer' | 'mid-answer', error: unknown): void => {
      if (failed || clientGone) return;
      failed = true;
      counts.upstreamErrors++;
      stopRequestBody();
      answer?.destroy();
      outgoing?.destroy();
      const answered502 = badGateway(errorMessage(error));
      report({
        ...base(),
        kind: 'upstream-error',
        phase,
        code: errorCode(error),
        message: errorMessage(error),
        answered502,
      });
    };

    const exchangeOf = (
      status: number,
      statusMessage: string,
      rawHeaders: string[],
      responseBody: CapturedBody,
    ): CapturedExchange => {
      const requestBody = requestCapture?.result() ?? emptyBody;
      if (requestBody.truncated) counts.truncatedBodies++;
      if (responseBody.truncated) counts.truncatedBodies++;
      return {
        sequence,
        method,
        url: target,
        forwardedUrl: upstream.origin + path,
        requestHeaders: headerPairs(req.rawHeaders),
        requestBody,
        status,
        statusMessage,
        responseHeaders: headerPairs(rawHeaders),
        responseBody,
        decodedResponseBody: null,
        timings: { started, firstByte, ended },
        addedHeaders: [],
        bodiesDropped: false,
      };
    };

    /** Writes the answer's head; false (and a 502 in its place) when node refuses what the upstream sent. */
    const writeHead = (status: number, statusMessage: string, head: string[]): boolean => {
      try {
        res.writeHead(status, statusMessage, ownHead(head));
        return true;
      } catch (error) {
        upstreamFailed('mid-answer', error);
        return false;
      }
    };

    const streamAnswer = (incoming: IncomingMessage, head: string[], capture: BodyCapture | null): void => {
      const status = incoming.statusCode ?? 502;
      const statusMessage = incoming.statusMessage ?? '';
      // The head goes with the first bytes of the body (node sends it then anyway): until then, an
      // upstream that goes away can still be answered 502.
      let headWritten = false;
      incoming.on('data', (chunk: Buffer) => {
        if (failed) return;
        capture?.add(chunk);
        if (!headWritten) {
          if (!writeHead(status, statusMessage, head)) return;
          headWritten = true;
        }
        if (!res.write(chunk)) incoming.pause();
      });
      res.on('drain', () => incoming.resume());
      incoming.on('end', () => {
        if (failed) return;
        ended = now();
        if (!headWritten && !writeHead(status, statusMessage, head)) return;
        res.end();
        // Copied after the answer went out; handed over on 'finish'.
        if (capture !== null) completed = exchangeOf(status, statusMessage, incoming.rawHeaders, capture.result());
      });
    };

    const holdAnswer = (incoming: IncomingMessage, head: string[], capture: BodyCapture): void => {
      const status = incoming.statusCode ?? 502;
      const statusMessage = incoming.statusMessage ?? '';
      let held: Buffer[] = [];
      let heldBytes = 0;
      let streaming = false;
      incoming.on('data', (chunk: Buffer) => {
        if (failed) return;
        capture.add(chunk);
        if (streaming) {
          if (!res.write(chunk)) incoming.pause();
          return;
        }
        held.push(chunk);
        heldBytes += chunk.length;
        if (heldBytes <= captureLimit) return;
        // Past the capture limit the inspector could not see the whole answer anyway: it is sent on as
        // it comes, without the inspector's headers, so that holding answers stays bounded.
        streaming = true;
        counts.inspectSkipped++;
        report({ ...base(), kind: 'inspect-skipped', message: `answer over ${captureLimit} bytes` });
        if (!writeHead(status, statusMessage, head)) return;
        let flowing = true;
        for (const piece of held) flowing = res.write(piece);
        held = [];
        if (!flowing) incoming.pause();
      });
      res.on('drain', () => incoming.resume());
      incoming.on('end', () => {
        if (failed) return;
        ended = now();
        if (streaming) {
          res.end();
          completed = exchangeOf(status, statusMessage, incoming.rawHeaders, capture.result());
          return;
        }
        void inspectAndSend(status, statusMessage, incoming.rawHeaders, head, capture.result());
      });
    };

    const inspectAndSend = async (
      status: number,
      statusMessage: string,
      rawHeaders: string[],
      head: string[],
      body: CapturedBody,
    ): Promise<void> => {
      const encoding = headerValue(headerPairs(rawHeaders), 'content-encoding');
      const exchange = exchangeOf(status, statusMessage, rawHeaders, body);
      if (encoding !== undefined) exchange.decodedResponseBody = await decodeBody(body, encoding, captureLimit);
      let added: readonly HeaderPair[] = [];
      try {
        added = (await inspect!(exchange)) ?? [];
      } catch (error) {
        counts.inspectFailed++;
        report({ ...base(), kind: 'inspect-failed', message: errorMessage(error) });
      }
      if (clientGone || failed) return;
      let sent = false;
      if (added.length > 0) {
        try {
          res.writeHead(status, statusMessage, ownHead([...head, ...flatHeaders(added)]));
          sent = true;
          exchange.addedHeaders = [...added];
        } catch (error) {
          // Headers node refuses to write are the inspector's mistake: the answer goes without them.
          counts.inspectFailed++;
          report({ ...base(), kind: 'inspect-failed', message: errorMessage(error) });
        }
      }
      if (!sent && !writeHead(status, statusMessage, head)) return;
      completed = exchange;
      res.end(body.bytes);
    };

    const onAnswer = (incoming: IncomingMessage): void => {
      answer = incoming;
      firstByte = now();
      incoming.on('error', () => {
        // Reported once, by 'close' below, which follows every error.
      });
      incoming.on('close', () => {
        if (!incoming.complete && !clientGone)
          upstreamFailed('mid-answer', new Error('the upstream closed mid-answer'));
      });
      const head = endToEndHeaders(incoming.rawHeaders);
      const capture = capturing ? new BodyCapture(captureLimit) : null;
      if (inspect !== undefined && capture !== null) holdAnswer(incoming, head, capture);
      else streamAnswer(incoming, head, capture);
    };

    const dispatch = (): void => {
      attempt++;
      let request: ClientRequest;
      try {
        request = send({ agent, hostname: upstream.hostname, port: upstream.port, method, path, headers });
      } catch (error) {
        // node refuses to send what it was given (a target it will not write, say).
        upstreamFailed('before-answer', error);
        return;
      }
      outgoing = request;
      request.on('response', onAnswer);
      request.on('error', (error) => {
        if (answer !== undefined || failed || clientGone) return;
        const retry =
          attempt === 1 &&
          bodiless &&
          request.reusedSocket &&
          idempotentMethods.has(method) &&
          staleConnectionCodes.has(errorCode(error) ?? '');
        if (retry) {
          counts.retried++;
          dispatch();
          return;
        }
        upstreamFailed('before-answer', error);
      });
      if (bodiless) {
        request.end();
        if (attempt === 1) req.resume();
        return;
      }
      if (requestCapture !== null) req.on('data', (chunk: Buffer) => requestCapture.add(chunk));
      req.pipe(request);
    };

    res.on('finish', () => {
      if (failed) return;
      counts.completed++;
      if (completed === undefined || onExchange === undefined) return;
      counts.captured++;
      queue.push(completed);
    });
    res.on('close', () => {
      if (!res.writableFinished && !failed) {
        // The client went away before its answer was whole: so does its request upstream.
        clientGone = true;
        counts.clientAborted++;
        answer?.destroy();
        outgoing?.destroy();
        report({ ...base(), kind: 'client-aborted' });
      }
      counts.inFlight--;
      if (closing) {
        server.closeIdleConnections();
        if (counts.inFlight === 0) drained?.();
      }
    });
    req.on('error', () => {
      // A client's broken upload ends its exchange through res's 'close'.
    });

    dispatch();
  };

  const server = createServer({ noDelay: true, requireHostHeader: false }, forward);
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
    agent.destroy();
    await queue.flush();
  };

  return {
    url: `http://127.0.0.1:${port}${proxyBasePath}`,
    port,
    upstream,
    stats: () => ({ ...counts, queue: queue.stats() }),
    close: () => {
      closed ??= close();
      return closed;
    },
  };
}
