/**
 * The conformance matrix and the rule coverage, computed from verdict records
 * (judgment/verdict-record.ts) and nothing else: no Playwright types here and no reading
 * of messages, so the same model serves the suite's own run and any list of judged exchanges.
 *
 * The unit is a case: a test of the suite, or a group of judged exchanges (traffic the suite did
 * not make). A case declares the rules it checks (covers()) and carries its records. A rule's
 * verdict in a case is its records' (a broken record wins; a rule that held in a failed case
 * holds there); a declared rule with no record takes the case's outcome: passed, skipped, or,
 * for a failed case, blocked when another rule broke there and undecided when none did. A case
 * also counts for rules it did not declare but judged itself, and for rules it found broken while
 * relying on them (a precondition); a precondition that held is not a check of its rule.
 *
 * A cell of the matrix is (operation, rule): the cases that decided the rule on that operation.
 */
import type { Rule } from '../contract/rules.ts';
import { isChecked, isUndecided, type VerdictRecord } from '../judgment/verdict-record.ts';
import { categoryOf, type FailureCategoryId } from './categories.ts';
import { countVerdicts, strongestVerdict, type Verdict } from './verdicts.ts';

export type Outcome = 'passed' | 'failed' | 'skipped' | 'flaky';
/**
 * A case's outcome for one rule: 'blocked' when it was not checked because another rule broke
 * first; 'unavailable', 'rate-limited' or 'suite-error' when nothing was decided about it (see
 * reporters/verdicts.ts); 'lenient' when it held only through a lenient reading.
 */
export type RuleOutcome = Outcome | 'blocked' | 'unavailable' | 'rate-limited' | 'suite-error' | 'lenient';
export type { Verdict } from './verdicts.ts';
export type CoverageVerdict = Verdict | 'not covered';

/** A request a case made, as the matrix shows it: the operation and the status it answered. */
export interface RecordedRequest {
  operation: string;
  status: number;
}

export interface TestRecord {
  title: string;
  /** file:line of the test, or where the exchanges came from. */
  location: string;
  /** The rules the case declares it checks. */
  rules: string[];
  outcome: Outcome;
  /** What the case judged, decided or could not decide. */
  verdicts: VerdictRecord[];
  /** The case's first error as its runner reported it (shown for an error of the suite; never read for a verdict). */
  error?: string;
  /**
   * A case of the run that is no test of its runner (the cleanup after the tests): its records count for its
   * rules and causes like any case's, but it is not counted among the tests, so that every report counts the
   * tests Playwright counts.
   */
  outsideTests?: true;
}

export interface MatrixCell {
  operation: string;
  rule: string;
  verdict: Verdict;
  /** Titles of the cases that decided the cell. */
  tests: string[];
  /** Distinct statuses the operation answered in those cases, ascending. */
  statuses: number[];
}

export interface Totals {
  tests: number;
  passed: number;
  failed: number;
  skipped: number;
  flaky: number;
}

/** How many rules got each verdict (every verdict of reporters/verdicts.ts is a key), and how many no test covers. */
export type RuleTotals = { rules: number; notCovered: number } & Record<Verdict, number>;

export interface ConformanceMatrix {
  operations: string[];
  rules: Array<{ id: string; kind: Rule['kind']; operations: string[] }>;
  cells: MatrixCell[];
  totals: Totals;
}

export interface RuleCoverageEntry {
  id: string;
  kind: Rule['kind'];
  section: string;
  text: string;
  operations: string[];
  verdict: CoverageVerdict;
  tests: Array<{
    title: string;
    location: string;
    /** The case's outcome for this rule. */
    outcome: RuleOutcome;
    category?: FailureCategoryId;
    /** The record that decided the outcome, when one did (a broken rule, a skip and its reason, ...). */
    record?: VerdictRecord;
    /** For a blocked case: the rules whose failure stopped it. */
    blockedBy?: string[];
    /** For a lenient pass: what the target accepted that --strict refuses. */
    lenient?: string;
    /** For an error of the suite: the case's error. */
    error?: string;
  }>;
}

export interface RuleCoverage {
  rules: RuleCoverageEntry[];
  uncovered: string[];
  totals: RuleTotals;
}

