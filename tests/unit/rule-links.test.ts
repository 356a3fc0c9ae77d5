/**
 * One hub per rule (cli/rule-links.ts): every rule id that a mutant, a variant, an input case,
 * a gap row or a role of the operations table names exists; every rule has a mutant that breaks
 * it (or a recorded reason why none can); every variant names the rules its choice tests; every
 * gap row's rules are named by its variants. The checker is shown to fail on planted defects.
 * The tests' tags and "every rule has a test" need Playwright's listing: tests/integration.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { catalogueSources, linkProblems, ruleHub, ruleLinks, type CatalogueSources } from '../../cli/rule-links.ts';
import type { ListedTest } from '../../cli/rule-tests.ts';
import { operationRules } from '../../contract/operations.ts';

const sources = catalogueSources();

/** The sources with one part replaced: a planted defect. */
const planted = (change: Partial<CatalogueSources>): CatalogueSources => ({ ...sources, ...change });

const matching = (found: string[], pattern: RegExp): string[] => found.filter((problem) => pattern.test(problem));

test('every link of the catalogue holds: no dangling id, a mutant per rule, rules per variant and per gap row', () => {
  assert.deepEqual(linkProblems(sources), []);
});

test('the checker fails on a dangling id in each kind of source', () => {
  const [mutant, ...otherMutants] = sources.mutants;
  const [variant, ...otherVariants] = sources.variants;
  const [file, ...files] = sources.inputCases;
  const [row, ...otherRows] = sources.gapRows;
  const [operation, ...otherOps] = sources.operations;
  assert.ok(mutant && variant && file && row && operation?.rules);
  const dangling = 'NO-SUCH-RULE';
  const [firstCase, ...otherCases] = file.cases;
  assert.ok(firstCase);
  const cases: Array<[string, Partial<CatalogueSources>]> = [
    ['mutant', { mutants: [{ ...mutant, rule: dangling }, ...otherMutants] }],
    ['variant', { variants: [{ ...variant, rules: [...variant.rules, dangling] }, ...otherVariants] }],
    ['input case', { inputCases: [{ ...file, cases: [{ ...firstCase, rule: dangling }, ...otherCases] }, ...files] }],
    ['gap row', { gapRows: [{ ...row, rules: [...row.rules, dangling] }, ...otherRows] }],
    ['operation role', { operations: [{ ...operation, rules: { ...operation.rules, shape: dangling } }, ...otherOps] }],
    ['registered check', { registered: new Map([...sources.registered, ['createTransaction', [dangling]]]) }],
  ];
  for (const [kind, change] of cases) {
    const found = linkProblems(planted(change));
    const reported = matching(found, new RegExp(`^${kind} .* names ${dangling}, which is not in`));
    assert.equal(reported.length, 1, `a dangling id in a ${kind} is reported: ${found.join(' / ')}`);
  }
});

test('the checker fails on a dangling test tag and on a rule without a test', () => {
  const listing: ListedTest[] = sources.rules.map((entry, index) => ({
    title: `checks ${entry.id}`,
    file: 'tests/conformance/x.spec.ts',
    line: index + 1,
    tags: ['inferred', entry.id],
  }));
  assert.deepEqual(linkProblems(sources, listing), []);
  const stale: ListedTest = { title: 'a stale tag', file: 'tests/conformance/x.spec.ts', line: 99, tags: ['GONE'] };
  const withDangling = [...listing, stale];
  assert.deepEqual(linkProblems(sources, withDangling), [
    'test tests/conformance/x.spec.ts:99 a stale tag names GONE, which is not in specs/rules.json',
  ]);
  const untested = sources.rules[0]!.id;
  const withoutFirst = linkProblems(sources, listing.slice(1));
  assert.deepEqual(withoutFirst, [`${untested} has no test (no test is tagged @${untested})`]);
});

