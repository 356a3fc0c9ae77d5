/**
 * Transport faults the reference mock can inject, so that the suite's transport handling
 * (timeouts, 429 with Retry-After, resets, 503, broken bodies) is tested in CI without a
 * misbehaving real service.
 *
 * A spec is a comma-separated list of NAME=VALUE:
 *   latency=MS            every matching request waits MS ms first (or MIN-MAX for a random delay)
 *   rate429=V             answers 429 with Retry-After
 *   status503=V           answers 503 with Retry-After
 *   reset=V               destroys the connection without an answer
 *   invalidJson=V         sends a success body cut in the middle (not JSON)
 *   retryAfter=SECONDS    the Retry-After value of 429 and 503 (default 1; 0 is allowed)
 *   throttle=RPS          a token bucket in front of the API: RPS requests a second (decimals allowed), the
 *                         rest answered 429 with Retry-After; decided when the request arrives (before
 *                         latency), as a gateway would; refused requests consume nothing
 *   burst=N               the bucket's size: requests it lets through at once (default RPS/10, at least 1)
 *   window=N/MS           a sliding window: at most N requests accepted in any MS ms (with throttle: both)
 *   retryAfterFormat=F    seconds (default) or date: every Retry-After (429, 503) as an HTTP-date
 *   rateHeaders=yes       every answer to a throttled route carries RateLimit-Limit, -Remaining, -Reset and
 *                         RateLimit-Policy (IETF draft; a bucket reports RPS per 1 s window)
 *   methods=GET+DELETE    faults only apply to these methods (default: all)
 *   seed=N                seed of the random draws (default 1), so a run can be repeated
 * where V is a probability (0.3), "first:N" (the first N matching requests), "after:N" (every
 * matching request after the first N) or "every:N" (every N-th matching request).
 * Examples: latency=200,rate429=0.3,reset=0.1; throttle=400,burst=40; latency=50,window=200/1000,rateHeaders=yes.
 */
import { seededRandom } from './seeded-random.ts';
import { MockRateLimits, rateLimitHeaders, type RateLimitPlan } from './rate-limits.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export class FaultSpecError extends Error {
  override name = 'FaultSpecError';
}

export type Trigger = { kind: 'probability'; p: number } | { kind: 'first' | 'after' | 'every'; n: number };

export type FaultName = 'rate429' | 'status503' | 'reset' | 'invalidJson';
const faultNames: readonly FaultName[] = ['reset', 'status503', 'rate429', 'invalidJson'];
const rateNames = 'throttle, burst, window, retryAfterFormat, rateHeaders';

export interface FaultPlan {
  latencyMs: { min: number; max: number } | null;
  triggers: Partial<Record<FaultName, Trigger>>;
  retryAfterSeconds: number;
  methods: ReadonlySet<string> | null;
  seed: number;
  /** throttle= and window=, in that order. */
  rateLimits: RateLimitPlan[];
  retryAfterFormat: 'seconds' | 'date';
  rateHeaders: boolean;
}

function parseTrigger(name: string, value: string): Trigger {
  const counted = /^(first|after|every):(\d{1,9})$/.exec(value);
  if (counted) {
    const kind = counted[1] as 'first' | 'after' | 'every';
    const n = Number(counted[2]);
    if (n < (kind === 'after' ? 0 : 1)) throw new FaultSpecError(`faults: ${name}=${value}: N must be at least 1`);
    return { kind, n };
  }
  if (/^(0|1|0?\.\d+|1\.0*)$/.test(value)) return { kind: 'probability', p: Number(value) };
  throw new FaultSpecError(`faults: ${name}=${value}: expected a probability (0.1), first:N, after:N or every:N`);
}

