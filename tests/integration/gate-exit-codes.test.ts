/**
 * The exit code a CI gate reads, from the command run as a user runs it (issue 21, item 1):
 * against a target that breaks a rule and also answers a few 503s, the run exits 1
 * (non-conformance), not 3 (target unavailable).
 *
 *   node --import tsx --test tests/integration/gate-exit-codes.test.ts
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockServer } from '../../mock/server.ts';
import { runCommand } from './run-command.ts';

const scratch = mkdtempSync(join(tmpdir(), 'pcs-gate-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

test('a broken rule with 503s on the side exits 1, not 3', { timeout: 180_000 }, async () => {
  // POST is not repeated after a 503 (it may have created something): every third creation leaves the marker.
  const mock = await startMockServer({
    mutant: 'createTransaction.echo.amount',
    faults: 'status503=every:3,methods=POST',
  });
  try {
    const output = join(scratch, 'echo-and-503');
    const result = await runCommand(['--grep', 'TXN-CREATE-ECHO', '--output', output, '--reporter', 'dot'], {
      PCS_BASE_URL: mock.sandboxBaseUrl,
      PCS_SECRET_KEY: mock.sandboxKey,
      PCS_RETRIES: '0',
    });
    assert.ok(existsSync(join(output, 'target-unavailable.txt')), 'the run met the target unavailable');
    const coverage = JSON.parse(readFileSync(join(output, 'rule-coverage.json'), 'utf8')) as {
      totals: { fail: number };
    };
    assert.ok(coverage.totals.fail > 0, 'the coverage holds a broken rule');
    assert.equal(result.code, 1, result.stderr.slice(-2000));
  } finally {
    await mock.close();
  }
});
