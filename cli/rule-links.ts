/**
 * One hub per rule: every place that names a rule id literally (the mutants and conforming
 * variants of the mock, the input cases, the gap table, the roles of the operations table, the
 * check registry that judges every answer (judgment/registry.ts) and
 * the tests' tags), gathered by rule, and the checker that fails when a link is missing or
 * dangling. `collect-conformance rules --show ID` prints one rule's hub; the rule-links tests
 * (tests/unit, tests/integration) run the checker.
 *
 * The sources are passed in, not read here, so that a test can plant a dangling id and see
 * the checker fail.
 */
import { gapRows, type GapRow } from '../contract/gaps.ts';
import { inputCaseFiles, type InputCase, type InputCaseFile } from '../contract/input-cases.ts';
import { operations, type Operation, type OperationId, type OperationRules } from '../contract/operations.ts';
import { rules, type Rule } from '../contract/rules.ts';
import { mutants, variants, type Mutant, type Variant } from '../mock/mutants/index.ts';
import { registeredRules } from '../judgment/registry.ts';
import type { ListedTest } from './rule-tests.ts';

export interface CatalogueSources {
  rules: readonly Rule[];
  mutants: readonly Mutant[];
  variants: readonly Variant[];
  inputCases: readonly InputCaseFile[];
  gapRows: readonly GapRow[];
  operations: readonly Operation[];
  /** The rules the check registry judges on every answer of each operation. */
  registered: ReadonlyMap<OperationId, readonly string[]>;
}

/** The project's own sources. */
export function catalogueSources(): CatalogueSources {
  return {
    rules,
    mutants: mutants(),
    variants: variants(),
    inputCases: inputCaseFiles(),
    gapRows,
    operations,
    registered: registeredRules(),
  };
}

export type LinkKind = 'mutant' | 'variant' | 'input case' | 'gap row' | 'operation role' | 'registered check' | 'test';

/** One literal mention of a rule id. */
export interface RuleLink {
  rule: string;
  kind: LinkKind;
  /** What names it: a mutant's or variant's name, "file: case", a row id, "operation.role", "file:line title". */
  from: string;
}

/** "file:line", or the file alone where the listing gives no line (cli/rule-tests.ts). */
export const testLocation = ({ file, line }: Pick<ListedTest, 'file' | 'line'>): string =>
  line === undefined ? file : `${file}:${line}`;

/** Tags of a test that are not rule ids (judgment/covers.ts adds them). */
const kindTags = new Set(['documented', 'inferred', 'quirk']);

export type RoleName = keyof OperationRules;

/** The roles an operation's rules fill, in the operations table's order. */
function roles(operation: Operation): Array<{ role: RoleName; rule: string }> {
  const filled = operation.rules;
  if (!filled) return [];
  return (Object.keys(filled) as RoleName[]).flatMap((role) => {
    const filledRole = filled[role];
    const id = typeof filledRole === 'object' ? filledRole.rule : filledRole;
    return id === undefined ? [] : [{ role, rule: id }];
  });
}

/** Every literal mention of a rule id in the sources (and in the tests' tags, when given). */
export function ruleLinks(sources: CatalogueSources, tests: readonly ListedTest[] = []): RuleLink[] {
  const links: RuleLink[] = [];
  for (const mutant of sources.mutants) links.push({ rule: mutant.rule, kind: 'mutant', from: mutant.name });
  for (const variant of sources.variants) {
    for (const id of variant.rules) links.push({ rule: id, kind: 'variant', from: variant.name });
    const strict = variant.strictKills;
    if (strict !== undefined) links.push({ rule: strict, kind: 'variant', from: `${variant.name} (strictKills)` });
  }
  for (const { file, cases } of sources.inputCases) {
    for (const entry of cases) links.push({ rule: entry.rule, kind: 'input case', from: `${file}: ${entry.name}` });
  }
  for (const row of sources.gapRows) {
    for (const id of row.rules) links.push({ rule: id, kind: 'gap row', from: row.id });
  }
  for (const operation of sources.operations) {
    for (const { role, rule } of roles(operation)) {
      links.push({ rule, kind: 'operation role', from: `${operation.id}.${role}` });
    }
  }
  for (const [operation, ids] of sources.registered) {
    for (const id of ids) links.push({ rule: id, kind: 'registered check', from: operation });
  }
  for (const test of tests) {
    for (const tag of test.tags.filter((candidate) => !kindTags.has(candidate))) {
      links.push({ rule: tag, kind: 'test', from: `${testLocation(test)} ${test.title}` });
    }
  }
  return links;
}

