/**
 * On a one-defect run (a server that echoes amount + 1), the Allure results agree with the
 * conformance matrix: the rules whose stories are red are the rules the
 * matrix marks ❌, the failed results are the failed tests, and an amount echoed wrong is
 * categorised "Non-conformance: value", not "schema".
 *
 *   node --import tsx --test tests/integration/allure-agreement.test.ts
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockServer } from '../../mock/server.ts';
import { allureCategoryOf as classifyFailure } from './allure-categories.ts';
import { runCommand } from './run-command.ts';

const scratch = mkdtempSync(join(tmpdir(), 'pcs-allure-agreement-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

interface AllureResult {
  status: string;
  labels: Array<{ name: string; value: string }>;
  statusDetails?: { message?: string };
}

test('stories, counts and categories of the Allure results agree with the matrix on a one-defect run', {
  timeout: 300_000,
}, async () => {
  const mock = await startMockServer({ mutant: 'createTransaction.echo.amount' });
  const output = join(scratch, 'reports');
  try {
    // The creation's example tests and the property of its echo: every test that creates a transaction meets the
    // echo, and a whole run adds minutes of failed tests (each costing Playwright a new worker) to what these show.
    const grep = 'createTransaction: POST /transactions|any valid creation body gives';
    const result = await runCommand(['--output', output, '--reporter', 'dot', '--grep', grep], {
      PCS_BASE_URL: mock.sandboxBaseUrl,
      PCS_SECRET_KEY: mock.sandboxKey,
      PCS_BALANCE_ID: '1',
      PCS_CURRENCY_ID: '1',
      PCS_RUNS: '20',
    });
    assert.equal(result.code, 1, result.stdout.slice(-2000) + result.stderr);
    const matrix = JSON.parse(readFileSync(join(output, 'conformance-matrix.json'), 'utf8')) as {
      cells: Array<{ rule: string; verdict: string }>;
      totals: { failed: number };
    };
    const broken = [...new Set(matrix.cells.filter((cell) => cell.verdict === 'fail').map((cell) => cell.rule))].sort();
    assert.ok(broken.includes('TXN-CREATE-ECHO'), broken.join(', '));

    const resultsDir = join(output, 'allure-results');
    const results = readdirSync(resultsDir)
      .filter((name) => name.endsWith('-result.json'))
      .map((name) => JSON.parse(readFileSync(join(resultsDir, name), 'utf8')) as AllureResult);
    const failed = results.filter((entry) => entry.status === 'failed');
    assert.equal(failed.length, matrix.totals.failed, 'as many failed results as failed tests');
    const redStories = [
      ...new Set(
        failed.flatMap((entry) =>
          entry.labels.filter((label) => label.name === 'story').map((label) => label.value.split(':')[0]!),
        ),
      ),
    ].sort();
    assert.deepEqual(redStories, broken, 'the red stories are the rules the matrix marks ❌');
    for (const entry of failed) {
      const category = classifyFailure(entry.statusDetails?.message ?? '');
      assert.notEqual(category.id, 'non-conformance-schema', entry.statusDetails?.message?.slice(0, 300));
    }
    assert.ok(
      failed.some((entry) => classifyFailure(entry.statusDetails?.message ?? '').id === 'non-conformance-value'),
      'the echo is a value',
    );
  } finally {
    await mock.close();
  }
});
