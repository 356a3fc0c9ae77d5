/**
 * One request through the forwarding proxy, from the client's request to the upstream's answer, in
 * named steps: admit (wait while the judge's queue is full), dispatch (the request, its body and its
 * trailers, on the upstream connection of the client's connection, sent once), pass informational
 * answers (1xx, 100 Continue among them, so that the upstream decides an Expect: 100-continue), then
 * stream the answer (or hold it for the inspector), its trailers included, and hand a bounded copy of
 * the exchange over once its answer went out.
 *
 * Nothing is sent twice. When there is no answer of the upstream to pass on, the client gets what
 * it would have met without the proxy where the proxy can give it (its kept-alive connection closed
 * under it), else the proxy's own status with the reason in its body (502 unreachable, 504 no answer
 * within the time-out), and the event says why. An answer cut short (by the upstream or the client)
 * is still handed over, with its status and headers whole, for judging by them.
 */
import type { ClientRequest, IncomingMessage, InformationEvent, RequestOptions, ServerResponse } from 'node:http';
import { BodyCapture, type CapturedBody, decodeBody, emptyBody } from './body-capture.ts';
import type { CapturedExchange, ExchangeInspector } from './captured-exchange.ts';
import {
  endToEndHeaders,
  flatHeaders,
  type HeaderPair,
  headerPairs,
  headerValue,
  withoutTrailerAnnouncement,
} from './header-list.ts';
import type { ForwardingCounts, ProxyEvent, UnansweredReason } from './proxy-events.ts';
import type { UpstreamLinks } from './upstream-links.ts';
import { forwardedTarget, type Upstream } from './upstream-address.ts';

/** What every exchange of one proxy shares. */
export interface ForwardingContext {
  readonly upstream: Upstream;
  readonly captureLimit: number;
  /** Whether a copy of each exchange is kept (someone judges them). */
  readonly capturing: boolean;
  readonly inspect: ExchangeInspector | undefined;
  /** How long the upstream has to start its answer once the whole request was sent; 0: no limit. */
  readonly answerTimeoutMs: number;
  readonly maxHeaderSize: number;
  readonly counts: ForwardingCounts;
  readonly links: UpstreamLinks;
  send(options: RequestOptions): ClientRequest;
  report(event: ProxyEvent): void;
  /** Takes the copy of an exchange whose answer went out (whole or cut). */
  handOver(exchange: CapturedExchange): void;
  /** A promise while new exchanges must wait (the judge's queue is full), else undefined. */
  admission(): Promise<void> | undefined;
  isClosing(): boolean;
  /** The exchange is over (its answer sent, cut, or never given). */
  ended(): void;
}

const now = (): number => performance.timeOrigin + performance.now();

export function errorCode(error: unknown): string | null {
  if (typeof error !== 'object' || error === null || !('code' in error)) return null;
  return typeof error.code === 'string' ? error.code : null;
}

export function errorMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!.slice(0, 300);
}

/** Errors of a reused kept-alive connection the upstream closed as the request went out. */
const closedConnectionCodes = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/** Statuses whose answer carries no body, hence no chunked framing and no trailers (RFC 9112 6.3). */
const bodilessStatus = (status: number): boolean => status === 204 || status === 304 || status < 200;

/** Forwards one request: its whole life is in the ForwardedExchange's steps. */
export function forwardExchange(context: ForwardingContext, req: IncomingMessage, res: ServerResponse): void {
  new ForwardedExchange(context, req, res).start();
}

