/**
 * The gate every request of a process passes before it is sent (http/transport.ts): one per
 * target, shared by all the concurrent callers of the process. It waits for the slot the rate
 * controller gives: the machine's shared one in the coordinator (rate-coordinator.ts) when global setup
 * started one, else this process's own (rate-control.ts) with this process's share of PCS_MAX_RPS. A
 * coordinator that cannot be reached, or that goes away, leaves the process on its own controller: the
 * same AIMD that lets separate CI shards find their shares without configuration.
 */
import { CoordinatorLink } from './rate-coordinator.ts';
import { RateController } from './rate-control.ts';
import { mayHaveRateFacts, rateFacts, type RateFacts } from './rate-headers.ts';

function sleep(ms: number): Promise<void> {
  return new Promise((resolveSleep) => setTimeout(resolveSleep, ms));
}

export interface RateGateOptions {
  /** host:port of the coordinator; null: none (a process on its own). */
  coordinator: string | null;
  /** The target's origin: the coordinator keeps one budget per target. */
  origin: string;
  /** This process's share of PCS_MAX_RPS, for its own controller; null: no ceiling. */
  ceilingRps: number | null;
  maxHoldMs: number;
}

export class RateGate {
  private readonly local: RateController;
  private link: CoordinatorLink | null = null;
  private linking: Promise<void> | null = null;
  /** Accepted answers not yet reported to the coordinator. */
  private unreported = 0;
  /** When this process first asked for a slot: a refusal of a request sent before was not paced. */
  private pacedSince: number | null = null;
  private readonly options: RateGateOptions;

  constructor(options: RateGateOptions) {
    this.options = options;
    this.local = new RateController({ ceilingRps: options.ceilingRps, maxHoldMs: options.maxHoldMs });
  }

  /** Whether requests wait for a slot at all: not before the first sign of a limit. */
  get active(): boolean {
    return this.local.active;
  }

  /** The rate this process's own controller would give now (requests per second; null: unlimited). */
  localRate(): number | null {
    return this.local.rate();
  }

  /** Waits for the request's slot. Callers skip it while the gate is not active (no promise, no cost). */
  async pass(): Promise<void> {
    if (!this.local.active) return;
    this.pacedSince ??= performance.now();
    const link = await this.linked();
    let wait: number;
    if (link !== null) {
      try {
        wait = await link.acquire(this.takeUnreported());
      } catch {
        wait = this.local.slot();
      }
    } else {
      wait = this.local.slot();
    }
    if (wait > 0) await sleep(wait);
  }

  /** An answer that is not a 429: the target accepted the request. */
  accepted(headers: Record<string, string>): void {
    this.local.accepted();
    this.unreported += 1;
    if (mayHaveRateFacts(headers)) this.advise(headers);
  }

  /**
   * A 429 for a request sent at `sentAt` (performance.now()). Resolves to whether it counts against the
   * request's retries (rate-control.ts, RateController.refused).
   */
  async refused(sentAt: number, headers: Record<string, string>): Promise<boolean> {
    if (mayHaveRateFacts(headers)) this.advise(headers);
    const hint = this.local.acceptedRps();
    const paced = this.pacedSince !== null && sentAt >= this.pacedSince;
    // The process's own controller learns too: it is the fallback should the coordinator go away.
    const counts = this.local.refused(sentAt);
    const link = await this.linked();
    if (link === null) return counts;
    try {
      return await link.refused(this.takeUnreported(), performance.now() - sentAt, paced, hint);
    } catch {
      return counts;
    }
  }

  private advise(headers: Record<string, string>): void {
    const facts: RateFacts | null = rateFacts(headers);
    if (facts === null) return;
    this.local.advise(facts);
    if (this.link?.usable) this.link.advise(facts);
  }

  private takeUnreported(): number {
    const count = this.unreported;
    this.unreported = 0;
    return count;
  }

  /** The coordinator's link, connected on first need; null when there is none or it failed. */
  private async linked(): Promise<CoordinatorLink | null> {
    if (this.options.coordinator === null) return null;
    if (this.link !== null) {
      if (this.link.usable) return this.link;
      this.options.coordinator = null;
      this.link = null;
      return null;
    }
    this.linking ??= CoordinatorLink.connect(this.options.coordinator, this.options.origin).then(
      (link) => {
        this.link = link;
      },
      () => {
        // Unreachable: this process's own controller, with its share, from now on.
        this.options.coordinator = null;
      },
    );
    await this.linking;
    // Set by the connection above (TypeScript still narrows this.link to the null it was before the await).
    const link = this.link as CoordinatorLink | null;
    return link?.usable ? link : null;
  }
}

const gates = new Map<string, RateGate>();

/**
 * Whether a target of this process is rate limited (a gate is active). Then a request may wait a whole
 * Retry-After: the property runner keeps more in flight (http/in-flight.ts), so that one
 * request waiting does not leave the worker idle.
 */
export function anyGateActive(): boolean {
  for (const gate of gates.values()) if (gate.active) return true;
  return false;
}

/** The gate of a target in this process (one per origin, ceiling and coordinator). */
export function rateGateFor(url: string, options: Omit<RateGateOptions, 'origin'>): RateGate {
  let origin = url;
  try {
    origin = new URL(url).origin;
  } catch {
    // not a URL: the text itself names the target
  }
  const key = `${origin} ${options.ceilingRps ?? '-'} ${options.coordinator ?? '-'}`;
  let gate = gates.get(key);
  if (gate === undefined) {
    gate = new RateGate({ ...options, origin });
    gates.set(key, gate);
  }
  return gate;
}
