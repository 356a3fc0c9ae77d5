/**
 * The suite across CI machines: each machine runs one shard, the reports are merged at the end.
 *
 *   npm run conformance:shard -- --shard 2/4 [playwright args...]   (or PCS_SHARD=2/4)
 *     runs shard 2 of 4 with every configured reporter plus a blob report in
 *     ${PCS_BLOB_DIR:-reports/blob-report}/ and Allure results in ${ALLURE_RESULTS_DIR:-reports/allure-results}/;
 *     exits like the CLI: 0 pass, 1 non-conformance, 2 configuration error, 3 target unavailable,
 *     4 an internal error (of this command or of the test runner, not the target's).
 *
 *   npm run report:merge -- --blobs all-blob-reports --allure all-allure-results
 *     merges the shards' blob reports (playwright merge-reports) into one HTML report, one
 *     JUnit file, the conformance matrix and the rule coverage under ${PCS_OUTPUT_DIR:-reports}/ (from the tests'
 *     verdict records), and the Allure results of every folder
 *     under --allure (one per shard, as CI artifacts are downloaded) into one folder,
 *     ${ALLURE_RESULTS_DIR:-reports/allure-results}/, then builds the Allure report (npm run report).
 *
 * All shards of one run should share PCS_RUN_ID (the workflows set it), so that what they
 * create is labelled with one run id.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { markerFilePath } from '../http/transport.ts';
import { moduleExtension, modulePath } from '../settings/module-paths.ts';
import { allureResultsDirOf, blobDirOf, outputRootOf } from '../output/output-directory.ts';
import { shard as shardValue } from '../settings/selection-values.ts';
import { settings } from '../settings/settings.ts';
import { parseArgs, UsageError } from './args.ts';
import { ExitCode, internalErrorLine } from './exit-codes.ts';
import { commandHelp } from './help.ts';
import { commandFlags, variablesFromFlags } from './run-flags.ts';
import { decideExitCode, forgetEarlierVerdicts, nonConformanceRecorded } from './run-exit-code.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
// Resolved as a dependency: installed, the package's own folder has no node_modules of its own.
const playwrightCli = createRequire(import.meta.url).resolve('@playwright/test/cli');
const playwrightConfig = resolve(root, modulePath('playwright.config.ts'));

export { UsageError } from './args.ts';

export interface Shard {
  index: number;
  total: number;
}

/** The shard of --shard or PCS_SHARD (the settings table's validator), or a UsageError. */
export function parseShard(text: string | undefined): Shard {
  if (text === undefined || text.trim() === '')
    throw new UsageError('name the shard: --shard I/N (e.g. --shard 2/4), or PCS_SHARD=2/4');
  const parsed = shardValue(text.trim());
  if (!parsed.ok) throw new UsageError(`--shard: ${parsed.problem}`);
  const [index, total] = parsed.value.split('/').map(Number) as [number, number];
  return { index, total };
}

interface Finished {
  code: number;
  /** The spawn itself failed: no process ran. */
  notStarted: boolean;
  pid: number | undefined;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string = process.cwd()): Promise<Finished> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, env, stdio: 'inherit' });
    child.once('error', () => {
      if (child.pid === undefined) done({ code: ExitCode.internal, notStarted: true, pid: undefined });
    });
    child.once('exit', (code, signal) => done({ code: code ?? (signal ? 130 : 1), notStarted: false, pid: child.pid }));
  });
}

export async function runShard(argv: string[], given: NodeJS.ProcessEnv = process.env): Promise<number> {
  // Its own flags wherever they stand; everything else goes to playwright test, in its order.
  const { flags, rest: args, help } = parseArgs(argv, commandFlags('shard'), { passThrough: true });
  if (help) {
    process.stdout.write(commandHelp('shard'));
    return ExitCode.pass;
  }
  const env: NodeJS.ProcessEnv = { ...given, ...variablesFromFlags(flags) };
  const shard = parseShard(env[settings.shard.variable]);
  const blobDir = resolve(blobDirOf(env));
  const childEnv: NodeJS.ProcessEnv = {
    ...env,
    PCS_BLOB_DIR: blobDir,
    ALLURE_RESULTS_DIR: resolve(allureResultsDirOf(env)),
  };
  // A blob report from an earlier run in the same folder would be merged as if it were a shard of this one.
  rmSync(blobDir, { recursive: true, force: true });
  const outputDir = resolve(outputRootOf(env));
  await forgetEarlierVerdicts(outputDir);
  const runner = await run(
    process.execPath,
    [playwrightCli, 'test', '--config', playwrightConfig, `--shard=${shard.index}/${shard.total}`, ...args],
    childEnv,
  );
  // The command's own reading of the outcome: a non-conformance wins over an unavailable target.
  return decideExitCode(
    {
      runnerCode: runner.code,
      runnerNotStarted: runner.notStarted,
      runnerPid: runner.pid,
      stoppedBy: null,
      nonConformance: nonConformanceRecorded(outputDir),
      targetUnavailable: existsSync(markerFilePath(childEnv)),
    },
    'collect-conformance shards',
  );
}