/** The requests of a case, from the exchanges its records judged. */
export function requestsOf(test: Pick<TestRecord, 'verdicts'>): RecordedRequest[] {
  const seen = new Map<string, RecordedRequest>();
  for (const record of test.verdicts) {
    if (record.exchange === undefined) continue;
    const key = `${record.exchange.operation} ${record.exchange.status}`;
    if (!seen.has(key)) seen.set(key, { operation: record.exchange.operation, status: record.exchange.status });
  }
  return [...seen.values()];
}

/** The records of a rule that count as its checks in a case: its own, and a precondition it broke. */
function recordsFor(test: Pick<TestRecord, 'verdicts'>, ruleId: string): VerdictRecord[] {
  return test.verdicts.filter((record) => record.rule === ruleId && (!record.precondition || record.kind === 'broken'));
}

/**
 * The rules of each case, as last computed, with the sizes they were computed from: a case of judged traffic holds
 * thousands of records, and every rule of the catalogue asks for its cases.
 */
const rulesOfCaseCache = new WeakMap<object, { rules: number; verdicts: number; found: Set<string> }>();

/** The rules a case counts for: those it declares, those it judged itself, and those it found broken. */
export function rulesOfCase(test: Pick<TestRecord, 'rules' | 'verdicts'>): Set<string> {
  const cached = rulesOfCaseCache.get(test);
  if (cached !== undefined && cached.rules === test.rules.length && cached.verdicts === test.verdicts.length)
    return cached.found;
  const rules = new Set(test.rules);
  for (const record of test.verdicts) {
    if (!record.precondition || record.kind === 'broken') rules.add(record.rule);
  }
  rulesOfCaseCache.set(test, { rules: test.rules.length, verdicts: test.verdicts.length, found: rules });
  return rules;
}

/** The rules a case found broken. */
export function brokenRules(test: Pick<TestRecord, 'verdicts'>): string[] {
  return [...new Set(test.verdicts.filter((record) => record.kind === 'broken').map((record) => record.rule))];
}

const outcomeOfKind: Record<VerdictRecord['kind'], RuleOutcome> = {
  broken: 'failed',
  lenient: 'lenient',
  held: 'passed',
  blocked: 'blocked',
  skipped: 'skipped',
  unavailable: 'unavailable',
  'rate-limited': 'rate-limited',
  'suite-error': 'suite-error',
};

/** The order in which a rule's records decide its outcome in a case. */
const decidingOrder: readonly VerdictRecord['kind'][] = [
  'broken',
  'lenient',
  'held',
  'blocked',
  'unavailable',
  'rate-limited',
  'suite-error',
  'skipped',
];

