/**
 * The reports come from verdict records alone: records made by hand, as a judge of recorded
 * traffic makes them (no test runner, no message to read), give the matrix, the rule coverage,
 * JUnit and the closing summary; and the pipeline's modules load nothing of Playwright.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestRecord } from '../../reporters/conformance-model.ts';
import { buildReports, outputFiles } from '../../reporters/report-pipeline.ts';
import type { VerdictRecord } from '../../judgment/verdict-record.ts';

const source = (entry: number): VerdictRecord['source'] => ({ kind: 'har', file: 'traffic.har', entry });

const exchange = (operation: string, method: string, path: string, status: number) => ({
  operation,
  method,
  path,
  status,
  curl: `curl -i -X ${method} 'http://127.0.0.1:9/v1${path}' -H "Authorization: Bearer $PCS_SECRET_KEY"`,
});

const records: VerdictRecord[] = [
  {
    rule: 'TXN-CREATE-ECHO',
    kind: 'broken',
    operation: 'createTransaction',
    exchange: exchange('createTransaction', 'POST', '/v1/transactions', 201),
    violations: [{ location: 'body /amount', expected: '1500 (number)', actual: '1501 (number)' }],
    source: source(0),
  },
  {
    rule: 'TXN-CREATE-SCHEMA',
    kind: 'held',
    operation: 'createTransaction',
    exchange: exchange('createTransaction', 'POST', '/v1/transactions', 201),
    violations: [],
    count: 3,
    source: source(0),
  },
  {
    rule: 'BALANCE-ARRAY',
    kind: 'held',
    operation: 'getBalance',
    exchange: exchange('getBalance', 'GET', '/v1/balances/1', 200),
    violations: [],
    source: source(1),
  },
  {
    rule: 'ACCOUNT-DATA-OWN',
    kind: 'skipped',
    violations: [],
    reason: 'the traffic carries no second account key (PCS_SECOND_SECRET_KEY is not set)',
  },
];

/** One case per operation and rule, as a judge of traffic groups its records. */
const cases: TestRecord[] = [...new Set(records.map((record) => `${record.operation ?? '*'} ${record.rule}`))].map(
  (key) => {
    const verdicts = records.filter((record) => `${record.operation ?? '*'} ${record.rule}` === key);
    const rule = verdicts[0]!.rule;
    return {
      title: key,
      location: 'traffic.har',
      rules: [rule],
      outcome: verdicts.some((record) => record.kind === 'broken')
        ? 'failed'
        : verdicts.every((record) => record.kind === 'skipped')
          ? 'skipped'
          : 'passed',
      verdicts,
    };
  },
);

test('records alone give the matrix, the rule coverage, JUnit and the summary', () => {
  const reports = buildReports(cases, {
    header: { target: 'traffic.har', environment: 'sandbox', runId: 'r1', finishedAt: '2026-11-28T00:00:00Z' },
    paths: { matrix: 'm.md', coverage: 'c.md', html: 'h', allureResults: 'a' },
    junitName: 'traffic',
  });
  const cell = (rule: string, operation: string) =>
    reports.matrix.cells.find((found) => found.rule === rule && found.operation === operation);
  assert.equal(cell('TXN-CREATE-ECHO', 'createTransaction')?.verdict, 'fail');
  assert.deepEqual(cell('TXN-CREATE-ECHO', 'createTransaction')?.statuses, [201]);
  assert.equal(cell('BALANCE-ARRAY', 'getBalance')?.verdict, 'pass');
  assert.equal(
    cell('TXN-CREATE-2XX', 'createTransaction'),
    undefined,
    'a rule the traffic never reached has no verdict',
  );
  const verdictOf = (id: string) => reports.coverage.rules.find((entry) => entry.id === id)?.verdict;
  assert.equal(verdictOf('TXN-CREATE-ECHO'), 'fail');
  assert.equal(verdictOf('TXN-CREATE-SCHEMA'), 'pass');
  assert.equal(verdictOf('ACCOUNT-DATA-OWN'), 'skip');
  assert.equal(verdictOf('LINK-2XX'), 'not covered');
  const junit = reports.files[outputFiles.junit]!;
  assert.match(
    junit,
    /<testsuites name="collect-conformance traffic.har" tests="4" failures="1" errors="0" skipped="1"/,
  );
  assert.match(
    junit,
    new RegExp(
      '<failure message="cause [0-9a-f]{8}: /amount: not the value owed [^;]*; ' +
        String.raw`TXN-CREATE-ECHO \(documented\) violated by createTransaction: ` +
        'POST /v1/transactions → 201" type="non-conformance-value">',
    ),
  );
  assert.match(junit, /at body \/amount: expected 1500 \(number\), actual 1501 \(number\)/);
  assert.match(
    junit,
    /<skipped message="the traffic carries no second account key \(PCS_SECOND_SECRET_KEY is not set\)"\/>/,
  );
  assert.equal(
    reports.summary[0],
    'collect-conformance: summary: 1 cause breaks 1 rule (❌): /amount: not the value owed ' +
      '(e.g. 1500 owed, 1501 (number) found); 4 tests: 2 passed, 1 failed, 1 skipped',
  );
  assert.match(
    reports.summary[1]!,
    /❌ cause [0-9a-f]{8}: \/amount: .* — on createTransaction; breaks TXN-CREATE-ECHO \(1 test\)$/,
  );
  assert.match(reports.files[outputFiles.coverageMarkdown]!, /\| TXN-CREATE-ECHO \| documented \| ❌ fail \|/);
  assert.ok(JSON.parse(reports.files[outputFiles.matrixJson]!).cells.length > 0);
});

/** The relative imports of a module and of everything it imports, with the packages they name. */
function importsOf(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(/^import (?!type )[^;]*? from '([^']+)';/gms)) {
    const specifier = match[1]!;
    if (specifier.startsWith('.')) importsOf(resolve(dirname(file), specifier), seen);
    else seen.add(specifier);
  }
  return seen;
}

test('the pipeline loads nothing of Playwright: it runs without a test runner', () => {
  const pipeline = fileURLToPath(new URL('../../reporters/report-pipeline.ts', import.meta.url));
  const packages = [...importsOf(pipeline)].filter((name) => !name.startsWith('/'));
  assert.deepEqual(
    packages.filter((name) => name.includes('playwright')),
    [],
    `imports: ${packages.join(', ')}`,
  );
});
