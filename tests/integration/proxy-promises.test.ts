/**
 * The forwarding proxy keeps its promises: it never changes or repeats traffic, and never forgets an
 * exchange. An echo upstream started here records what it saw of each request (head, body, trailers),
 * and each case compares what the upstream and the client saw with and without the proxy: a request
 * whose kept-alive connection the upstream drops is never sent twice (the client sees its connection
 * close, as it would directly); informational answers (102, 103), trailers both ways and Expect:
 * 100-continue (417 and 100 alike) pass through; header sections the upstream reads pass, one past
 * the proxy's own limit gets 431 with the reason; an upstream that never answers gets the client a
 * 504 after the stated time-out; a hook that falls behind holds the traffic back, spills bodies to
 * disk, and still gets every exchange, in order, byte for byte.
 *
 *   node --import tsx --test tests/integration/proxy-promises.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Agent,
  createServer,
  request,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import {
  type CapturedExchange,
  type ForwardingProxyOptions,
  type ProxyEvent,
  type RunningForwardingProxy,
  startForwardingProxy,
} from '../../proxy/forwarding-proxy.ts';

// ---------------------------------------------------------------- the echo upstream

/** What the upstream saw of one request. */
interface Seen {
  method: string;
  url: string;
  /** Its headers, the hop-by-hop ones and Host left out (they are each connection's own). */
  headers: [string, string][];
  body: string;
  trailers: [string, string][];
}

const ownHeaders = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'date', 'content-length']);
const endToEnd = (raw: string[]): [string, string][] => {
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2)
    if (!ownHeaders.has(raw[i]!.toLowerCase())) pairs.push([raw[i]!, raw[i + 1]!]);
  return pairs;
};
const pairs = (raw: string[]): [string, string][] => {
  const found: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) found.push([raw[i]!, raw[i + 1]!]);
  return found;
};

function listen(server: Server | NetServer): Promise<number> {
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done((server.address() as AddressInfo).port)));
}

async function closeServer(server: Server | NetServer): Promise<void> {
  if ('closeAllConnections' in server) server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
}

type Handler = (req: IncomingMessage, res: ServerResponse, seen: Seen) => void;

/**
 * The echo upstream: records each request, then answers by the path: /v1/echo (200, what it saw), /v1/informational
 * (102 and 103, then 200), /v1/trailers (a chunked answer with trailers), /v1/silent (never answers), /v1/big-head
 * (20 KB of headers); /v1/expect decides an Expect: 100-continue by its query (?refuse: 417).
 */
const routes: Record<string, Handler> = {
  '/v1/echo': (_req, res, seen) => {
    const json = JSON.stringify(seen);
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(json) });
    res.end(json);
  },
  '/v1/informational': (_req, res) => {
    res.writeProcessing();
    res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style', 'x-early': 'yes' });
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('{"after":"hints"}');
  },
  '/v1/trailers': (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', Trailer: 'X-Checksum' });
    res.write('{"chunked":');
    res.addTrailers([['X-Checksum', 'sha256=abc']]);
    res.end('true}');
  },
  '/v1/silent': () => {
    // Never answers.
  },
  '/v1/big-head': (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'X-Large': 'y'.repeat(20 * 1024) });
    res.end('{"large":"head"}');
  },
};

interface EchoUpstream {
  base: string;
  seen: Seen[];
  close(): Promise<void>;
}

async function startEchoUpstream(): Promise<EchoUpstream> {
  const seen: Seen[] = [];
  const answer = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const record: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: endToEnd(req.rawHeaders),
        body: Buffer.concat(chunks).toString(),
        trailers: pairs(req.rawTrailers),
      };
      seen.push(record);
      const path = new URL(req.url ?? '/', 'http://upstream').pathname;
      (routes[path] ?? routes['/v1/echo']!)(req, res, record);
    });
  };
  // A 20 KB request header section is read here, as many servers read it (node's own default stops at 16 KB).
  const server = createServer({ maxHeaderSize: 64 * 1024 }, answer);
  server.on('checkContinue', (req, res) => {
    if (new URL(req.url ?? '/', 'http://upstream').searchParams.has('refuse')) {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: endToEnd(req.rawHeaders),
        body: '',
        trailers: [],
      });
      res.writeHead(417, { 'Content-Type': 'application/json', Connection: 'close' });
      res.end('{"error":"expectation failed"}');
      return;
    }
    res.writeContinue();
    answer(req, res);
  });
  const port = await listen(server);
  return { base: `http://127.0.0.1:${port}/v1`, seen, close: () => closeServer(server) };
}

