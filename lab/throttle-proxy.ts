/**
 * A throttling, slow reverse proxy: put in front of a server, it makes that server
 * behave as one behind a rate-limiting gateway far away, so that the suite can be checked against
 * servers that throttle or answer slowly without rewriting them. Written with node:http alone, from
 * the description of the issue (not from mock/faults.ts): an independent implementation of rate
 * limiting, so that the suite is not checked against its own idea of a 429.
 *
 *   npx tsx lab/throttle-proxy.ts --upstream http://127.0.0.1:8080/v1 --spec bucket=400/40 [--port N]
 *
 * The spec is a comma-separated list of key=value (or a preset's name, see throttlePresets):
 *   bucket=RATE/BURST   token bucket: RATE tokens a second, at most BURST (the bucket starts full)
 *   sliding=N/MS        sliding window log: at most N requests in any MS milliseconds
 *   fixed=N/MS          fixed window: at most N requests in each window of MS milliseconds, the windows
 *                       aligned on the clock (the counter resets at each boundary)
 *   retry-after=seconds|date|none   how a 429 says when to come back (seconds rounded up; date:
 *                       IMF-fixdate, rounded up to the second); default seconds
 *   headers=none|ratelimit|x-ratelimit   RateLimit-Limit/-Remaining/-Reset (IETF draft, Reset in
 *                       seconds from now) or X-RateLimit-Limit/-Remaining/-Reset (Reset in epoch
 *                       seconds), on every answer; default none
 *   latency=MS          every answer (forwarded or 429) is held MS milliseconds before it is sent
 * At most one of bucket, sliding and fixed. A refused request gets 429 with the JSON body
 * {"error":"rate limited"}; it is not forwarded.
 *
 * What is forwarded: method, path with query, headers (Host rewritten to the upstream's; the
 * hop-by-hop Connection and Keep-Alive, which describe one connection and not the request, are the
 * proxy's own on each side) and body, streamed; the answer's status, reason, headers and body come
 * back streamed. An upstream that cannot be reached is answered 502 {"error":"bad gateway"}.
 */
