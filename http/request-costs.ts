/**
 * Where the time of generated requests goes, by phase, for npm run bench: the property runner
 * and the keep-alive client add what each phase took, and each property test writes its totals
 * with its statistics (generation/properties.ts). Off unless PCS_COST_BREAKDOWN=1 (the
 * bench sets it): the suite's own runs do not pay for the clock.
 *
 * Phases: generation (fast-check: generating, filtering, the runner itself), build (the request:
 * path, headers, body text), transport (on the wire, the transport policy included), parse (the
 * response as JSON), mask (secrets masked in the recorded exchange), ledger (the run ledger),
 * validation (JSON Schemas), checks (the rest of a case: checks, the model, the test's logic),
 * recording (statistics and attachments of the property).
 */
import { readSettingOrDefault } from '../settings/read-setting.ts';
import { settings } from '../settings/settings.ts';
export const costPhases = [
  'generation',
  'build',
  'transport',
  'parse',
  'mask',
  'ledger',
  'validation',
  'checks',
  'recording',
] as const;
export type CostPhase = (typeof costPhases)[number];

// Read when the module loads, which can be before global setup has refused a wrong value.
export const costsEnabled = readSettingOrDefault(process.env, settings.costBreakdown);

const totals = new Map<CostPhase, number>();

/** Adds what a phase took (milliseconds). */
export function addCost(phase: CostPhase, ms: number): void {
  if (costsEnabled) totals.set(phase, (totals.get(phase) ?? 0) + ms);
}

/** What a phase has taken so far (milliseconds). */
export function peekCost(phase: CostPhase): number {
  return totals.get(phase) ?? 0;
}

/** Times a synchronous piece of work as a phase. */
export function timed<T>(phase: CostPhase, work: () => T): T {
  if (!costsEnabled) return work();
  const started = performance.now();
  try {
    return work();
  } finally {
    addCost(phase, performance.now() - started);
  }
}

/** The totals since the last call (milliseconds by phase), emptied; undefined when off. */
export function takeCosts(): Partial<Record<CostPhase, number>> | undefined {
  if (!costsEnabled) return undefined;
  const taken = Object.fromEntries([...totals.entries()].map(([phase, ms]) => [phase, Math.round(ms * 1000) / 1000]));
  totals.clear();
  return taken;
}
