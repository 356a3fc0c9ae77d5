/**
 * The reporters' logic on synthetic records: failure categories (and Allure's own filing of the
 * messages rendered from the same records), verdicts per rule, the conformance matrix and the
 * rule coverage, their Markdown, the Playwright reporter end to end on fake test cases, and the
 * Allure labels of reporters/allure-labels.ts.
 *
 *   node --import tsx --test tests/unit/reporters.test.ts
 */
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FullConfig, Suite, TestCase } from '@playwright/test/reporter';
import { rules, type Rule } from '../../contract/rules.ts';
import { categoryOf, categoryOfRecords, failureCategories } from '../../reporters/categories.ts';
import {
  buildCoverage,
  buildMatrix,
  combineVerdicts,
  outcomeForRule,
  requestsOf,
  rulesOfCase,
  type TestRecord,
} from '../../reporters/conformance-model.ts';
import ConformanceReporter, { outputFiles, recordOf, stripAnsi } from '../../reporters/conformance-reporter.ts';
import FreshAllureResults from '../../reporters/fresh-allure-results.ts';
import AllureReporter, { UnsyncedWriter } from '../../reporters/allure-reporter.ts';
import {
  cell,
  firstLine,
  renderCoverageMarkdown,
  renderMatrixMarkdown,
  strictWarning,
  type RunHeader,
} from '../../reporters/markdown.ts';
import { environmentInfo } from '../../reporters/allure-environment.ts';
import { allureCategories, categorisedMessage } from '../../reporters/allure-categories.ts';
import {
  headingAnchor,
  ruleSectionLink,
  ruleStory,
  severityOf,
  testOperations,
  violationTable,
} from '../../judgment/rule-labels.ts';
import type { Exchange } from '../../http/exchange.ts';
import { checkRecord, renderVerdict } from '../../judgment/verdict-message.ts';
import { verdictAttachment, type VerdictAttachmentBody, type VerdictRecord } from '../../judgment/verdict-record.ts';
import { bodyIsJson, bodyMatchesSchema } from '../../judgment/checks.ts';
import { allureCategoryOf } from '../integration/allure-categories.ts';
import { registerSecret } from '../../settings/secrets.ts';

const secret = 'sk_sandbox_unit_reporters_secret_42';
registerSecret(secret);

function exchange(overrides: Partial<Exchange> = {}): Exchange {
  return {
    operation: 'deleteCustomer',
    method: 'DELETE',
    path: '/customers/7',
    url: 'http://127.0.0.1:4010/v1/customers/7',
    requestHeaders: { accept: 'application/json', authorization: 'Bearer ***' },
    requestBody: undefined,
    status: 200,
    responseHeaders: { 'content-type': 'application/json' },
    bodyText: '{}',
    json: {},
    jsonError: undefined,
    durationMs: 3,
    ...overrides,
  };
}

const undecidedRecord = (kind: VerdictRecord['kind']): VerdictRecord => ({ rule: 'X', kind, violations: [] });

const broken = (
  ruleId: string,
  violations: VerdictRecord['violations'],
  overrides: Partial<Exchange> = {},
  precondition = false,
): VerdictRecord => checkRecord(ruleId, exchange(overrides), violations, { precondition });