import { Agent, createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export class ThrottleSpecError extends Error {}

/** Named specs: the cases the network figures use (lab/independent-servers.ts --through NAME). */
export const throttlePresets: Readonly<Record<string, string>> = {
  bucket400: 'bucket=400/40,retry-after=seconds',
  'sliding300-date': 'sliding=300/1000,retry-after=date',
  'fixed200-latency50': 'fixed=200/1000,latency=50,headers=x-ratelimit',
  slow50: 'latency=50',
};

export type LimitSpec =
  | { kind: 'bucket'; rate: number; burst: number }
  | { kind: 'sliding'; limit: number; windowMs: number }
  | { kind: 'fixed'; limit: number; windowMs: number };

export interface ThrottleSpec {
  limit: LimitSpec | null;
  retryAfter: 'seconds' | 'date' | 'none';
  headers: 'none' | 'ratelimit' | 'x-ratelimit';
  latencyMs: number;
}

const positiveNumber = /^(?:\d+(?:\.\d+)?|\.\d+)$/;
const wholeNumber = /^\d+$/;

function pair(key: string, value: string, firstWhole: boolean): [number, number] {
  const [first = '', second = '', ...rest] = value.split('/');
  const firstOk = firstWhole ? wholeNumber.test(first) : positiveNumber.test(first);
  if (rest.length > 0 || !firstOk || !wholeNumber.test(second) || Number(first) <= 0 || Number(second) <= 0)
    throw new ThrottleSpecError(`${key}=${value}: expected two positive numbers A/B`);
  return [Number(first), Number(second)];
}

/** Reads a spec (or a preset's name); anything it does not understand is a ThrottleSpecError of one line. */
export function parseThrottleSpec(text: string): ThrottleSpec {
  const source = throttlePresets[text.trim()] ?? text.trim();
  if (source === '') throw new ThrottleSpecError('empty throttle spec');
  const spec: ThrottleSpec = { limit: null, retryAfter: 'seconds', headers: 'none', latencyMs: 0 };
  const seen = new Set<string>();
  for (const part of source.split(',')) {
    const at = part.indexOf('=');
    const key = (at < 0 ? part : part.slice(0, at)).trim();
    const value = at < 0 ? '' : part.slice(at + 1).trim();
    if (at < 0 || value === '') throw new ThrottleSpecError(`"${part.trim()}": expected key=value`);
    if (seen.has(key)) throw new ThrottleSpecError(`${key} given twice`);
    seen.add(key);
    if (key === 'bucket' || key === 'sliding' || key === 'fixed') {
      if (spec.limit !== null) throw new ThrottleSpecError(`${key}: only one of bucket, sliding, fixed`);
      if (key === 'bucket') {
        const [rate, burst] = pair(key, value, false);
        spec.limit = { kind: 'bucket', rate, burst };
      } else {
        const [limit, windowMs] = pair(key, value, true);
        spec.limit = { kind: key, limit, windowMs };
      }
    } else if (key === 'retry-after') {
      if (value !== 'seconds' && value !== 'date' && value !== 'none')
        throw new ThrottleSpecError(`retry-after=${value}: expected seconds, date or none`);
      spec.retryAfter = value;
    } else if (key === 'headers') {
      if (value !== 'none' && value !== 'ratelimit' && value !== 'x-ratelimit')
        throw new ThrottleSpecError(`headers=${value}: expected none, ratelimit or x-ratelimit`);
      spec.headers = value;
    } else if (key === 'latency') {
      if (!wholeNumber.test(value)) throw new ThrottleSpecError(`latency=${value}: expected whole milliseconds`);
      spec.latencyMs = Number(value);
    } else throw new ThrottleSpecError(`unknown key "${key}" (bucket, sliding, fixed, retry-after, headers, latency)`);
  }
  return spec;
}

/** The requests a second a spec lets through in the long run; null when it does not limit. */
export function allowedRate(spec: ThrottleSpec): number | null {
  if (spec.limit === null) return null;
  return spec.limit.kind === 'bucket' ? spec.limit.rate : (spec.limit.limit * 1000) / spec.limit.windowMs;
}

export interface Decision {
  allowed: boolean;
  /** When refused: how long until a request would be allowed. */
  retryAfterMs: number;
  /** For the RateLimit headers: the limit, what is left after this request, and when the limit is whole again. */
  limit: number;
  remaining: number;
  resetMs: number;
}

export interface Limiter {
  take(now: number): Decision;
}

/** Tokens refill continuously; a request takes one. Reset: until the bucket is full again. */
function tokenBucket(rate: number, burst: number): Limiter {
  let tokens = burst;
  let last: number | null = null;
  return {
    take(now) {
      if (last !== null) tokens = Math.min(burst, tokens + ((now - last) * rate) / 1000);
      last = now;
      const allowed = tokens >= 1;
      if (allowed) tokens -= 1;
      return {
        allowed,
        retryAfterMs: allowed ? 0 : ((1 - tokens) * 1000) / rate,
        limit: burst,
        remaining: Math.floor(tokens),
        resetMs: ((burst - tokens) * 1000) / rate,
      };
    },
  };
}

/** The times of the requests allowed in the last window; one more is allowed while there are fewer than N. */
function slidingLog(limit: number, windowMs: number): Limiter {
  const times: number[] = [];
  let head = 0; // times before head have left the window (removed in bulk, not one shift at a time)
  return {
    take(now) {
      while (head < times.length && times[head]! <= now - windowMs) head++;
      if (head > 1024 && head * 2 > times.length) {
        times.splice(0, head);
        head = 0;
      }
      const allowed = times.length - head < limit;
      if (allowed) times.push(now);
      const oldest = times[head];
      const untilOldestLeaves = oldest === undefined ? 0 : oldest + windowMs - now;
      return {
        allowed,
        retryAfterMs: allowed ? 0 : untilOldestLeaves,
        limit,
        remaining: limit - (times.length - head),
        // The window is whole again when the newest request in it has left it.
        resetMs: times.length > head ? times[times.length - 1]! + windowMs - now : 0,
      };
    },
  };
}

/** A counter for the current window [k·MS, (k+1)·MS), reset when a request arrives in a later one. */
function fixedWindow(limit: number, windowMs: number): Limiter {
  let windowStart = Number.NEGATIVE_INFINITY;
  let count = 0;
  return {
    take(now) {
      const start = Math.floor(now / windowMs) * windowMs;
      if (start !== windowStart) {
        windowStart = start;
        count = 0;
      }
      const allowed = count < limit;
      if (allowed) count++;
      const untilBoundary = windowStart + windowMs - now;
      return {
        allowed,
        retryAfterMs: allowed ? 0 : untilBoundary,
        limit,
        remaining: limit - count,
        resetMs: untilBoundary,
      };
    },
  };
}

export function createLimiter(limit: LimitSpec): Limiter {
  if (limit.kind === 'bucket') return tokenBucket(limit.rate, limit.burst);
  return limit.kind === 'sliding' ? slidingLog(limit.limit, limit.windowMs) : fixedWindow(limit.limit, limit.windowMs);
}

/** The headers a decision adds: Retry-After on a refusal, the RateLimit family on every answer. */
export function limitHeaders(spec: ThrottleSpec, decision: Decision, now: number): [string, string][] {
  const headers: [string, string][] = [];
  if (!decision.allowed && spec.retryAfter !== 'none') {
    // Rounded up: a client that waits what it is told must not arrive before the limit lets it in.
    const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
    const date = new Date(Math.ceil((now + decision.retryAfterMs) / 1000) * 1000).toUTCString();
    headers.push(['Retry-After', spec.retryAfter === 'seconds' ? String(seconds) : date]);
  }
  if (spec.headers !== 'none') {
    const prefix = spec.headers === 'ratelimit' ? 'RateLimit' : 'X-RateLimit';
    const reset =
      spec.headers === 'ratelimit' ? Math.ceil(decision.resetMs / 1000) : Math.ceil((now + decision.resetMs) / 1000);
    headers.push(
      [`${prefix}-Limit`, String(decision.limit)],
      [`${prefix}-Remaining`, String(Math.max(0, decision.remaining))],
      [`${prefix}-Reset`, String(reset)],
    );
  }
  return headers;
}

export interface ThrottleStats {
  /** Requests passed to the upstream (whatever it answered). */
  forwarded: number;
  /** Requests answered 429 by the proxy. */
  refused: number;
  /** Forwarded requests the upstream did not answer (502, or the answer cut). */
  upstreamErrors: number;
}

export interface ThrottleProxy {
  /** The proxy's base URL: its origin with the upstream's path (give it to the suite as the base URL). */
  url: string;
  spec: ThrottleSpec;
  stats(): ThrottleStats;
  close(): Promise<void>;
}

/** Per-connection headers, the proxy's own on each side. */
const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection']);

function withoutHopByHop(raw: string[]): [string, string][] {
  const listed = new Set<string>();
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]!.toLowerCase() === 'connection')
      for (const name of raw[i + 1]!.split(',')) listed.add(name.trim().toLowerCase());
  const kept: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (!hopByHop.has(name) && !listed.has(name)) kept.push([raw[i]!, raw[i + 1]!]);
  }
  return kept;
}

