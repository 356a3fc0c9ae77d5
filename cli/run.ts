/**
 * `collect-conformance [run]`: maps flags onto the PCS_* variables (flags win over the
 * environment, which wins over .env), validates the configuration before anything runs,
 * then runs the suite through Playwright's runner with the package's own configuration,
 * and turns the outcome into an exit code: 0 pass, 1 non-conformance, 2 usage or
 * configuration error, 3 target unavailable, 4 internal error.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, configErrorLine, loadConfig, loadDotEnv, workersSetting } from '../support/lifecycle/config.ts';
import { probeRoundTrip, workersForRoundTrip } from '../support/lifecycle/round-trip-probe.ts';
import { refuseLeakingDiagnostics } from '../support/lifecycle/debug-guard.ts';
import { checkVariableNames } from '../support/lifecycle/variable-names.ts';
import { allureResultsDirOf, prepareOutputDirectory } from '../support/lifecycle/output-directory.ts';
import { propertyPathPattern, propertySettings } from '../support/generation/property-settings.ts';
import { inFlightSetting } from '../support/http/in-flight.ts';
import { invocationPrefix, invocationVariable } from '../support/generation/replay-command.ts';
import { markerFileName, transportVariables } from '../support/http/transport.ts';
import { modulePath } from '../support/lifecycle/module-paths.ts';
import { parseArgs, positiveIntegerCheck, UsageError, type FlagSpec } from './args.ts';
import { ExitCode } from './exit-codes.ts';
import { operationPattern, parseOperations } from './operation-selection.ts';
import { checkPassThrough, checkRegExp, checkReporters, shardProblem } from './playwright-options.ts';
import { runPlaywright } from './playwright-child.ts';
import { decideExitCode, forgetEarlierVerdicts, killedRunnerLine, nonConformanceRecorded } from './run-exit-code.ts';

export const packageRoot = fileURLToPath(new URL('..', import.meta.url));
export const playwrightConfig = resolve(packageRoot, modulePath('playwright.config.ts'));

/** The flags that name the variable a key is read from (a key itself is never a flag). */
const variableNameCheck = (value: string): string | undefined =>
  /^[A-Za-z_][A-Za-z0-9_]*$/.test(value)
    ? undefined
    : `must be the name of an environment variable, got "${value.slice(0, 40)}"`;

export const runFlags: FlagSpec[] = [
  { name: 'base-url', value: true },
  { name: 'secret-key-env', value: true, check: variableNameCheck },
  { name: 'second-secret-key-env', value: true, check: variableNameCheck },
  {
    name: 'environment',
    value: true,
    check: (value) =>
      value === 'sandbox' || value === 'live' ? undefined : `must be sandbox or live, got "${value.slice(0, 40)}"`,
  },
  { name: 'balance-id', value: true, check: positiveIntegerCheck },
  { name: 'currency-id', value: true, check: positiveIntegerCheck },
  { name: 'grep', value: true },
  { name: 'operation', value: true, repeatable: true, check: (value) => operationProblem(value) },
  { name: 'documented-only', value: false },
  { name: 'strict', value: false },
  { name: 'shard', value: true, check: (value) => shardProblem(value) },
  { name: 'runs', value: true, check: positiveIntegerCheck },
  {
    name: 'seed',
    value: true,
    check: (value) => (/^-?\d{1,10}$/.test(value) ? undefined : `must be an integer, got "${value.slice(0, 40)}"`),
  },
  {
    name: 'path',
    value: true,
    // As PCS_PATH: a stateful test's path carries "~" and the commands that ran (the replay line prints it so).
    check: (value) =>
      propertyPathPattern.test(value) ? undefined : `must be a path like 3:1:0 as printed, got "${value.slice(0, 40)}"`,
  },
  { name: 'reporter', value: true },
  { name: 'output', value: true },
  { name: 'workers', value: true, check: (value) => workersProblem(value) },
  { name: 'list', value: false },
];

/** The rule of PCS_WORKERS (support/lifecycle/config.ts), for the flag that sets it. */
function workersProblem(value: string): string | undefined {
  try {
    workersSetting({ PCS_WORKERS: value });
    return undefined;
  } catch (error) {
    if (error instanceof ConfigError) return error.message.replace(/^PCS_WORKERS: /, '');
    throw error;
  }
}

const isConsoleReporter = (name: string): boolean => name === 'list' || name === 'line' || name === 'dot';

