/**
 * npm run fuzz:mock — the reference mock under abuse. Sends random and malformed requests
 * to a mock on 127.0.0.1 (bad JSON, huge bodies, wrong types, deep nesting, odd paths,
 * odd headers and methods, and malformed HTTP on raw sockets), counts the statuses, and
 * fails (exit 1) on any 5xx, on a crash (the mock must still answer afterwards), on an
 * oversized body not answered 413, or on memory or a store growing past its bound.
 *
 *   npm run fuzz:mock                      100,000 requests (default)
 *   npm run fuzz:mock -- --requests 5000 --concurrency 16 --seed 7 --max-seconds 120 --store-cap 2000
 *
 * The mock runs in this process, with a small store cap (2,000 by default) so that the
 * cap is reached and its eviction exercised; the fuzz traffic creates many records.
 */
import { seededRandom, type Random } from '../mock/seeded-random.ts';
import http from 'node:http';
import net from 'node:net';
import { pathToFileURL } from 'node:url';
import { startMockServer, type RunningMock } from '../mock/server.ts';
import { defaultBodyLimit } from '../mock/app.ts';
import { commandLineOf, writeMeasured } from './measured.ts';

export interface FuzzOptions {
  requests: number;
  concurrency: number;
  seed: number;
  maxSeconds: number;
  storeCap: number;
  /** The mock's byte budget per environment in this run (small, so that large records reach it). */
  storeBytes?: number;
  /** The mock's request time-out in this run (short, so that slow clients are cut off quickly). */
  requestTimeoutMs?: number;
}

export interface FuzzReport {
  sent: number;
  statuses: Record<string, number>;
  byKind: Record<string, number>;
  serverErrors: { kind: string; status: number; method: string; path: string }[];
  oversized: { sent: number; answered413: number; other: Record<string, number> };
  clientErrors: Record<string, number>;
  aliveAfter: boolean;
  rssBeforeMb: number;
  rssAfterMb: number;
  heapAfterMb: number;
  storeCap: number;
  largestCollection: number;
  evictionChecked: boolean;
  seconds: number;
  stoppedByTime: boolean;
  /** The highest byte count of the sandbox store seen during the run, and its budget. */
  storeBytesMax?: number;
  storeBytesLimit?: number;
  /**
   * Slow clients (incomplete bodies, chunks without end, headers
   * trickled): how many, and how many the mock cut off in time.
   */
  slowClients?: { sent: number; closedInTime: number; slowestMs: number };
  /** Connections still open on the mock once every client is done. */
  openConnectionsAfter?: number;
}

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const int = (random: Random, min: number, max: number): number => min + Math.floor(random() * (max - min + 1));

interface FuzzRequest {
  kind: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /**
   * The mock is expected to close the connection (413, 431): sent
   * on its own, so no other request shares the closing socket.
   */
  closes?: boolean;
}

const oddValues: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  -0,
  '',
  ' ',
  'x'.repeat(300),
  '\u0000',
  '💥',
  [],
  [1, 'a'],
  {},
  { nested: { deeper: [null] } },
  '12',
  '1e3',
  2 ** 53 + 1,
];

function validBodies(random: Random, tokens: string[]): Record<string, unknown> {
  return {
    transaction: {
      description: `fuzz ${int(random, 0, 1e6)}`,
      amount: int(random, 1, 1e6),
      currency: { iso: pick(random, ['XOF', 'XOF', 'EUR', 'GNF', 'xof']) },
      callback_url: 'https://example.com/cb',
      custom_metadata: { fuzz: true },
      ...(random() < 0.3
        ? {
            customer: {
              email: 'f@example.com',
              firstname: 'F',
              lastname: 'Z',
              phone_number: { number: 22997000001, country: 'BJ' },
            },
          }
        : {}),
    },
    customer: { email: `c${int(random, 0, 1e9)}@example.com`, firstname: 'C', lastname: 'F' },
    send: {
      token: tokens.length > 0 && random() < 0.5 ? pick(random, tokens) : int(random, 1, 1e12),
      phone_number: { number: '+22997000001', country: 'BJ' },
    },
  };
}

