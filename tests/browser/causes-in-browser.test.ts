/**
 * One defect, one cause, everywhere a person looks, and one truth in every view: against servers
 * with one stack-natural defect each (timestamps written as numbers, amounts as strings, 403 where
 * 401 is owed), the summary's first line names one cause, and the Allure report built from the run
 * shows the same cause on its front page (its metadata, and its categories), opened in Debian's
 * Chromium; Playwright's HTML report (opened in Chromium), Playwright's JSON reporter (the run's
 * blob report merged into it), junit.xml, the summary and the Allure report count the same failed,
 * passed and skipped tests, and no test that broke a rule is passed or expected in any of them.
 *
 *   npm run test:report            (needs: apt-get install -y chromium)
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildReport } from '../../cli/report.ts';
import { recordsOfAttachment, verdictAttachment } from '../../judgment/verdict-record.ts';
import { runAgainst, startDefectTarget, summaryOf, type Defect } from '../integration/defect-target.ts';
import { chromiumPath, openBrowser, pageTimeoutMs, serve, stopServing } from './browser-helpers.ts';

interface Counts {
  failed: number;
  passed: number;
  skipped: number;
}

/** The number after a label in a page's text ("Failed 22", "Failed\n22", "Failed22"). */
function countAfter(text: string, label: string): number {
  return Number(new RegExp(`\\b${label}\\s*(\\d+)`).exec(text)?.[1] ?? Number.NaN);
}

interface JsonSpecTest {
  status: 'expected' | 'unexpected' | 'flaky' | 'skipped';
  results: Array<{ status: string; attachments: Array<{ contentType: string; body?: string }> }>;
}
interface JsonSuite {
  specs?: Array<{ title: string; tests: JsonSpecTest[] }>;
  suites?: JsonSuite[];
}

/** Playwright's JSON reporter over the run's blob report (merged from the same run, no second run). */
function jsonReport(blobDir: string, work: string): { stats: Record<string, number>; tests: JsonSpecTest[] } {
  const file = join(work, 'report.json');
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  // From an empty folder: no configuration of the project is loaded for the merge.
  const merged = spawnSync(process.execPath, [cli, 'merge-reports', '--reporter=json', blobDir], {
    cwd: work,
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: file },
    encoding: 'utf8',
  });
  assert.equal(merged.status, 0, merged.stderr);
  const report = JSON.parse(readFileSync(file, 'utf8')) as { stats: Record<string, number>; suites: JsonSuite[] };
  const tests: JsonSpecTest[] = [];
  const walk = (suite: JsonSuite): void => {
    for (const spec of suite.specs ?? []) tests.push(...spec.tests);
    for (const child of suite.suites ?? []) walk(child);
  };
  report.suites.forEach(walk);
  return { stats: report.stats, tests };
}

/** A test of the JSON report whose verdict records say it broke a rule. */
function brokeARule(test: JsonSpecTest): boolean {
  const attachment = test.results.at(-1)?.attachments.find((a) => a.contentType === verdictAttachment.contentType);
  const body = attachment?.body === undefined ? undefined : Buffer.from(attachment.body, 'base64');
  return recordsOfAttachment(body).some((record) => record.kind === 'broken');
}

function junitCounts(file: string): Counts & { tests: number } {
  const root = /<testsuites\b[^>]*>/.exec(readFileSync(file, 'utf8'))?.[0] ?? '';
  const attribute = (name: string): number => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(root)?.[1] ?? Number.NaN);
  const failed = attribute('failures') + attribute('errors');
  return {
    tests: attribute('tests'),
    failed,
    skipped: attribute('skipped'),
    passed: attribute('tests') - failed - attribute('skipped'),
  };
}

function allureResultCounts(directory: string): Counts {
  const statuses = readdirSync(directory)
    .filter((name) => name.endsWith('-result.json'))
    .map((name) => (JSON.parse(readFileSync(join(directory, name), 'utf8')) as { status: string }).status);
  const count = (status: string): number => statuses.filter((candidate) => candidate === status).length;
  return { failed: count('failed') + count('broken'), passed: count('passed'), skipped: count('skipped') };
}

const work = mkdtempSync(join(tmpdir(), 'cc-causes-'));
after(() => rmSync(work, { recursive: true, force: true }));

const defects: Array<{ defect: Defect; title: RegExp }> = [
  { defect: 'timestamps-as-numbers', title: /\/created_at, \/updated_at: a number where type string is owed/ },
  { defect: 'amounts-as-strings', title: /\/amount: a string where type integer is owed/ },
  { defect: 'forbidden-for-unauthorised', title: /answers 403 where 401 is owed/ },
];