const delay = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

export async function startThrottleProxy(
  upstream: string,
  specText: string,
  options: { port?: number; clock?: () => number } = {},
): Promise<ThrottleProxy> {
  const spec = parseThrottleSpec(specText);
  let target: URL;
  try {
    target = new URL(upstream);
  } catch {
    throw new ThrottleSpecError(`upstream ${upstream}: not a URL`);
  }
  if (target.protocol !== 'http:') throw new ThrottleSpecError(`upstream ${upstream}: only http:// is proxied`);
  const clock = options.clock ?? Date.now;
  const limiter = spec.limit === null ? null : createLimiter(spec.limit);
  const agent = new Agent({ keepAlive: true });
  const counts: ThrottleStats = { forwarded: 0, refused: 0, upstreamErrors: 0 };

  const refuse = async (req: IncomingMessage, res: ServerResponse, added: [string, string][]): Promise<void> => {
    counts.refused++;
    req.resume(); // the body is not wanted, but must be read for the connection to serve the next request
    if (spec.latencyMs > 0) await delay(spec.latencyMs);
    const body = JSON.stringify({ error: 'rate limited' });
    res.writeHead(429, [
      ...added.flat(),
      'Content-Type',
      'application/json',
      'Content-Length',
      String(Buffer.byteLength(body)),
    ]);
    res.end(body);
  };

  const forward = (req: IncomingMessage, res: ServerResponse, added: [string, string][]): void => {
    counts.forwarded++;
    // Duplicates kept (as arrays), and the case of each name as the client wrote it.
    const headers: Record<string, string | string[]> = {};
    const caseOf = new Map<string, string>();
    for (const [name, value] of withoutHopByHop(req.rawHeaders)) {
      const lower = name.toLowerCase();
      if (lower === 'host') continue;
      const key = caseOf.get(lower) ?? name;
      caseOf.set(lower, key);
      const before = headers[key];
      headers[key] = before === undefined ? value : [...(typeof before === 'string' ? [before] : before), value];
    }
    headers.Host = target.host;
    const outgoing = httpRequest({
      agent,
      host: target.hostname,
      port: target.port || 80,
      method: req.method,
      path: req.url,
      headers,
    });
    let answered = false;
    outgoing.on('response', async (answer) => {
      answered = true;
      if (spec.latencyMs > 0) await delay(spec.latencyMs);
      if (res.destroyed) return void answer.destroy();
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, [
        ...withoutHopByHop(answer.rawHeaders).flat(),
        ...added.flat(),
      ]);
      answer.pipe(res);
      answer.on('error', () => {
        counts.upstreamErrors++;
        res.destroy();
      });
    });
    outgoing.on('error', async () => {
      if (answered || res.destroyed) return;
      counts.upstreamErrors++;
      if (spec.latencyMs > 0) await delay(spec.latencyMs);
      if (res.headersSent || res.destroyed) return void res.destroy();
      const body = JSON.stringify({ error: 'bad gateway' });
      res.writeHead(502, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    });
    // A client that goes away takes its upstream request with it.
    res.on('close', () => {
      if (!res.writableFinished) outgoing.destroy();
    });
    req.pipe(outgoing);
  };

  const server = createServer((req, res) => {
    const now = clock();
    const decision = limiter?.take(now);
    const added = decision === undefined ? [] : limitHeaders(spec, decision, now);
    if (decision !== undefined && !decision.allowed) void refuse(req, res, added);
    else forward(req, res, added);
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, '127.0.0.1', () => done());
  });
  const { port } = server.address() as AddressInfo;
  const path = target.pathname.replace(/\/+$/, '');
  return {
    url: `http://127.0.0.1:${port}${path}`,
    spec,
    stats: () => ({ ...counts }),
    close: async () => {
      const closed = new Promise<void>((done) => server.close(() => done()));
      server.closeAllConnections();
      agent.destroy();
      await closed;
    },
  };
}