/** Replaces one field, at any depth, with a value of a wrong type. */
function mutate(random: Random, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || random() < 0.3) return pick(random, oddValues);
  if (Array.isArray(value)) return value.map((item) => (random() < 0.5 ? mutate(random, item) : item));
  const record = { ...(value as Record<string, unknown>) };
  const keys = Object.keys(record);
  const key = keys.length > 0 && random() < 0.85 ? pick(random, keys) : `extra_${int(random, 0, 99)}`;
  record[key] = mutate(random, record[key]);
  if (random() < 0.15) delete record[pick(random, keys.length > 0 ? keys : ['x'])];
  return record;
}

function deepNesting(random: Random): string {
  const depth = int(random, 60, random() < 0.2 ? 100_000 : 20_000);
  const open = random() < 0.5 ? '[' : '{"a":';
  const close = open === '[' ? ']' : '}';
  const nested = `${open.repeat(depth)}1${close.repeat(depth)}`;
  // Inside a valid creation's custom_metadata half of the time: nothing may be stored from it.
  if (random() < 0.5) return nested;
  return JSON.stringify({
    description: 'deep',
    amount: 1000,
    currency: { iso: 'XOF' },
    callback_url: 'https://example.com/cb',
  }).replace(/}$/, `,"custom_metadata":${nested}}`);
}

/** A valid creation whose custom_metadata fills most of the body limit: memory pressure on the byte budget. */
function largeRecord(random: Random): string {
  const size = int(random, defaultBodyLimit / 2, defaultBodyLimit - 400);
  return JSON.stringify({
    description: 'large',
    amount: 1000,
    currency: { iso: 'XOF' },
    callback_url: 'https://example.com/cb',
    custom_metadata: { filler: 'x'.repeat(size) },
  });
}

function brokenJson(random: Random, tokens: string[]): string {
  const text = JSON.stringify(pick(random, Object.values(validBodies(random, tokens))));
  switch (int(random, 0, 7)) {
    case 0:
      return text.slice(0, int(random, 0, text.length - 1));
    case 1:
      return text.replace(/"/g, "'");
    case 2:
      return `${text},`;
    case 3:
      return `{"amount": 12, "amount": "twelve", ${'"k":1,'.repeat(int(random, 1, 50))}}`;
    case 4:
      return Buffer.from(Array.from({ length: int(random, 1, 300) }, () => int(random, 0, 255))).toString('latin1');
    case 5:
      return `\uFEFF${text}`;
    case 6:
      return 'NaN';
    default:
      return text.replace(/:/, '::');
  }
}

const oddPaths = [
  '/',
  '/v1',
  '/v1/',
  '/v2/transactions',
  '/v1//transactions',
  '/v1/transactions/../customers/1',
  '/v1/%2e%2e/%2e%2e/etc/passwd',
  '/v1/customers/%00',
  '/v1/customers/1%2F2',
  '/live/v1/balances/1',
  '/v1/balances/',
  '/v1/currencies/1?x=1&x=2&__proto__=1',
  '/v1/transactions/%F0%9F%92%A5',
  '/v1/customers/99999999999999999999999',
  '/v1/customers/-0',
  '/v1/customers/0x10',
  '/v1/customers/1e3',
  '/v1/transactions/1/token/extra',
  '/V1/BALANCES/1',
  '/v1/balances/1#frag',
  '/checkout/sandbox/123',
];
const oddMethods = ['PUT', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'FOO', 'get', 'M-SEARCH', 'PURGE'];
const contentTypes = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json-patch+json',
  'application/xml',
  'multipart/form-data; boundary=x',
  '',
  'application/JSON',
  '*/*',
];

