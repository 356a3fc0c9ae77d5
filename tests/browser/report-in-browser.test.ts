/**
 * The reports of a real run, checked end to end: the suite runs (two spec files) against a
 * deliberately broken target (tests/browser/broken-target.ts), then `npm run report`'s
 * builder makes the Allure report, which headless Chromium (Debian's, /usr/bin/chromium)
 * opens over http on 127.0.0.1. Every request that is not loopback is aborted, so the
 * report's analytics script never leaves the machine.
 *
 *   npm run test:report            (needs: apt-get install -y chromium)
 *   UPDATE_REPORT_SCREENSHOT=1 npm run test:report   also refreshes docs/report-with-failure.png
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from '@playwright/test';
import { rules } from '../../contract/rules.ts';
import { allureCategoryOf as classifyFailure } from '../integration/allure-categories.ts';
import { outputFiles } from '../../reporters/conformance-reporter.ts';
import type { ConformanceMatrix, RuleCoverage } from '../../reporters/conformance-model.ts';
import { buildReport } from '../../cli/report.ts';
import { brokenRules, startBrokenTarget, type BrokenTarget } from './broken-target.ts';
import { chromiumPath, openBrowser, pageTimeoutMs, serve, stopServing } from './browser-helpers.ts';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
interface Run {
  exitCode: number | null;
  output: string;
  work: string;
  outputDir: string;
  resultsDir: string;
  reportFile: string;
}

/** Runs Playwright on two spec files against the broken target, reports into a fresh directory. */
async function runSuite(target: BrokenTarget, work: string): Promise<Omit<Run, 'reportFile'>> {
  const outputDir = join(work, 'reports');
  const resultsDir = join(work, 'allure-results');
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    // The run must not inherit a target, an output place or a CI summary from the caller.
    if (
      !name.startsWith('PCS_') &&
      !name.startsWith('COLLECT_CONFORMANCE_') &&
      !name.startsWith('ALLURE_') &&
      name !== 'GITHUB_STEP_SUMMARY'
    )
      env[name] = value;
  }
  Object.assign(env, {
    PCS_BASE_URL: target.baseUrl,
    PCS_SECRET_KEY: target.secretKey,
    PCS_BALANCE_ID: '1',
    PCS_CURRENCY_ID: '1',
    PCS_OUTPUT_DIR: outputDir,
    PCS_WORKERS: '2',
    ALLURE_RESULTS_DIR: resultsDir,
  });
  const cli = join(projectRoot, 'node_modules', '@playwright', 'test', 'cli.js');
  const child = spawn(process.execPath, [cli, 'test', 'delete-customer', 'balances-and-currencies'], {
    cwd: projectRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { exitCode, output, work, outputDir, resultsDir };
}

/** Totals of the run as JUnit counts them (the report must agree). */
function junitTotals(file: string): { total: number; failed: number; skipped: number } {
  const root = /<testsuites\b[^>]*>/.exec(readFileSync(file, 'utf8'))?.[0] ?? '';
  const attribute = (name: string): number => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(root)?.[1] ?? NaN);
  return {
    total: attribute('tests'),
    failed: attribute('failures') + attribute('errors'),
    skipped: attribute('skipped'),
  };
}

/** The first number after a label in the page's text ("Failed\n6"). */
function countAfter(text: string, label: string): number {
  const match = new RegExp(`\\b${label}\\s+(\\d+)`).exec(text);
  return match ? Number(match[1]) : NaN;
}