describe('failure categories, from the records', () => {
  test('a status violation of a rule is non-conformance: status, and the message names the rule', () => {
    const record = broken('CUSTOMER-DELETE-404', [{ location: 'status', expected: '404', actual: '200' }]);
    assert.equal(categoryOf(record).id, 'non-conformance-status');
    assert.match(renderVerdict(record), /^CUSTOMER-DELETE-404 \(documented\) violated by deleteCustomer: DELETE/);
  });

  test('a schema violation is non-conformance: schema; a content type one is non-conformance: content type', () => {
    const schema = broken(
      'CURRENCY-ARRAY',
      bodyMatchesSchema(
        exchange({ operation: 'getCurrency', method: 'GET', json: [{ default: 'yes' }] }),
        'currency-list',
      ),
      { operation: 'getCurrency', method: 'GET' },
    );
    assert.equal(categoryOf(schema).id, 'non-conformance-schema');
    const contentType = broken(
      'JSON-CONTENT-TYPE',
      [{ location: 'header content-type', expected: 'application/json', actual: '"text/plain"' }],
      { operation: 'getCurrency', method: 'GET' },
    );
    assert.equal(categoryOf(contentType).id, 'non-conformance-content-type');
  });

  test('an amount echoed wrong is non-conformance: value, not schema; a body that is not JSON is schema', () => {
    const echo = broken('TXN-CREATE-ECHO', [{ location: 'body /amount', expected: '100', actual: '101' }], {
      operation: 'createTransaction',
      method: 'POST',
    });
    assert.equal(categoryOf(echo).id, 'non-conformance-value');
    assert.equal(categoryOf(echo).name, 'Non-conformance: value');
    const notJson = exchange({ operation: 'createTransaction', method: 'POST', jsonError: 'Unexpected token' });
    assert.equal(categoryOf(broken('TXN-CREATE-SCHEMA', bodyIsJson(notJson))).id, 'non-conformance-schema');
  });

  test('status wins over body when a record has both', () => {
    const record = broken('TXN-CREATE-SCHEMA', [
      { location: 'body /amount', expected: 'type integer', actual: '"12" (string)' },
      { location: 'status', expected: 'a 2xx status', actual: '500' },
    ]);
    assert.equal(categoryOf(record).id, 'non-conformance-status');
  });

  test('a precondition failure is non-conformance too, and its message says it was a precondition', () => {
    const record = broken(
      'TXN-CREATE-2XX',
      [{ location: 'status', expected: 'a 2xx status', actual: '500' }],
      { operation: 'createTransaction', method: 'POST', status: 500 },
      true,
    );
    assert.equal(categoryOf(record).id, 'non-conformance-status');
    assert.match(renderVerdict(record), /^precondition failed: TXN-CREATE-2XX \(inferred\) violated by/);
  });

  test('authentication rules, and a refused key (401 where a rule expected else), are authentication', () => {
    assert.equal(
      categoryOf(broken('AUTH-DELETE-401', [{ location: 'status', expected: '401', actual: '204' }])).id,
      'authentication',
    );
    const refused = broken('CUSTOMER-DELETE-404', [{ location: 'status', expected: '404', actual: '401' }], {
      status: 401,
    });
    assert.equal(categoryOf(refused).id, 'authentication');
  });

  test('target unavailable, rate limited, and errors of the suite', () => {
    assert.equal(categoryOf(undecidedRecord('unavailable')).id, 'target-unavailable');
    assert.equal(categoryOf(undecidedRecord('rate-limited')).id, 'rate-limited');
    assert.equal(categoryOf(undecidedRecord('suite-error')).id, 'suite-error');
  });

  test('Allure files each failure where its records put it: the reporters write its category, Allure matches', () => {
    const records = [
      broken('CUSTOMER-DELETE-404', [{ location: 'status', expected: '404', actual: '200' }]),
      broken('TXN-CREATE-ECHO', [{ location: 'body /amount', expected: '100', actual: '101' }]),
      broken('AUTH-DELETE-401', [{ location: 'status', expected: '401', actual: '204' }]),
      broken('TXN-CREATE-2XX', [{ location: 'status', expected: 'a 2xx', actual: '500' }], { status: 500 }, true),
      undecidedRecord('unavailable'),
      undecidedRecord('rate-limited'),
    ];
    for (const record of records) {
      const text = record.kind === 'broken' ? renderVerdict(record) : `${record.kind}: ECONNRESET`;
      const message = categorisedMessage(categoryOfRecords([record]), `Error: ${text}`);
      assert.equal(allureCategoryOf(message).id, categoryOf(record).id, record.rule);
    }
    // The message is not read: a suite error whose text reads like another category stays a suite error.
    const misleading = categorisedMessage(categoryOfRecords([]), 'target unavailable: CUSTOMER-DELETE-404 violated');
    assert.equal(allureCategoryOf(misleading).id, 'suite-error');
    assert.equal(allureCategoryOf(categorisedMessage(categoryOfRecords([]), undefined)).id, 'suite-error');
    // A broken record decides before an undecided one, whatever their order.
    const both = [undecidedRecord('unavailable'), records[1]!];
    assert.equal(categoryOfRecords(both).id, 'non-conformance-value');
    // A message the reporters did not categorise is filed nowhere (no catch-all hides a missing category).
    assert.throws(() => allureCategoryOf('Test timeout of 60000ms exceeded.'), /no failure category matches/);
  });

  test('Allure gets every category with its statuses and a matcher of its own prefix alone', () => {
    const forAllure = allureCategories();
    assert.deepEqual(
      forAllure.map((category) => category.name),
      failureCategories.map((category) => category.name),
    );
    assert.deepEqual(forAllure[0]?.matchedStatuses, ['failed', 'broken']);
    for (const [index, category] of failureCategories.entries()) {
      const message = categorisedMessage(category, 'anything');
      const matching = forAllure.filter((entry) => new RegExp(entry.messageRegex ?? '').test(message));
      assert.deepEqual(
        matching.map((entry) => entry.name),
        [category.name],
        `only its own matcher (${index})`,
      );
    }
  });
});

