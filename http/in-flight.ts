/**
 * How many generated requests a worker keeps in flight: enough to keep the wire busy when the target
 * is far away, one at a time when it is near. Against a target 40 ms away a worker that waits for
 * each answer sends 25 requests a second and spends its time idle; against the embedded mock (a
 * fraction of a millisecond away, on the same two cores) more in flight only adds contention.
 *
 * PCS_IN_FLIGHT: "auto" (the default) follows the median round trip of this worker's recent
 * requests; a number from 1 to 64 fixes it (1: one case at a time, as before this setting existed).
 * The property runner (generation/concurrent-cases.ts) and FastClient.each read the limit
 * each time they start something, so a worker ramps up within its first requests.
 *
 * The limit applies per worker: the keep-alive pool has 16 connections per origin
 * (http/fast-client.ts), so requests beyond them queue in the pool rather than open more.
 * The rate a target allows is the transport's business (http/transport.ts, rate-gate.ts): once it
 * is rate limited, auto keeps at least throttledFloor in flight, so that a request waiting a Retry-After
 * does not idle the worker while the gate spaces the others.
 */
import { readSetting } from '../settings/read-setting.ts';
import { settings } from '../settings/settings.ts';
import type { InFlightSetting } from '../settings/setting-values.ts';
import { anyGateActive } from './rate-gate.ts';

type Env = Record<string, string | undefined>;

export { maxInFlight } from '../settings/setting-values.ts';
/** The most auto chooses: the keep-alive pool's connections. */
export const autoCeiling = 16;
/** Below this median round trip (ms) auto keeps one at a time: the target is on this machine, or next to it. */
export const nearMs = 3;

/** PCS_IN_FLIGHT through its row of the settings table. */
export function inFlightSetting(env: Env): InFlightSetting {
  return readSetting(env, settings.inFlight);
}

/**
 * Round trips (ms) of the last requests answered at their first attempt: a ring, so that old figures fade. Module
 * state on purpose: the worker's measure of its target, fed by every client of the worker (each property has its
 * own), which one object per worker would have to be handed through every client to hold.
 */
const window = 64;
const recent: number[] = [];
let nextSlot = 0;

/** Records a request's round trip; retried ones are left out (their time includes the waits). */
export function noteRoundTrip(ms: number, attempts = 1): void {
  if (attempts !== 1 || !Number.isFinite(ms) || ms < 0) return;
  if (recent.length < window) recent.push(ms);
  else recent[nextSlot] = ms;
  nextSlot = (nextSlot + 1) % window;
}

/** The median of the recorded round trips; undefined before the first. */
export function medianRoundTripMs(): number | undefined {
  if (recent.length === 0) return undefined;
  const sorted = [...recent].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * The auto limit for a median round trip: one below nearMs; above it, one more in flight for each
 * 2 ms of round trip (the client's own work per request is a fraction of a millisecond), up to
 * autoCeiling. Unknown (no answer yet): one, until the first answers say more.
 */
export function autoLimit(medianMs: number | undefined, rateLimited = false): number {
  // A request refused with 429 waits its Retry-After (a second, often): with one in flight the worker
  // would wait with it, while the rate gate, not the round trip, already spaces the requests.
  const floor = rateLimited ? throttledFloor : 1;
  if (medianMs === undefined || medianMs < nearMs) return floor;
  return Math.min(autoCeiling, Math.max(2, floor, Math.ceil(medianMs / 2)));
}

/** In flight at least, once the target is rate limited. */
export const throttledFloor = 8;

/**
 * This worker's limit now, by PCS_IN_FLIGHT of the run's variables (the property runner passes its own). The command
 * validated it before the run: a wrong value here counts as auto.
 */
export function inFlightLimit(env: Env): number {
  const chosen = settingOrAuto(env);
  return chosen.kind === 'fixed' ? chosen.limit : autoLimit(medianRoundTripMs(), anyGateActive());
}

function settingOrAuto(env: Env): InFlightSetting {
  try {
    return inFlightSetting(env);
  } catch {
    return { kind: 'auto' };
  }
}

/** Forgets the recorded round trips (unit tests). */
export function resetInFlight(): void {
  recent.length = 0;
  nextSlot = 0;
}

/**
 * Starts `start(0)`, `start(1)`, ... in order, at most limit() at a time, until `count` are
 * started or a started one answers false (stop starting more) or `more()` says no; resolves
 * once every started one has ended. `start` must not reject (it reports through its result).
 */
export function inFlight(
  count: number,
  limit: () => number,
  start: (index: number) => Promise<boolean>,
  more: () => boolean = () => true,
): Promise<void> {
  return new Promise((done) => {
    let next = 0;
    let active = 0;
    let stopped = false;
    const launch = (): void => {
      while (!stopped && next < count && active < Math.max(1, limit()) && more()) {
        const index = next++;
        active++;
        void start(index).then(
          (goOn) => {
            if (!goOn) stopped = true;
            active--;
            launch();
          },
          () => {
            stopped = true;
            active--;
            launch();
          },
        );
      }
      if (active === 0) done();
    };
    launch();
  });
}

/**
 * `work` over the items, in flight as `limit` allows; the results in the items' order. After a
 * failure nothing more is started; once every started item has ended, the failure of the lowest
 * index is thrown (all lower indices had started: the one reported does not depend on timing).
 */
export async function inOrderInFlight<T, R>(
  items: readonly T[],
  limit: () => number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let failedAt = Number.POSITIVE_INFINITY;
  let failure: unknown;
  await inFlight(items.length, limit, async (index) => {
    try {
      results[index] = await work(items[index] as T, index);
      return true;
    } catch (error) {
      if (index < failedAt) {
        failedAt = index;
        failure = error;
      }
      return false;
    }
  });
  if (failedAt !== Number.POSITIVE_INFINITY) throw failure;
  return results;
}
