/**
 * npm run report: builds the Allure HTML report, offline, from the last run's results
 * (${PCS_OUTPUT_DIR:-reports}/allure-results/, which every run replaces) with the Allure 3 CLI and allurerc.mjs: one
 * self-contained file, ${PCS_OUTPUT_DIR:-reports}/allure-report/index.html. History (trend,
 * flaky, changed status) accumulates in ${PCS_OUTPUT_DIR:-reports}/allure-history.jsonl,
 * so it works across runs as long as that file is kept.
 *
 *   npm run report            # after npm run conformance
 *   ALLURE_RESULTS_DIR=dir ALLURE_REPORT_DIR=out npm run report
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allureResultsDirOf, outputRootOf } from '../output/output-directory.ts';
import { settings } from '../settings/settings.ts';
import { parseArgs, UsageError } from './args.ts';
import { commandHelp } from './help.ts';
import { commandFlags } from './run-flags.ts';

export const usageExitCode = 2;

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface ReportPaths {
  resultsDir: string;
  reportDir: string;
  historyPath: string;
}

/** Where the results are read and the report and its history written (the same variables allurerc.mjs reads). */
export function reportPaths(env: NodeJS.ProcessEnv = process.env): ReportPaths {
  const outputRoot = outputRootOf(env);
  return {
    resultsDir: resolve(allureResultsDirOf(env)),
    reportDir: resolve(env.ALLURE_REPORT_DIR ?? join(outputRoot, 'allure-report')),
    historyPath: resolve(env.ALLURE_HISTORY_PATH ?? join(outputRoot, 'allure-history.jsonl')),
  };
}

/** The Allure CLI of this package (not a global one, whose version could differ). */
function allureCli(): string {
  const require = createRequire(import.meta.url);
  // The package exports only dist/index.js; its bin, cli.js, sits one level up.
  return join(dirname(require.resolve('allure')), '..', 'cli.js');
}

export function buildReport(
  paths: ReportPaths = reportPaths(),
): { ok: true; file: string } | { ok: false; message: string } {
  if (!existsSync(paths.resultsDir) || !readdirSync(paths.resultsDir).some((name) => name.endsWith('-result.json'))) {
    return {
      ok: false,
      message: `no Allure results in ${paths.resultsDir}: run the suite first (npm run conformance)`,
    };
  }
  const run = spawnSync(
    process.execPath,
    [
      allureCli(),
      'generate',
      paths.resultsDir,
      '--config',
      join(projectRoot, 'allurerc.mjs'),
      '--output',
      paths.reportDir,
    ],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      env: {
        ...process.env,
        ALLURE_RESULTS_DIR: paths.resultsDir,
        ALLURE_REPORT_DIR: paths.reportDir,
        ALLURE_HISTORY_PATH: paths.historyPath,
      },
    },
  );
  if (run.status !== 0) {
    const detail = `${run.stderr ?? ''}${run.stdout ?? ''}`.trim().split('\n').at(-1) ?? '';
    return { ok: false, message: `allure generate failed (exit ${run.status ?? run.signal}): ${detail}` };
  }
  const file = join(paths.reportDir, 'index.html');
  if (!existsSync(file)) return { ok: false, message: `allure generate wrote no ${file}` };
  return { ok: true, file };
}

/**
 * `collect-conformance report [--output DIR]` (and `npm run report`): builds the report, says where, or why not.
 * A mistake on its command line is a UsageError (one line, exit 2), as every command's.
 */
export function report(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): number {
  const { flags, help } = parseArgs([...argv], commandFlags('report'));
  if (help) {
    process.stdout.write(commandHelp('report'));
    return 0;
  }
  const output = flags.get(settings.outputDir.flag.name);
  const result = buildReport(reportPaths(typeof output === 'string' ? { ...env, PCS_OUTPUT_DIR: output } : env));
  if (!result.ok) {
    process.stderr.write(`collect-conformance report: ${result.message}\n`);
    return usageExitCode;
  }
  process.stdout.write(`collect-conformance: Allure report written to ${result.file} (one file, opens offline)\n`);
  return 0;
}

/** `npm run report`: the command alone, its usage errors in one line. */
function main(argv: readonly string[]): number {
  try {
    return report(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`collect-conformance report: ${error.message}\n`);
    return usageExitCode;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  process.exit(main(process.argv.slice(2)));