const ruleA: Rule = {
  id: 'RULE-A',
  kind: 'documented',
  section: 'S',
  operations: ['getBalance', 'getCurrency'],
  text: 'A.',
  reference: 'a',
};
const ruleB: Rule = {
  id: 'RULE-B',
  kind: 'inferred',
  section: 'S',
  operations: ['getCurrency'],
  text: 'B.',
  reference: 'b',
};
const ruleC: Rule = {
  id: 'RULE-C',
  kind: 'inferred',
  section: 'S',
  operations: ['deleteCustomer'],
  text: 'C | pipe.',
  reference: 'c',
};
const syntheticRules = [ruleA, ruleB, ruleC];
const columns = ['deleteCustomer', 'getBalance', 'getCurrency'];

function record(overrides: Partial<TestRecord>): TestRecord {
  return { title: 't', location: 'x.spec.ts:1', rules: [], outcome: 'passed', verdicts: [], ...overrides };
}

/** A record of a synthetic rule on one exchange (the catalogue's rules are not needed to compute verdicts). */
function verdict(
  ruleId: string,
  kind: VerdictRecord['kind'],
  operation: string,
  status: number,
  extra: Partial<VerdictRecord> = {},
): VerdictRecord {
  return {
    rule: ruleId,
    kind,
    operation,
    exchange: { operation, method: 'GET', path: `/v1/${operation}/1`, status },
    violations: kind === 'broken' ? [{ location: 'status', expected: '200', actual: String(status) }] : [],
    ...extra,
  };
}

const undecidedVerdict = (ruleId: string, kind: VerdictRecord['kind'], reason: string): VerdictRecord => ({
  rule: ruleId,
  kind,
  violations: [],
  reason,
});

describe('verdicts', () => {
  test('fail beats pass beats skip; blocked counts as not checked', () => {
    assert.equal(combineVerdicts(['passed', 'failed', 'skipped']), 'fail');
    assert.equal(combineVerdicts(['skipped', 'flaky']), 'pass');
    assert.equal(combineVerdicts(['skipped', 'blocked']), 'skip');
    assert.equal(combineVerdicts([]), 'skip');
  });

  test('a test that broke another rule blocks this one; a rule that held in a failed test holds there', () => {
    const blocked = record({
      rules: ['RULE-A'],
      outcome: 'failed',
      verdicts: [verdict('RULE-B', 'broken', 'getCurrency', 500, { precondition: true })],
    });
    assert.equal(outcomeForRule(blocked, 'RULE-A'), 'blocked');
    assert.equal(outcomeForRule(blocked, 'RULE-B'), 'failed');
    assert.ok(rulesOfCase(blocked).has('RULE-B'), 'a precondition it broke counts for its rule');
    const held = record({
      rules: ['RULE-A', 'RULE-B'],
      outcome: 'failed',
      verdicts: [verdict('RULE-A', 'held', 'getBalance', 200), verdict('RULE-B', 'broken', 'getCurrency', 500)],
    });
    assert.equal(outcomeForRule(held, 'RULE-A'), 'passed');
    assert.equal(outcomeForRule(held, 'RULE-B'), 'failed');
    const heldPrecondition = record({
      rules: ['RULE-A'],
      verdicts: [verdict('RULE-B', 'held', 'getCurrency', 200, { precondition: true })],
    });
    assert.ok(!rulesOfCase(heldPrecondition).has('RULE-B'), 'a precondition that held is not a check of its rule');
  });

  test('a failed test with no record names no rule: an error of the suite, never a broken rule', () => {
    const unknown = record({ rules: ['RULE-A'], outcome: 'failed', error: 'Test timeout of 60000ms exceeded.' });
    assert.equal(outcomeForRule(unknown, 'RULE-A'), 'suite-error');
  });
});

