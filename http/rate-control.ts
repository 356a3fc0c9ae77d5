/**
 * The request rate the suite learns from its target (one controller per target and process, or one per
 * machine in the rate coordinator, rate-coordinator.ts). Pure: the clock is injected, nothing sleeps
 * here (rate-gate.ts waits), so that convergence is tested on a simulated clock (tests/unit/rate-control.test.ts).
 *
 * - No limit at all until the first sign of one (a 429, rate-limit headers, or PCS_MAX_RPS): a fast
 *   unthrottled target pays one timestamp per answer.
 * - On a 429 (multiplicative decrease): the rate becomes what the target actually accepted lately, times
 *   a factor a little below 1. "Lately" starts at the first refusal once enough answers came since:
 *   before it, a token bucket's burst was being spent, and counting it would overestimate the rate.
 * - While requests queue for a slot and no 429 comes, the rate grows. Until a 429 of a request sent at a
 *   paced rate, the first estimate may say more about the suite (a slow start, few callers) than about the
 *   target: the rate probes upwards (tripling in about a second). Afterwards it knows the peak the target
 *   accepted at its last 429: it returns to it within about a second, then grows slowly past it (additive
 *   increase) by a fixed step, learned once from the first peak. A fixed step, not a share of the
 *   current rate, is what lets several controllers that share one limit unknowingly (CI shards) converge
 *   to equal shares.
 * - Slots are spaced 1000/rate ms apart, whoever asks, so concurrent callers never burst.
 * - Rate-limit headers: a policy (quota per window) caps the rate just below it; Remaining 0 holds new
 *   requests until the reset.
 */
import type { RateFacts } from './rate-headers.ts';

export interface RateControllerOptions {
  /** PCS_MAX_RPS (or this process's share of it); null: no ceiling. */
  ceilingRps: number | null;
  /** Milliseconds on a monotonic clock. */
  now?: () => number;
  /** The longest hold a Remaining 0 can impose (the transport's longest Retry-After). */
  maxHoldMs?: number;
}

/** The factor of a decrease: a little below 1, so that the sawtooth stays between 90 % and 100 % of the limit. */
export const decreaseFactor = 0.9;
/** The first estimate includes whatever the target let through before it refused: a deeper cut. */
const firstDecreaseFactor = 0.8;
/** The additive step per second near the peak, as a share of the first paced peak. */
const increaseShare = 0.01;
/** Below this share of the last peak, the step is recoveryFactor times larger: back near it within a second. */
const recoveryShare = 0.95;
const recoveryFactor = 15;
/**
 * Near and past the peak the step grows with the time since the last decrease, (1 + t / growthSeconds)²,
 * up to maxGrowth times (as TCP CUBIC does): slow where the last 429 came, so that 429s are rare (each
 * costs a request its whole Retry-After, a second or more), faster when the limit seems to have moved.
 */
const growthSeconds = 5;
/** Near the refused rate, the rate stays at this share of it until quietSeconds without a 429 have passed. */
const holdShare = 0.97;
/** The most one refusal cuts the learned rate (before the decrease factor). */
const deepestCut = 0.75;
const quietSeconds = 10;
const maxGrowth = 9;
/** Growth per second while probing (no paced 429 yet): multiplicative, half as much again each second. */
const probeShare = 0.5;
/** A target that refuses everything still gets this many requests per second (its 429s are counted). */
export const floorRps = 1;
/** Answers since the first refusal needed before they alone measure the rate (fewer: the last second's). */
const answersForSteadyEstimate = 8;
/** A policy's quota is paced at this share of it, so that the target's counter never quite reaches 0. */
const policyShare = 0.95;

export class RateController {
  private readonly now: () => number;
  private readonly maxHoldMs: number;
  private readonly ceilingRps: number | null;
  /** Requests per second; null: unlimited. */
  private learnedRps: number | null = null;
  private policyRps: number | null = null;
  private stepRps = 0;
  /** What the target accepted when it last refused a paced request; null: not known yet (probing). */
  private peakRps: number | null = null;
  private nextSlot = 0;
  private holdUntil = 0;
  private lastTick = 0;
  private lastDecrease = Number.NEGATIVE_INFINITY;
  private firstRefusal: number | null = null;
  /** When each of the recent accepted answers came (a queue: `head` is the oldest still kept). */
  private answers: number[] = [];
  private head = 0;
  private activeSince: number | null = null;