test('the checker fails on a rule no mutant breaks unless a reason is recorded, and on a stale reason', () => {
  const target = 'TXN-CREATE-MODE-ACCEPTED';
  const withoutItsMutants = sources.mutants.filter((mutant) => mutant.rule !== target);
  assert.ok(withoutItsMutants.length < sources.mutants.length);
  assert.deepEqual(linkProblems(planted({ mutants: withoutItsMutants })), [
    `${target} has no mutant that breaks it and no recorded reason why none can exist (noMutant)`,
  ]);
  const reasoned = sources.rules.map((entry) => (entry.id === target ? { ...entry, noMutant: 'planted' } : entry));
  assert.deepEqual(linkProblems(planted({ mutants: withoutItsMutants, rules: reasoned })), []);
  const [stale] = linkProblems(planted({ rules: reasoned }));
  assert.match(stale ?? '', new RegExp(`^${target} records noMutant, yet \\S+ breaks it$`));
  // An equivalent mutant breaks nothing a request can see: it does not count.
  const equivalentOnly = sources.mutants.map((m) => (m.rule === target ? { ...m, equivalent: 'planted' } : m));
  assert.equal(linkProblems(planted({ mutants: equivalentOnly })).length, 1);
});

test("the checker fails on a variant without rules, a stray strictKills, a gap row's rule no variant names", () => {
  const [variant, ...others] = sources.variants;
  assert.ok(variant);
  assert.deepEqual(
    matching(linkProblems(planted({ variants: [{ ...variant, rules: [] }, ...others] })), /names no rule/),
    [`variant ${variant.name} names no rule whose verdict its choice tests`],
  );
  const lenient = sources.variants.find((candidate) => candidate.strictKills !== undefined)!;
  const stray = sources.variants.map((v) => (v === lenient ? { ...v, strictKills: 'LINK-2XX' } : v));
  assert.deepEqual(linkProblems(planted({ variants: stray })), [
    `variant ${lenient.name}: strictKills LINK-2XX is not among its rules`,
  ]);
  const row = sources.gapRows.find((candidate) => candidate.id === 'payment-url')!;
  const forget = (rules: string[]): string[] => rules.filter((id) => id !== 'LINK-URL-ABSOLUTE');
  const forgetful = sources.variants.map((v) => (v.gaps.includes(row.id) ? { ...v, rules: forget(v.rules) } : v));
  assert.deepEqual(linkProblems(planted({ variants: forgetful })), [
    "gap row payment-url: LINK-URL-ABSOLUTE is named by none of the row's variants (variant.payment-url-deep-link)",
  ]);
});

test("a rule's hub gathers what names it: roles, input cases, mutants, variants, gap rows", () => {
  const hub = ruleHub('TXN-CREATE-INVALID-4XX');
  assert.deepEqual(hub.operationRoles, [{ operation: 'createTransaction', role: 'invalidInput' }]);
  assert.ok(hub.inputCases.length > 0 && hub.inputCases.every((entry) => entry.class === 'must-refuse'));
  assert.ok(hub.mutants.some((mutant) => mutant.name === 'createTransaction.invalid-input-5xx'));
  assert.ok(hub.variants.some((variant) => variant.name === 'variant.invalid-input-422'));
  assert.deepEqual(
    hub.gapRows.map((row) => row.id),
    ['error-status', 'coercion'],
  );
  assert.throws(() => ruleHub('NO-SUCH-RULE'), /unknown rule id/);
  // Every link of a rule is in its hub (tests aside: they come from the listing).
  const links = ruleLinks(sources).filter((link) => link.rule === 'TXN-CREATE-INVALID-4XX');
  assert.equal(links.filter((link) => link.kind === 'mutant').length, hub.mutants.length);
  assert.equal(links.filter((link) => link.kind === 'input case').length, hub.inputCases.length);
  assert.equal(operationRules('createTransaction').invalidInput, 'TXN-CREATE-INVALID-4XX');
});

test('no module of the mutant catalogue or the mutation runner finds a rule by its wording', () => {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const files = [
    ...readdirSync(join(root, 'mock/mutants')).map((name) => `mock/mutants/${name}`),
    'lab/mutation.ts',
    ...readdirSync(join(root, 'lab/mutation')).map((name) => `lab/mutation/${name}`),
  ].filter((file) => file.endsWith('.ts'));
  for (const file of files) {
    const source = readFileSync(join(root, file), 'utf8');
    // The whole catalogue (to search it) or a rule's text: a rule is named by its id, never found by what it says.
    const importsTheList = /import\s*\{[^}]*\brules\b[^}]*\}\s*from\s*'[./]*contract\/rules\.ts'/;
    assert.doesNotMatch(source, importsTheList, `${file} imports the rules list`);
    assert.doesNotMatch(source, /\brule\([^)]*\)\.text\b|\bentry\.text\b/, `${file} reads a rule's text`);
  }
});