describe('verdicts that are not a verdict on the target', () => {
  test('a transport fault, a rate limit or an error of the suite never reads as a broken rule', () => {
    for (const kind of ['unavailable', 'rate-limited', 'suite-error'] as const) {
      const test = record({
        rules: ['RULE-A', 'RULE-B'],
        outcome: 'failed',
        verdicts: [undecidedVerdict('RULE-A', kind, 'x'), undecidedVerdict('RULE-B', kind, 'x')],
      });
      assert.equal(outcomeForRule(test, 'RULE-A'), kind);
      assert.equal(combineVerdicts([outcomeForRule(test, 'RULE-B')]), kind);
    }
  });

  test('precedence: one real non-conformance shows fail; an undecided test outweighs a pass; skips weigh least', () => {
    assert.equal(combineVerdicts(['unavailable', 'failed', 'rate-limited', 'suite-error']), 'fail');
    assert.equal(combineVerdicts(['passed', 'unavailable']), 'unavailable');
    assert.equal(combineVerdicts(['rate-limited', 'unavailable']), 'unavailable');
    assert.equal(combineVerdicts(['unavailable', 'suite-error']), 'suite-error');
    assert.equal(combineVerdicts(['passed', 'rate-limited', 'skipped']), 'rate-limited');
    assert.equal(combineVerdicts(['skipped', 'blocked']), 'skip');
  });

  const ownRuleThenTransportTitle =
    'a test that failed on its own rule and then on the transport fails that rule and is undecided for its others';
  test(ownRuleThenTransportTitle, () => {
    const test = record({
      rules: ['RULE-A', 'RULE-B'],
      outcome: 'failed',
      verdicts: [
        verdict('RULE-B', 'broken', 'getCurrency', 500),
        undecidedVerdict('RULE-A', 'unavailable', 'target unavailable: GET /v1/balances/1 answered 503'),
      ],
    });
    assert.equal(outcomeForRule(test, 'RULE-B'), 'failed');
    assert.equal(outcomeForRule(test, 'RULE-A'), 'unavailable');
  });

  test('a test skipped because the target was found unreachable earlier counts as unavailable, not as skipped', () => {
    const test = record({
      rules: ['RULE-A'],
      outcome: 'skipped',
      verdicts: [undecidedVerdict('RULE-A', 'unavailable', 'target unavailable: not sent (GET /v1/balances/1)')],
    });
    assert.equal(outcomeForRule(test, 'RULE-A'), 'unavailable');
    const skipped = record({
      rules: ['RULE-A'],
      outcome: 'skipped',
      verdicts: [undecidedVerdict('RULE-A', 'skipped', 'writes are off on a live target')],
    });
    assert.equal(outcomeForRule(skipped, 'RULE-A'), 'skipped');
  });

  test('matrix, coverage and their Markdown: own symbols, counted apart, explained in the legend', () => {
    const tests: TestRecord[] = [
      record({
        title: 'a unavailable',
        rules: ['RULE-A'],
        outcome: 'failed',
        verdicts: [
          verdict('RULE-A', 'unavailable', 'getBalance', 503, {
            reason: 'target unavailable: POST /v1/transactions answered 503 (no Retry-After)',
          }),
        ],
      }),
      record({
        title: 'b rate limited',
        rules: ['RULE-B'],
        outcome: 'failed',
        verdicts: [undecidedVerdict('RULE-B', 'rate-limited', 'rate limited: answered 429 on 4 attempts')],
      }),
      record({
        title: 'c suite error',
        rules: ['RULE-C'],
        outcome: 'failed',
        error: 'Test timeout of 60000ms exceeded.',
      }),
    ];
    const matrix = buildMatrix(syntheticRules, columns, tests);
    assert.deepEqual(
      matrix.cells.map((found) => [found.rule, found.operation, found.verdict]),
      [
        ['RULE-A', 'getBalance', 'unavailable'],
        ['RULE-B', 'getCurrency', 'rate-limited'],
        ['RULE-C', 'deleteCustomer', 'suite-error'],
      ],
    );
    const coverage = buildCoverage(syntheticRules, tests);
    assert.deepEqual(coverage.totals, {
      rules: 3,
      pass: 0,
      fail: 0,
      skip: 0,
      unavailable: 1,
      'rate-limited': 1,
      'suite-error': 1,
      lenient: 0,
      notCovered: 0,
    });
    const header: RunHeader = {
      target: 'http://127.0.0.1:1/v1',
      environment: 'sandbox',
      runId: 'r1',
      finishedAt: '2026-01-01T00:00:00Z',
    };
    const matrixText = renderMatrixMarkdown(matrix, header);
    assert.match(matrixText, /^\| RULE-A \| documented \| {2}\| 🔌 503 \| ⚠️ not covered \|$/m);
    assert.match(matrixText, /^\| RULE-B \| inferred \| {2}\| {2}\| 🚦 \|$/m);
    assert.match(matrixText, /^\| RULE-C \| inferred \| 🐞 \| {2}\| {2}\|$/m);
    assert.doesNotMatch(matrixText.split('Legend:')[0]!, /❌/, 'no cell reads as a broken rule');
    const coverageText = renderCoverageMarkdown(coverage, header);
    assert.match(
      coverageText,
      new RegExp(
        String.raw`^\| RULE-A \| documented \| 🔌 target unavailable \| 🔌 a unavailable \| ` +
          'Target unavailable: target unavailable: POST',
        'm',
      ),
    );
    assert.match(coverageText, /^\| RULE-C .*Errors of the suite: Test timeout of 60000ms exceeded\. \|$/m);
    assert.match(
      coverageText,
      /3 rules: 0 pass, 0 fail, 1 suite error, 1 target unavailable, 1 rate limited, 0 skip, 0 not covered/,
    );
    for (const text of [matrixText, coverageText]) {
      const legend = text.slice(text.indexOf('Legend:'));
      for (const symbol of ['✅', '❌', '⏭️', '🔌', '🚦', '🐞', '⚠️'])
        assert.ok(legend.includes(symbol), `the legend explains ${symbol}`);
    }
  });

  const lenientPassTitle =
    'a lenient pass (an open input --strict refuses was accepted) ' +
    'has its own symbol, its note, and the console warning';
  test(lenientPassTitle, () => {
    const tests: TestRecord[] = [
      record({
        title: 'open input',
        rules: ['RULE-A'],
        outcome: 'passed',
        verdicts: [
          verdict('RULE-A', 'lenient', 'getBalance', 201, {
            lenient: 'POST /v1/transactions → 201: /amount = "1500" (string) accepted',
          }),
        ],
      }),
      record({ title: 'other', rules: ['RULE-B'], outcome: 'passed' }),
    ];
    assert.equal(outcomeForRule(tests[0]!, 'RULE-A'), 'lenient');
    const coverage = buildCoverage(syntheticRules, tests);
    assert.deepEqual(
      coverage.rules.map((entry) => [entry.id, entry.verdict]),
      [
        ['RULE-A', 'lenient'],
        ['RULE-B', 'pass'],
        ['RULE-C', 'not covered'],
      ],
    );
    const header: RunHeader = {
      target: 'http://127.0.0.1:1/v1',
      environment: 'sandbox',
      runId: 'r1',
      finishedAt: '2026-01-01T00:00:00Z',
    };
    assert.match(
      renderCoverageMarkdown(coverage, header),
      /^\| RULE-A \| documented \| 🟡 lenient pass \| 🟡 open input \| --strict fails it: POST \/v1\/transactions → 201/m,
    );
    assert.match(renderMatrixMarkdown(buildMatrix(syntheticRules, columns, tests), header), /🟡/);
    assert.match(
      strictWarning(coverage) ?? '',
      /^collect-conformance: warning: 1 rule\(s\) passed only through a lenient reading .*\n {2}🟡 RULE-A: POST/,
    );
    assert.equal(strictWarning(buildCoverage(syntheticRules, [tests[1]!])), null);
  });
});

