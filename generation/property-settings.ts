/**
 * The property tests' settings (PCS_RUNS, PCS_SEED, PCS_PATH, PCS_PROPERTY_BUDGET_MS,
 * PCS_SHRINK), validated through their rows of the settings table. A module of its own, without
 * fast-check or Playwright, because the command validates them before it starts Playwright and
 * should not load the generators to do so.
 */
import { ConfigError } from '../settings/config-error.ts';
import { readSetting } from '../settings/read-setting.ts';
import { settings } from '../settings/settings.ts';

export { propertyPathPattern } from '../settings/setting-values.ts';

export interface PropertySettings {
  /** Generated cases per property (PCS_RUNS). */
  runs: number;
  /** Seed to replay (PCS_SEED); unset: a fresh seed, printed on failure. */
  seed: number | undefined;
  /** Path of a counterexample to replay exactly (PCS_PATH, needs PCS_SEED), without its replay suffix. */
  path: string | undefined;
  /**
   * Stateful tests: which commands of each shrunk sequence ran (the "~..." suffix of PCS_PATH; fc.commands replayPath).
   */
  replayPath: string | undefined;
  /**
   * Time budget of each property in ms (PCS_PROPERTY_BUDGET_MS): a
   * run stops generating after it and passes with what it checked.
   */
  budgetMs: number;
  /**
   * Shrink a failing case to a minimal one (PCS_SHRINK, default yes). no: report the first
   * failing case as it was generated, at once (the mutation run needs the kill, not the minimum).
   */
  shrink: boolean;
}

export const defaultRuns = settings.runs.default;
export const defaultBudgetMs = settings.propertyBudgetMs.default;

export type Env = Record<string, string | undefined>;

export function propertySettings(env: Env): PropertySettings {
  const runs = readSetting(env, settings.runs);
  const seed = readSetting(env, settings.seed);
  const fullPath = readSetting(env, settings.path);
  const [path, replayPath] =
    fullPath === undefined ? [undefined, undefined] : (fullPath.split('~') as [string, string | undefined]);
  if (path !== undefined && seed === undefined)
    throw new ConfigError('PCS_PATH', 'needs PCS_SEED: a path replays a case of one seed');
  return {
    shrink: readSetting(env, settings.shrink),
    runs,
    seed,
    path,
    replayPath,
    budgetMs: readSetting(env, settings.propertyBudgetMs),
  };
}