class ForwardedExchange {
  private readonly context: ForwardingContext;
  private readonly req: IncomingMessage;
  private readonly res: ServerResponse;
  private readonly sequence: number;
  private readonly started = now();
  private readonly method: string;
  private readonly target: string;
  private readonly path: string;
  private readonly headers: string[];
  private readonly chunkedRequest: boolean;
  private readonly bodiless: boolean;
  private readonly requestCapture: BodyCapture | null;
  private outgoing: ClientRequest | undefined;
  private answer: IncomingMessage | undefined;
  private answerCapture: BodyCapture | null = null;
  /** Set once the exchange is decided otherwise than by a whole answer (no answer, a cut): nothing more is done. */
  private settled = false;
  private clientGone = false;
  private handedOver = false;
  private completed: CapturedExchange | undefined;
  private firstByte = 0;
  private ended = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(context: ForwardingContext, req: IncomingMessage, res: ServerResponse) {
    this.context = context;
    this.req = req;
    this.res = res;
    this.sequence = ++context.counts.received;
    context.counts.inFlight++;
    // The upstream's Date, or none: the proxy's own would be a header the upstream never sent.
    res.sendDate = false;
    this.method = req.method ?? 'GET';
    this.target = req.url ?? '/';
    this.path = forwardedTarget(context.upstream, this.target);
    this.requestCapture = context.capturing ? new BodyCapture(context.captureLimit) : null;
    // RFC 9112 6.3: a request with neither Content-Length nor Transfer-Encoding has no body.
    const contentLength = req.headers['content-length'];
    this.chunkedRequest = contentLength === undefined && req.headers['transfer-encoding'] !== undefined;
    this.bodiless = contentLength === undefined ? !this.chunkedRequest : contentLength === '0';
    let headers = endToEndHeaders(req.rawHeaders);
    // Trailers travel only in a chunked body.
    if (!this.chunkedRequest) headers = withoutTrailerAnnouncement(headers);
    // Host rewritten where the client put it (every one of them, should it have sent several).
    let hosts = 0;
    for (let i = 0; i < headers.length; i += 2)
      if (headers[i]!.toLowerCase() === 'host') {
        headers[i + 1] = context.upstream.host;
        hosts++;
      }
    if (hosts === 0) headers.unshift('Host', context.upstream.host);
    // A body of unknown length stays one: node would not frame it by itself for every method.
    if (this.chunkedRequest) headers.push('Transfer-Encoding', 'chunked');
    this.headers = headers;
  }

  private event(): { sequence: number; method: string; url: string; at: number } {
    return { sequence: this.sequence, method: this.method, url: this.target, at: now() };
  }

  // ---------------------------------------------------------------- admit

  start(): void {
    this.res.on('finish', () => this.answerSent());
    this.res.on('close', () => this.responseClosed());
    this.req.on('error', () => {
      // A client's broken upload ends its exchange through res's 'close'.
    });
    const wait = this.context.admission();
    if (wait === undefined) {
      this.dispatch();
      return;
    }
    // The judge is behind: the request waits here (its body unread, so the client's upload waits too).
    this.context.counts.held++;
    void wait.then(() => {
      if (!this.clientGone && !this.settled) this.dispatch();
    });
  }

  // ---------------------------------------------------------------- dispatch

  private dispatch(): void {
    const { context, req } = this;
    let request: ClientRequest;
    try {
      request = context.send({
        agent: context.links.agentFor(req.socket),
        hostname: context.upstream.hostname,
        port: context.upstream.port,
        method: this.method,
        path: this.path,
        headers: this.headers,
        maxHeaderSize: context.maxHeaderSize,
      });
    } catch (error) {
      // node refuses to send what it was given (a target it will not write, say).
      this.unanswered('not-sent', error, 502);
      return;
    }
    this.outgoing = request;
    request.on('information', (info) => this.passInformation(info));
    request.on('response', (incoming) => this.onAnswer(incoming));
    request.on('error', (error) => this.requestFailed(request, error));
    request.on('finish', () => this.startAnswerTimer());
    if (this.bodiless) {
      request.end();
      req.resume();
      return;
    }
    if (this.requestCapture !== null) {
      const capture = this.requestCapture;
      req.on('data', (chunk: Buffer) => capture.add(chunk));
    }
    req.pipe(request, { end: false });
    req.on('end', () => {
      if (this.settled) return;
      if (req.rawTrailers.length > 0) {
        try {
          request.addTrailers(headerPairs(req.rawTrailers) as Array<[string, string]>);
        } catch {
          // Trailers node will not write (a name it refuses): the body still goes whole.
        }
      }
      request.end();
    });
  }