/** Copies every file of each results folder into one; Allure result files have unique names. */
export function mergeAllureResults(sources: string[], destination: string): number {
  mkdirSync(destination, { recursive: true });
  let copied = 0;
  for (const source of sources) {
    for (const entry of readdirSync(source, { withFileTypes: true })) {
      if (entry.isFile()) {
        copyFileSync(join(source, entry.name), join(destination, entry.name));
        copied += 1;
      }
    }
  }
  return copied;
}

/**
 * The folders holding Allure results under a folder: itself if
 * it holds result files, else its subfolders (one per shard).
 */
export function allureFolders(folder: string): string[] {
  if (!existsSync(folder)) return [];
  const entries = readdirSync(folder, { withFileTypes: true });
  if (entries.some((entry) => entry.isFile() && entry.name.endsWith('-result.json'))) return [folder];
  return entries.filter((entry) => entry.isDirectory()).flatMap((entry) => allureFolders(join(folder, entry.name)));
}

export async function mergeShards(argv: string[], given: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { flags, rest, help } = parseArgs(argv, commandFlags('merge'));
  if (help) {
    process.stdout.write(commandHelp('merge'));
    return ExitCode.pass;
  }
  if (rest.length > 0) throw new UsageError('report:merge takes flags only, nothing after --');
  const env: NodeJS.ProcessEnv = { ...given, ...variablesFromFlags(flags) };
  const value = (name: string): string | undefined => {
    const given = flags.get(name);
    return typeof given === 'string' ? given : undefined;
  };
  const blobs = resolve(value(settings.blobs.flag.name) ?? 'all-blob-reports');
  const allure = resolve(value(settings.allure.flag.name) ?? 'all-allure-results');
  const buildAllure = value(settings.allureReport.flag.name) !== 'no';
  if (!existsSync(blobs) || !statSync(blobs).isDirectory())
    throw new UsageError(`no blob reports at ${blobs} (download every shard's blob-report artifact there)`);
  const outputRoot = resolve(outputRootOf(env));
  const mergeEnv: NodeJS.ProcessEnv = {
    ...env,
    PLAYWRIGHT_HTML_OUTPUT_DIR: join(outputRoot, 'html'),
    PLAYWRIGHT_HTML_OPEN: 'never',
    PCS_OUTPUT_DIR: outputRoot,
  };
  const { code: merged } = await run(
    process.execPath,
    [
      playwrightCli,
      'merge-reports',
      '--config',
      playwrightConfig,
      `--reporter=list,html,${resolve(root, modulePath('reporters/conformance-reporter.ts'))}`,
      blobs,
    ],
    mergeEnv,
  );
  if (merged !== 0 && merged !== 1) return merged;

  const folders = allureFolders(allure);
  const resultsDir = resolve(allureResultsDirOf(env));
  if (folders.length > 0) {
    rmSync(resultsDir, { recursive: true, force: true });
    const copied = mergeAllureResults(folders, resultsDir);
    process.stdout.write(
      `report:merge: ${copied} Allure result files from ${folders.length} shard(s) into ${resultsDir}\n`,
    );
    const report = resolve(root, modulePath('cli/report.ts'));
    if (buildAllure && existsSync(report)) {
      // From the project folder, where tsx resolves in a checkout; every path it gets is absolute.
      const { code: built } = await run(
        process.execPath,
        moduleExtension === '.ts' ? ['--import', 'tsx', report] : [report],
        { ...env, ALLURE_RESULTS_DIR: resultsDir, PCS_OUTPUT_DIR: outputRoot },
        root,
      );
      if (built !== 0) return built;
    }
  } else {
    process.stdout.write(`report:merge: no Allure results under ${allure}; only the Playwright reports were merged\n`);
  }
  process.stdout.write(
    `report:merge: HTML report ${join(outputRoot, 'html')}, JUnit ${join(outputRoot, 'junit.xml')}\n`,
  );
  return 0;
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  try {
    if (command === 'run') process.exit(await runShard(rest));
    if (command === 'merge') process.exit(await mergeShards(rest));
    throw new UsageError(
      'usage: npm run conformance:shard -- --shard I/N [playwright args] | npm run report:merge -- [flags] ' +
        '(each with --help)',
    );
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`collect-conformance shards: ${error.message}\n`);
      process.exit(ExitCode.usage);
    }
    process.stderr.write(`${internalErrorLine('collect-conformance shards', error)}\n`);
    process.exit(ExitCode.internal);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