function generate(random: Random, key: string, tokens: string[], transactionIds: number[]): FuzzRequest {
  const auth = (): Record<string, string> => {
    const roll = random();
    if (roll < 0.8) return { authorization: `Bearer ${key}` };
    if (roll < 0.85) return {};
    return {
      authorization: pick(random, [
        'Bearer',
        'Bearer ',
        `bearer ${key}`,
        `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
        `Bearer ${key} extra`,
        `Bearer ${'k'.repeat(4000)}`,
        'Token x',
        `Bearer ${key.slice(0, -1)}`,
      ]),
    };
  };
  const bodies = validBodies(random, tokens);
  const txId = () =>
    transactionIds.length > 0 && random() < 0.7 ? pick(random, transactionIds) : int(random, -5, 5_000_000);
  const roll = random();
  if (roll < 0.3) {
    // Valid-looking traffic: fills the store and reaches every route.
    const which = int(random, 0, 6);
    const json = (kind: string, method: string, path: string, body: unknown): FuzzRequest => ({
      kind,
      method,
      path,
      headers: { ...auth(), 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify(body)),
    });
    if (which === 0) return json('valid', 'POST', '/v1/transactions', bodies.transaction);
    if (which === 1) return json('valid', 'POST', '/v1/customers', bodies.customer);
    if (which === 2)
      return { kind: 'valid', method: 'POST', path: `/v1/transactions/${txId()}/token`, headers: auth() };
    if (which === 3)
      return json('valid', 'POST', `/v1/transactions/${pick(random, ['mtn', 'moov', 'orange', 'nope'])}`, bodies.send);
    if (which === 4)
      return { kind: 'valid', method: 'DELETE', path: `/v1/customers/${int(random, 1, 5_000)}`, headers: auth() };
    if (which === 5)
      return { kind: 'valid', method: 'GET', path: `/v1/balances/${int(random, 0, 3)}`, headers: auth() };
    return { kind: 'valid', method: 'GET', path: `/v1/currencies/${int(random, 0, 3)}`, headers: auth() };
  }
  if (roll < 0.5) {
    const target = pick(random, [
      '/v1/transactions',
      '/v1/customers',
      '/v1/transactions/mtn',
      `/v1/transactions/${txId()}/token`,
    ]);
    return {
      kind: 'wrong types',
      method: 'POST',
      path: target,
      headers: { ...auth(), 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify(mutate(random, pick(random, Object.values(bodies))))),
    };
  }
  if (roll < 0.65) {
    return {
      kind: 'bad JSON',
      method: 'POST',
      path: pick(random, ['/v1/transactions', '/v1/customers', '/v1/transactions/mtn']),
      headers: { ...auth(), 'content-type': 'application/json' },
      body: Buffer.from(brokenJson(random, tokens), 'latin1'),
    };
  }
  if (roll < 0.68) {
    if (random() < 0.3)
      return {
        kind: 'large records',
        method: 'POST',
        path: '/v1/transactions',
        headers: { ...auth(), 'content-type': 'application/json' },
        body: Buffer.from(largeRecord(random)),
      };
    return {
      kind: 'deep nesting',
      method: 'POST',
      path: pick(random, ['/v1/transactions', '/v1/transactions/mtn']),
      headers: { ...auth(), 'content-type': 'application/json' },
      body: Buffer.from(deepNesting(random)),
    };
  }
  if (roll < 0.685) {
    // Above the body limit: must be refused with 413 before it is parsed.
    const size = int(random, defaultBodyLimit + 1, defaultBodyLimit * 4);
    const filler = Buffer.alloc(size, 0x61);
    Buffer.from('{"description":"').copy(filler, 0);
    filler.write('"}', size - 2);
    // With the right key: a wrong one is refused with 401 before the body is read, which is right too.
    return {
      kind: 'oversized',
      method: 'POST',
      path: '/v1/transactions',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: filler,
      closes: true,
    };
  }
  if (roll < 0.8) {
    const oddSegment = () => encodeURIComponent(String(pick(random, oddValues)));
    const path =
      random() < 0.7
        ? pick(random, oddPaths)
        : `/v1/${Array.from({ length: int(random, 1, 12) }, oddSegment).join('/')}`.slice(0, 6000);
    return { kind: 'odd path', method: pick(random, ['GET', 'POST', 'DELETE']), path, headers: auth() };
  }
  if (roll < 0.9) {
    const headers: Record<string, string> = { ...auth(), 'content-type': pick(random, contentTypes) };
    if (random() < 0.3)
      for (let index = 0; index < int(random, 1, 80); index += 1)
        headers[`x-fuzz-${index}`] = 'v'.repeat(int(random, 0, 100));
    if (random() < 0.2) headers['x-large'] = 'h'.repeat(int(random, 1_000, 12_000));
    if (random() < 0.2) headers.accept = pick(random, ['text/html', '*/*', 'application/xml', '']);
    if (random() < 0.1) headers['content-encoding'] = pick(random, ['gzip', 'br', 'identity', 'nonsense']);
    if (headers['content-type'] === '') delete headers['content-type'];
    const body = random() < 0.7 ? Buffer.from(JSON.stringify(bodies.transaction)) : undefined;
    const headerBytes = Object.entries(headers).reduce(
      (total, [name, value]) => total + name.length + value.length + 4,
      0,
    );
    return {
      kind: 'odd headers',
      method: 'POST',
      path: '/v1/transactions',
      headers,
      body,
      closes: headerBytes > 8_000,
    };
  }
  const method = pick(random, oddMethods);
  return {
    kind: 'odd method',
    method,
    path: pick(random, ['/v1/transactions', '/v1/customers/1', '/v1/balances/1', '/v1/currencies/1', '/']),
    headers: auth(),
    body: random() < 0.3 && method !== 'HEAD' ? Buffer.from('{}') : undefined,
  };
}

/** Malformed HTTP that no ordinary client sends; answered by the HTTP parser (400/431) or by closing. */
const rawRequests = [
  'GARBAGE\r\n\r\n',
  'GET /v1/balances/1 HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n',
  'POST /v1/transactions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nnot chunked\r\n\r\n',
  'POST /v1/transactions HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nhello!!',
  'GET /v1/balances/1 HTTP/9.9\r\nHost: x\r\n\r\n',
  `GET /v1/balances/1 HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
  'POST /v1/transactions HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
  'GET /\u0000 HTTP/1.1\r\nHost: x\r\n\r\n',
  'POST /v1/transactions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
    'Content-Length: 100\r\n\r\n{"amount":',
];

function sendRaw(port: number, payload: string): Promise<number | string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    const done = (value: number | string) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(2_000, () => {
      const status = /^HTTP\/1\.1 (\d{3})/.exec(data)?.[1];
      done(status ? Number(status) : 'raw timeout');
    });
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(data)?.[1];
      if (status) done(Number(status));
    });
    socket.on('error', () =>
      done(data ? Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0) || 'raw reset' : 'raw reset'),
    );
    socket.on('close', () => done(Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0) || 'raw closed'));
    socket.write(payload, 'latin1');
  });
}

