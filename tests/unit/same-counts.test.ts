/**
 * Every view counts the tests Playwright counts, and groups by cause without changing a status:
 * the totals leave out the cleanup after the tests (no test of Playwright's), JUnit keeps every
 * failure a <failure> and names its cause and the case that met it first, and the console
 * reporter prints the first failure of a cause in full and the others one line each, with
 * Playwright's counts.
 *
 *   node --import tsx --test tests/unit/same-counts.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FullConfig, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { causesOf } from '../../reporters/causes.ts';
import { totalsOf, type TestRecord } from '../../reporters/conformance-model.ts';
import ConsoleReporter from '../../reporters/console-reporter.ts';
import { renderJUnit } from '../../reporters/junit.ts';
import { verdictAttachment, type VerdictRecord } from '../../judgment/verdict-record.ts';

const forbidden = (operation: string, path: string): VerdictRecord => ({
  rule: operation === 'deleteCustomer' ? 'AUTH-DELETE-401' : 'AUTH-OTHERS-401',
  kind: 'broken',
  operation,
  exchange: { operation, method: 'GET', path, status: 403 },
  violations: [{ location: 'status', expected: '401', actual: '403' }],
});

const failedCase = (title: string, record: VerdictRecord): TestRecord => ({
  title,
  location: 'tests/conformance/authentication.spec.ts:142',
  rules: [record.rule],
  outcome: 'failed',
  verdicts: [record],
});

const cleanup = (outcome: 'passed' | 'failed'): TestRecord => ({
  title: 'global teardown › deleting the customers the run left',
  location: 'run/cleanup.ts',
  rules: ['CUSTOMER-DELETE-204'],
  outcome,
  verdicts: [],
  outsideTests: true,
});

test('the cleanup after the tests is not counted among the tests', () => {
  const cases = [failedCase('a', forbidden('getBalance', '/v1/balances/1')), cleanup('passed')];
  assert.deepEqual(totalsOf(cases), { tests: 1, passed: 0, failed: 1, skipped: 0, flaky: 0 });
});

test('JUnit: each failure a <failure>, with its cause and the case that met it first; the cleanup when failed', () => {
  const cases = [
    failedCase('first', forbidden('deleteCustomer', '/v1/customers/1')),
    failedCase('second', forbidden('getBalance', '/v1/balances/1')),
  ];
  const causes = causesOf(cases);
  assert.equal(causes.length, 1);
  const passing = renderJUnit([...cases, cleanup('passed')], { name: 'run', causes });
  assert.match(passing, /<testsuites name="run" tests="2" failures="2" errors="0" skipped="0"/);
  assert.equal([...passing.matchAll(/<failure /g)].length, 2);
  assert.doesNotMatch(passing, /global teardown/);
  assert.match(passing, new RegExp(`<property name="cause" value="${causes[0]!.id}"/>`));
  assert.equal([...passing.matchAll(/<property name="same cause as" value="first"\/>/g)].length, 1);
  const failing = renderJUnit([...cases, cleanup('failed')], { name: 'run', causes });
  assert.match(failing, /<testcase name="global teardown › deleting the customers the run left"/);
});

/** A TestCase as the console reporter reads it. */
function fakeTest(title: string, status: 'passed' | 'failed' | 'skipped', records: VerdictRecord[] = []): TestCase {
  const body = Buffer.from(JSON.stringify({ version: 1, records }));
  const result = {
    status,
    duration: 5,
    annotations: [],
    attachments: [{ ...verdictAttachment, body }],
    errors: status === 'failed' ? [{ message: `Error: ${records[0]?.rule ?? 'x'} violated\n  cause: c` }] : [],
  } as unknown as TestResult;
  return {
    title,
    annotations: records.map((record) => ({ type: 'rule', description: record.rule })),
    location: { file: `${process.cwd()}/tests/conformance/authentication.spec.ts`, line: 142, column: 5 },
    titlePath: () => ['', 'conformance', 'authentication.spec.ts', 'authentication', title],
    outcome: () => (status === 'failed' ? 'unexpected' : status === 'skipped' ? 'skipped' : 'expected'),
    expectedStatus: status === 'skipped' ? 'skipped' : 'passed',
    retries: 0,
    results: [result],
  } as unknown as TestCase;
}

test('the console: the first failure of a cause in full, the others one line each, and the counts', () => {
  const tests = [
    fakeTest('deleteCustomer refuses requests without a valid key with 401', 'failed', [
      forbidden('deleteCustomer', '/v1/customers/1'),
    ]),
    fakeTest('getBalance refuses requests without a valid key with 401', 'failed', [
      forbidden('getBalance', '/v1/balances/1'),
    ]),
    fakeTest('getCurrency answers', 'passed'),
    fakeTest('second account', 'skipped'),
  ];
  const written: string[] = [];
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string) => {
    written.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
  try {
    const reporter = new ConsoleReporter({ mode: 'dot', htmlReport: '/somewhere/html/index.html' });
    reporter.onBegin({ rootDir: process.cwd(), workers: 2 } as FullConfig, { allTests: () => tests } as Suite);
    for (const test of tests) reporter.onTestEnd(test, test.results[0]!);
    reporter.onEnd({ status: 'failed', startTime: new Date(), duration: 1500 });
  } finally {
    process.stdout.write = write;
  }
  const text = written.join('');
  assert.match(text, /Running 4 tests using 2 workers\nFF·°\n/);
  assert.match(text, /2 failed tests, grouped by cause: one of each in full \(every one in full: \/somewhere/);
  assert.match(text, /❌ cause [0-9a-f]{8}: answers 403 where 401 is owed .*\(2 failed tests\)/);
  assert.match(
    text,
    /1\) tests\/conformance\/authentication\.spec\.ts:142:5 › authentication › deleteCustomer .*\n\n {4}Error: /,
  );
  assert.match(
    text,
    /2\) tests\/conformance\/authentication\.spec\.ts:142:5 › authentication › getBalance .*: same cause\n/,
  );
  assert.match(text, /\n {2}2 failed\n {2}1 skipped\n {2}1 passed \(1\.5s\)\n$/);
});