// ---------------------------------------------------------------- the client

interface Answer {
  status: number;
  headers: [string, string][];
  body: string;
  trailers: [string, string][];
  /** The informational answers, in order: status and headers. */
  informational: Array<{ status: number; headers: [string, string][] }>;
}

interface Call {
  method?: string;
  headers?: OutgoingHttpHeaders | string[];
  body?: string;
  /** Sent chunked, with these trailers. */
  trailers?: [string, string][];
  agent?: Agent | false;
  /** Waits for 100 Continue before sending the body (Expect: 100-continue). */
  expectContinue?: boolean;
  maxHeaderSize?: number;
}

function call(url: string, options: Call = {}): Promise<Answer> {
  return new Promise((done, fail) => {
    const informational: Answer['informational'] = [];
    const outgoing = request(
      url,
      {
        method: options.method ?? 'GET',
        headers: options.headers,
        agent: options.agent ?? false,
        ...(options.maxHeaderSize ? { maxHeaderSize: options.maxHeaderSize } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', fail);
        res.on('end', () =>
          done({
            status: res.statusCode ?? 0,
            headers: endToEnd(res.rawHeaders),
            body: Buffer.concat(chunks).toString(),
            trailers: pairs(res.rawTrailers),
            informational,
          }),
        );
      },
    );
    outgoing.on('information', (info) =>
      informational.push({ status: info.statusCode, headers: pairs(info.rawHeaders) }),
    );
    outgoing.on('error', fail);
    if (options.trailers !== undefined) {
      outgoing.setHeader('Transfer-Encoding', 'chunked');
      outgoing.setHeader('Trailer', options.trailers.map(([name]) => name).join(', '));
      outgoing.write(options.body ?? '');
      outgoing.addTrailers(options.trailers);
      outgoing.end();
    } else if (options.expectContinue) outgoing.on('continue', () => outgoing.end(options.body));
    else outgoing.end(options.body);
  });
}

// ---------------------------------------------------------------- the proxy, and what it reported

const proxies: RunningForwardingProxy[] = [];

function recorder() {
  const exchanges: CapturedExchange[] = [];
  const events: ProxyEvent[] = [];
  return {
    exchanges,
    events,
    onExchange: (exchange: CapturedExchange): void => {
      exchanges.push(exchange);
    },
    onEvent: (event: ProxyEvent): void => {
      events.push(event);
    },
  };
}

async function proxy(options: Partial<ForwardingProxyOptions> & { upstream: string }) {
  const running = await startForwardingProxy(options);
  proxies.push(running);
  return running;
}

let echo: EchoUpstream;
before(async () => {
  echo = await startEchoUpstream();
});
after(async () => {
  await Promise.all(proxies.map((running) => running.close()));
  await echo.close();
});

/** The same request directly and through the proxy: what the upstream saw of each, and what the client got. */
async function both(path: string, options: Call = {}) {
  const seen = recorder();
  const running = await proxy({ upstream: echo.base, ...seen });
  const before = echo.seen.length;
  const direct = await call(`${echo.base}${path}`, options);
  const sawDirect = echo.seen.slice(before);
  const proxied = await call(`${running.url}${path}`, options);
  const sawProxied = echo.seen.slice(before + sawDirect.length);
  await running.close();
  return { direct, proxied, sawDirect, sawProxied, seen, running };
}

const withoutDate = (headers: [string, string][]) => headers.filter(([name]) => name.toLowerCase() !== 'date');

function assertSame(result: Awaited<ReturnType<typeof both>>): void {
  assert.deepEqual(result.sawProxied, result.sawDirect, 'the upstream saw the same request');
  assert.equal(result.proxied.status, result.direct.status);
  assert.deepEqual(withoutDate(result.proxied.headers), withoutDate(result.direct.headers));
  assert.equal(result.proxied.body, result.direct.body);
  assert.deepEqual(result.proxied.trailers, result.direct.trailers);
  assert.deepEqual(result.proxied.informational, result.direct.informational);
}

// ---------------------------------------------------------------- the cases

describe('the proxy changes nothing', () => {
  test('102 and 103 informational answers reach the client, with their headers', async () => {
    const result = await both('/informational');
    assertSame(result);
    assert.deepEqual(
      result.proxied.informational.map((info) => info.status),
      [102, 103],
    );
    assert.equal(result.running.stats().informational, 2);
  });

  test('trailers pass both ways: the upstream gets the request’s, the client the answer’s', async () => {
    const result = await both('/trailers', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"streamed":true}',
      trailers: [['X-Request-Digest', 'crc32=1234']],
    });
    assertSame(result);
    assert.deepEqual(result.sawProxied[0]!.trailers, [['X-Request-Digest', 'crc32=1234']]);
    assert.deepEqual(result.proxied.trailers, [['X-Checksum', 'sha256=abc']]);
  });

  test('Expect: 100-continue reaches the upstream, which decides: 417 (no body sent) or 100 (body sent)', async () => {
    const expect = { 'Content-Type': 'application/json', Expect: '100-continue', 'Content-Length': '15' };
    const refused = await both('/expect?refuse', {
      method: 'POST',
      headers: expect,
      body: '{"upload":true}',
      expectContinue: true,
    });
    assertSame(refused);
    assert.equal(refused.proxied.status, 417, 'the upstream refused the expectation, not the proxy');
    assert.equal(refused.sawProxied[0]!.body, '', 'no body was sent');
    const accepted = await both('/expect', {
      method: 'POST',
      headers: expect,
      body: '{"upload":true}',
      expectContinue: true,
    });
    assertSame(accepted);
    assert.equal(accepted.proxied.status, 200);
    assert.equal(accepted.sawProxied[0]!.body, '{"upload":true}');
  });

  test('a 20 KB request header section and a 20 KB answer header section pass, as directly', async () => {
    const request = await both('/echo', { headers: { 'X-Large': 'x'.repeat(20 * 1024) } });
    assertSame(request);
    assert.equal(request.proxied.status, 200);
    const answer = await both('/big-head', { maxHeaderSize: 64 * 1024 });
    assertSame(answer);
    assert.equal(answer.proxied.status, 200);
    assert.deepEqual(answer.seen.events, []);
  });

  test('a header section past the proxy’s limit gets 431 with the reason, and is counted', async () => {
    const seen = recorder();
    const running = await proxy({ upstream: echo.base, maxHeaderSize: 32 * 1024, ...seen });
    const before = echo.seen.length;
    const answer = await call(`${running.url}/echo`, { headers: { 'X-Huge': 'z'.repeat(40 * 1024) } });
    assert.equal(answer.status, 431);
    assert.match(JSON.parse(answer.body).detail as string, /larger than the 32768 bytes the proxy reads/);
    assert.equal(echo.seen.length, before, 'nothing was forwarded');
    assert.equal(running.stats().unanswered.refused, 1);
    assert.ok(seen.events.some((event) => event.kind === 'unanswered' && event.reason === 'refused'));
  });

  test('an upstream that never answers: 504 after the stated time-out, with the reason, and counted', async () => {
    const seen = recorder();
    const running = await proxy({ upstream: echo.base, answerTimeoutMs: 200, ...seen });
    const answer = await call(`${running.url}/silent`);
    assert.equal(answer.status, 504);
    assert.match(JSON.parse(answer.body).detail as string, /no answer within 200 ms/);
    assert.equal(running.stats().unanswered['no-answer'], 1);
    assert.ok(seen.events.some((event) => event.kind === 'unanswered' && event.reason === 'no-answer'));
    assert.equal(seen.exchanges.length, 0);
  });
});

