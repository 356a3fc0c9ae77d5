/**
 * The PCS_* names of the environment, checked before anything else reads them. A CI job whose
 * repository variable is missing gets `PCS_BASE_URL=` (set, empty), and a typo in .env
 * (`PCS_BASEURL`) is silently ignored: either way the run used to test the embedded mock and
 * pass. Both are configuration errors: one line naming the variable, exit code 2, with the
 * nearest known name suggested for a name the suite does not know.
 */
import { ConfigError } from './config.ts';

type Env = Record<string, string | undefined>;

/** Every PCS_* variable the suite reads (docs/reference/configuration.md; tests/unit/config.test.ts compares). */
export const knownVariables: readonly string[] = [
  'PCS_BASE_URL',
  'PCS_SECRET_KEY',
  'PCS_ENVIRONMENT',
  'PCS_ALLOW_LIVE',
  'PCS_ALLOW_LIVE_WRITES',
  'PCS_BALANCE_ID',
  'PCS_CURRENCY_ID',
  'PCS_CURRENCY_ISO',
  'PCS_PAYMENT_MODE',
  'PCS_PHONE_NUMBER',
  'PCS_PHONE_COUNTRY',
  'PCS_TIMEOUT_MS',
  'PCS_RUN_ID',
  'PCS_OUTPUT_DIR',
  'PCS_WORKERS',
  'PCS_STRICT',
  'PCS_REFERENCE_URL',
  'PCS_RETRIES',
  'PCS_MAX_RPS',
  'PCS_RUNS',
  'PCS_PROPERTY_BUDGET_MS',
  'PCS_SEED',
  'PCS_PATH',
  'PCS_SHRINK',
  'PCS_IN_FLIGHT',
  'PCS_SHARD',
  'PCS_BLOB_DIR',
  'PCS_CPU_PROFILE',
  'PCS_COST_BREAKDOWN',
  'PCS_SECOND_SECRET_KEY',
  'PCS_SECOND_BALANCE_ID',
  'PCS_CLOCK_TOLERANCE_S',
];

/** Edit distance (insertions, deletions, substitutions), for the suggestion of a mistyped name. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The known name nearest to a mistyped one, when it is near enough to be what was meant. */
export function nearestVariable(name: string): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const known of knownVariables) {
    const distance = editDistance(name.toUpperCase(), known);
    if (best === undefined || distance < best.distance) best = { name: known, distance };
  }
  // Beyond a third of the name, a suggestion is a guess, not a correction.
  return best !== undefined && best.distance <= Math.max(2, Math.floor(name.length / 3)) ? best.name : undefined;
}

/** Throws a ConfigError for the first PCS_* variable that is set but empty, or that the suite does not know. */
export function checkVariableNames(env: Env = process.env): void {
  const names = Object.keys(env)
    .filter((name) => name.startsWith('PCS_'))
    .sort();
  for (const name of names) {
    if (!knownVariables.includes(name)) {
      const nearest = nearestVariable(name);
      throw new ConfigError(
        name.slice(0, 60),
        `is not a variable of collect-conformance${nearest ? `; did you mean ${nearest}?` : ''} ` +
          '(collect-conformance --help lists them)',
      );
    }
  }
  for (const name of names) {
    if (env[name]?.trim() === '') {
      throw new ConfigError(
        name,
        'is set but empty (a CI variable or secret that is missing?); give it a value, or unset it for the default',
      );
    }
  }
}