  private startAnswerTimer(): void {
    const ms = this.context.answerTimeoutMs;
    if (ms <= 0 || this.answer !== undefined || this.settled) return;
    this.timer = setTimeout(() => {
      const error = Object.assign(new Error(`no answer within ${ms} ms of the whole request`), { code: 'ETIMEDOUT' });
      this.unanswered('no-answer', error, 504);
    }, ms);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private requestFailed(request: ClientRequest, error: unknown): void {
    // Once an answer came, its own 'close' says whether it was cut. A client that went away takes its upstream
    // connection with it (upstream-links.ts): its response's 'close' says so, whichever event comes first.
    if (this.answer !== undefined || this.settled || this.clientGone || this.req.socket.destroyed) return;
    const code = errorCode(error) ?? '';
    if (code.startsWith('HPE_')) this.unanswered('answer-unreadable', error, 502);
    else if (request.reusedSocket && closedConnectionCodes.has(code))
      this.unanswered('connection-closed', error, 'connection closed');
    else this.unanswered('unreachable', error, 502);
  }

  // ---------------------------------------------------------------- informational answers

  private passInformation(info: InformationEvent): void {
    const { res, req, context } = this;
    if (this.settled || this.clientGone || res.headersSent || info.statusCode === 101) return;
    // RFC 9110 15.2: never to an HTTP/1.0 client.
    if (req.httpVersionMajor === 1 && req.httpVersionMinor === 0) {
      context.counts.informationalNotPassed++;
      return;
    }
    if (info.statusCode === 100) {
      // Node's own, so that it knows the client was told to send its body (and keeps the connection).
      res.writeContinue();
    } else if (res.socket?.writable) {
      // Nothing of this answer is written yet, and the socket is this answer's: the 1xx goes as it came.
      const lines = [`HTTP/1.1 ${info.statusCode} ${info.statusMessage}`];
      for (const [name, value] of headerPairs(info.rawHeaders)) lines.push(`${name}: ${value}`);
      res.socket.write(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
    } else if (info.statusCode === 102) res.writeProcessing();
    else {
      // Queued behind an earlier pipelined answer: no public way to put it in its place.
      context.counts.informationalNotPassed++;
      return;
    }
    context.counts.informational++;
  }

  // ---------------------------------------------------------------- the answer

  /** The answer's head for the client: its end-to-end headers, and the proxy's Connection: close when it stops. */
  private answerHead(incoming: IncomingMessage): string[] {
    let head = endToEndHeaders(incoming.rawHeaders);
    if (!this.answerChunked(incoming)) head = withoutTrailerAnnouncement(head);
    return this.context.isClosing() ? [...head, 'Connection', 'close'] : head;
  }

  /** Whether node will send the answer to the client chunked (the only framing with trailers). */
  private answerChunked(incoming: IncomingMessage): boolean {
    const status = incoming.statusCode ?? 502;
    return (
      incoming.headers['content-length'] === undefined &&
      !bodilessStatus(status) &&
      this.method !== 'HEAD' &&
      !(this.req.httpVersionMajor === 1 && this.req.httpVersionMinor === 0)
    );
  }

  private onAnswer(incoming: IncomingMessage): void {
    if (this.settled || this.clientGone) {
      incoming.destroy();
      return;
    }
    this.clearTimer();
    this.answer = incoming;
    this.firstByte = now();
    incoming.on('error', () => {
      // Reported once, by 'close' below, which follows every error.
    });
    incoming.on('close', () => {
      if (!incoming.complete && !this.clientGone && !this.settled)
        this.cutByUpstream(new Error('the upstream closed mid-answer'));
    });
    const head = this.answerHead(incoming);
    this.answerCapture = this.context.capturing ? new BodyCapture(this.context.captureLimit) : null;
    if (this.context.inspect !== undefined && this.answerCapture !== null)
      this.holdAnswer(incoming, head, this.answerCapture);
    else this.streamAnswer(incoming, head, this.answerCapture);
  }

  /** Writes the answer's head; false (and a 502 in its place) when node refuses what the upstream sent. */
  private writeHead(status: number, statusMessage: string, head: string[]): boolean {
    try {
      this.res.writeHead(status, statusMessage, head);
      return true;
    } catch (error) {
      this.answer?.destroy();
      this.unanswered('answer-unreadable', error, 502);
      return false;
    }
  }

  private endAnswer(incoming: IncomingMessage, body?: Buffer): void {
    if (incoming.rawTrailers.length > 0 && this.answerChunked(incoming)) {
      try {
        this.res.addTrailers(headerPairs(incoming.rawTrailers) as Array<[string, string]>);
      } catch {
        // Trailers node will not write: the answer still ends whole.
      }
    }
    this.res.end(body);
  }

  private streamAnswer(incoming: IncomingMessage, head: string[], capture: BodyCapture | null): void {
    const status = incoming.statusCode ?? 502;
    const statusMessage = incoming.statusMessage ?? '';
    // The head goes with the first bytes of the body (node sends it then anyway): until then, an
    // upstream that goes away can still be answered 502.
    let headWritten = false;
    incoming.on('data', (chunk: Buffer) => {
      if (this.settled) return;
      capture?.add(chunk);
      if (!headWritten) {
        if (!this.writeHead(status, statusMessage, head)) return;
        headWritten = true;
      }
      if (!this.res.write(chunk)) incoming.pause();
    });
    this.res.on('drain', () => incoming.resume());
    incoming.on('end', () => {
      if (this.settled) return;
      this.ended = now();
      if (!headWritten && !this.writeHead(status, statusMessage, head)) return;
      // Copied after the answer went out; handed over on 'finish'.
      if (capture !== null) this.completed = this.exchangeOf(incoming, capture.result());
      this.endAnswer(incoming);
    });
  }

  private holdAnswer(incoming: IncomingMessage, head: string[], capture: BodyCapture): void {
    const status = incoming.statusCode ?? 502;
    const statusMessage = incoming.statusMessage ?? '';
    const limit = this.context.captureLimit;
    let held: Buffer[] = [];
    let heldBytes = 0;
    let streaming = false;
    incoming.on('data', (chunk: Buffer) => {
      if (this.settled) return;
      capture.add(chunk);
      if (streaming) {
        if (!this.res.write(chunk)) incoming.pause();
        return;
      }
      held.push(chunk);
      heldBytes += chunk.length;
      if (heldBytes <= limit) return;
      // Past the capture limit the inspector could not see the whole answer anyway: it is sent on as
      // it comes, without the inspector's headers, so that holding answers stays bounded.
      streaming = true;
      this.context.counts.inspectSkipped++;
      this.context.report({ ...this.event(), kind: 'inspect-skipped', message: `answer over ${limit} bytes` });
      if (!this.writeHead(status, statusMessage, head)) return;
      let flowing = true;
      for (const piece of held) flowing = this.res.write(piece);
      held = [];
      if (!flowing) incoming.pause();
    });
    this.res.on('drain', () => incoming.resume());
    incoming.on('end', () => {
      if (this.settled) return;
      this.ended = now();
      if (streaming) {
        this.completed = this.exchangeOf(incoming, capture.result());
        this.endAnswer(incoming);
        return;
      }
      void this.inspectAndSend(incoming, head, capture.result());
    });
  }

  private async inspectAndSend(incoming: IncomingMessage, head: string[], body: CapturedBody): Promise<void> {
    const status = incoming.statusCode ?? 502;
    const statusMessage = incoming.statusMessage ?? '';
    const { context } = this;
    const exchange = this.exchangeOf(incoming, body);
    const encoding = headerValue(exchange.responseHeaders, 'content-encoding');
    if (encoding !== undefined) exchange.decodedResponseBody = await decodeBody(body, encoding, context.captureLimit);
    let added: readonly HeaderPair[] = [];
    try {
      added = (await context.inspect!(exchange)) ?? [];
    } catch (error) {
      context.counts.inspectFailed++;
      context.report({ ...this.event(), kind: 'inspect-failed', message: errorMessage(error) });
    }
    exchange.inspected = true;
    if (this.clientGone || this.settled) return;
    let sent = false;
    if (added.length > 0) {
      try {
        this.res.writeHead(status, statusMessage, [...head, ...flatHeaders(added)]);
        sent = true;
        exchange.addedHeaders = [...added];
      } catch (error) {
        // Headers node refuses to write are the inspector's mistake: the answer goes without them.
        context.counts.inspectFailed++;
        context.report({ ...this.event(), kind: 'inspect-failed', message: errorMessage(error) });
      }
    }
    if (!sent && !this.writeHead(status, statusMessage, head)) return;
    this.completed = exchange;
    this.endAnswer(incoming, body.bytes);
  }

  private exchangeOf(incoming: IncomingMessage, responseBody: CapturedBody, answerCut?: string): CapturedExchange {
    const requestBody = this.requestCapture?.result() ?? emptyBody;
    if (requestBody.truncated) this.context.counts.truncatedBodies++;
    if (responseBody.truncated) this.context.counts.truncatedBodies++;
    return {
      sequence: this.sequence,
      method: this.method,
      url: this.target,
      forwardedUrl: this.context.upstream.origin + this.path,
      requestHeaders: headerPairs(this.req.rawHeaders),
      requestBody,
      status: incoming.statusCode ?? 502,
      statusMessage: incoming.statusMessage ?? '',
      responseHeaders: headerPairs(incoming.rawHeaders),
      responseBody,
      decodedResponseBody: null,
      timings: { started: this.started, firstByte: this.firstByte, ended: this.ended || now() },
      addedHeaders: [],
      ...(answerCut === undefined ? {} : { answerCut }),
    };
  }

  // ---------------------------------------------------------------- no answer, a cut answer

  private stopRequestBody(): void {
    // The rest of the request is read and dropped, so that the client's connection can carry the next one.
    this.req.unpipe();
    this.req.resume();
  }

  /** The proxy's own answer, with the reason in its body; false when the client's answer had already begun. */
  private ownAnswer(status: 502 | 504, detail: string): void {
    const { res } = this;
    if (res.headersSent || res.destroyed) {
      res.destroy();
      return;
    }
    const body = JSON.stringify({ error: status === 502 ? 'bad gateway' : 'gateway timeout', detail });
    const head = ['Content-Type', 'application/json', 'Content-Length', String(Buffer.byteLength(body))];
    res.writeHead(status, status === 502 ? 'Bad Gateway' : 'Gateway Timeout', [
      ...head,
      ...(this.context.isClosing() ? ['Connection', 'close'] : []),
    ]);
    res.end(body);
  }

  private unanswered(reason: UnansweredReason, error: unknown, answered: 502 | 504 | 'connection closed'): void {
    if (this.settled || this.clientGone) return;
    this.settled = true;
    this.clearTimer();
    this.context.counts.unanswered[reason]++;
    this.stopRequestBody();
    this.outgoing?.destroy();
    // The keep-alive race: the client's own kept-alive connection closes, as it would without the proxy.
    if (answered === 'connection closed') this.res.destroy();
    else this.ownAnswer(answered, errorMessage(error));
    this.context.report({
      ...this.event(),
      kind: 'unanswered',
      reason,
      code: errorCode(error),
      message: errorMessage(error),
      answered,
    });
  }

  private cutByUpstream(error: unknown): void {
    const incoming = this.answer!;
    this.settled = true;
    this.context.counts.cut++;
    this.stopRequestBody();
    this.outgoing?.destroy();
    // Nothing of it reached the client yet: it gets the proxy's 502, else its answer is cut short.
    this.ownAnswer(502, errorMessage(error));
    this.context.report({
      ...this.event(),
      kind: 'answer-cut',
      by: 'upstream',
      code: errorCode(error),
      message: errorMessage(error),
    });
    this.handOverCut(incoming, 'the upstream closed the connection in the middle of its answer');
  }

  private handOverCut(incoming: IncomingMessage, why: string): void {
    if (this.answerCapture === null || this.handedOver) return;
    this.handedOver = true;
    this.ended = now();
    this.context.counts.captured++;
    this.context.handOver(this.exchangeOf(incoming, this.answerCapture.result(), why));
  }

  // ---------------------------------------------------------------- the end

  private answerSent(): void {
    if (this.settled) return;
    this.context.counts.completed++;
    if (this.completed === undefined || this.handedOver) return;
    this.handedOver = true;
    this.context.counts.captured++;
    this.context.handOver(this.completed);
  }

  private responseClosed(): void {
    const { res, context } = this;
    if (!res.writableFinished && !this.settled) {
      // The client went away before its answer was whole: so does its request upstream.
      this.clientGone = true;
      this.clearTimer();
      this.answer?.destroy();
      this.outgoing?.destroy();
      if (this.answer === undefined) {
        context.counts.unanswered['client-gone']++;
        context.report({
          ...this.event(),
          kind: 'unanswered',
          reason: 'client-gone',
          code: null,
          message: 'the client closed its connection before the upstream answered',
          answered: 'connection closed',
        });
      } else {
        context.counts.cut++;
        context.report({
          ...this.event(),
          kind: 'answer-cut',
          by: 'client',
          code: null,
          message: 'the client closed its connection in the middle of the answer',
        });
        this.handOverCut(this.answer, 'the client went away in the middle of the answer');
      }
    }
    context.counts.inFlight--;
    context.ended();
  }
}
