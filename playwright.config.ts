/**
 * Playwright configuration of the conformance suite: API tests only (no browser project;
 * requests go through http/transport.ts), the embedded mock started by global setup
 * when PCS_BASE_URL is unset, and reports for people (HTML, Allure), CI (JUnit) and SDK
 * maintainers (conformance matrix, rule coverage).
 */
import { defineConfig } from '@playwright/test';
import { loadDotEnv, orExitOnConfigError, workersSetting } from './settings/config.ts';
import { refuseLeakingDiagnostics } from './settings/debug-guard.ts';
import { modulePath } from './settings/module-paths.ts';
import { allureResultsDirOf, outputRootOf, prepareOutputDirectory } from './output/output-directory.ts';
import { readSetting } from './settings/read-setting.ts';
import { settings } from './settings/settings.ts';
import { handleTerminationGracefully } from './run/termination.ts';
import { allureCategories } from './reporters/allure-categories.ts';
import { environmentInfo } from './reporters/allure-environment.ts';

loadDotEnv();

// Checked here, when the runner loads the configuration, so that a direct `npx playwright test` is
// guarded as `npm run conformance` is: one line and exit code 2 before anything runs.
orExitOnConfigError(() => refuseLeakingDiagnostics());
const workers = orExitOnConfigError(() => workersSetting());
const outputRoot = orExitOnConfigError(() => prepareOutputDirectory(outputRootOf(process.env), 'PCS_OUTPUT_DIR'));
// Inside the output directory unless ALLURE_RESULTS_DIR says otherwise: every artefact of a run lives under it.
const allureResultsDir = orExitOnConfigError(() =>
  prepareOutputDirectory(allureResultsDirOf(process.env), 'ALLURE_RESULTS_DIR'),
);
const blobDir = readSetting(process.env, settings.blobDir);
// SIGTERM (timeout, docker stop, Kubernetes), SIGHUP and a vanished
// parent end the run as Ctrl-C does: global teardown runs.
handleTerminationGracefully(process.env.TEST_WORKER_INDEX !== undefined);
// The console reporter can be swapped (collect-conformance --reporter dot) without losing the report files.
const consoleReporters = ['list', 'line', 'dot'] as const;
type ConsoleReporter = (typeof consoleReporters)[number];
// Quiet by default: progress, the failures and the summary; a line per test with its tags is --verbose's.
const consoleReporter: ConsoleReporter =
  consoleReporters.find((name) => name === process.env.COLLECT_CONFORMANCE_CONSOLE_REPORTER) ??
  (orExitOnConfigError(() => readSetting(process.env, settings.verbose))
    ? 'list'
    : process.stdout.isTTY
      ? 'line'
      : 'dot');

export default defineConfig({
  testDir: './tests/conformance',
  // The compiled .js files in the installed package (settings/module-paths.ts).
  globalSetup: modulePath('./run/global-setup.ts'),
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers,
  timeout: 60_000,
  outputDir: `${outputRoot}/test-output`,
  // Reports: list for the console, Playwright's HTML, Allure results (emptied first, so a report
  // shows the last run only), and, from the tests' verdict records, the conformance matrix, the
  // rule coverage and JUnit for CI (reporters/conformance-reporter.ts).
  reporter: [
    // dot and line: the suite's console reporter, which groups the failures by cause (every one is still a failure
    // for Playwright and in every report); list (--verbose): Playwright's, a line per test with its tags.
    // A listing (--list) prints the tests through Playwright's own console reporters.
    consoleReporter === 'list' || process.argv.includes('--list')
      ? ['list']
      : [
          modulePath('./reporters/console-reporter.ts'),
          { mode: consoleReporter, htmlReport: `${outputRoot}/html/index.html` },
        ],
    ['html', { open: 'never', outputFolder: `${outputRoot}/html` }],
    [modulePath('./reporters/fresh-allure-results.ts'), { resultsDir: allureResultsDir }],
    [
      modulePath('./reporters/allure-reporter.ts'),
      {
        resultsDir: allureResultsDir,
        detail: false,
        suiteTitle: false,
        environmentInfo: environmentInfo(),
        categories: allureCategories(),
      },
    ],
    [modulePath('./reporters/conformance-reporter.ts'), { outputDir: outputRoot }],
    // Sharded CI runs (npm run conformance:shard sets PCS_BLOB_DIR):
    // a blob report per shard, merged by npm run report:merge.
    ...(blobDir !== undefined ? [['blob', { outputDir: blobDir }] as ['blob', { outputDir: string }]] : []),
  ],
  use: {
    // Traces record request headers; they stay off so that the key cannot leak through them.
    trace: 'off',
    screenshot: 'off',
    video: 'off',
  },
  projects: [{ name: 'conformance' }],
});