/**
 * What is missing or dangling, one sentence each; empty when every link holds. The tests'
 * checks (every rule has a test, every tag is a rule) run only when the listing is given.
 */
export function linkProblems(sources: CatalogueSources, tests?: readonly ListedTest[]): string[] {
  const problems: string[] = [];
  const known = new Set(sources.rules.map((entry) => entry.id));
  for (const link of ruleLinks(sources, tests)) {
    if (known.has(link.rule)) continue;
    problems.push(`${link.kind} ${link.from} names ${link.rule}, which is not in specs/rules.json`);
  }
  if (tests !== undefined) {
    const tested = new Set(tests.flatMap((test) => test.tags));
    for (const { id } of sources.rules) {
      if (!tested.has(id)) problems.push(`${id} has no test (no test is tagged @${id})`);
    }
  }
  const broken = new Map<string, string[]>();
  for (const mutant of sources.mutants.filter((candidate) => !candidate.equivalent)) {
    broken.set(mutant.rule, [...(broken.get(mutant.rule) ?? []), mutant.name]);
  }
  for (const entry of sources.rules) {
    const breaking = broken.get(entry.id) ?? [];
    if (breaking.length === 0 && !entry.noMutant) {
      problems.push(`${entry.id} has no mutant that breaks it and no recorded reason why none can exist (noMutant)`);
    }
    if (breaking.length > 0 && entry.noMutant) {
      problems.push(`${entry.id} records noMutant, yet ${breaking[0]} breaks it`);
    }
  }
  for (const variant of sources.variants) {
    if (variant.rules.length === 0) {
      problems.push(`variant ${variant.name} names no rule whose verdict its choice tests`);
    }
    if (variant.strictKills !== undefined && !variant.rules.includes(variant.strictKills)) {
      problems.push(`variant ${variant.name}: strictKills ${variant.strictKills} is not among its rules`);
    }
  }
  for (const row of sources.gapRows) {
    const varying = sources.variants.filter((variant) => variant.gaps.includes(row.id));
    const named = new Set(varying.flatMap((variant) => variant.rules));
    for (const id of row.rules.filter((candidate) => !named.has(candidate))) {
      const names = varying.map((variant) => variant.name).join(', ') || 'none';
      problems.push(`gap row ${row.id}: ${id} is named by none of the row's variants (${names})`);
    }
  }
  return problems;
}

/** Everything that names one rule, by kind. */
export interface RuleHub {
  rule: Rule;
  operationRoles: Array<{ operation: OperationId; role: RoleName }>;
  /** The operations on whose every answer the check registry judges the rule. */
  registeredFor: OperationId[];
  inputCases: Array<InputCase & { file: string }>;
  mutants: Mutant[];
  variants: Variant[];
  gapRows: GapRow[];
}

export function ruleHub(id: string, sources: CatalogueSources = catalogueSources()): RuleHub {
  const found = sources.rules.find((entry) => entry.id === id);
  if (!found) throw new Error(`unknown rule id ${id} (not in specs/rules.json)`);
  return {
    rule: found,
    operationRoles: sources.operations.flatMap((operation) =>
      roles(operation)
        .filter((filled) => filled.rule === id)
        .map(({ role }) => ({ operation: operation.id, role })),
    ),
    registeredFor: [...sources.registered].filter(([, ids]) => ids.includes(id)).map(([operation]) => operation),
    inputCases: sources.inputCases.flatMap(({ file, cases }) =>
      cases.filter((entry) => entry.rule === id).map((entry) => ({ ...entry, file })),
    ),
    mutants: sources.mutants.filter((mutant) => mutant.rule === id),
    variants: sources.variants.filter((variant) => variant.rules.includes(id)),
    gapRows: sources.gapRows.filter((row) => row.rules.includes(id)),
  };
}