describe('conformance matrix and rule coverage', () => {
  const tests: TestRecord[] = [
    record({
      title: 'a on balance',
      rules: ['RULE-A'],
      verdicts: [verdict('RULE-A', 'held', 'getBalance', 200)],
    }),
    record({
      title: 'a on currency',
      rules: ['RULE-A'],
      outcome: 'failed',
      verdicts: [verdict('RULE-A', 'held', 'getCurrency', 200), verdict('RULE-A', 'broken', 'getCurrency', 500)],
    }),
    record({ title: 'b skipped', rules: ['RULE-B'], outcome: 'skipped' }),
  ];

  const cellsTitle =
    'cells carry the verdict and the statuses each operation answered; ' +
    'a test with no request counts for every operation of its rule';
  test(cellsTitle, () => {
    const matrix = buildMatrix(syntheticRules, columns, tests);
    const cellOf = (rule: string, operation: string) =>
      matrix.cells.find((c) => c.rule === rule && c.operation === operation);
    assert.deepEqual(cellOf('RULE-A', 'getBalance'), {
      operation: 'getBalance',
      rule: 'RULE-A',
      verdict: 'pass',
      tests: ['a on balance'],
      statuses: [200],
    });
    assert.deepEqual(cellOf('RULE-A', 'getCurrency')?.statuses, [200, 500]);
    assert.equal(cellOf('RULE-A', 'getCurrency')?.verdict, 'fail');
    assert.equal(cellOf('RULE-B', 'getCurrency')?.verdict, 'skip');
    assert.equal(cellOf('RULE-C', 'deleteCustomer'), undefined, 'no test covers RULE-C');
    assert.deepEqual(matrix.totals, { tests: 3, passed: 1, failed: 1, skipped: 1, flaky: 0 });
  });

  test('coverage lists every rule with its tests and verdict, and the rules no test covers', () => {
    const coverage = buildCoverage(syntheticRules, tests);
    assert.deepEqual(
      coverage.rules.map((entry) => [entry.id, entry.verdict]),
      [
        ['RULE-A', 'fail'],
        ['RULE-B', 'skip'],
        ['RULE-C', 'not covered'],
      ],
    );
    assert.deepEqual(coverage.uncovered, ['RULE-C']);
    assert.deepEqual(coverage.totals, {
      rules: 3,
      pass: 0,
      fail: 1,
      skip: 1,
      unavailable: 0,
      'rate-limited': 0,
      'suite-error': 0,
      lenient: 0,
      notCovered: 1,
    });
    assert.equal(coverage.rules[0]?.tests[1]?.category, 'non-conformance-status');
  });

  const markdownRowsTitle =
    'Markdown: one row per rule, marks and statuses in cells, empty where the rule does not apply, pipes escaped';
  test(markdownRowsTitle, () => {
    const header: RunHeader = {
      target: 'http://127.0.0.1:1/v1',
      environment: 'sandbox',
      runId: 'r1',
      finishedAt: '2026-01-01T00:00:00Z',
    };
    const matrix = renderMatrixMarkdown(buildMatrix(syntheticRules, columns, tests), header);
    assert.match(matrix, /^\| Rule \| Kind \| deleteCustomer \| getBalance \| getCurrency \|$/m);
    assert.match(matrix, /^\| RULE-A \| documented \| {2}\| ✅ 200 \| ❌ 200, 500 \|$/m);
    assert.match(matrix, /^\| RULE-B \| inferred \| {2}\| {2}\| ⏭️ \|$/m);
    assert.match(matrix, /^\| RULE-C \| inferred \| ⚠️ not covered \| {2}\| {2}\|$/m);
    assert.equal(cell('a | b\nc'), 'a \\| b c');
    assert.equal(firstLine('x\ny'), 'x');
  });

  test('the coverage of a real rule names its broken record; a skipped one says why', () => {
    const header: RunHeader = { target: 't', environment: 'sandbox', runId: 'r', finishedAt: 'f' };
    const failing = broken('CUSTOMER-DELETE-404', [{ location: 'status', expected: '404', actual: '200' }]);
    const coverage = buildCoverage(rules, [
      record({ title: 'unknown id', rules: ['CUSTOMER-DELETE-404'], outcome: 'failed', verdicts: [failing] }),
      record({
        title: 'second account',
        rules: ['ACCOUNT-DATA-OWN'],
        outcome: 'skipped',
        verdicts: [undecidedVerdict('ACCOUNT-DATA-OWN', 'skipped', 'PCS_SECOND_SECRET_KEY is not set')],
      }),
    ]);
    const text = renderCoverageMarkdown(coverage, header);
    assert.match(
      text,
      new RegExp(
        String.raw`^\| CUSTOMER-DELETE-404 \| documented \| ❌ fail \| ❌ unknown id \| Non-conformance: status: ` +
          String.raw`CUSTOMER-DELETE-404 \(documented\) violated by deleteCustomer: DELETE /v1/customers/7 → 200 \|$`,
        'm',
      ),
    );
    assert.match(text, /^\| ACCOUNT-DATA-OWN .*skipped: PCS_SECOND_SECRET_KEY is not set \|$/m);
  });
});