export function parseFaults(spec: string): FaultPlan {
  const plan: FaultPlan = {
    latencyMs: null,
    triggers: {},
    retryAfterSeconds: 1,
    methods: null,
    seed: 1,
    rateLimits: [],
    retryAfterFormat: 'seconds',
    rateHeaders: false,
  };
  let throttle: number | null = null;
  let burst: number | null = null;
  let window: { n: number; ms: number } | null = null;
  for (const part of spec
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')) {
    const match = /^([A-Za-z0-9]+)=(.+)$/.exec(part);
    if (!match) throw new FaultSpecError(`faults: "${part.slice(0, 40)}" is not NAME=VALUE`);
    const [, name = '', value = ''] = match;
    if (name === 'latency') {
      const range = /^(\d{1,6})(?:-(\d{1,6}))?$/.exec(value);
      if (!range) throw new FaultSpecError(`faults: latency=${value.slice(0, 20)}: expected MS or MIN-MAX`);
      const min = Number(range[1]);
      const max = range[2] === undefined ? min : Number(range[2]);
      if (max < min) throw new FaultSpecError(`faults: latency=${value}: MAX is below MIN`);
      plan.latencyMs = { min, max };
    } else if (name === 'retryAfter') {
      if (!/^\d{1,4}$/.test(value))
        throw new FaultSpecError(`faults: retryAfter=${value.slice(0, 20)}: expected whole seconds`);
      plan.retryAfterSeconds = Number(value);
    } else if (name === 'methods') {
      plan.methods = new Set(value.split('+').map((method) => method.trim().toUpperCase()));
    } else if (name === 'seed') {
      if (!/^\d{1,9}$/.test(value)) throw new FaultSpecError(`faults: seed=${value.slice(0, 20)}: expected an integer`);
      plan.seed = Number(value);
    } else if (name === 'throttle') {
      if (!/^\d{1,6}(\.\d{1,3})?$/.test(value) || Number(value) <= 0)
        throw new FaultSpecError(`faults: throttle=${value.slice(0, 20)}: expected requests per second above 0`);
      throttle = Number(value);
    } else if (name === 'burst') {
      if (!/^\d{1,6}$/.test(value) || Number(value) < 1)
        throw new FaultSpecError(
          `faults: burst=${value.slice(0, 20)}: expected a whole number of requests, at least 1`,
        );
      burst = Number(value);
    } else if (name === 'window') {
      const parts = /^(\d{1,6})\/(\d{1,7})$/.exec(value);
      if (!parts || Number(parts[1]) < 1 || Number(parts[2]) < 1)
        throw new FaultSpecError(
          `faults: window=${value.slice(0, 20)}: expected N/MS (N requests in MS ms), both >= 1`,
        );
      window = { n: Number(parts[1]), ms: Number(parts[2]) };
    } else if (name === 'retryAfterFormat') {
      if (value !== 'seconds' && value !== 'date')
        throw new FaultSpecError(`faults: retryAfterFormat=${value.slice(0, 20)}: expected seconds or date`);
      plan.retryAfterFormat = value;
    } else if (name === 'rateHeaders') {
      if (value !== 'yes' && value !== 'no')
        throw new FaultSpecError(`faults: rateHeaders=${value.slice(0, 20)}: expected yes or no`);
      plan.rateHeaders = value === 'yes';
    } else if ((faultNames as readonly string[]).includes(name)) {
      plan.triggers[name as FaultName] = parseTrigger(name, value);
    } else {
      throw new FaultSpecError(
        `faults: unknown fault "${name.slice(0, 30)}" (known: ` +
          `latency, ${faultNames.join(', ')}, retryAfter, methods, seed, ${rateNames})`,
      );
    }
  }
  if (burst !== null && throttle === null) throw new FaultSpecError('faults: burst=N needs throttle=RPS');
  if (throttle !== null) {
    plan.rateLimits.push({ kind: 'bucket', rps: throttle, burst: burst ?? Math.max(1, Math.round(throttle / 10)) });
  }
  if (window !== null) plan.rateLimits.push({ kind: 'window', ...window });
  if (plan.rateLimits.length === 0 && plan.rateHeaders)
    throw new FaultSpecError('faults: rateHeaders=yes needs throttle=RPS or window=N/MS');
  return plan;
}

/** Decides, request by request, which fault (if any) applies. Kept apart from Fastify so it can be unit-tested. */
export class FaultDecider {
  private readonly random: () => number;
  private readonly counts = new Map<FaultName, number>();
  /** null: no throttle= or window= in the plan. */
  readonly rateLimits: MockRateLimits | null;