/** Slow clients: a request that never completes. Resolves with the time the mock took to close the connection. */
function sendSlow(port: number, key: string, random: Random, giveUpMs: number): Promise<number> {
  const head =
    `POST /v1/transactions HTTP/1.1\r\nhost: 127.0.0.1\r\n` +
    `authorization: Bearer ${key}\r\ncontent-type: application/json\r\n`;
  const payload = pick(random, [
    `${head}content-length: 500\r\n\r\n{"description":`, // a body shorter than its Content-Length
    `${head}transfer-encoding: chunked\r\n\r\n5\r\n{"a":\r\n`, // chunks without the last one
    `GET /v1/currencies/1 HTTP/1.1\r\nhost: 127.0.0.1\r\n`, // headers without their end
  ]);
  return new Promise((resolveSlow) => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1');
    const giveUp = setTimeout(() => {
      socket.destroy();
      resolveSlow(Number.POSITIVE_INFINITY);
    }, giveUpMs);
    socket.on('error', () => undefined);
    // Read what comes back (a 408): a socket that is never read never sees the server's end.
    socket.resume();
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolveSlow(performance.now() - started);
    });
    socket.write(payload);
  });
}

function sendOne(
  agent: http.Agent,
  port: number,
  request: FuzzRequest,
): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    let outgoing: http.ClientRequest;
    try {
      outgoing = http.request(
        {
          host: '127.0.0.1',
          port,
          method: request.method,
          path: request.path,
          headers: { ...request.headers, ...(request.body ? { 'content-length': String(request.body.length) } : {}) },
          agent,
          timeout: 10_000,
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.length < 4 && chunks.push(chunk));
          incoming.on('end', () =>
            resolve({ status: incoming.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8').slice(0, 300) }),
          );
          incoming.on('error', () => resolve({ status: incoming.statusCode ?? 0, body: '' }));
        },
      );
    } catch (error) {
      resolve({ error: `client refused to send: ${(error as { code?: string }).code ?? 'error'}` });
      return;
    }
    outgoing.on('timeout', () => outgoing.destroy(new Error('timeout')));
    outgoing.on('error', (error: Error & { code?: string }) => resolve({ error: error.code ?? error.message }));
    outgoing.end(request.body);
  });
}