/** A TestCase as the reporter reads it; the rest of Playwright's interface is not used. */
function fakeTest(options: {
  title: string;
  rules: string[];
  outcome: 'expected' | 'unexpected' | 'skipped' | 'flaky';
  status: 'passed' | 'failed' | 'skipped';
  records?: VerdictRecord[];
  errors?: string[];
  skip?: string;
}): TestCase {
  const body: VerdictAttachmentBody = { version: 1, records: options.records ?? [] };
  const fake = {
    title: options.title,
    annotations: [
      { type: 'kind', description: 'documented' },
      ...options.rules.map((id) => ({ type: 'rule', description: id })),
      ...(options.skip === undefined ? [] : [{ type: 'skip', description: options.skip }]),
    ],
    location: { file: '/project/tests/conformance/x.spec.ts', line: 3, column: 1 },
    titlePath: () => ['', 'conformance', 'x.spec.ts', 'describe', options.title],
    outcome: () => options.outcome,
    results: [
      {
        status: options.status,
        annotations: [],
        attachments:
          options.records === undefined ? [] : [{ ...verdictAttachment, body: Buffer.from(JSON.stringify(body)) }],
        errors: (options.errors ?? []).map((message) => ({ message })),
      },
    ],
  };
  return fake as unknown as TestCase;
}

