/**
 * One defect, one cause, everywhere a person looks: against servers with one stack-natural
 * defect each (timestamps written as numbers, amounts as strings, 403 where 401 is owed), the
 * summary's first line names one cause, and the Allure report built from the run shows the same
 * cause on its front page (its metadata, and its categories), opened in Debian's Chromium.
 *
 *   npm run test:report            (needs: apt-get install -y chromium)
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildReport } from '../../cli/report.ts';
import { runAgainst, startDefectTarget, summaryOf, type Defect } from '../integration/defect-target.ts';
import { chromiumPath, openBrowser, pageTimeoutMs, serve } from './browser-helpers.ts';

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
    let result;
    try {
      result = await runAgainst(target, output);
    } finally {
      await target.close();
    }
    assert.equal(result.code, 1, result.stderr.slice(-2000));
    const summary = summaryOf(result.stdout);
    assert.match(summary[0] ?? '', /^collect-conformance: summary: 1 cause breaks \d+ rules? \(❌\): /);
    assert.match(summary[0] ?? '', title);
    const id = /❌ cause ([0-9a-f]{8}): /.exec(summary[1] ?? '')?.[1];
    assert.ok(id, summary.join('\n'));

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
      await page.getByText('Categories', { exact: false }).first().click();
      await page.getByText(`Cause ${id}:`, { exact: false }).first().waitFor({ timeout: pageTimeoutMs });
    } finally {
      await browser.context.close();
      await new Promise<void>((resolve) => served.server.close(() => resolve()));
    }
  });
}