function operationProblem(value: string): string | undefined {
  try {
    parseOperations([value]);
    return undefined;
  } catch (error) {
    if (error instanceof UsageError) return error.message.replace(/^--operation: /, '');
    throw error;
  }
}

/**
 * A regular expression matching tests that carry @documented (--documented-only), the user's pattern
 * (--grep) and a rule or the name of one of the operations (--operation): each given condition, by lookahead.
 */
export function grepPattern(
  grep: string | undefined,
  documentedOnly: boolean,
  operationIds: readonly string[] = [],
): string | undefined {
  const conditions = [
    ...(documentedOnly ? ['@documented'] : []),
    ...(grep !== undefined ? [grep] : []),
    ...(operationIds.length > 0 ? [operationPattern(operationIds)] : []),
  ];
  if (conditions.length === 0) return undefined;
  if (conditions.length === 1 && grep === undefined) return conditions[0];
  if (conditions.length === 1) return grep;
  return conditions.map((condition) => `(?=.*(?:${condition}))`).join('');
}

/** Applies the flags to an environment (a copy of process.env): flags win. */
export function environmentFromFlags(flags: Map<string, string | true>, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const result: NodeJS.ProcessEnv = { ...env };
  const set = (flag: string, variable: string) => {
    const value = flags.get(flag);
    if (typeof value === 'string') result[variable] = value;
  };
  set('base-url', 'PCS_BASE_URL');
  set('environment', 'PCS_ENVIRONMENT');
  set('balance-id', 'PCS_BALANCE_ID');
  set('currency-id', 'PCS_CURRENCY_ID');
  set('runs', 'PCS_RUNS');
  set('seed', 'PCS_SEED');
  set('path', 'PCS_PATH');
  set('workers', 'PCS_WORKERS');
  if (flags.get('strict') === true) result.PCS_STRICT = 'yes';
  for (const [flag, variable] of [
    ['secret-key-env', 'PCS_SECRET_KEY'],
    ['second-secret-key-env', 'PCS_SECOND_SECRET_KEY'],
  ] as const) {
    const keyVariable = flags.get(flag);
    if (typeof keyVariable !== 'string') continue;
    const key = env[keyVariable];
    if (key === undefined || key.trim() === '') {
      throw new UsageError(`--${flag} ${keyVariable}: that environment variable is not set or empty`);
    }
    result[variable] = key;
    // Messages and curl lines about the key name the variable the user chose (support/lifecycle/config.ts).
    if (variable === 'PCS_SECRET_KEY') result.COLLECT_CONFORMANCE_KEY_VARIABLE = keyVariable;
  }
  if (typeof flags.get('secret-key-env') !== 'string') delete result.COLLECT_CONFORMANCE_KEY_VARIABLE;
  const reporter = flags.get('reporter');
  if (typeof reporter === 'string' && isConsoleReporter(reporter))
    result.COLLECT_CONFORMANCE_CONSOLE_REPORTER = reporter;
  const output = flags.get('output');
  const outputDir = typeof output === 'string' ? output : (env.PCS_OUTPUT_DIR ?? 'reports');
  // Set but empty stays empty, so that checkVariableNames refuses it instead of writing into the working directory.
  result.PCS_OUTPUT_DIR = outputDir.trim() === '' ? outputDir : resolve(outputDir);
  return result;
}

export function playwrightArguments(flags: Map<string, string | true>, rest: string[]): string[] {
  const args = ['test', '--config', playwrightConfig];
  const operationFlag = flags.get('operation');
  const grep = grepPattern(
    flags.get('grep') as string | undefined,
    flags.get('documented-only') === true,
    typeof operationFlag === 'string' ? parseOperations([operationFlag]) : [],
  );
  if (grep !== undefined) args.push('--grep', grep);
  const shard = flags.get('shard');
  if (typeof shard === 'string') args.push('--shard', shard);
  const reporter = flags.get('reporter');
  // A console reporter only swaps the console output (COLLECT_CONFORMANCE_CONSOLE_REPORTER, see environmentFromFlags);
  // any other reporter replaces the configured ones, as Playwright's own --reporter does.
  if (typeof reporter === 'string' && !isConsoleReporter(reporter)) args.push('--reporter', reporter);
  if (flags.get('list') === true) args.push('--list');
  return [...args, ...rest];
}