describe('the Playwright reporter', () => {
  const made: string[] = [];
  afterEach(() => {
    for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true });
  });

  test('records a test: rules, the records of its last attempt with their source, its error masked', () => {
    const failing = broken('CUSTOMER-DELETE-404', [{ location: 'status', expected: '404', actual: '200' }], {
      url: 'http://127.0.0.1:4010/v1/customers/9',
    });
    const test = fakeTest({
      title: 'unknown id',
      rules: ['CUSTOMER-DELETE-404'],
      outcome: 'unexpected',
      status: 'failed',
      records: [failing],
      errors: [`\u001b[31mError: something else\n  key ${secret}\u001b[39m`],
    });
    const recorded = recordOf(test, '/project');
    assert.equal(recorded.title, 'describe › unknown id');
    assert.equal(recorded.location, 'tests/conformance/x.spec.ts:3');
    assert.deepEqual(recorded.rules, ['CUSTOMER-DELETE-404']);
    assert.deepEqual(requestsOf(recorded), [{ operation: 'deleteCustomer', status: 200 }]);
    assert.deepEqual(recorded.verdicts[0]?.source, {
      kind: 'test',
      title: 'describe › unknown id',
      location: 'tests/conformance/x.spec.ts:3',
    });
    assert.equal(outcomeForRule(recorded, 'CUSTOMER-DELETE-404'), 'failed');
    assert.ok(!recorded.error?.includes(secret), 'the key is masked');
    assert.ok(!recorded.error?.includes('\u001b['), 'ANSI codes are removed');
    assert.equal(stripAnsi('\u001b[2ma\u001b[22m'), 'a');
  });

  test('a test skipped before its fixtures ran is skipped for its rules, with its own reason', () => {
    const recorded = recordOf(
      fakeTest({
        title: 's',
        rules: ['BALANCE-2XX'],
        outcome: 'skipped',
        status: 'skipped',
        skip: 'PCS_BALANCE_ID is not set',
      }),
      '/project',
    );
    assert.equal(outcomeForRule(recorded, 'BALANCE-2XX'), 'skipped');
    assert.equal(recorded.verdicts[0]?.reason, 'PCS_BALANCE_ID is not set');
  });

  const writesFilesTitle =
    'writes the matrix and the coverage (Markdown, JSON) for every rule, and appends to $GITHUB_STEP_SUMMARY';
  test(writesFilesTitle, () => {
    const directory = mkdtempSync(join(tmpdir(), 'cc-reporter-'));
    made.push(directory);
    const summary = join(directory, 'step-summary.md');
    writeFileSync(summary, '# before\n');
    const saved = process.env.GITHUB_STEP_SUMMARY;
    process.env.GITHUB_STEP_SUMMARY = summary;
    try {
      const reporter = new ConformanceReporter({ outputDir: join(directory, 'out') });
      const held = checkRecord(
        'CUSTOMER-DELETE-204',
        exchange({ status: 204, url: 'http://127.0.0.1:4010/v1/customers/1' }),
        [],
      );
      const tests = [
        fakeTest({
          title: 'deleted',
          rules: ['CUSTOMER-DELETE-204'],
          outcome: 'expected',
          status: 'passed',
          records: [held],
        }),
        fakeTest({ title: 'skipped', rules: ['BALANCE-2XX'], outcome: 'skipped', status: 'skipped' }),
      ];
      const suite = { allTests: () => tests } as unknown as Suite;
      reporter.onBegin({ rootDir: '/project' } as FullConfig, suite);
      reporter.onEnd({ status: 'passed', startTime: new Date(), duration: 1 });
      const coverage = JSON.parse(readFileSync(join(directory, 'out', outputFiles.coverageJson), 'utf8')) as ReturnType<
        typeof buildCoverage
      >;
      assert.equal(coverage.rules.length, rules.length);
      assert.equal(coverage.rules.find((entry) => entry.id === 'CUSTOMER-DELETE-204')?.verdict, 'pass');
      assert.equal(coverage.rules.find((entry) => entry.id === 'BALANCE-2XX')?.verdict, 'skip');
      assert.equal(coverage.uncovered.length, rules.length - 2);
      const matrix = readFileSync(join(directory, 'out', outputFiles.matrixMarkdown), 'utf8');
      for (const entry of rules) assert.match(matrix, new RegExp(`^\\| ${entry.id} \\|`, 'm'));
      assert.match(matrix, /^\| CUSTOMER-DELETE-204 \| documented \| ✅ 204 \|/m);
      JSON.parse(readFileSync(join(directory, 'out', outputFiles.matrixJson), 'utf8'));
      const appended = readFileSync(summary, 'utf8');
      assert.ok(appended.startsWith('# before\n'), 'the summary is appended to, not replaced');
      assert.match(appended, /## Conformance matrix/);
      assert.match(appended, /## Rule coverage/);
    } finally {
      if (saved === undefined) delete process.env.GITHUB_STEP_SUMMARY;
      else process.env.GITHUB_STEP_SUMMARY = saved;
    }
  });
});

