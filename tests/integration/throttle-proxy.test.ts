/**
 * The throttling proxy (lab/throttle-proxy.ts), on 127.0.0.1: its limiters on a clock
 * the test drives (a token bucket lets BURST through at once, then RATE a second; a sliding window
 * never lets more than N through in any window; a fixed window resets at its boundaries), and the
 * proxy itself in front of a small upstream: Retry-After as seconds or an HTTP date, the RateLimit
 * headers, the latency added, the 429 body, and requests and answers passed through unchanged.
 *
 *   node --import tsx --test tests/integration/throttle-proxy.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  allowedRate,
  createLimiter,
  parseThrottleSpec,
  startThrottleProxy,
  throttlePresets,
  ThrottleSpecError,
  type ThrottleProxy,
} from '../../lab/throttle-proxy.ts';

/** What the upstream saw of the last request. */
interface Seen {
  method: string;
  url: string;
  rawHeaders: string[];
  body: string;
}

let upstream: Server;
let upstreamUrl: string;
let lastSeen: Seen | undefined;
const proxies: ThrottleProxy[] = [];

before(async () => {
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      lastSeen = {
        method: req.method ?? '',
        url: req.url ?? '',
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks).toString(),
      };
      if (req.url?.startsWith('/v1/teapot')) {
        res.writeHead(418, 'Short And Stout', ['X-Upstream', 'one', 'X-Upstream', 'two', 'Content-Type', 'text/plain']);
        res.end('not json at all');
        return;
      }
      // Streamed in pieces (chunked): the proxy must pass a body it has not seen whole.
      res.writeHead(201, { 'Content-Type': 'application/json; charset=utf-8' });
      res.write('{"echo":');
      res.end(`${JSON.stringify(lastSeen.body)}}`);
    });
  });
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
});

after(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
  upstream.closeAllConnections();
  await new Promise((done) => upstream.close(done));
});

async function proxy(spec: string): Promise<ThrottleProxy> {
  const started = await startThrottleProxy(upstreamUrl, spec);
  proxies.push(started);
  return started;
}

interface Answer {
  status: number;
  statusMessage: string;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: string;
  ms: number;
}

function send(
  url: string,
  options: { method?: string; headers?: Record<string, string | string[]>; body?: string } = {},
): Promise<Answer> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const outgoing = request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        done({
          status: res.statusCode ?? 0,
          statusMessage: res.statusMessage ?? '',
          headers: res.headers,
          rawHeaders: res.rawHeaders,
          body: Buffer.concat(chunks).toString(),
          ms: performance.now() - started,
        }),
      );
    });
    outgoing.on('error', fail);
    outgoing.end(options.body);
  });
}

/** How many of `count` requests a limiter allows, one every `stepMs` from `from`. */
function allowedOver(take: (now: number) => boolean, from: number, count: number, stepMs: number): number {
  let allowed = 0;
  for (let i = 0; i < count; i++) if (take(from + i * stepMs)) allowed++;
  return allowed;
}

describe('the spec', () => {
  test('reads every key, the presets, and the rate each allows', () => {
    assert.deepEqual(parseThrottleSpec('bucket=400/40,retry-after=date,headers=ratelimit,latency=50'), {
      limit: { kind: 'bucket', rate: 400, burst: 40 },
      retryAfter: 'date',
      headers: 'ratelimit',
      latencyMs: 50,
    });
    assert.equal(allowedRate(parseThrottleSpec('bucket400')), 400);
    assert.equal(allowedRate(parseThrottleSpec('sliding300-date')), 300);
    assert.equal(allowedRate(parseThrottleSpec('fixed200-latency50')), 200);
    assert.equal(allowedRate(parseThrottleSpec('slow50')), null);
    assert.equal(parseThrottleSpec('fixed200-latency50').headers, 'x-ratelimit');
    assert.equal(parseThrottleSpec('sliding300-date').retryAfter, 'date');
    for (const spec of Object.values(throttlePresets)) parseThrottleSpec(spec);
  });

  test('a bad spec is one line that says what is wrong', () => {
    for (const bad of [
      '',
      'bucket=400',
      'bucket=0/40',
      'sliding=1.5/1000',
      'bucket=1/1,fixed=1/1',
      'retry-after=minutes',
      'headers=yes',
      'latency=-1',
      'latency=10,latency=20',
      'speed=fast',
      'bucket',
    ]) {
      assert.throws(
        () => parseThrottleSpec(bad),
        (error: unknown) => error instanceof ThrottleSpecError && !error.message.includes('\n'),
        bad,
      );
    }
  });
});

