/**
 * The property tests' settings (PCS_RUNS, PCS_SEED, PCS_PATH, PCS_PROPERTY_BUDGET_MS,
 * PCS_SHRINK), validated. A module of its own, without fast-check or Playwright, because the
 * command validates them before it starts Playwright and should not load the generators to do so.
 */
import { ConfigError } from '../lifecycle/config.ts';

/** A path as a failing property prints it: numbers separated by ":"; for stateful tests, "~" and the replay path. */
export const propertyPathPattern = /^\d{1,9}(:\d{1,9}){0,9999}(~[A-Za-z0-9+/=_:-]{0,10000})?$/;

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

export const defaultRuns = 100;
export const defaultBudgetMs = 30_000;

export type Env = Record<string, string | undefined>;

function value(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw === undefined || raw === '' ? undefined : raw;
}

export function propertySettings(env: Env = process.env): PropertySettings {
  const runsText = value(env, 'PCS_RUNS');
  if (runsText !== undefined && (!/^\d{1,7}$/.test(runsText) || Number(runsText) < 1)) {
    throw new ConfigError(
      'PCS_RUNS',
      `must be a positive integer (cases per property), got "${runsText.slice(0, 40)}"`,
    );
  }
  const seedText = value(env, 'PCS_SEED');
  if (seedText !== undefined && (!/^-?\d{1,10}$/.test(seedText) || Math.abs(Number(seedText)) > 2 ** 31)) {
    throw new ConfigError(
      'PCS_SEED',
      `must be an integer as printed by a failing property (32-bit), got "${seedText.slice(0, 40)}"`,
    );
  }
  const fullPath = value(env, 'PCS_PATH');
  if (fullPath !== undefined && !propertyPathPattern.test(fullPath)) {
    throw new ConfigError(
      'PCS_PATH',
      `must be a path as printed by a failing property (numbers separated by ":"), got "${fullPath.slice(0, 40)}"`,
    );
  }
  const [path, replayPath] =
    fullPath === undefined ? [undefined, undefined] : (fullPath.split('~') as [string, string | undefined]);
  if (path !== undefined && seedText === undefined)
    throw new ConfigError('PCS_PATH', 'needs PCS_SEED: a path replays a case of one seed');
  const budgetText = value(env, 'PCS_PROPERTY_BUDGET_MS');
  if (budgetText !== undefined && (!/^\d{1,9}$/.test(budgetText) || Number(budgetText) < 100)) {
    throw new ConfigError(
      'PCS_PROPERTY_BUDGET_MS',
      `must be an integer of at least 100 (milliseconds per property), got "${budgetText.slice(0, 40)}"`,
    );
  }
  const shrinkText = value(env, 'PCS_SHRINK');
  if (shrinkText !== undefined && shrinkText !== 'yes' && shrinkText !== 'no') {
    throw new ConfigError('PCS_SHRINK', `must be "yes" or "no", got "${shrinkText.slice(0, 40)}"`);
  }
  return {
    shrink: shrinkText !== 'no',
    runs: runsText === undefined ? defaultRuns : Number(runsText),
    seed: seedText === undefined ? undefined : Number(seedText),
    path,
    replayPath,
    budgetMs: budgetText === undefined ? defaultBudgetMs : Number(budgetText),
  };
}