/** The record that decides a rule's outcome in a case, if the case has one for it. */
export function decidingRecord(test: Pick<TestRecord, 'verdicts'>, ruleId: string): VerdictRecord | undefined {
  const own = recordsFor(test, ruleId);
  for (const kind of decidingOrder) {
    const found = own.find((record) => record.kind === kind);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A case's outcome for one rule (see the module comment). */
export function outcomeForRule(test: Pick<TestRecord, 'outcome' | 'verdicts'>, ruleId: string): RuleOutcome {
  const record = decidingRecord(test, ruleId);
  if (record !== undefined) return outcomeOfKind[record.kind];
  if (test.outcome !== 'failed') return test.outcome;
  if (test.verdicts.some((found) => found.kind === 'broken')) return 'blocked';
  const undecided = test.verdicts.find(isUndecided);
  return undecided === undefined ? 'suite-error' : outcomeOfKind[undecided.kind];
}

const verdictOfOutcome: Record<RuleOutcome, Verdict> = {
  passed: 'pass',
  flaky: 'pass',
  failed: 'fail',
  skipped: 'skip',
  blocked: 'skip',
  unavailable: 'unavailable',
  'rate-limited': 'rate-limited',
  'suite-error': 'suite-error',
  lenient: 'lenient',
};

/** The strongest verdict of a rule's cases (reporters/verdicts.ts): one non-conformance makes the rule fail. */
export function combineVerdicts(outcomes: readonly RuleOutcome[]): Verdict {
  return strongestVerdict(outcomes.map((outcome) => verdictOfOutcome[outcome]));
}

/**
 * The operations of a rule a case counts for: those its records of the rule name; else those of
 * the rule it called; else every operation of the rule (it was stopped before its request).
 */
export function operationsOfTestForRule(
  test: Pick<TestRecord, 'verdicts'>,
  rule: Pick<Rule, 'id' | 'operations'>,
): string[] {
  const judged = new Set(recordsFor(test, rule.id).flatMap((record) => (record.operation ? [record.operation] : [])));
  const named = rule.operations.filter((operation) => judged.has(operation));
  if (named.length > 0) return named;
  const exercised = new Set(requestsOf(test).map((request) => request.operation));
  const both = rule.operations.filter((operation) => exercised.has(operation));
  return both.length > 0 ? both : [...rule.operations];
}

/** The tests among the cases, by outcome (a case outside the tests, the cleanup, is not one). */
export function totalsOf(cases: readonly Pick<TestRecord, 'outcome' | 'outsideTests'>[]): Totals {
  const tests = cases.filter((test) => test.outsideTests !== true);
  const count = (outcome: Outcome): number => tests.filter((test) => test.outcome === outcome).length;
  return {
    tests: tests.length,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    flaky: count('flaky'),
  };
}

/** The cases that count for a rule. */
function casesOf(rule: Pick<Rule, 'id'>, tests: readonly TestRecord[]): TestRecord[] {
  return tests.filter((test) => rulesOfCase(test).has(rule.id));
}

export function buildMatrix(
  rules: readonly Rule[],
  operations: readonly string[],
  tests: readonly TestRecord[],
): ConformanceMatrix {
  const cells: MatrixCell[] = [];
  for (const rule of rules) {
    const covering = casesOf(rule, tests);
    for (const operation of rule.operations) {
      const deciding = covering.filter((test) => operationsOfTestForRule(test, rule).includes(operation));
      if (deciding.length === 0) continue;
      const statuses = new Set<number>();
      for (const test of deciding) {
        for (const request of requestsOf(test)) if (request.operation === operation) statuses.add(request.status);
      }
      cells.push({
        operation,
        rule: rule.id,
        verdict: combineVerdicts(deciding.map((test) => outcomeForRule(test, rule.id))),
        tests: deciding.map((test) => test.title),
        statuses: [...statuses].sort((a, b) => a - b),
      });
    }
  }
  return {
    operations: [...operations],
    rules: rules.map((rule) => ({ id: rule.id, kind: rule.kind, operations: [...rule.operations] })),
    cells,
    totals: totalsOf(tests),
  };
}

/** The rules whose failure kept a case from checking a rule: its blocked record's, else every rule it broke. */
function blockersOf(test: TestRecord, record: VerdictRecord | undefined): string[] {
  if (record?.blockedBy !== undefined) return [record.blockedBy];
  return brokenRules(test);
}

function coverageOf(test: TestRecord, ruleId: string): RuleCoverageEntry['tests'][number] {
  const outcome = outcomeForRule(test, ruleId);
  const record = decidingRecord(test, ruleId);
  const category =
    outcome === 'failed' && record !== undefined
      ? categoryOf(record)
      : outcome === 'unavailable' || outcome === 'rate-limited' || outcome === 'suite-error'
        ? categoryOf(record ?? { rule: ruleId, kind: outcome, violations: [] })
        : undefined;
  return {
    title: test.title,
    location: test.location,
    outcome,
    ...(category === undefined ? {} : { category: category.id }),
    ...(record === undefined || (isChecked(record) && record.kind !== 'broken') ? {} : { record }),
    ...(outcome === 'blocked' ? { blockedBy: blockersOf(test, record) } : {}),
    ...(outcome === 'lenient' && record?.lenient !== undefined ? { lenient: record.lenient } : {}),
    ...(outcome === 'suite-error' && test.error !== undefined ? { error: test.error } : {}),
  };
}

export function buildCoverage(rules: readonly Rule[], tests: readonly TestRecord[]): RuleCoverage {
  const entries = rules.map((rule): RuleCoverageEntry => {
    const covering = casesOf(rule, tests);
    return {
      id: rule.id,
      kind: rule.kind,
      section: rule.section,
      text: rule.text,
      operations: [...rule.operations],
      verdict:
        covering.length === 0 ? 'not covered' : combineVerdicts(covering.map((test) => outcomeForRule(test, rule.id))),
      tests: covering.map((test) => coverageOf(test, rule.id)),
    };
  });
  const covered = entries.flatMap((entry) => (entry.verdict === 'not covered' ? [] : [entry.verdict]));
  const uncovered = entries.filter((entry) => entry.verdict === 'not covered').map((entry) => entry.id);
  return {
    rules: entries,
    uncovered,
    totals: { rules: entries.length, ...countVerdicts(covered), notCovered: uncovered.length },
  };
}