describe('the limiters, on a clock the test drives', () => {
  test('a token bucket lets BURST through at once, then RATE a second', () => {
    // 125 a second: a token every 8 ms, a refill of exactly 0.125 a millisecond (no rounding in the sums).
    const bucket = createLimiter({ kind: 'bucket', rate: 125, burst: 10 });
    const take = (now: number): boolean => bucket.take(now).allowed;
    assert.equal(allowedOver(take, 0, 50, 0), 10, 'the burst, all at the same instant');
    // 2 s later, one request a millisecond for a second (0 to 1000 ms): the bucket is full again (10), then the
    // 125 tokens of that second.
    assert.equal(allowedOver(take, 2000, 1001, 1), 10 + 125);
    const refused = bucket.take(3000.5);
    assert.equal(refused.allowed, false);
    assert.equal(refused.retryAfterMs, 7.5);
  });

  test('a sliding window never lets more than N through in any window', () => {
    const limit = 30;
    const windowMs = 1000;
    const window = createLimiter({ kind: 'sliding', limit, windowMs });
    const allowedAt: number[] = [];
    // Bursts at irregular times across 5 s.
    for (let now = 0; now < 5000; now += 7 + (now % 13))
      for (let i = 0; i < 3; i++) if (window.take(now).allowed) allowedAt.push(now);
    for (const start of allowedAt) {
      const inWindow = allowedAt.filter((time) => time >= start && time < start + windowMs).length;
      assert.ok(inWindow <= limit, `${inWindow} in the window from ${start} ms`);
    }
    assert.ok(allowedAt.length >= 4 * limit, `${allowedAt.length} allowed in 5 s`);
    const refused = window.take(allowedAt.at(-1)!);
    assert.equal(refused.allowed, false);
    assert.ok(refused.retryAfterMs > 0 && refused.retryAfterMs <= windowMs);
  });

  test('a fixed window resets at each boundary', () => {
    const window = createLimiter({ kind: 'fixed', limit: 5, windowMs: 1000 });
    const take = (now: number): boolean => window.take(now).allowed;
    assert.equal(allowedOver(take, 10_900, 20, 1), 5);
    // The next window starts at 11 000: five more at once, though the last five were 100 ms ago.
    assert.equal(allowedOver(take, 11_000, 20, 1), 5);
    assert.equal(window.take(11_400).retryAfterMs, 600);
  });
});