describe('Allure labels and environment', () => {
  test('story, severity and the link to the rule section of the reference', () => {
    const entry = rules.find((candidate) => candidate.id === 'CUSTOMER-DELETE-GONE')!;
    assert.ok(entry.text.length <= 100, 'a short rule sentence is the story as it is');
    assert.equal(ruleStory(entry), `CUSTOMER-DELETE-GONE: ${entry.text}`);
    assert.equal(ruleStory({ id: 'X', text: 'y'.repeat(150) }).length, 'X: '.length + 100);
    assert.equal(severityOf([{ kind: 'documented' }]), 'critical');
    assert.equal(severityOf([{ kind: 'inferred' }]), 'normal');
    assert.equal(headingAnchor(' 1. Delete a customer'), '1-delete-a-customer');
    assert.deepEqual(ruleSectionLink(entry), {
      url: 'api-reference.md#1-delete-a-customer',
      name: 'Reference: Endpoints > 1. Delete a customer',
    });
  });

  test('features are the operations of the rules that the test called', () => {
    assert.deepEqual(testOperations(['AUTH-BEARER-ACCEPTED'], ['createTransaction', 'getPaymentLink']), [
      'createTransaction',
      'getPaymentLink',
    ]);
    assert.deepEqual(testOperations(['CUSTOMER-DELETE-GONE'], ['createCustomer', 'deleteCustomer']), [
      'deleteCustomer',
    ]);
    assert.deepEqual(testOperations(['LINK-2XX'], []), ['getPaymentLink']);
    assert.deepEqual(testOperations([], ['getBalance', 'getBalance']), ['getBalance']);
  });

  test('violations become a CSV table, quoted where needed', () => {
    assert.equal(
      violationTable([{ location: 'body /0/default', expected: 'type boolean', actual: '"yes" (string), "x"' }]),
      'location,expected,actual\nbody /0/default,type boolean,"""yes"" (string), ""x"""\n',
    );
  });

  test('environment info reads the target when it is written, not when it is made', () => {
    const saved = { base: process.env.PCS_BASE_URL, embedded: process.env.COLLECT_CONFORMANCE_EMBEDDED_MOCK };
    try {
      delete process.env.PCS_BASE_URL;
      const info = environmentInfo(new Date('2026-01-02T03:04:05Z'));
      assert.equal(info.Target, 'not started');
      process.env.PCS_BASE_URL = 'http://127.0.0.1:4321/v1';
      process.env.COLLECT_CONFORMANCE_EMBEDDED_MOCK = '1';
      assert.equal(info.Target, '127.0.0.1:4321 (embedded reference mock)');
      assert.equal(info['Start time'], '2026-01-02T03:04:05.000Z');
      assert.equal(info['Node.js'], process.version);
      assert.ok(Object.keys(info).includes('Target'), 'enumerable, so the writer sees it');
    } finally {
      if (saved.base === undefined) delete process.env.PCS_BASE_URL;
      else process.env.PCS_BASE_URL = saved.base;
      if (saved.embedded === undefined) delete process.env.COLLECT_CONFORMANCE_EMBEDDED_MOCK;
      else process.env.COLLECT_CONFORMANCE_EMBEDDED_MOCK = saved.embedded;
    }
  });
});

describe('fresh Allure results', () => {
  test('the results directory of the previous run is emptied when a run begins', () => {
    const directory = mkdtempSync(join(tmpdir(), 'cc-fresh-'));
    try {
      const results = join(directory, 'allure-results');
      mkdirSync(results);
      writeFileSync(join(results, 'old-result.json'), '{}');
      new FreshAllureResults({ resultsDir: results }).onBegin();
      assert.ok(!existsSync(results), 'the old results are gone');
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

const allureWriterTitle =
  'the Allure writer writes the files of allure-js-commons, without fsync; the reporter writes through it';
test(allureWriterTitle, async () => {
  const { FileSystemWriter } = await import('allure-js-commons/sdk/reporter');
  const ours = mkdtempSync(join(tmpdir(), 'cc-allure-ours-'));
  const theirs = mkdtempSync(join(tmpdir(), 'cc-allure-theirs-'));
  const source = join(ours, 'source.txt');
  writeFileSync(source, 'copied');
  try {
    for (const writer of [
      new UnsyncedWriter(join(ours, 'out')),
      new FileSystemWriter({ resultsDir: join(theirs, 'out') }),
    ]) {
      writer.writeResult({ uuid: 'r1', name: 'a test' } as never);
      writer.writeGroup({ uuid: 'g1', children: [] } as never);
      writer.writeAttachment('a1-attachment.txt', Buffer.from('body'));
      writer.writeAttachmentFromPath('a2-attachment.txt', source);
      writer.writeEnvironmentInfo({ target: 'mock', 'node.version': 'v20' });
      writer.writeCategoriesDefinitions([{ name: 'broken rule' }]);
      writer.writeGlobals('x-globals.json', { attachments: [], errors: [] });
    }
    for (const name of [
      'r1-result.json',
      'g1-container.json',
      'a1-attachment.txt',
      'a2-attachment.txt',
      'environment.properties',
      'categories.json',
      'x-globals.json',
    ]) {
      assert.equal(
        readFileSync(join(ours, 'out', name), 'utf8'),
        readFileSync(join(theirs, 'out', name), 'utf8'),
        name,
      );
    }
    const reporter = new AllureReporter({ resultsDir: join(ours, 'results') });
    reporter.onBegin(
      { rootDir: ours, projects: [] } as unknown as FullConfig,
      { allTests: () => [] } as unknown as Suite,
    );
    assert.ok(reporter.allureRuntime?.writer instanceof UnsyncedWriter);
  } finally {
    rmSync(ours, { recursive: true, force: true });
    rmSync(theirs, { recursive: true, force: true });
  }
});