export async function runFuzz(options: FuzzOptions, log: (line: string) => void = () => {}): Promise<FuzzReport> {
  const random = seededRandom(options.seed);
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const requestTimeoutMs = options.requestTimeoutMs ?? 1_000;
  const mock: RunningMock = await startMockServer({
    host: '127.0.0.1',
    port: 0,
    storeCap: options.storeCap,
    storeBytes: options.storeBytes ?? 8 * 2 ** 20,
    requestTimeoutMs,
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const closingAgent = new http.Agent({ keepAlive: false });
  const report: FuzzReport = {
    sent: 0,
    statuses: {},
    byKind: {},
    serverErrors: [],
    oversized: { sent: 0, answered413: 0, other: {} },
    clientErrors: {},
    aliveAfter: false,
    rssBeforeMb: Math.round(rssBefore / 2 ** 20),
    rssAfterMb: 0,
    heapAfterMb: 0,
    storeCap: options.storeCap,
    largestCollection: 0,
    evictionChecked: false,
    seconds: 0,
    stoppedByTime: false,
    storeBytesMax: 0,
    storeBytesLimit: mock.mock.stores.sandbox.bytes.limit,
    slowClients: { sent: 0, closedInTime: 0, slowestMs: 0 },
  };
  const slow = report.slowClients!;
  const slowClients: Array<Promise<void>> = [];
  const tokens: string[] = [];
  const transactionIds: number[] = [];
  const started = performance.now();
  const deadline = started + options.maxSeconds * 1000;
  let next = 0;
  let firstTransactionId: number | null = null;

  const count = (table: Record<string, number>, key: string) => (table[key] = (table[key] ?? 0) + 1);

  async function worker(): Promise<void> {
    while (next < options.requests) {
      if (performance.now() > deadline) {
        report.stoppedByTime = true;
        return;
      }
      next += 1;
      const index = next;
      if (index % 20_000 === 0) log(`  ${index} requests, ${Math.round(process.memoryUsage().rss / 2 ** 20)} MB RSS`);
      if (index % 250 === 125) {
        // A slow client in two hundred and fifty, left hanging: the mock must cut it off after its time-out.
        slow.sent += 1;
        slowClients.push(
          sendSlow(mock.port, mock.sandboxKey, random, requestTimeoutMs + 5_000).then((ms) => {
            if (ms <= requestTimeoutMs + 3_000) slow.closedInTime += 1;
            slow.slowestMs = Math.max(slow.slowestMs, Math.round(ms));
          }),
        );
      }
      if (index % 100 === 0) {
        // One malformed-HTTP request in a hundred, on its own connection.
        const outcome = await sendRaw(mock.port, pick(random, rawRequests));
        report.sent += 1;
        count(report.byKind, 'raw malformed HTTP');
        if (typeof outcome === 'number') {
          count(report.statuses, String(outcome));
          if (outcome >= 500)
            report.serverErrors.push({ kind: 'raw malformed HTTP', status: outcome, method: '?', path: '?' });
        } else count(report.clientErrors, outcome);
        continue;
      }
      const request = generate(random, mock.sandboxKey, tokens, transactionIds);
      // Only well-formed traffic shares keep-alive connections: the mock (Node's HTTP parser, the body limit)
      // closes the connection on malformed requests, and a request queued on it would be reset.
      const shared =
        !request.closes &&
        (request.kind === 'valid' || request.kind === 'wrong types' || request.kind === 'bad JSON') &&
        (request.body?.length ?? 0) <= defaultBodyLimit;
      const outcome = await sendOne(shared ? agent : closingAgent, mock.port, request);
      report.sent += 1;
      count(report.byKind, request.kind);
      if (request.kind === 'oversized') report.oversized.sent += 1;
      if ('error' in outcome) {
        count(report.clientErrors, `${request.kind}: ${outcome.error}`);
        if (request.kind === 'oversized') count(report.oversized.other, outcome.error);
        continue;
      }
      count(report.statuses, String(outcome.status));
      report.storeBytesMax = Math.max(report.storeBytesMax ?? 0, mock.mock.stores.sandbox.bytes.used);
      if (outcome.status >= 500)
        report.serverErrors.push({
          kind: request.kind,
          status: outcome.status,
          method: request.method,
          path: request.path.slice(0, 120),
        });
      if (request.kind === 'oversized') {
        if (outcome.status === 413) report.oversized.answered413 += 1;
        else count(report.oversized.other, String(outcome.status));
      }
      if (outcome.status === 201 && request.path === '/v1/transactions') {
        const id = /"id":(\d+)/.exec(outcome.body)?.[1];
        if (id) {
          firstTransactionId ??= Number(id);
          if (transactionIds.length < 500) transactionIds.push(Number(id));
          else transactionIds[int(random, 0, 499)] = Number(id);
        }
      }
      if (outcome.status === 200 && request.path.endsWith('/token')) {
        const token = /"token":"(\d+)"/.exec(outcome.body)?.[1];
        if (token && tokens.length < 500) tokens.push(token);
      }
    }
  }

  await Promise.all(Array.from({ length: options.concurrency }, () => worker()));
  await Promise.all(slowClients);
  report.seconds = Math.round((performance.now() - started) / 100) / 10;

  // Still alive and still right: a plain request is answered correctly after the abuse.
  const health = await sendOne(agent, mock.port, {
    kind: 'health',
    method: 'GET',
    path: '/v1/currencies/1',
    headers: { authorization: `Bearer ${mock.sandboxKey}` },
  });
  report.aliveAfter = !('error' in health) && health.status === 200;

  const store = mock.mock.stores.sandbox;
  report.largestCollection = Math.max(
    store.customers.size,
    store.transactions.size,
    store.tokens.size,
    store.tokenOfTransaction.size,
    store.intents.size,
  );
  // At the cap the oldest records are evicted: the first transaction created is gone once the cap was passed.
  // (or, with large records, past the byte budget first).
  if (
    firstTransactionId !== null &&
    (store.transactions.size >= options.storeCap || !store.transactions.has(firstTransactionId))
  ) {
    const probe = await sendOne(agent, mock.port, {
      kind: 'eviction',
      method: 'POST',
      path: `/v1/transactions/${firstTransactionId}/token`,
      headers: { authorization: `Bearer ${mock.sandboxKey}` },
    });
    report.evictionChecked = !('error' in probe) && probe.status === 404;
  }
  agent.destroy();
  closingAgent.destroy();
  await new Promise((resolveWait) => setTimeout(resolveWait, 200));
  report.openConnectionsAfter = await new Promise<number>((resolveCount) =>
    mock.mock.app.server.getConnections((_error, open) => resolveCount(open ?? 0)),
  );
  await mock.close();
  global.gc?.();
  const memory = process.memoryUsage();
  report.rssAfterMb = Math.round(memory.rss / 2 ** 20);
  report.heapAfterMb = Math.round(memory.heapUsed / 2 ** 20);
  return report;
}

/** What is wrong with a report, one line each; empty when the mock survived. */
export function verdict(report: FuzzReport, options: FuzzOptions, maxRssGrowthMb = 400): string[] {
  const problems: string[] = [];
  const resetValid = Object.entries(report.clientErrors)
    .filter(([key]) => key.startsWith('valid:'))
    .reduce((total, [, n]) => total + n, 0);
  if (resetValid > 0) problems.push(`${resetValid} well-formed request(s) got no answer (connection reset)`);
  if (report.serverErrors.length > 0) {
    problems.push(
      `${report.serverErrors.length} answer(s) with a 5xx, e.g. ${JSON.stringify(report.serverErrors.slice(0, 3))}`,
    );
  }
  if (!report.aliveAfter)
    problems.push('the mock did not answer GET /v1/currencies/1 with 200 after the fuzzing (crashed or wedged)');
  if (report.oversized.answered413 !== report.oversized.sent) {
    problems.push(
      `oversized bodies: ${report.oversized.answered413} of ${report.oversized.sent} ` +
        `answered 413 (others: ${JSON.stringify(report.oversized.other)})`,
    );
  }
  if (report.largestCollection > options.storeCap)
    problems.push(`a store collection holds ${report.largestCollection} records, above the cap ${options.storeCap}`);
  if (report.rssAfterMb - report.rssBeforeMb > maxRssGrowthMb)
    problems.push(`RSS grew by ${report.rssAfterMb - report.rssBeforeMb} MB (bound ${maxRssGrowthMb} MB)`);
  if (
    report.storeBytesMax !== undefined &&
    report.storeBytesLimit !== undefined &&
    report.storeBytesMax > report.storeBytesLimit
  ) {
    problems.push(
      `the store held ${report.storeBytesMax} bytes of records, above its budget of ${report.storeBytesLimit}`,
    );
  }
  if (report.slowClients && report.slowClients.closedInTime < report.slowClients.sent) {
    problems.push(
      `${report.slowClients.sent - report.slowClients.closedInTime} of ${report.slowClients.sent} ` +
        `slow clients were not cut off in time (slowest ${report.slowClients.slowestMs} ms)`,
    );
  }
  if ((report.openConnectionsAfter ?? 0) > 2)
    problems.push(`${report.openConnectionsAfter} connections still open on the mock after every client was done`);
  if (report.sent < options.requests && !report.stoppedByTime)
    problems.push(`only ${report.sent} of ${options.requests} requests were sent`);
  return problems;
}

function parseArguments(argv: string[]): FuzzOptions {
  const options: FuzzOptions = {
    requests: 100_000,
    concurrency: 32,
    seed: 1,
    maxSeconds: 300,
    storeCap: 2_000,
    storeBytes: 8 * 2 ** 20,
    requestTimeoutMs: 1_000,
  };
  const names: Record<string, keyof FuzzOptions> = {
    '--requests': 'requests',
    '--concurrency': 'concurrency',
    '--seed': 'seed',
    '--max-seconds': 'maxSeconds',
    '--store-cap': 'storeCap',
    '--store-bytes': 'storeBytes',
    '--request-timeout-ms': 'requestTimeoutMs',
  };
  for (let index = 0; index < argv.length; index += 1) {
    const flag = argv[index] ?? '';
    const [name, inline] = flag.split('=', 2) as [string, string | undefined];
    const key = names[name];
    if (!key) throw new UsageError(`unknown option ${flag.slice(0, 40)} (known: ${Object.keys(names).join(', ')})`);
    const value = inline ?? argv[++index];
    if (value === undefined || !/^\d{1,9}$/.test(value) || Number(value) < 1)
      throw new UsageError(`${name} needs a positive whole number`);
    options[key] = Number(value);
  }
  return options;
}

class UsageError extends Error {}

async function main(): Promise<void> {
  let options: FuzzOptions;
  try {
    options = parseArguments(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`fuzz-mock: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  console.log(
    `fuzz-mock: ${options.requests} requests, ${options.concurrency} connections, ` +
      `seed ${options.seed}, store cap ${options.storeCap}, at most ${options.maxSeconds} s`,
  );
  const report = await runFuzz(options, (line) => console.log(line));
  const statuses = Object.entries(report.statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ');
  // What is printed is also the page of figures the docs link to (docs/measured/fuzz-mock.md).
  const rate = Math.round(report.sent / Math.max(report.seconds, 0.1));
  const { oversized, slowClients } = report;
  const evicted = report.evictionChecked ? 'yes' : 'not checked (fewer transactions than the cap)';
  const figures = [
    `${options.requests} requests, ${options.concurrency} connections, seed ${options.seed}, ` +
      `store cap ${options.storeCap}, at most ${options.maxSeconds} s`,
    `sent ${report.sent} requests in ${report.seconds} s (${rate} req/s)` +
      (report.stoppedByTime ? ' — stopped by the time bound' : ''),
    `by kind: ${Object.entries(report.byKind)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ')}`,
    `statuses: ${statuses}`,
    'client-side errors (connections the mock closed, e.g. after 413 or on malformed HTTP): ' +
      JSON.stringify(report.clientErrors),
    `5xx: ${report.serverErrors.length}; alive after: ${report.aliveAfter ? 'yes' : 'NO'}; ` +
      `oversized bodies: ${oversized.answered413}/${oversized.sent} answered 413`,
    `store bytes: at most ${report.storeBytesMax} of a budget of ${report.storeBytesLimit}; ` +
      `slow clients cut off in time: ${slowClients?.closedInTime}/${slowClients?.sent} ` +
      `(slowest ${slowClients?.slowestMs} ms); ` +
      `connections open after: ${report.openConnectionsAfter}`,
    `memory: RSS ${report.rssBeforeMb} MB before, ${report.rssAfterMb} MB after (heap ${report.heapAfterMb} MB); ` +
      `largest store collection ${report.largestCollection} (cap ${report.storeCap}); ` +
      `oldest record evicted at the cap: ${evicted}`,
  ];
  for (const line of figures.slice(1)) console.log(line);
  const problems = verdict(report, options);
  const pass =
    'PASS: zero 5xx, no crash, bounded memory and store bytes, 413 for every oversized body, ' + 'slow clients cut off';
  const outcome = problems.length > 0 ? problems.map((problem) => `FAIL: ${problem}`) : [pass];
  const body = [...figures, ...outcome].map((line) => `- ${line}`);
  const written = writeMeasured({ name: 'fuzz-mock', commandLine: commandLineOf('fuzz-mock'), body });
  if (problems.length > 0) {
    for (const problem of problems) console.error(`fuzz-mock: FAIL: ${problem}`);
    console.log(`fuzz-mock: wrote ${written}`);
    process.exit(1);
  }
  console.log(`fuzz-mock: ${outcome[0]}`);
  console.log(`fuzz-mock: wrote ${written}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