describe('the proxy', () => {
  test('passes method, path, query, headers and body, and the answer, unchanged', async () => {
    const running = await proxy('latency=0');
    assert.match(running.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const body = JSON.stringify({ amount: 1500, note: 'é ✓' });
    const answer = await send(`${running.url}/transactions?callback=a%20b&x=1&x=2`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Twice': ['first', 'second'], Authorization: 'Bearer k' },
      body,
    });
    assert.equal(answer.status, 201);
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(JSON.parse(answer.body), { echo: body });
    assert.equal(lastSeen?.method, 'POST');
    assert.equal(lastSeen?.url, '/v1/transactions?callback=a%20b&x=1&x=2');
    assert.equal(lastSeen?.body, body);
    const seen = lastSeen!.rawHeaders;
    const values = (name: string): string[] => seen.filter((_, i) => i % 2 === 1 && seen[i - 1] === name);
    assert.deepEqual(values('X-Twice'), ['first', 'second']);
    assert.deepEqual(values('Authorization'), ['Bearer k']);
    assert.deepEqual(values('Content-Type'), ['application/json']);
    assert.deepEqual(values('Host'), [new URL(upstreamUrl).host]);

    const teapot = await send(`${running.url}/teapot`, { method: 'DELETE' });
    assert.equal(teapot.status, 418);
    assert.equal(teapot.statusMessage, 'Short And Stout');
    assert.equal(teapot.body, 'not json at all');
    assert.deepEqual(
      teapot.rawHeaders.filter((_, i) => i % 2 === 1 && teapot.rawHeaders[i - 1] === 'X-Upstream'),
      ['one', 'two'],
    );
    assert.deepEqual(running.stats(), { forwarded: 2, refused: 0, upstreamErrors: 0 });
  });

  test('a token bucket refuses with 429, a JSON body and Retry-After in seconds, and counts', async () => {
    const running = await proxy('bucket=1/3,retry-after=seconds');
    const answers = await Promise.all(Array.from({ length: 5 }, () => send(`${running.url}/balances/1`)));
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [201, 201, 201, 429, 429]);
    for (const refused of answers.filter((answer) => answer.status === 429)) {
      assert.equal(refused.headers['content-type'], 'application/json');
      assert.deepEqual(JSON.parse(refused.body), { error: 'rate limited' });
      assert.equal(refused.headers['retry-after'], '1', 'under a second to wait, rounded up');
    }
    assert.deepEqual(running.stats(), { forwarded: 3, refused: 2, upstreamErrors: 0 });
  });

  test('a bucket lets about RATE a second through once its burst is spent', async () => {
    const running = await proxy('bucket=50/5');
    const started = performance.now();
    let allowed = 0;
    // Sequential requests for 600 ms: 5 at once, then about 50 a second.
    while (performance.now() - started < 600) if ((await send(`${running.url}/b`)).status === 201) allowed++;
    const seconds = (performance.now() - started) / 1000;
    const expected = 5 + 50 * seconds;
    assert.ok(Math.abs(allowed - expected) <= 4, `${allowed} allowed in ${seconds.toFixed(2)} s, ~${expected}`);
    assert.ok(running.stats().refused > 0);
  });

  test('a sliding window with Retry-After as an HTTP date', async () => {
    const running = await proxy('sliding=2/3000,retry-after=date');
    const before = Date.now();
    const answers = await Promise.all(Array.from({ length: 4 }, () => send(`${running.url}/s`)));
    const refused = answers.filter((answer) => answer.status === 429);
    assert.equal(refused.length, 2);
    for (const answer of refused) {
      const value = String(answer.headers['retry-after']);
      assert.match(value, /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
      const at = Date.parse(value);
      // About the window from now, rounded up to the second.
      assert.ok(at >= before + 2000 && at <= Date.now() + 4000, `${value}, ${at - before} ms ahead`);
    }
  });

  test('RateLimit headers (draft: Reset in seconds) and X-RateLimit headers (Reset in epoch seconds)', async () => {
    const draft = await proxy('fixed=3/60000,headers=ratelimit');
    const first = await send(`${draft.url}/h`);
    assert.equal(first.headers['ratelimit-limit'], '3');
    assert.equal(first.headers['ratelimit-remaining'], '2');
    const reset = Number(first.headers['ratelimit-reset']);
    assert.ok(reset >= 1 && reset <= 60, `RateLimit-Reset ${reset}`);
    assert.equal(first.headers['retry-after'], undefined, 'Retry-After on a 429 only');

    const legacy = await proxy('bucket=10/2,headers=x-ratelimit,retry-after=none');
    const answers = [await send(`${legacy.url}/h`), await send(`${legacy.url}/h`), await send(`${legacy.url}/h`)];
    assert.deepEqual(
      answers.map((answer) => [answer.status, answer.headers['x-ratelimit-remaining']]),
      [
        [201, '1'],
        [201, '0'],
        [429, '0'],
      ],
    );
    const epoch = Number(answers[2]!.headers['x-ratelimit-reset']);
    const nowSeconds = Date.now() / 1000;
    assert.ok(epoch >= Math.floor(nowSeconds) && epoch <= nowSeconds + 2, `X-RateLimit-Reset ${epoch}`);
    assert.equal(answers[2]!.headers['x-ratelimit-limit'], '2');
    assert.equal(answers[2]!.headers['retry-after'], undefined, 'retry-after=none');
  });

  test('latency delays forwarded answers and 429s alike', async () => {
    const direct = await send(`${upstreamUrl}/l`);
    const running = await proxy('bucket=1/1,latency=120');
    const forwarded = await send(`${running.url}/l`);
    const refused = await send(`${running.url}/l`);
    assert.equal(forwarded.status, 201);
    assert.equal(refused.status, 429);
    assert.ok(forwarded.ms >= 115, `forwarded in ${forwarded.ms.toFixed(0)} ms (direct ${direct.ms.toFixed(0)})`);
    assert.ok(refused.ms >= 115, `refused in ${refused.ms.toFixed(0)} ms`);
    assert.ok(forwarded.ms < 1000 && refused.ms < 1000);
  });

  test('an upstream that cannot be reached is a 502, counted', async () => {
    const spare = createServer();
    await new Promise<void>((done) => spare.listen(0, '127.0.0.1', done));
    const { port } = spare.address() as AddressInfo;
    await new Promise((done) => spare.close(done));
    const running = await startThrottleProxy(`http://127.0.0.1:${port}/v1`, 'slow50');
    proxies.push(running);
    const answer = await send(`${running.url}/x`);
    assert.equal(answer.status, 502);
    assert.deepEqual(running.stats(), { forwarded: 1, refused: 0, upstreamErrors: 1 });
  });
});