function describeStats(stats: ThrottleStats): string {
  return `forwarded ${stats.forwarded}, refused ${stats.refused}, upstream errors ${stats.upstreamErrors}`;
}

async function cli(argv: string[]): Promise<void> {
  const options: { upstream?: string; spec?: string; port?: number } = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = argv[i + 1];
    if ((arg === '--upstream' || arg === '--spec' || arg === '--port') && value === undefined)
      throw new ThrottleSpecError(`${arg} needs a value`);
    if (arg === '--upstream') options.upstream = value;
    else if (arg === '--spec') options.spec = value;
    else if (arg === '--port') {
      if (!wholeNumber.test(value!) || Number(value) > 65535)
        throw new ThrottleSpecError(`--port ${value}: a port number`);
      options.port = Number(value);
    } else throw new ThrottleSpecError(`unknown argument ${arg} (--upstream URL --spec SPEC [--port N])`);
    i++;
  }
  if (options.upstream === undefined || options.spec === undefined)
    throw new ThrottleSpecError('usage: throttle-proxy --upstream URL --spec SPEC [--port N]');
  const proxy = await startThrottleProxy(options.upstream, options.spec, { port: options.port });
  process.stdout.write(`throttle-proxy: ${proxy.url} -> ${options.upstream} (${options.spec})\n`);
  const stop = async (): Promise<void> => {
    await proxy.close();
    process.stdout.write(`throttle-proxy: ${describeStats(proxy.stats())}\n`);
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  cli(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`throttle-proxy: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  });
}

export { describeStats as describeThrottleStats };
