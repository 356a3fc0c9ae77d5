/**
 * The conformance matrix and the rule coverage, computed from plain test records (no
 * Playwright types here, so the logic is unit-tested on synthetic data).
 *
 * A test names the rules it checks (covers()) and records every request it made with the
 * status it got (the 'status' annotations of support/http/client.ts). A cell of the matrix is
 * (operation, rule): the tests that check the rule and exercised the operation. A test
 * that made no request of the rule's operations (skipped early, or failed before its
 * request) counts for every operation of the rule.
 */
import type { Rule } from '../contract/rules.ts';
import type { FailureCategoryId } from './categories.ts';
import type { RecordedRequest } from './status-annotation.ts';
import { countVerdicts, strongestVerdict, verdictOfCategory, type Verdict } from './verdicts.ts';

export type Outcome = 'passed' | 'failed' | 'skipped' | 'flaky';
/**
 * A test's outcome for one of its rules: 'blocked' when it failed on another rule only (a
 * precondition); 'unavailable', 'rate-limited' or 'suite-error' when it failed without
 * deciding anything about the rule (see reporters/verdicts.ts).
 */
export type RuleOutcome = Outcome | 'blocked' | 'unavailable' | 'rate-limited' | 'suite-error' | 'lenient';
export type { Verdict } from './verdicts.ts';
export type CoverageVerdict = Verdict | 'not covered';

export type { RecordedRequest } from './status-annotation.ts';

export interface TestFailure {
  /** The first error's message, ANSI codes removed. */
  message: string;
  category: FailureCategoryId;
  categoryName: string;
  /** Rule ids the errors name (non-conformance and precondition messages start with one). */
  rules: string[];
  /**
   * True when an error names no rule (target unavailable, an error
   * of the suite): it counts against every rule of the test.
   */
  unattributed: boolean;
  /** The category of the first error that names no rule (absent: the first error's category). */
  unattributedCategory?: FailureCategoryId;
  /** The first message naming each rule (a test with soft assertions fails several rules), for the run's summary. */
  ruleMessages?: Record<string, string>;
}

export interface TestRecord {
  title: string;
  /** file:line of the test. */
  location: string;
  rules: string[];
  outcome: Outcome;
  requests: RecordedRequest[];
  failure?: TestFailure;
  /** Why a skipped test was skipped (its 'skip' annotation). */
  skipReason?: string;
  /**
   * Inputs --strict refuses that the target accepted, by rule (the test's 'lenient' annotations: "<RULE-ID>: <what>").
   */
  lenient?: Array<{ rule: string; note: string }>;
}

export interface MatrixCell {
  operation: string;
  rule: string;
  verdict: Verdict;
  /** Titles of the tests that decided the cell. */
  tests: string[];
  /** Distinct statuses the operation answered in those tests, ascending. */
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
    /** The test's outcome for this rule. */
    outcome: RuleOutcome;
    category?: FailureCategoryId;
    categoryName?: string;
    message?: string;
    /** For a blocked test: the rules whose failure stopped it. */
    blockedBy?: string[];
    /** For a lenient pass: what the target accepted that --strict refuses. */
    lenient?: string;
  }>;
}

export interface RuleCoverage {
  rules: RuleCoverageEntry[];
  uncovered: string[];
  totals: RuleTotals;
}

const ruleAtStart =
  /^(?:[A-Za-z]+: )?(?:precondition failed: )?([A-Z][A-Z0-9-]*) \((?:documented|inferred)\) violated by /;

/** The rule a failure message names at its start (see .work/contracts-between-parts.md), if any. */
export function ruleNamedBy(message: string): string | undefined {
  return ruleAtStart.exec(message)?.[1];
}

/** The skip reason of support/judgment/known-broken.ts (blockedReason): the rule a test's precondition broke. */
const skippedAsBlocked = /^blocked: precondition ([A-Z][A-Z0-9-]*) is broken/;

/** The precondition rule a skipped test was blocked by, if it was skipped so. */
function skippedBlocker(test: TestRecord): string | undefined {
  if (test.outcome !== 'skipped' || test.skipReason === undefined) return undefined;
  return skippedAsBlocked.exec(test.skipReason)?.[1];
}

