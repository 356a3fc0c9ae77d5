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
import { ConfigError, configErrorLine, loadConfig, loadDotEnv } from '../settings/config.ts';
import { probeDistance, workersForRoundTrip } from '../settings/round-trip-probe.ts';
import { refuseLeakingDiagnostics } from '../settings/debug-guard.ts';
import { checkVariableNames, printVariableWarnings, variablesCheckedVariable } from '../settings/variable-names.ts';
import { allureResultsDirOf, prepareOutputDirectory } from '../output/output-directory.ts';
import { readSetting, settingText, validateSettings } from '../settings/read-setting.ts';
import { isConsoleReporter } from '../settings/selection-values.ts';
import { settings } from '../settings/settings.ts';
import { propertySettings } from '../generation/property-settings.ts';
import { invocationPrefix, invocationVariable } from '../generation/replay-command.ts';
import { markerFileName } from '../http/transport.ts';
import { modulePath } from '../settings/module-paths.ts';
import { parseArgs, UsageError } from './args.ts';
import { commandHelp } from './help.ts';
import { ExitCode } from './exit-codes.ts';
import { operationPattern } from './operation-selection.ts';
import { checkPassThrough, reporterProblem } from './playwright-options.ts';
import { runPlaywright } from './playwright-child.ts';
import { decideExitCode, forgetEarlierVerdicts, killedRunnerLine, nonConformanceRecorded } from './run-exit-code.ts';
import { environmentFromFlags, runFlags, variablesFromFlags } from './run-flags.ts';

export { environmentFromFlags, runFlags };

export const packageRoot = fileURLToPath(new URL('..', import.meta.url));
export const playwrightConfig = resolve(packageRoot, modulePath('playwright.config.ts'));

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

/**
 * What the command hands to Playwright: the selection (PCS_GREP, PCS_DOCUMENTED_ONLY, PCS_OPERATION),
 * the shard and the reporter, from the environment with the flags applied, and --list.
 */
export function playwrightArguments(
  flags: Map<string, string | true>,
  rest: string[],
  env: NodeJS.ProcessEnv = {},
): string[] {
  const values = { ...env, ...variablesFromFlags(flags) };
  const args = ['test', '--config', playwrightConfig];
  const grep = grepPattern(
    readSetting(values, settings.grep),
    readSetting(values, settings.documentedOnly),
    readSetting(values, settings.operation),
  );
  if (grep !== undefined) args.push('--grep', grep);
  const shard = readSetting(values, settings.shard);
  if (shard !== undefined) args.push('--shard', shard);
  const reporter = readSetting(values, settings.reporter);
  // A console reporter only swaps the console output (COLLECT_CONFORMANCE_CONSOLE_REPORTER, see environmentFromFlags);
  // any other reporter replaces the configured ones, as Playwright's own --reporter does.
  if (reporter !== undefined && !isConsoleReporter(reporter)) args.push('--reporter', reporter);
  if (flags.get(settings.list.flag.name) === true) args.push('--list');
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
  const dir = readSetting(env, settings.cpuProfile);
  return dir !== undefined ? ['--cpu-prof', `--cpu-prof-dir=${resolve(dir)}`] : [];
}

/**
 * Everything that can be checked before Playwright starts: the variables (live guard included),
 * debug output that would print the key, the output directories, and what is handed to
 * Playwright (reporters, grep, arguments after --). Throws ConfigError or UsageError; returns the warnings
 * about PCS_* names of the environment the suite does not know.
 */
export function validateRun(flags: Map<string, string | true>, rest: string[], env: NodeJS.ProcessEnv): string[] {
  refuseLeakingDiagnostics(env);
  const warnings = checkVariableNames(env);
  loadConfig(env);
  validateSettings(env);
  propertySettings(env);
  const reporter = readSetting(env, settings.reporter);
  if (reporter !== undefined && !isConsoleReporter(reporter)) {
    const problem = reporterProblem(reporter);
    if (problem !== undefined) {
      if (flags.has(settings.reporter.flag.name)) throw new UsageError(`--${settings.reporter.flag.name}: ${problem}`);
      throw new ConfigError(settings.reporter.variable, problem);
    }
  }
  checkPassThrough(rest);
  const outputFlag = flags.has(settings.outputDir.flag.name);
  prepareOutputDirectory(env.PCS_OUTPUT_DIR!, outputFlag ? `--${settings.outputDir.flag.name}` : 'PCS_OUTPUT_DIR');
  prepareOutputDirectory(allureResultsDirOf(env), 'ALLURE_RESULTS_DIR');
  const profileDir = readSetting(env, settings.cpuProfile);
  if (profileDir !== undefined) prepareOutputDirectory(profileDir, 'PCS_CPU_PROFILE');
  return warnings;
}

/**
 * PCS_WORKERS unset and a target of the user's: more workers when it is far away
 * (settings/round-trip-probe.ts), said in one line.
 */
async function chooseWorkers(env: NodeJS.ProcessEnv): Promise<void> {
  const baseUrl = settingText(env, settings.baseUrl);
  if (baseUrl === undefined || settingText(env, settings.workers) !== undefined) return;
  const medianMs = await probeDistance(baseUrl);
  const workers = workersForRoundTrip(medianMs);
  if (workers === undefined || medianMs === undefined) return;
  env.COLLECT_CONFORMANCE_AUTO_WORKERS = String(workers);
  process.stdout.write(
    `collect-conformance: the target answers in ${Math.round(medianMs)} ms: ${workers} workers ` +
      `(PCS_WORKERS or --workers sets them)\n`,
  );
}

export async function run(argv: string[]): Promise<number> {
  const { flags, rest, help } = parseArgs(argv, runFlags);
  if (help) {
    process.stdout.write(commandHelp('run'));
    return ExitCode.pass;
  }
  loadDotEnv();
  const env = environmentFromFlags(flags, process.env);
  // A failed property's replay line repeats this command as typed (generation/replay-command.ts).
  const installed = packageRoot.split(/[\\/]/).includes('node_modules');
  env[invocationVariable] = JSON.stringify({ prefix: invocationPrefix(process.env, installed), args: argv });
  try {
    printVariableWarnings(validateRun(flags, rest, env));
    // Said once: global setup, in the runner, does not repeat the warnings.
    env[variablesCheckedVariable] = '1';
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${configErrorLine(error)}\n`);
      return ExitCode.usage;
    }
    throw error;
  }
  const outputDir = env.PCS_OUTPUT_DIR!;
  // A listing runs nothing: it keeps the last run's reports.
  const forgotten = flags.get(settings.list.flag.name) !== true ? forgetEarlierVerdicts(outputDir) : Promise.resolve();
  await chooseWorkers(env);
  const { code, stoppedBy, killedBy, pid, notStarted } = await runPlaywright(
    process.execPath,
    [...profilerArguments(env), playwrightCli(), ...playwrightArguments(flags, rest, env)],
    env,
  );
  await forgotten;
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
