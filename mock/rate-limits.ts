/**
 * The rate limits the mock can enforce (mock/faults.ts: throttle=RPS,burst=N and window=N/MS), as a
 * gateway in front of a real service would: decided when the request arrives, refused requests
 * consume nothing. Kept apart from Fastify, with an injectable clock, so that it can be unit-tested.
 */

export type RateLimitPlan = { kind: 'bucket'; rps: number; burst: number } | { kind: 'window'; n: number; ms: number };

export interface RateDecision {
  allowed: boolean;
  /** What RateLimit-* headers report: the quota per window, what is left, when it is whole again. */
  limit: number;
  windowSeconds: number;
  remaining: number;
  resetSeconds: number;
}

/** A token bucket: `rps` tokens a second, at most `burst` saved. */
class TokenBucket {
  private readonly rps: number;
  private readonly burst: number;
  private tokens: number;
  private last: number;

  constructor(rps: number, burst: number, now: number) {
    this.rps = rps;
    this.burst = burst;
    this.tokens = burst;
    this.last = now;
  }

  take(now: number): RateDecision {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.rps) / 1000);
    this.last = now;
    const allowed = this.tokens >= 1;
    if (allowed) this.tokens -= 1;
    return {
      allowed,
      limit: this.rps,
      windowSeconds: 1,
      remaining: Math.floor(this.tokens),
      resetSeconds: Math.ceil((this.burst - this.tokens) / this.rps),
    };
  }
}

/** A sliding window: at most `n` accepted requests in any `ms` milliseconds. */
class SlidingWindow {
  private readonly accepted: number[] = [];
  private head = 0;
  private readonly n: number;
  private readonly ms: number;

  constructor(n: number, ms: number) {
    this.n = n;
    this.ms = ms;
  }

  take(now: number): RateDecision {
    while (this.head < this.accepted.length && (this.accepted[this.head] ?? now) <= now - this.ms) this.head += 1;
    if (this.head > 1024) {
      this.accepted.splice(0, this.head);
      this.head = 0;
    }
    const inWindow = this.accepted.length - this.head;
    const allowed = inWindow < this.n;
    if (allowed) this.accepted.push(now);
    const oldest = this.accepted[this.head] ?? now;
    return {
      allowed,
      limit: this.n,
      windowSeconds: this.ms / 1000,
      remaining: this.n - (this.accepted.length - this.head),
      resetSeconds: Math.max(0, Math.ceil((oldest + this.ms - now) / 1000)),
    };
  }
}

/** Every limit of the plan must allow a request; it then counts against each. */
export class MockRateLimits {
  private readonly limits: (TokenBucket | SlidingWindow)[];
  private readonly now: () => number;

  constructor(plans: readonly RateLimitPlan[], now: () => number = () => performance.now()) {
    this.now = now;
    const start = this.now();
    this.limits = plans.map((plan) =>
      plan.kind === 'bucket' ? new TokenBucket(plan.rps, plan.burst, start) : new SlidingWindow(plan.n, plan.ms),
    );
  }

  /** The decision for a request arriving now; null when the plan has no limit. */
  take(): RateDecision | null {
    const now = this.now();
    let chosen: RateDecision | null = null;
    for (const limit of this.limits) {
      const next = limit.take(now);
      // A refusal by one limit does not consume the later ones (the earlier ones counted it: with two
      // limits that is a little stricter, as gateways chaining two limits are).
      if (!next.allowed) return next;
      // The most restrictive limit is the one the headers report.
      if (chosen === null || next.remaining < chosen.remaining) chosen = next;
    }
    return chosen;
  }
}

/** The RateLimit-* headers (IETF draft) of a decision. */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  const window = Number.isInteger(decision.windowSeconds)
    ? String(decision.windowSeconds)
    : decision.windowSeconds.toFixed(3);
  return {
    'ratelimit-limit': String(decision.limit),
    'ratelimit-remaining': String(Math.max(0, decision.remaining)),
    'ratelimit-reset': String(decision.resetSeconds),
    'ratelimit-policy': `${decision.limit};w=${window}`,
  };
}