describe('reports of a run against a broken target', { timeout: 600_000 }, () => {
  let target: BrokenTarget;
  let run: Run;
  let server: Server | undefined;
  let context: BrowserContext | undefined;
  let page: Page;
  let blocked: string[] = [];
  let reportUrl: string;

  before(async () => {
    // Fail at once, with the fix, rather than after the run with Playwright's launch error.
    assert.ok(
      existsSync(chromiumPath),
      `${chromiumPath} not found: install Debian's Chromium (apt-get update && apt-get install -y chromium)`,
    );
    target = await startBrokenTarget();
    const work = mkdtempSync(join(tmpdir(), 'cc-report-'));
    const started = performance.now();
    const suite = await runSuite(target, work);
    const suiteMs = performance.now() - started;
    const built = buildReport({
      resultsDir: suite.resultsDir,
      reportDir: join(suite.outputDir, 'allure-report'),
      historyPath: join(suite.outputDir, 'allure-history.jsonl'),
    });
    assert.ok(built.ok, built.ok ? '' : built.message);
    run = { ...suite, reportFile: built.file };
    process.stdout.write(
      `# suite run ${Math.round(suiteMs)} ms, report built ${Math.round(performance.now() - started - suiteMs)} ms\n`,
    );
    const served = await serve(dirname(run.reportFile));
    server = served.server;
    reportUrl = served.url;
    const browser = await openBrowser(join(work, 'chromium-profile'));
    context = browser.context;
    blocked = browser.blocked;
    page = await context.newPage();
    await page.goto(reportUrl);
  });

  after(async () => {
    await context?.close();
    if (server) await stopServing(server);
    await target?.close();
    if (run && !process.env.KEEP_REPORT_WORK) rmSync(run.work, { recursive: true, force: true });
  });

  test('the run fails (exit 1) on the rules the target breaks, and only on them', () => {
    assert.equal(run.exitCode, 1, `expected exit 1 (failures), got ${run.exitCode}:\n${run.output.slice(-2000)}`);
    const coverage = JSON.parse(readFileSync(join(run.outputDir, outputFiles.coverageJson), 'utf8')) as RuleCoverage;
    const failing = coverage.rules.filter((entry) => entry.verdict === 'fail').map((entry) => entry.id);
    for (const id of brokenRules) assert.ok(failing.includes(id), `${id} should fail; failing: ${failing.join(', ')}`);
    const unexpected = failing.filter(
      (id) => !(brokenRules as readonly string[]).includes(id) && id !== 'CUSTOMER-DELETE-GONE',
    );
    assert.deepEqual(unexpected, [], 'rules failing that the broken target does not break');
  });

  test('the matrix and the coverage list every rule of the catalogue, in Markdown and JSON', () => {
    const matrix = JSON.parse(readFileSync(join(run.outputDir, outputFiles.matrixJson), 'utf8')) as ConformanceMatrix;
    const coverage = JSON.parse(readFileSync(join(run.outputDir, outputFiles.coverageJson), 'utf8')) as RuleCoverage;
    const ids = rules.map((entry) => entry.id);
    assert.deepEqual(
      matrix.rules.map((entry) => entry.id),
      ids,
    );
    assert.deepEqual(
      coverage.rules.map((entry) => entry.id),
      ids,
    );
    const matrixMarkdown = readFileSync(join(run.outputDir, outputFiles.matrixMarkdown), 'utf8');
    const coverageMarkdown = readFileSync(join(run.outputDir, outputFiles.coverageMarkdown), 'utf8');
    for (const id of ids) {
      assert.match(matrixMarkdown, new RegExp(`^\\| ${id} \\|`, 'm'), `${id} missing from the matrix`);
      assert.match(coverageMarkdown, new RegExp(`^\\| ${id} \\|`, 'm'), `${id} missing from the coverage`);
    }
    assert.match(matrixMarkdown, /^\| CUSTOMER-DELETE-404 \| documented \| ❌ 200 \|/m);
  });

  test('a failure of the broken target is non-conformance and names its rule', () => {
    const results = readdirSync(run.resultsDir).filter((name) => name.endsWith('-result.json'));
    const failures = results
      .map(
        (name) =>
          JSON.parse(readFileSync(join(run.resultsDir, name), 'utf8')) as {
            name: string;
            status: string;
            statusDetails?: { message?: string };
          },
      )
      .filter((result) => result.status === 'failed' || result.status === 'broken');
    assert.ok(failures.length > 0, 'no failed results in allure-results');
    const deleteUnknown = failures.find((result) =>
      result.statusDetails?.message?.includes('CUSTOMER-DELETE-404 (documented) violated by deleteCustomer'),
    );
    assert.ok(deleteUnknown, 'no failure naming CUSTOMER-DELETE-404');
    assert.equal(classifyFailure(deleteUnknown.statusDetails!.message!).id, 'non-conformance-status');
    const currency = failures.find((result) =>
      result.statusDetails?.message?.includes('CURRENCY-ARRAY (documented) violated by getCurrency'),
    );
    assert.ok(currency, 'no failure naming CURRENCY-ARRAY');
    assert.equal(classifyFailure(currency.statusDetails!.message!).id, 'non-conformance-schema');
    for (const failure of failures) {
      assert.notEqual(
        classifyFailure(failure.statusDetails?.message ?? '').id,
        'suite-error',
        `${failure.name} is classified as an error of the suite`,
      );
    }
  });

  test('the secret key appears nowhere in the results, and every request step carries the masked header', () => {
    let requestAttachments = 0;
    for (const name of readdirSync(run.resultsDir)) {
      const text = readFileSync(join(run.resultsDir, name), 'utf8');
      assert.ok(!text.includes(target.secretKey), `${name} contains the secret key`);
      if (name.endsWith('-attachment.txt') && /^(GET|POST|DELETE) http/.test(text)) {
        requestAttachments += 1;
        if (/^authorization: Bearer /im.test(text))
          assert.match(text, /^authorization: Bearer \*\*\*$/im, `${name}: the header is not masked`);
      }
    }
    assert.ok(requestAttachments > 10, `expected request/response attachments, found ${requestAttachments}`);
  });

  test('history accumulates across reports as long as the history file is kept', () => {
    const historyPath = join(run.outputDir, 'allure-history.jsonl');
    const lines = (): number =>
      readFileSync(historyPath, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '').length;
    assert.equal(lines(), 1, 'the first report starts the history');
    const again = buildReport({ resultsDir: run.resultsDir, reportDir: join(run.work, 'second-report'), historyPath });
    assert.ok(again.ok, again.ok ? '' : again.message);
    assert.equal(lines(), 2, 'the second report adds its run to the kept history');
  });

  test('Chromium shows the report with the run totals, offline', async () => {
    const expected = junitTotals(join(run.outputDir, 'junit.xml'));
    assert.ok(expected.total > 0 && expected.failed > 0, `unexpected JUnit totals ${JSON.stringify(expected)}`);
    await page.getByText('Total', { exact: false }).first().waitFor({ timeout: pageTimeoutMs });
    const text = await page.locator('body').innerText();
    assert.equal(countAfter(text, 'Total'), expected.total, 'total');
    assert.equal(countAfter(text, 'Failed'), expected.failed, 'failed');
    assert.equal(countAfter(text, 'Passed'), expected.total - expected.failed - expected.skipped, 'passed');
    // The report agrees with the conformance matrix: as many failed tests as the rules' tests that did not pass
    // (failed on the rule, or blocked by another rule's precondition).
    const coverage = JSON.parse(readFileSync(join(run.outputDir, 'rule-coverage.json'), 'utf8')) as {
      rules: Array<{ tests: Array<{ title: string; location: string; outcome: string }> }>;
    };
    const failedInMatrix = new Set(
      coverage.rules.flatMap((entry) =>
        entry.tests
          .filter((test) => !['passed', 'lenient', 'skipped'].includes(test.outcome))
          .map((test) => `${test.location} ${test.title}`),
      ),
    );
    assert.equal(countAfter(text, 'Failed'), failedInMatrix.size, 'failed tests: the report and the matrix agree');
    assert.match(text, /deleteCustomer: DELETE \/customers\/\{id\}/, 'results by operation');
    assert.match(text, /CUSTOMER-DELETE-404: /, 'results by rule');
    process.stdout.write(`# requests aborted (not loopback): ${[...new Set(blocked)].join(', ') || 'none'}\n`);
  });

  test('the failing test shows its rule, the violations table and masked requests; screenshot', async () => {
    await page.getByText('a customer id that does not exist gives 404').first().click();
    await page
      .getByText('CUSTOMER-DELETE-404 (documented) violated by deleteCustomer')
      .first()
      .waitFor({ timeout: pageTimeoutMs });
    const text = await page.locator('body').innerText();
    assert.match(text, /at status: expected 404, actual 200/);
    assert.match(text, /CUSTOMER-DELETE-404 violations/);
    assert.ok(!text.includes(target.secretKey), 'the page shows the secret key');
    // Tall enough to show the error, the labels and the first steps of the failing test.
    await page.setViewportSize({ width: 1280, height: 1200 });
    const shot = join(run.work, 'report-with-failure.png');
    await page.screenshot({ path: shot, fullPage: false });
    assert.ok(readFileSync(shot).length > 10_000, 'screenshot too small');
    if (process.env.UPDATE_REPORT_SCREENSHOT === '1') {
      mkdirSync(join(projectRoot, 'docs'), { recursive: true });
      copyFileSync(shot, join(projectRoot, 'docs', 'report-with-failure.png'));
    }
  });
});