/** The rules that blocked a test: those its failure names, or the one its skip names. */
function blockersOf(test: TestRecord): string[] {
  const skipped = skippedBlocker(test);
  return skipped !== undefined ? [skipped] : (test.failure?.rules ?? []);
}

/** A skipped test that never sent its request because the target was found unreachable earlier in the run. */
const skippedAsUnreachable = /^target unavailable: /;

function outcomeOfCategory(category: FailureCategoryId): RuleOutcome {
  const verdict = verdictOfCategory(category);
  return verdict === 'fail' ? 'failed' : (verdict as RuleOutcome);
}

/**
 * A test's outcome for one of its rules. A test that failed only because other rules broke
 * (a precondition, or another rule it checks softly) is blocked for this rule, not failed:
 * the rule was not checked. A failure that names no rule (the target unavailable or rate
 * limited, an error of the suite) decides nothing about the rule: it gets its own outcome.
 */
export function outcomeForRule(test: TestRecord, ruleId: string): RuleOutcome {
  if (test.outcome === 'skipped' && test.skipReason !== undefined && skippedAsUnreachable.test(test.skipReason))
    return 'unavailable';
  // Skipped at a precondition another test had found broken (support/judgment/known-broken.ts): blocked, as it
  // would have been had it failed there.
  if (skippedBlocker(test) !== undefined) return 'blocked';
  if ((test.outcome === 'passed' || test.outcome === 'flaky') && test.lenient?.some((entry) => entry.rule === ruleId))
    return 'lenient';
  if (test.outcome !== 'failed' || !test.failure) return test.outcome;
  const { rules, unattributed } = test.failure;
  if (rules.includes(ruleId)) return 'failed';
  return unattributed ? outcomeOfCategory(test.failure.unattributedCategory ?? test.failure.category) : 'blocked';
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

/** The strongest verdict of a rule's tests (reporters/verdicts.ts): one non-conformance makes the rule fail. */
export function combineVerdicts(outcomes: readonly RuleOutcome[]): Verdict {
  return strongestVerdict(outcomes.map((outcome) => verdictOfOutcome[outcome]));
}

/** The operations of a rule a test counts for (see the module comment). */
export function operationsOfTestForRule(test: TestRecord, rule: Pick<Rule, 'operations'>): string[] {
  const exercised = new Set(test.requests.map((request) => request.operation));
  const both = rule.operations.filter((operation) => exercised.has(operation));
  return both.length > 0 ? both : [...rule.operations];
}

export function totalsOf(tests: readonly TestRecord[]): Totals {
  const count = (outcome: Outcome): number => tests.filter((test) => test.outcome === outcome).length;
  return {
    tests: tests.length,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    flaky: count('flaky'),
  };
}

export function buildMatrix(
  rules: readonly Rule[],
  operations: readonly string[],
  tests: readonly TestRecord[],
): ConformanceMatrix {
  const cells: MatrixCell[] = [];
  for (const rule of rules) {
    const covering = tests.filter((test) => test.rules.includes(rule.id));
    for (const operation of rule.operations) {
      const deciding = covering.filter((test) => operationsOfTestForRule(test, rule).includes(operation));
      if (deciding.length === 0) continue;
      const statuses = new Set<number>();
      for (const test of deciding) {
        for (const request of test.requests) if (request.operation === operation) statuses.add(request.status);
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

export function buildCoverage(rules: readonly Rule[], tests: readonly TestRecord[]): RuleCoverage {
  const entries = rules.map((rule): RuleCoverageEntry => {
    const covering = tests.filter((test) => test.rules.includes(rule.id));
    return {
      id: rule.id,
      kind: rule.kind,
      section: rule.section,
      text: rule.text,
      operations: [...rule.operations],
      verdict:
        covering.length === 0 ? 'not covered' : combineVerdicts(covering.map((test) => outcomeForRule(test, rule.id))),
      tests: covering.map((test) => {
        const outcome = outcomeForRule(test, rule.id);
        return {
          title: test.title,
          location: test.location,
          outcome,
          ...(test.failure
            ? {
                category: test.failure.category,
                categoryName: test.failure.categoryName,
                message: test.failure.message,
              }
            : {}),
          ...(outcome === 'blocked' ? { blockedBy: blockersOf(test) } : {}),
          ...(outcome === 'lenient' ? { lenient: test.lenient!.find((entry) => entry.rule === rule.id)!.note } : {}),
        };
      }),
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