const require = createRequire(import.meta.url);

function playwrightCli(): string {
  return require.resolve('@playwright/test/cli');
}

/**
 * PCS_CPU_PROFILE=DIR: the runner (which hosts the embedded mock and the reporters) and every
 * worker write a V8 CPU profile into DIR (Node refuses --cpu-prof in NODE_OPTIONS; Playwright
 * forks its workers with the runner's own Node arguments, so they inherit it). A profile holds
 * function names and times, never the key. `npm run profile` runs and summarises it.
 */
export function profilerArguments(env: NodeJS.ProcessEnv): string[] {
  const dir = env.PCS_CPU_PROFILE?.trim();
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(dir)}`] : [];
}

/**
 * Everything that can be checked before Playwright starts: the variables (live guard included),
 * debug output that would print the key, the output directories, and what is handed to
 * Playwright (reporters, grep, arguments after --). Throws ConfigError or UsageError.
 */
export function validateRun(flags: Map<string, string | true>, rest: string[], env: NodeJS.ProcessEnv): void {
  refuseLeakingDiagnostics(env);
  checkVariableNames(env);
  loadConfig(env);
  workersSetting(env);
  transportVariables(env);
  propertySettings(env);
  inFlightSetting(env);
  const grep = flags.get('grep');
  if (typeof grep === 'string') checkRegExp(grep, '--grep');
  const reporter = flags.get('reporter');
  if (typeof reporter === 'string' && !isConsoleReporter(reporter)) checkReporters(reporter);
  checkPassThrough(rest);
  prepareOutputDirectory(env.PCS_OUTPUT_DIR!, flags.has('output') ? '--output' : 'PCS_OUTPUT_DIR');
  prepareOutputDirectory(allureResultsDirOf(env), 'ALLURE_RESULTS_DIR');
  if (env.PCS_CPU_PROFILE?.trim()) prepareOutputDirectory(env.PCS_CPU_PROFILE.trim(), 'PCS_CPU_PROFILE');
}

/**
 * PCS_WORKERS unset and a target of the user's: more workers when it is far away
 * (support/lifecycle/round-trip-probe.ts), said in one line.
 */
async function chooseWorkers(env: NodeJS.ProcessEnv): Promise<void> {
  const baseUrl = env.PCS_BASE_URL?.trim();
  if (!baseUrl || env.PCS_WORKERS?.trim()) return;
  const medianMs = await probeRoundTrip(baseUrl);
  const workers = workersForRoundTrip(medianMs);
  if (workers === undefined || medianMs === undefined) return;
  env.COLLECT_CONFORMANCE_AUTO_WORKERS = String(workers);
  process.stdout.write(
    `collect-conformance: the target answers in ${Math.round(medianMs)} ms: ${workers} workers ` +
      `(PCS_WORKERS or --workers sets them)\n`,
  );
}

export async function run(argv: string[]): Promise<number> {
  const { flags, rest } = parseArgs(argv, runFlags);
  loadDotEnv();
  const env = environmentFromFlags(flags, process.env);
  // A failed property's replay line repeats this command as typed (support/generation/replay-command.ts).
  const installed = packageRoot.split(/[\\/]/).includes('node_modules');
  env[invocationVariable] = JSON.stringify({ prefix: invocationPrefix(process.env, installed), args: argv });
  try {
    validateRun(flags, rest, env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${configErrorLine(error)}\n`);
      return ExitCode.usage;
    }
    throw error;
  }
  const outputDir = env.PCS_OUTPUT_DIR!;
  forgetEarlierVerdicts(outputDir);
  await chooseWorkers(env);
  const { code, stoppedBy, killedBy, pid, notStarted } = await runPlaywright(
    process.execPath,
    [...profilerArguments(env), playwrightCli(), ...playwrightArguments(flags, rest)],
    env,
  );
  // After a newline: the console reporter may have been in the middle of a line of dots.
  if (killedBy !== null && stoppedBy === null) process.stderr.write(`\n${killedRunnerLine(killedBy, pid)}\n`);
  return decideExitCode({
    runnerCode: code,
    runnerNotStarted: notStarted,
    runnerPid: pid,
    runnerKilledBy: killedBy,
    stoppedBy,
    nonConformance: nonConformanceRecorded(outputDir),
    targetUnavailable: existsSync(resolve(outputDir, markerFileName)),
  });
}
