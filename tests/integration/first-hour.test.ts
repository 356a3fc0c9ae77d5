/**
 * The first hour of an SDK maintainer, run as they would run it: against a server with one
 * defect the summary names one cause (not one failure per rule it breaks), JUnit leads each
 * failure with its cause, a skipped rule says why, the console is quiet by default; against a
 * server that has none of the configured ids the summary opens with the variables to check; and
 * a run stopped by a configuration error leaves no report of an earlier run behind.
 *
 *   node --import tsx --test tests/integration/first-hour.test.ts
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAgainst, startDefectTarget, summaryOf } from './defect-target.ts';
import { runCommand } from './run-command.ts';

const scratch = mkdtempSync(join(tmpdir(), 'pcs-first-hour-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

test('one defect is one cause: the summary, JUnit and the console say so', { timeout: 300_000 }, async () => {
  const target = await startDefectTarget('timestamps-as-numbers');
  try {
    const output = join(scratch, 'timestamps');
    // Example tests of a creation and of a balance, in two files, and the rule no test could check: a whole run against
    // a server that writes every timestamp as a number fails a hundred tests, each costing Playwright a new worker,
    // and its properties and random sequences shrink each failure for seconds.
    const result = await runAgainst(target, output, {
      PCS_GREP:
        'the response is a Transaction object|the response is a JSON array of balance objects|' +
        "a key is refused at the other environment's base address",
    });
    assert.equal(result.code, 1, result.stderr.slice(-2000));
    const [first = '', cause = ''] = summaryOf(result.stdout);
    assert.match(first, /^collect-conformance: summary: 1 cause breaks \d+ rules \(❌\): \/created_at, \/updated_at: /);
    assert.match(
      cause,
      /^ {2}❌ cause ([0-9a-f]{8}): .*breaks .*TXN-CREATE-SCHEMA.*BALANCE-ARRAY|BALANCE-ARRAY.*TXN-CREATE-SCHEMA/,
    );
    const id = /cause ([0-9a-f]{8})/.exec(cause)?.[1];
    const junit = readFileSync(join(output, 'junit.xml'), 'utf8');
    const messages = [...junit.matchAll(/<failure message="([^"]*)"/g)].map((match) => match[1] ?? '');
    assert.ok(messages.length > 0);
    for (const message of messages) assert.ok(message.startsWith(`cause ${id}: `), message);
    // A rule no test could check says why, in JUnit as in the summary.
    assert.match(junit, /<skipped message="[^"]+"\/>/);
    assert.doesNotMatch(junit, /<skipped\/>/);
    assert.match(summaryOf(result.stdout).join('\n'), /⏭️ not checked: ENV-KEY-SCOPED: \S/);
    // Quiet by default: no line per test with its tags (that is --verbose).
    assert.doesNotMatch(result.stdout, /✓ .*@inferred|@documented @/);
  } finally {
    await target.close();
  }
});

test('configured ids the target does not have: the summary opens with the variables to check', {
  timeout: 300_000,
}, async () => {
  const target = await startDefectTarget('none');
  try {
    // The reads of the two ids: every other test would add minutes and no word to what the summary must say.
    const result = await runAgainst(target, join(scratch, 'ids'), {
      PCS_GREP: 'getBalance|getCurrency',
      PCS_BALANCE_ID: '777',
      PCS_CURRENCY_ID: '778',
    });
    assert.equal(result.code, 1, result.stderr.slice(-2000));
    const lines = summaryOf(result.stdout);
    assert.match(
      lines[0] ?? '',
      new RegExp(
        '^collect-conformance: summary: check PCS_CURRENCY_ID and PCS_BALANCE_ID first: the target answered 404 ' +
          'for GET /v1/currencies/778, GET /v1/balances/777; every failure of a read of them may be that mistake',
      ),
    );
    // The failures they explain are grouped under them, not listed as the server's own causes.
    const balance = lines.findIndex(
      (line) => line.startsWith('  ⚠️ PCS_BALANCE_ID=777:') || line.startsWith('  ⚠️ PCS_CURRENCY_ID=778:'),
    );
    assert.ok(balance > 0, lines.join('\n'));
    assert.match(lines[balance + 1] ?? '', /^ {4}❌ cause [0-9a-f]{8}: answers 404 where a 2xx status is owed/);
    assert.match(result.stderr, /warning: PCS_BALANCE_ID=777: GET \/v1\/balances\/777 answered 404/);
  } finally {
    await target.close();
  }
});

test('a run stopped by a configuration error leaves no report of the run before it', { timeout: 300_000 }, async () => {
  const target = await startDefectTarget('none');
  try {
    const output = join(scratch, 'stopped');
    const complete = await runCommand(
      ['--base-url', target.baseUrl, '--secret-key-env', 'FIRST_KEY', '--output', output, '--grep', 'CURRENCY-2XX'],
      {
        FIRST_KEY: target.secretKey,
        PCS_CURRENCY_ID: '1',
      },
    );
    assert.equal(complete.code, 0, complete.stdout.slice(-2000));
    assert.ok(existsSync(join(output, 'conformance-matrix.md')));
    // A key the target refuses: the preflight stops the run with exit 2 before any test.
    const stopped = await runCommand(
      ['--base-url', target.baseUrl, '--secret-key-env', 'FIRST_KEY', '--output', output],
      {
        FIRST_KEY: 'sk_sandbox_not_this_target_0000',
        PCS_CURRENCY_ID: '1',
      },
    );
    assert.equal(stopped.code, 2, stopped.stderr);
    for (const name of [
      'conformance-matrix.md',
      'conformance-matrix.json',
      'rule-coverage.md',
      'rule-coverage.json',
      'junit.xml',
    ])
      assert.equal(existsSync(join(output, name)), false, `${name} of the run before is still there`);
  } finally {
    await target.close();
  }
});