for (const { defect, title } of defects) {
  test(`${defect}: the summary's first line and the Allure front page name the same one cause`, {
    timeout: 600_000,
  }, async () => {
    assert.ok(existsSync(chromiumPath), `${chromiumPath} not found: apt-get install -y chromium`);
    const target = await startDefectTarget(defect);
    const output = join(work, defect);
    const blobDir = join(output, 'blob-report');
    let result;
    try {
      // The tests of two operations, each of which meets every defect here: the views must agree on any run, and
      // each failing test costs Playwright a new worker (a second or two), so a whole run against each defect
      // would spend minutes on what some thirty tests show.
      result = await runAgainst(target, output, { PCS_BLOB_DIR: blobDir, PCS_GREP: 'getBalance|getCurrency' });
    } finally {
      await target.close();
    }
    assert.equal(result.code, 1, result.stderr.slice(-2000));
    const summary = summaryOf(result.stdout);
    assert.match(summary[0] ?? '', /^collect-conformance: summary: 1 cause breaks \d+ rules? \(❌\): /);
    assert.match(summary[0] ?? '', title);
    const id = /❌ cause ([0-9a-f]{8}): /.exec(summary[1] ?? '')?.[1];
    assert.ok(id, summary.join('\n'));

    // The counts every view gives, from the same run.
    const totals = /; (\d+) tests: (\d+) passed, (\d+) failed, (\d+) skipped/.exec(summary[0] ?? '');
    assert.ok(totals, summary[0]);
    const fromSummary: Counts = { passed: Number(totals[2]), failed: Number(totals[3]), skipped: Number(totals[4]) };
    assert.ok(fromSummary.failed > 0);
    const json = jsonReport(blobDir, output);
    const fromJson: Counts = {
      failed: json.stats.unexpected ?? Number.NaN,
      passed: (json.stats.expected ?? Number.NaN) + (json.stats.flaky ?? 0),
      skipped: json.stats.skipped ?? Number.NaN,
    };
    assert.deepEqual(fromJson, fromSummary, "Playwright's JSON reporter and the summary");
    assert.equal(json.tests.length, Number(totals[1]), 'as many tests as Playwright counts');
    const passedOrExpected = json.tests.filter((test) => brokeARule(test) && test.status !== 'unexpected');
    assert.equal(passedOrExpected.length, 0, 'a test that broke a rule is reported passed or expected');
    const junit = junitCounts(join(output, 'junit.xml'));
    assert.equal(junit.tests, Number(totals[1]), 'JUnit counts the tests Playwright counts');
    assert.deepEqual({ failed: junit.failed, passed: junit.passed, skipped: junit.skipped }, fromSummary, 'JUnit');
    assert.deepEqual(allureResultCounts(join(output, 'allure-results')), fromSummary, 'the Allure results');
    // The console: the failures grouped by cause, every one of them counted, none hidden.
    assert.match(result.stdout, new RegExp(`\\n {2}${fromSummary.failed} failed\\n`), 'the console counts');
    assert.match(result.stdout, new RegExp(`${fromSummary.failed} failed tests?(, grouped by cause|\\n)`));

    const built = buildReport({
      resultsDir: join(output, 'allure-results'),
      reportDir: join(output, 'allure-report'),
      historyPath: join(output, 'allure-history.jsonl'),
    });
    assert.ok(built.ok, built.ok ? '' : built.message);
    const served = await serve(dirname(built.file));
    const browser = await openBrowser(join(work, `${defect}-profile`));
    try {
      const page = await browser.context.newPage();
      await page.goto(served.url);
      await page.getByText('Metadata', { exact: false }).first().waitFor({ timeout: pageTimeoutMs });
      const front = await page.locator('body').innerText();
      assert.match(front, new RegExp(`Cause 1\\s+cause ${id}: `), 'the front page metadata names the cause');
      assert.match(front, title);
      assert.doesNotMatch(front, /Cause 2/, 'one defect, one cause');
      assert.equal(countAfter(front, 'Failed'), fromSummary.failed, "the Allure report's failed tests");
      assert.equal(countAfter(front, 'Passed'), fromSummary.passed, "the Allure report's passed tests");
      await page.getByText('Categories', { exact: false }).first().click();
      await page.getByText(`Cause ${id}:`, { exact: false }).first().waitFor({ timeout: pageTimeoutMs });

      // Playwright's HTML report, as a person opens it.
      const html = await serve(join(output, 'html'));
      try {
        await page.goto(html.url);
        await page.getByText('Failed', { exact: false }).first().waitFor({ timeout: pageTimeoutMs });
        const stats = await page.locator('body').innerText();
        assert.deepEqual(
          {
            failed: countAfter(stats, 'Failed'),
            passed: countAfter(stats, 'Passed') + countAfter(stats, 'Flaky'),
            skipped: countAfter(stats, 'Skipped'),
          },
          fromSummary,
          "Playwright's HTML report",
        );
      } finally {
        await stopServing(html.server);
      }
    } finally {
      await browser.context.close();
      await stopServing(served.server);
    }
  });
}
