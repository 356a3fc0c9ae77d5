/**
 * Every command's flags, derived from the settings table (settings/settings.ts): each
 * row's flag, checked by the row's own validator, and, for a setting, mapped onto its variable
 * (flags win over the environment, which wins over .env). A secret setting's flag names the
 * variable that holds the key; a flag that would carry the key itself is recognised only to be
 * refused, by every command that takes the key.
 */
import { resolve } from 'node:path';
import { isPlainVariableName, variableNameProblem } from '../settings/key-variable.ts';
import { isConsoleReporter } from '../settings/selection-values.ts';
import {
  isSetting,
  rowsOf,
  settings,
  tableRows,
  valueFlagName,
  type AnySetting,
  type CommandName,
  type TableRow,
} from '../settings/settings.ts';
import { UsageError, type FlagSpec } from './args.ts';

type Flags = Map<string, string | true>;

function keyFlagRefusal(row: AnySetting): string {
  return (
    'keys are never passed as flags (they end up in shell history and process lists); ' +
    `put the key in ${row.variable}, or in a variable named by --${row.flag.name} ${row.flag.placeholder}`
  );
}

function flagSpec(row: TableRow): FlagSpec {
  const { flag } = row;
  const takesValue = flag.placeholder !== undefined;
  const validator = row.parse;
  const check = flag.namesVariable
    ? variableNameProblem
    : validator === undefined
      ? undefined
      : (value: string) => {
          const parsed = validator(value);
          return parsed.ok ? undefined : parsed.problem;
        };
  return { name: flag.name, value: takesValue, check, repeatable: flag.repeatable === true };
}

/** Every flag of a command, in the table's order, then the refused flags that would carry a key it takes. */
export function commandFlags(command: CommandName): FlagSpec[] {
  const rows = rowsOf(command);
  return [
    ...rows.map(flagSpec),
    ...rows
      .filter(isSetting)
      .filter((row) => row.secret === true)
      .map((row) => ({ name: valueFlagName(row), value: false, refused: keyFlagRefusal(row) })),
  ];
}

/** Every flag of the run command. */
export const runFlags: FlagSpec[] = commandFlags('run');

/** The variables the flags set directly (all but those that name a variable). */
export function variablesFromFlags(flags: Flags): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const row of tableRows.filter(isSetting)) {
    const given = flags.get(row.flag.name);
    if (given === undefined || row.flag.namesVariable) continue;
    if (given === true) variables[row.variable] = row.flag.sets ?? 'yes';
    else variables[row.variable] = given;
  }
  return variables;
}

/** The value of a variable named by a flag (--secret-key-env NAME); NAME is printed only when plainly a name. */
function namedValue(flagName: string, name: string, env: NodeJS.ProcessEnv): string {
  const value = env[name];
  if (value !== undefined && value.trim() !== '') return value;
  throw new UsageError(
    isPlainVariableName(name)
      ? `--${flagName} ${name}: that environment variable is not set or empty`
      : `--${flagName}: the environment variable it names is not set or empty (its name is not shown: it may be ` +
          'a secret)',
  );
}

/** Applies the flags to an environment (a copy of process.env): flags win. */
export function environmentFromFlags(flags: Flags, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const result: NodeJS.ProcessEnv = { ...env, ...variablesFromFlags(flags) };
  for (const row of tableRows.filter(isSetting)) {
    const name = flags.get(row.flag.name);
    if (!row.flag.namesVariable || typeof name !== 'string') continue;
    result[row.variable] = namedValue(row.flag.name, name, env);
    // Messages and curl lines about the key name the variable the user chose (settings/config.ts).
    if (row === settings.secretKey) result.COLLECT_CONFORMANCE_KEY_VARIABLE = name;
  }
  if (typeof flags.get(settings.secretKey.flag.name) !== 'string') delete result.COLLECT_CONFORMANCE_KEY_VARIABLE;
  const reporter = result[settings.reporter.variable]?.trim();
  if (reporter !== undefined && isConsoleReporter(reporter)) result.COLLECT_CONFORMANCE_CONSOLE_REPORTER = reporter;
  const outputDir = result[settings.outputDir.variable] ?? settings.outputDir.default;
  // Set but empty stays empty, so that checkVariableNames refuses it instead of writing into the working directory.
  result[settings.outputDir.variable] = outputDir.trim() === '' ? outputDir : resolve(outputDir);
  return result;
}
