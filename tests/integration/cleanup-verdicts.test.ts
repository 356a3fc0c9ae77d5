/**
 * A 5xx met while deleting what the run created is a finding, wherever it is met: the cleanup after the run writes
 * its judgments as verdict records (judgment/cleanup-verdicts.ts), the conformance reporter reads them as
 * one more case (reporters/cleanup-case.ts), and the run exits 1 naming CUSTOMER-DELETE-204. Against a mock that
 * answers 500 to deleting a customer a transaction names, a test that creates a transaction with a new customer and
 * leaves the customer to the cleanup makes the whole run fail; against the reference, the same run passes.
 *
 *   node --import tsx --test tests/integration/cleanup-verdicts.test.ts
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockServer } from '../../mock/server.ts';
import { cleanupCase } from '../../reporters/cleanup-case.ts';
import { cleanupVerdictsPath, recordCleanupVerdicts } from '../../judgment/cleanup-verdicts.ts';
import { runCommand } from './run-command.ts';

const scratch = mkdtempSync(join(tmpdir(), 'pcs-cleanup-verdicts-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A test that creates a transaction with a new customer inline, which the cleanup then deletes. */
const leavesACustomer = 'quirk: customer.phone_number.number sent as a JSON number is accepted';

interface Coverage {
  totals: { fail: number };
  rules: Array<{ id: string; verdict: string; tests: Array<{ title: string }> }>;
}

async function runAgainst(mutant: string | undefined, output: string) {
  const mock = await startMockServer(mutant === undefined ? {} : { mutant });
  try {
    const result = await runCommand(['--grep', leavesACustomer, '--output', output, '--reporter', 'dot'], {
      PCS_BASE_URL: mock.sandboxBaseUrl,
      PCS_SECRET_KEY: mock.sandboxKey,
    });
    const coverage = JSON.parse(readFileSync(join(output, 'rule-coverage.json'), 'utf8')) as Coverage;
    return { result, coverage };
  } finally {
    await mock.close();
  }
}

test('a 5xx met by the cleanup fails the run (exit 1), naming CUSTOMER-DELETE-204', { timeout: 180_000 }, async () => {
  const { result, coverage } = await runAgainst('deleteCustomer.named-by-transaction-5xx', join(scratch, 'broken'));
  assert.equal(result.code, 1, result.stdout.slice(-2000) + result.stderr.slice(-1000));
  assert.match(result.stdout, /cleanup: .*could NOT delete 1: \d+ \(answered 500\)/);
  const deletion = coverage.rules.find((entry) => entry.id === 'CUSTOMER-DELETE-204');
  assert.equal(deletion?.verdict, 'fail', JSON.stringify(deletion));
  assert.ok(deletion?.tests.some((entry) => entry.title.startsWith('global teardown')));
  const summary = result.stdout.trimEnd().split('\n').slice(-6).join('\n');
  assert.match(
    summary,
    /^ {2}❌ cause [0-9a-f]{8}: answers 500 where not a 5xx is owed — on deleteCustomer; breaks CUSTOMER-DELETE-204/m,
    summary,
  );
  // The cleanup is no test of Playwright's: the summary counts the one test Playwright ran; JUnit adds the
  // cleanup's failure as a case of its own, so that CI sees what failed the run.
  assert.match(summary, /; 1 test: 1 passed, 0 failed, 0 skipped$/m, summary);
  const junit = readFileSync(join(scratch, 'broken', 'junit.xml'), 'utf8');
  assert.match(junit, /<testcase name="global teardown › deleting the customers the run left"[\s\S]*?<failure /);
});

test('the same run against the reference passes, its cleanup judged and held', { timeout: 180_000 }, async () => {
  const { result, coverage } = await runAgainst(undefined, join(scratch, 'reference'));
  assert.equal(result.code, 0, result.stdout.slice(-2000) + result.stderr.slice(-1000));
  assert.equal(coverage.totals.fail, 0);
  const deletion = coverage.rules.find((entry) => entry.id === 'CUSTOMER-DELETE-204');
  assert.ok(
    deletion?.tests.some((entry) => entry.title.startsWith('global teardown')),
    JSON.stringify(deletion),
  );
  assert.match(result.stdout, /summary: no rule broken; 1 test: 1 passed, 0 failed, 0 skipped/);
  const junit = readFileSync(join(scratch, 'reference', 'junit.xml'), 'utf8');
  assert.match(junit, /<testsuites [^>]*tests="1" failures="0"/);
  assert.doesNotMatch(junit, /global teardown/);
});

test("the cleanup's records are this run's only, and make one case", () => {
  const env = { PCS_OUTPUT_DIR: join(scratch, 'records'), PCS_RUN_ID: 'cc-this' };
  recordCleanupVerdicts([{ id: 7, status: 500 }], { ...env, PCS_RUN_ID: 'cc-earlier' });
  assert.equal(cleanupCase(env.PCS_OUTPUT_DIR, env), undefined, "an earlier run's records are not this run's");
  recordCleanupVerdicts(
    [
      { id: 1, status: 204 },
      { id: 2, status: 204 },
      { id: 3, status: 409 },
      { id: 4, status: 503 },
      { id: 5, unanswered: 'the target did not answer' },
    ],
    env,
  );
  const found = cleanupCase(env.PCS_OUTPUT_DIR, env);
  assert.equal(found?.outcome, 'failed');
  assert.deepEqual(
    found?.verdicts.map((record) => [record.kind, record.exchange?.status ?? null, record.count ?? 1]),
    [
      ['broken', 503, 1],
      ['unavailable', null, 1],
      ['held', 204, 3],
    ],
  );
  assert.ok(cleanupVerdictsPath(env).endsWith('cleanup-verdicts.jsonl'));
});