  constructor(options: RateControllerOptions) {
    this.now = options.now ?? (() => performance.now());
    this.maxHoldMs = options.maxHoldMs ?? 20_000;
    this.ceilingRps = options.ceilingRps;
    if (this.ceilingRps !== null) this.activeSince = this.now();
  }

  /** Whether requests must ask for a slot at all. */
  get active(): boolean {
    return this.activeSince !== null;
  }

  /** Whether a 429 already set the rate. */
  get learned(): boolean {
    return this.learnedRps !== null;
  }

  /** The rate slots are given at now; null: unlimited. */
  rate(): number | null {
    let rate = this.learnedRps;
    for (const cap of [this.ceilingRps, this.policyRps]) {
      if (cap !== null) rate = rate === null ? cap : Math.min(rate, cap);
    }
    return rate;
  }

  /** Milliseconds the caller waits before sending: its slot. */
  slot(): number {
    const now = this.now();
    this.grow(now);
    const rate = this.rate();
    if (rate === null && this.holdUntil <= now) return 0;
    const at = Math.max(now, this.nextSlot, this.holdUntil);
    this.nextSlot = at + (rate === null ? 0 : 1000 / rate);
    return at - now;
  }

  /** Additive increase, only while requests queue (the rate, not the suite, is what limits). */
  private grow(now: number): void {
    const elapsed = now - this.lastTick;
    this.lastTick = now;
    if (this.learnedRps === null || this.nextSlot <= now || elapsed <= 0) return;
    const seconds = Math.min(elapsed, 1000) / 1000;
    if (this.peakRps === null) this.learnedRps *= 1 + probeShare * seconds;
    else if (this.learnedRps < this.peakRps * recoveryShare)
      this.learnedRps = Math.min(
        this.peakRps * recoveryShare,
        this.learnedRps + this.stepRps * recoveryFactor * seconds,
      );
    else {
      // Below the rate that was refused, and past it only after a quiet while: a bucket refuses every request
      // in flight at once when it runs out, and each then waits a whole Retry-After.
      const since = Math.max(0, now - this.lastDecrease) / 1000;
      const grown = this.learnedRps + this.stepRps * Math.min(maxGrowth, (1 + since / growthSeconds) ** 2) * seconds;
      this.learnedRps = since >= quietSeconds ? grown : Math.min(grown, this.peakRps * holdShare);
    }
    if (this.ceilingRps !== null && this.learnedRps > this.ceilingRps) this.learnedRps = this.ceilingRps;
  }

  /** Answers the target accepted (anything but a 429), `count` of them, now. */
  accepted(count = 1): void {
    const now = this.now();
    for (let index = 0; index < count; index += 1) this.answers.push(now);
    // Two seconds are kept: enough for the estimate, bounded whatever the rate.
    if (this.answers.length - this.head > 64 && (this.answers[this.head] ?? now) < now - 2000) {
      while (this.head < this.answers.length && (this.answers[this.head] ?? now) < now - 2000) this.head += 1;
      if (this.head > 4096) {
        this.answers = this.answers.slice(this.head);
        this.head = 0;
      }
    }
  }

  /** Requests per second the target accepted lately (see the header comment); null: nothing to measure from. */
  acceptedRps(now: number = this.now()): number | null {
    const refusal = this.firstRefusal;
    if (refusal !== null && this.countSince(refusal) >= answersForSteadyEstimate) {
      // Since the first refusal the target's bucket is spent: the last half second's answers, from it on
      // (a longer window would average in the slower rates of before, while the rate was growing).
      return this.rateSince(Math.max(refusal, now - 500), now);
    }
    // The first refusal: the answers of the last second, over the time they took (at least a quarter of a
    // second). A token bucket's burst went at the start, and divided by a short span it inflates the
    // estimate: the quarter second bounds that, and a first cut deeper than the later ones
    // (firstDecreaseFactor) absorbs the rest. Counted over a whole second when the run is younger, the
    // estimate would be a fraction of the rate, and the probing back up would cost seconds at 429-free
    // rates far below the target's: too high an estimate costs a 429 or two, and is cut again.
    const count = this.countSince(now - 1000);
    if (count === 0) return null;
    const first = this.answers[this.firstIndexSince(now - 1000)] ?? now;
    const spanMs = Math.min(1000, Math.max(250, now - first));
    return (count * 1000) / spanMs;
  }

