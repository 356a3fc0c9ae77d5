/**
 * The PCS_* names of the environment, checked before anything else reads them. A CI job whose
 * repository variable is missing gets `PCS_BASE_URL=` (set, empty), and a typo in .env
 * (`PCS_BASEURL`) is silently ignored: either way the run used to test the embedded mock and
 * pass. A variable of the suite set but empty, and a name the suite does not know in .env (the
 * suite's own file), are configuration errors: one line naming the variable, exit code 2, with the
 * nearest known name suggested. A name the suite does not know in the environment is a warning,
 * with the nearest known name, and the run goes on: the environment is shared, and a CI job's own
 * `PCS_BUILD` is not the suite's to refuse.
 */
import { ConfigError } from './config-error.ts';
import { nearestName } from './nearest-name.ts';
import { variableSettings } from './settings.ts';
import { namesFromDotEnv } from './dot-env.ts';

type Env = Record<string, string | undefined>;

/** Every PCS_* variable the suite reads: the variables of the settings table. */
export const knownVariables: readonly string[] = variableSettings.map((row) => row.variable);

/**
 * Set by the command (and passed on to the runner it starts) once it has checked the names and printed its
 * warnings, so that global setup does not print them a second time. The suite's own, not a user's.
 */
export const variablesCheckedVariable = 'COLLECT_CONFORMANCE_VARIABLES_CHECKED';

/** The known name nearest to a mistyped one, when it is near enough to be what was meant. */
export function nearestVariable(name: string): string | undefined {
  return nearestName(name, knownVariables, (text) => text.toUpperCase());
}

function unknownName(name: string): string {
  const nearest = nearestVariable(name);
  return (
    `is not a variable of collect-conformance${nearest ? `; did you mean ${nearest}?` : ''} ` +
    '(collect-conformance --help lists them)'
  );
}

/**
 * Throws a ConfigError for the first PCS_* variable of the suite that is set but empty, or the first name the
 * suite does not know that .env sets; returns a warning line for each name the suite does not know that the
 * environment sets (it is ignored).
 */
export function checkVariableNames(
  env: Env = process.env,
  fromDotEnv: ReadonlySet<string> = namesFromDotEnv(),
): string[] {
  const names = Object.keys(env)
    .filter((name) => name.startsWith('PCS_'))
    .sort();
  const unknown = names.filter((name) => !knownVariables.includes(name));
  for (const name of unknown.filter((candidate) => fromDotEnv.has(candidate)))
    throw new ConfigError(name.slice(0, 60), `in .env ${unknownName(name)}`);
  for (const name of names) {
    if (!unknown.includes(name) && env[name]?.trim() === '') {
      throw new ConfigError(
        name,
        'is set but empty (a CI variable or secret that is missing?); give it a value, or unset it for the default',
      );
    }
  }
  return unknown.map(
    (name) => `collect-conformance: warning: ${name.slice(0, 60)} ${unknownName(name)}; ignored, the run goes on`,
  );
}

/** The warnings of checkVariableNames, on stderr. */
export function printVariableWarnings(warnings: readonly string[]): void {
  for (const warning of warnings) process.stderr.write(`${warning}\n`);
}