/**
 * A server whose every connection answers its first request and drops the connection at the second, as one whose
 * keep-alive time-out fires just as the next request arrives: it counts the request heads it received.
 */
async function startDroppingUpstream() {
  const sockets = new Set<Socket>();
  let heads = 0;
  const server = createNetServer((socket) => {
    sockets.add(socket);
    let own = 0;
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      const before = own;
      const count = chunk.toString('latin1').split('\r\n\r\n').length - 1;
      own += count;
      heads += count;
      if (before === 0 && own >= 1) socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
      else if (own >= 2) socket.destroy();
    });
  });
  const port = await listen(server);
  return {
    base: `http://127.0.0.1:${port}/v1`,
    heads: () => heads,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await closeServer(server);
    },
  };
}

describe('the proxy never repeats a request', () => {
  test('a kept-alive connection dropped as a DELETE goes out: sent once; the client sees it close', async () => {
    const dropping = await startDroppingUpstream();
    try {
      // Directly: the second request on the kept-alive connection meets the closed connection.
      const directAgent = new Agent({ keepAlive: true, maxSockets: 1 });
      assert.equal((await call(`${dropping.base}/customers/1`, { agent: directAgent })).status, 200);
      const direct = await call(`${dropping.base}/customers/2`, { method: 'DELETE', agent: directAgent }).catch(
        (error: NodeJS.ErrnoException) => error.code,
      );
      directAgent.destroy();
      assert.equal(dropping.heads(), 2);
      // Through the proxy: the same, and the upstream sees the DELETE once.
      const seen = recorder();
      const running = await proxy({ upstream: dropping.base, ...seen });
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      assert.equal((await call(`${running.url}/customers/1`, { agent })).status, 200);
      const proxied = await call(`${running.url}/customers/2`, { method: 'DELETE', agent }).catch(
        (error: NodeJS.ErrnoException) => error.code,
      );
      agent.destroy();
      assert.equal(typeof direct, 'string', `directly: ${JSON.stringify(direct)}`);
      assert.equal(
        typeof proxied,
        'string',
        `through the proxy the client sees a closed connection too: ${JSON.stringify(proxied)}`,
      );
      assert.equal(dropping.heads(), 4, 'the DELETE reached the upstream once, not twice');
      const event = seen.events.find((each) => each.kind === 'unanswered');
      assert.ok(event?.kind === 'unanswered');
      assert.equal(event.reason, 'connection-closed');
      assert.equal(event.method, 'DELETE');
      assert.equal(running.stats().unanswered['connection-closed'], 1);
    } finally {
      await dropping.close();
    }
  });
});

