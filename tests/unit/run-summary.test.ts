/**
 * The summary that ends a run (reporters/run-summary.ts), and failures about the target without
 * the suite's stack frames (judgment/frameless.ts).
 *
 *   node --import tsx --test tests/unit/run-summary.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Rule } from '../../contract/rules.ts';
import { buildCoverage, totalsOf, type TestRecord } from '../../reporters/conformance-model.ts';
import { renderRunSummary } from '../../reporters/run-summary.ts';
import type { VerdictRecord } from '../../judgment/verdict-record.ts';
import { withoutFrames, withoutSuiteFrames } from '../../judgment/frameless.ts';

const rule = (id: string, operations: Rule['operations']): Rule => ({
  id,
  kind: 'documented',
  section: 's',
  text: 't',
  operations,
  reference: 'r',
});
const rules = [rule('TXN-CREATE-ECHO', ['createTransaction']), rule('LINK-2XX', ['getPaymentLink'])];
const echoBroken = (precondition: boolean): VerdictRecord => ({
  rule: 'TXN-CREATE-ECHO',
  kind: 'broken',
  ...(precondition ? { precondition: true } : {}),
  operation: 'createTransaction',
  exchange: { operation: 'createTransaction', method: 'POST', path: '/v1/transactions', status: 201 },
  violations: [{ location: 'body /amount', expected: '100 (number)', actual: '101 (number)' }],
});
const failed = (title: string, precondition: boolean): TestRecord => ({
  title,
  location: 'x.spec.ts:1',
  rules: precondition ? ['LINK-2XX'] : ['TXN-CREATE-ECHO'],
  outcome: 'failed',
  verdicts: [echoBroken(precondition)],
});

test('a broken rule is one line: rule, operation, first location with expected and actual, how many tests', () => {
  const records = [failed('echo one', false), failed('echo two', false), failed('a link', true)];
  const lines = renderRunSummary(buildCoverage(rules, records), records, totalsOf(records), {
    matrix: 'reports/conformance-matrix.md',
    coverage: 'reports/rule-coverage.md',
    html: 'reports/html/index.html',
    allureResults: 'reports/allure-results',
  });
  assert.equal(
    lines[0],
    'collect-conformance: summary: 1 cause breaks 1 rule (❌): /amount: not the value owed ' +
      '(e.g. 100 owed, 101 (number) found); 3 tests: 0 passed, 3 failed, 0 skipped',
  );
  assert.match(
    lines[1]!,
    new RegExp(
      String.raw`^  ❌ cause [0-9a-f]{8}: /amount: not the value owed \(e\.g\. 100 owed, 101 \(number\) found\) — ` +
        String.raw`on createTransaction; breaks TXN-CREATE-ECHO \(3 tests\)$`,
    ),
  );
  assert.equal(
    lines[2],
    '     e.g. POST /v1/transactions → 201 at body /amount: expected 100 (number), actual 101 (number)',
  );
  assert.equal(lines[3], '     it also stopped 1 test before they checked LINK-2XX');
  assert.match(lines.at(-2)!, /^ {2}matrix: reports\/conformance-matrix\.md/);
  assert.match(lines.at(-1)!, /^ {2}report: reports\/html\/index\.html/);
});

test('a clean run says so in its first line', () => {
  const records: TestRecord[] = [
    { title: 'ok', location: 'x:1', rules: ['LINK-2XX'], outcome: 'passed', verdicts: [] },
  ];
  const lines = renderRunSummary(buildCoverage(rules, records), records, totalsOf(records), {
    matrix: 'm',
    coverage: 'c',
    html: 'h',
    allureResults: 'a',
  });
  assert.equal(lines[0], 'collect-conformance: summary: no rule broken; 1 test: 1 passed, 0 failed, 0 skipped');
});

test("an assertion about the target carries no frame of the suite's files", () => {
  // As Playwright's expect reads it: the stack is formatted when read, inside the assertion.
  const stack = withoutSuiteFrames(() => new Error('RULE (documented) violated by x').stack);
  assert.match(stack ?? '', /^Error: RULE \(documented\) violated by x/);
  assert.doesNotMatch(stack ?? '', /run-summary\.test\.ts|frameless\.ts|node:/);
  assert.match(new Error('a suite error').stack ?? '', /run-summary\.test\.ts/, 'restored afterwards');
  assert.equal(withoutFrames(new Error('m')).stack, 'Error: m');
});

test('rules whose every test was skipped are named as not checked, with the reason', () => {
  const skippedRecord: TestRecord = {
    title: 'another account cannot delete',
    location: 'accounts.spec.ts:1',
    rules: ['LINK-2XX'],
    outcome: 'skipped',
    verdicts: [{ rule: 'LINK-2XX', kind: 'skipped', violations: [], reason: 'PCS_SECOND_SECRET_KEY is not set' }],
  };
  const coverage = buildCoverage(rules, [skippedRecord]);
  const lines = renderRunSummary(coverage, [skippedRecord], totalsOf([skippedRecord]), {
    matrix: 'm',
    coverage: 'c',
    html: 'h',
    allureResults: 'a',
  });
  assert.ok(
    lines.some((line) => line.includes('not checked: LINK-2XX: PCS_SECOND_SECRET_KEY is not set')),
    lines.join('\n'),
  );
});