  readonly plan: FaultPlan;

  constructor(plan: FaultPlan, now?: () => number) {
    this.plan = plan;
    this.random = seededRandom(plan.seed);
    this.rateLimits = plan.rateLimits.length === 0 ? null : new MockRateLimits(plan.rateLimits, now);
  }

  /** The Retry-After value of a refusal: delta-seconds, or an HTTP-date with retryAfterFormat=date. */
  retryAfter(nowEpochMs: number = Date.now()): string {
    const seconds = this.plan.retryAfterSeconds;
    return this.plan.retryAfterFormat === 'date'
      ? new Date(nowEpochMs + seconds * 1000).toUTCString()
      : String(seconds);
  }

  applies(method: string): boolean {
    return this.plan.methods === null || this.plan.methods.has(method.toUpperCase());
  }

  latency(): number {
    const range = this.plan.latencyMs;
    if (range === null) return 0;
    return range.min + Math.floor(this.random() * (range.max - range.min + 1));
  }

  /** The fault for the next matching request; at most one, checked in a fixed order. */
  next(): FaultName | null {
    let chosen: FaultName | null = null;
    for (const name of faultNames) {
      const trigger = this.plan.triggers[name];
      if (!trigger) continue;
      const count = (this.counts.get(name) ?? 0) + 1;
      this.counts.set(name, count);
      const fires =
        trigger.kind === 'probability'
          ? this.random() < trigger.p
          : trigger.kind === 'first'
            ? count <= trigger.n
            : trigger.kind === 'after'
              ? count > trigger.n
              : count % trigger.n === 0;
      if (fires && chosen === null) chosen = name;
    }
    return chosen;
  }
}

const brokenBody = Symbol('collect-conformance.invalidJson');
type MarkedRequest = FastifyRequest & { [brokenBody]?: boolean };

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function faultBody(
  status: number,
  code: string,
  message: string,
): { error: { status: number; code: string; message: string } } {
  return { error: { status, code, message } };
}

/** Installs the faults of a spec on the mock; registered before the routes, so it runs before authentication. */
export function installFaults(app: FastifyInstance, spec: string): FaultDecider {
  const decider = new FaultDecider(parseFaults(spec));
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!decider.applies(request.method)) return;
    // The gateway decides when the request arrives; the latency is the network's, paid either way.
    const limit = decider.rateLimits?.take() ?? null;
    if (limit !== null && decider.plan.rateHeaders) reply.headers(rateLimitHeaders(limit));
    const delay = decider.latency();
    if (delay > 0) {
      await sleep(delay);
      // The client gave up while we waited (its timeout): do nothing on its behalf, as a server
      // whose request was cancelled upstream would not.
      if (request.raw.destroyed || request.raw.socket.destroyed) {
        reply.hijack();
        return;
      }
    }
    if (limit !== null && !limit.allowed) {
      return reply
        .code(429)
        .header('retry-after', decider.retryAfter())
        .send(faultBody(429, 'rate_limited', 'too many requests (mock throttle)'));
    }
    const fault = decider.next();
    if (fault === 'reset') {
      reply.hijack();
      request.raw.socket.destroy();
      return;
    }
    if (fault === 'rate429') {
      return reply
        .code(429)
        .header('retry-after', decider.retryAfter())
        .send(faultBody(429, 'rate_limited', 'too many requests (injected fault)'));
    }
    if (fault === 'status503') {
      return reply
        .code(503)
        .header('retry-after', decider.retryAfter())
        .send(faultBody(503, 'unavailable', 'service unavailable (injected fault)'));
    }
    if (fault === 'invalidJson') (request as MarkedRequest)[brokenBody] = true;
  });
  app.addHook('onSend', async (request: FastifyRequest, _reply: FastifyReply, payload: unknown) => {
    if (!(request as MarkedRequest)[brokenBody]) return payload;
    const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
    if (text === '') return payload; // no body (204): nothing to break
    // Cut in the middle and left open: never valid JSON, whatever the original was.
    return `${text.slice(0, Math.max(1, Math.floor(text.length / 2)))}{"truncated":`;
  });
  return decider;
}
