/**
 * The PCS_* names of the environment, checked before anything else reads them. A CI job whose
 * repository variable is missing gets `PCS_BASE_URL=` (set, empty), and a typo in .env
 * (`PCS_BASEURL`) is silently ignored: either way the run used to test the embedded mock and
 * pass. Both are configuration errors: one line naming the variable, exit code 2, with the
 * nearest known name suggested for a name the suite does not know.
 */
import { ConfigError } from './config-error.ts';
import { nearestName } from './nearest-name.ts';
import { variableSettings } from './settings.ts';

type Env = Record<string, string | undefined>;

/** Every PCS_* variable the suite reads: the variables of the settings table. */
export const knownVariables: readonly string[] = variableSettings.map((row) => row.variable);

/** The known name nearest to a mistyped one, when it is near enough to be what was meant. */
export function nearestVariable(name: string): string | undefined {
  return nearestName(name, knownVariables, (text) => text.toUpperCase());
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