describe('the proxy never forgets an exchange', () => {
  test('a hook behind the traffic holds new requests back; every exchange reaches it, whole', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((done) => {
      release = done;
    });
    const delivered: CapturedExchange[] = [];
    const running = await proxy({
      upstream: echo.base,
      maxQueuedExchanges: 4,
      // Every body past the first few kilobytes waits on disk, not in memory.
      maxQueuedBodyBytes: 4096,
      onExchange: async (exchange) => {
        await gate;
        delivered.push(exchange);
      },
    });
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const before = echo.seen.length;
    const bodies = Array.from({ length: 30 }, (_, i) => JSON.stringify({ n: i, pad: String(i).repeat(1000) }));
    const answers = bodies.map((body) =>
      call(`${running.url}/echo`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
        agent,
      }),
    );
    // The hook is stuck: the queue fills, then requests wait before they are forwarded.
    for (let tries = 0; running.stats().held === 0 && tries < 500; tries++)
      await new Promise((done) => setTimeout(done, 10));
    const stats = running.stats();
    assert.ok(stats.held > 0, 'requests were held back');
    assert.ok(echo.seen.length - before < 30, 'the held requests were not forwarded yet');
    assert.ok(stats.queue.spilled > 0, 'bodies waited on disk');
    release();
    const results = await Promise.all(answers);
    agent.destroy();
    await running.close();
    assert.deepEqual(new Set(results.map((answer) => answer.status)), new Set([200]));
    assert.equal(delivered.length, 30, 'none was dropped');
    assert.deepEqual(
      delivered.map((exchange) => JSON.parse(exchange.requestBody.bytes.toString()).n).sort((a, b) => a - b),
      Array.from({ length: 30 }, (_, i) => i),
    );
    for (const exchange of delivered) {
      assert.equal(exchange.requestBody.bytes.toString(), bodies[JSON.parse(exchange.requestBody.bytes.toString()).n]);
      const echoed = JSON.parse(exchange.responseBody.bytes.toString()) as { body: string };
      assert.equal(echoed.body, exchange.requestBody.bytes.toString(), 'its answer came back from disk whole');
    }
    assert.equal(running.stats().queue.delivered, 30);
  });
});
