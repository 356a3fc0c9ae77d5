/**
 * How much time a run spends shrinking failing cases: a red gate should cost about what a green one
 * does, not nine times more. Shrinking sends request after request (each candidate is a real case
 * against the target), so across a network an unbounded shrink of a long sequence takes minutes.
 *
 * Three bounds, each written in the failure message when it stopped a shrink:
 *   - per property: shrinkBudgetMs (a third of PCS_PROPERTY_BUDGET_MS, at most 10 s); the smallest
 *     failing case found by then is reported, with its own seed and path (it replays exactly);
 *   - per run: runShrinkBudgetMs of shrinking in all, summed over the workers in a ledger file of the
 *     output directory (a failed test restarts its worker, so a process's memory would not last);
 *   - a rule already shrunk in this run: a later property failing the same rule reports its first
 *     failing case as found, and names the test that shrank it (the same defect, met again).
 * PCS_SHRINK=no keeps its meaning: no shrinking at all.
 */
import { appendRunLine, runFilePath, runLines } from '../output/run-lines.ts';

type Env = Record<string, string | undefined>;

export const shrinkLedgerName = 'shrink-ledger.jsonl';

/** Where this run's shrinks are recorded (global setup empties it at the start of a run). */
export function shrinkLedgerPath(env: Env): string {
  return runFilePath(shrinkLedgerName, env);
}

/** The shrinking time one property may spend: a third of its budget, at most 10 s, at least 1 s. */
export function shrinkBudgetMs(propertyBudgetMs: number): number {
  return Math.max(1_000, Math.min(10_000, Math.floor(propertyBudgetMs / 3)));
}

/** The shrinking time of a whole run, all workers together: twice a property's budget. */
export function runShrinkBudgetMs(propertyBudgetMs: number): number {
  return 2 * Math.max(1_000, propertyBudgetMs);
}

interface ShrinkLine {
  rule: string;
  title: string;
  ms: number;
}

export type ShrinkDecision = { shrink: true; budgetMs: number; why: string } | { shrink: false; why: string };

/**
 * Whether a property that just failed on `rule` shrinks, and for how long: its own budget, or what
 * is left of the run's, whichever is smaller; not at all when the rule was shrunk already.
 */
export function shrinkDecision(rule: string | undefined, propertyBudgetMs: number, env: Env): ShrinkDecision {
  const earlier = runLines<ShrinkLine>(shrinkLedgerPath(env), env);
  const same = rule === undefined ? undefined : earlier.find((line) => line.rule === rule);
  if (same !== undefined) {
    return {
      shrink: false,
      why: `not shrunk: ${rule} was shrunk already in this run, by "${same.title}"; this is its first failing case`,
    };
  }
  const spent = earlier.reduce((sum, line) => sum + line.ms, 0);
  const left = runShrinkBudgetMs(propertyBudgetMs) - spent;
  if (left < 250) {
    return {
      shrink: false,
      why: `not shrunk: the run spent its ${runShrinkBudgetMs(propertyBudgetMs) / 1000} s of shrinking already`,
    };
  }
  const own = shrinkBudgetMs(propertyBudgetMs);
  return own <= left
    ? { shrink: true, budgetMs: own, why: `the property's ${own / 1000} s of shrinking` }
    : {
        shrink: true,
        budgetMs: left,
        why: `what was left of the run's ${runShrinkBudgetMs(propertyBudgetMs) / 1000} s`,
      };
}

/** Records a shrink of this run (its rule and time), for the decisions of later properties in every worker. */
export function recordShrink(rule: string | undefined, title: string, ms: number, env: Env): void {
  const line: ShrinkLine = { rule: rule ?? '(none)', title, ms: Math.round(ms) };
  appendRunLine(shrinkLedgerPath(env), line, env);
}
