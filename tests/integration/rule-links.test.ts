/**
 * One hub per rule, with the tests as Playwright lists them (cli/rule-tests.ts, a Playwright
 * process): every rule has at least one test, every rule id a test's tags name exists, and the
 * rest of the links hold (cli/rule-links.ts; the unit test plants defects in each). Then
 * `collect-conformance rules --show`, with an unreachable target: listing needs none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { catalogueSources, linkProblems, testLocation } from '../../cli/rule-links.ts';
import { listedTests, listTests, ruleGrep } from '../../cli/rule-tests.ts';
import type { RuleShow } from '../../cli/rule-show.ts';
import { rules } from '../../contract/rules.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = fileURLToPath(new URL('../../bin/collect-conformance.mjs', import.meta.url));
// Nothing listens on port 9: the command must not need a target to show a rule.
const unreachable = { PCS_BASE_URL: 'http://127.0.0.1:9/v1', PCS_SECRET_KEY: 'sk_unused' };

function cli(args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ...unreachable },
    timeout: 120_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const listing = await listTests();

test('the listing holds the suite: every test has a file:line (in a checkout) and tags', () => {
  assert.ok(listing.length >= 50, `only ${listing.length} tests listed`);
  for (const listed of listing) {
    assert.match(listed.file, /^tests\/conformance\/.+\.spec\.ts$/, listed.title);
    assert.ok(listed.line !== undefined && listed.line > 1 && listed.tags.length > 0, listed.title);
  }
});

test('a position in code transpiled onto one line (line 1, a far column) gives no line', () => {
  const spec = { title: 't', file: 'a.spec.ts', column: 4644, tags: ['@LINK-2XX'] };
  const suites = [
    {
      title: 'a.spec.ts',
      specs: [
        { ...spec, line: 1 },
        { ...spec, line: 7 },
      ],
    },
  ];
  const listed = listedTests({ config: { rootDir: '/x/tests/conformance' }, suites }, '/x');
  assert.deepEqual(listed.map(testLocation), ['tests/conformance/a.spec.ts', 'tests/conformance/a.spec.ts:7']);
  assert.deepEqual(listed[0]!.tags, ['LINK-2XX']);
});

test('every link holds with the tests: each rule has a test, each tag names a rule', () => {
  assert.deepEqual(linkProblems(catalogueSources(), listing), []);
});

test('a dangling tag in the real listing is reported', () => {
  const [first, ...rest] = listing;
  assert.ok(first);
  const planted = [{ ...first, tags: [...first.tags, 'NO-SUCH-RULE'] }, ...rest];
  assert.deepEqual(linkProblems(catalogueSources(), planted), [
    `test ${testLocation(first)} ${first.title} names NO-SUCH-RULE, which is not in specs/rules.json`,
  ]);
});

test("the grep of one rule selects exactly the tests tagged with it (not a longer id's)", async () => {
  const id = 'LINK-2XX';
  const selected = await listTests({ grep: ruleGrep(id) });
  const tagged = listing.filter((listed) => listed.tags.includes(id));
  assert.deepEqual(selected.map((listed) => listed.title).sort(), tagged.map((listed) => listed.title).sort());
});

test('rules --show ID --json: the rule, its tests with file:line, cases, mutants, variants, gap rows, roles', () => {
  const result = cli(['rules', '--show', 'TXN-CREATE-INVALID-4XX', '--json']);
  assert.equal(result.code, 0, result.stderr);
  const shown = JSON.parse(result.stdout) as RuleShow;
  assert.equal(shown.rule.id, 'TXN-CREATE-INVALID-4XX');
  assert.equal(shown.rule.input?.class, 'must-refuse');
  assert.equal(shown.rule.strict, 'must-refuse');
  const tagged = listing.filter((listed) => listed.tags.includes('TXN-CREATE-INVALID-4XX'));
  const where = (listed: RuleShow['tests'][number]): string => `${testLocation(listed)} ${listed.title}`;
  assert.deepEqual(shown.tests.map(where).sort(), tagged.map(where).sort());
  assert.ok(shown.inputCases.some((entry) => entry.name === 'amount as letters'));
  const mutant = shown.mutants.find((candidate) => candidate.name === 'createTransaction.invalid-input-5xx');
  assert.equal(mutant?.operator, 'server-error');
  assert.ok(shown.variants.some((variant) => variant.name === 'variant.invalid-input-422'));
  assert.deepEqual(
    shown.gapRows.map((row) => row.id),
    ['error-status', 'coercion'],
  );
  assert.deepEqual(shown.operationRoles, [{ operation: 'createTransaction', role: 'invalidInput' }]);
});

test('rules --show ID: text with every part; a lenient variant is marked under the rule --strict names', () => {
  const result = cli(['rules', '--show', 'TXN-CREATE-OPEN-INPUT']);
  assert.equal(result.code, 0, result.stderr);
  const rule = ['Section:', 'Operations:', 'Rule:', 'Reference:', 'Input class:', '--strict:'];
  const links = ['Tests (', 'Input cases', 'Mutants (', 'Conforming variants (', 'Gap rows', 'Operation roles'];
  for (const heading of [...rule, ...links]) {
    assert.ok(result.stdout.includes(heading), heading);
  }
  assert.match(result.stdout, /tests\/conformance\/\S+\.spec\.ts:\d+ {2}/);
  assert.match(result.stdout, /variant\.null-as-absent .*lenient: --strict must fail it under this rule/);
});

test('rules --show with an unknown id: one line, exit 2, the nearest ids suggested', () => {
  const result = cli(['rules', '--show', 'TXN-CREATE-INVALID-4xx']);
  assert.equal(result.code, 2);
  const lines = result.stderr.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('npm warn'));
  assert.deepEqual(lines, [
    'collect-conformance: unknown rule id "TXN-CREATE-INVALID-4xx"; ' +
      'nearest: TXN-CREATE-INVALID-4XX, SEND-INVALID-4XX, TXN-CREATE-2XX (all: collect-conformance rules)',
  ]);
  assert.equal(result.stdout, '');
});

test('rules without --show lists the catalogue as before', () => {
  const result = cli(['rules']);
  assert.equal(result.code, 0);
  assert.equal(result.stdout.trim().split('\n').length, rules.length + 1);
  assert.match(result.stdout, /^AUTH-BEARER-ACCEPTED +documented {2}deleteCustomer,/);
});