  private rateSince(from: number, now: number): number | null {
    const count = this.countSince(from);
    return count === 0 ? null : (count * 1000) / Math.max(now - from, 25);
  }

  private firstIndexSince(from: number): number {
    let low = this.head;
    let high = this.answers.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.answers[middle] ?? 0) <= from) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private countSince(from: number): number {
    return this.answers.length - this.firstIndexSince(from);
  }

  /**
   * A 429 for a request that asked for its slot at `sentAt` (asked, not sent: a slot given before a decrease
   * was given at the old rate). Returns whether it counts against the request's retries:
   * only a refusal of a request sent after the controller had already reacted to every earlier one
   * (at the learned rate) does. One sent before the last decrease is part of the burst that taught it,
   * and decreases nothing again. `hintRps`: an estimate from elsewhere (the coordinator's first refusal).
   */
  refused(sentAt: number, hintRps?: number): boolean {
    const now = this.now();
    const paced = this.activeSince !== null && sentAt >= this.activeSince;
    this.activeSince ??= now;
    if (sentAt < this.lastDecrease) return false;
    const counts = this.learnedRps !== null;
    const first = this.firstRefusal === null;
    this.firstRefusal ??= now;
    let measured = this.acceptedRps(now);
    if (!counts && hintRps !== undefined) measured = Math.max(measured ?? 0, hintRps);
    // A suite that was idle, or whose callers all waited on a Retry-After, accepted little lately (when a
    // bucket runs out, every request in flight is refused at once): one refusal cuts the rate to deepestCut
    // of it at most. A window limiter's acceptances say more: deeper cuts follow from further refusals.
    const base =
      this.learnedRps === null
        ? (measured ?? floorRps)
        : Math.min(this.learnedRps, Math.max(measured ?? 0, this.learnedRps * deepestCut));
    if (paced) {
      // The first paced refusal measures the limit (or this controller's share of it): the step is set once
      // from it, so that controllers sharing a limit all step alike.
      if (this.peakRps === null) this.stepRps = Math.max(0.2, base * increaseShare);
      this.peakRps = base;
    }
    this.learnedRps = Math.max(floorRps, base * (first ? firstDecreaseFactor : decreaseFactor));
    if (this.ceilingRps !== null) this.learnedRps = Math.min(this.learnedRps, this.ceilingRps);
    this.lastDecrease = now;
    this.lastTick = now;
    // Slots already given stay given; the next ones follow the new spacing after them, and not at once: the
    // target just ran out (a bucket refills a token in the meantime).
    this.nextSlot = Math.max(this.nextSlot, now + 1000 / this.learnedRps);
    return counts;
  }

  /** What a response's rate-limit headers said (rate-headers.ts). */
  advise(facts: RateFacts): void {
    const now = this.now();
    if (facts.limit !== undefined && facts.limit > 0 && facts.windowMs !== undefined) {
      this.policyRps = Math.max(floorRps / 10, ((facts.limit * 1000) / facts.windowMs) * policyShare);
      this.activeSince ??= now;
    }
    if (facts.remaining !== undefined && facts.remaining < 1 && facts.resetMs !== undefined) {
      this.holdUntil = Math.max(this.holdUntil, now + Math.min(facts.resetMs, this.maxHoldMs));
      this.activeSince ??= now;
    } else if (facts.limit !== undefined || facts.remaining !== undefined) {
      // A target that announces a limit will enforce it: pace from now on (the coordinator's budget included).
      this.activeSince ??= now;
    }
  }
}
