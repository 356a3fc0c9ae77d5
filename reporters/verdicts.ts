/**
 * The verdicts of a rule (a cell of the conformance matrix, a line of the rule coverage):
 * one table of id, symbol, meaning and precedence, read by the model (which verdict wins
 * when a rule has several tests) and by the Markdown (marks and legend). Adding a verdict
 * is one entry here plus the outcome that produces it (conformance-model.ts).
 *
 * ❌ means one thing only: the target broke this rule. A test that could not decide (the
 * target was unavailable or rate limited, the suite itself erred) has its own verdict, so
 * that a flaky network never reads as 31 broken rules.
 */
export const verdictIds = ['fail', 'suite-error', 'unavailable', 'rate-limited', 'lenient', 'pass', 'skip'] as const;
export type Verdict = (typeof verdictIds)[number];

export interface VerdictDefinition {
  id: Verdict;
  /** The mark in the Markdown tables. */
  symbol: string;
  /** One or two words after the symbol in the coverage table. */
  label: string;
  /** The legend's sentence. */
  meaning: string;
}

/** In order of precedence: when a rule has several tests, the first verdict any of them gives wins. */
export const verdicts: readonly VerdictDefinition[] = [
  { id: 'fail', symbol: '❌', label: 'fail', meaning: 'the target broke the rule (non-conformance)' },
  {
    id: 'suite-error',
    symbol: '🐞',
    label: 'suite error',
    meaning: 'a test could not decide because of an error of the suite itself, not a verdict on the target',
  },
  {
    id: 'unavailable',
    symbol: '🔌',
    label: 'target unavailable',
    meaning: 'a test could not decide: the target was unreachable, timed out or answered 502/503/504',
  },
  {
    id: 'rate-limited',
    symbol: '🚦',
    label: 'rate limited',
    meaning: 'a test could not decide: the target kept answering 429',
  },
  {
    id: 'lenient',
    symbol: '🟡',
    label: 'lenient pass',
    meaning:
      'passed because the target accepted input the reference leaves open only to ' +
      'a lenient reading (null as "not given", a coercion, another Content-Type, ' +
      'its prose read as a constraint), or answered without a value --strict requires ' +
      '(one that does not exist yet): conforming by default, --strict fails it',
  },
  { id: 'pass', symbol: '✅', label: 'pass', meaning: 'every test of the rule passed' },
  {
    id: 'skip',
    symbol: '⏭️',
    label: 'skip',
    meaning: 'not checked (skipped, or blocked by another rule that failed first)',
  },
];

export const notCoveredSymbol = '⚠️';

export function verdictDefinition(id: Verdict): VerdictDefinition {
  return verdicts.find((definition) => definition.id === id)!;
}

/** The verdict that wins among several (see the table's order); 'skip' when there is none. */
export function strongestVerdict(found: Iterable<Verdict>): Verdict {
  const present = new Set(found);
  return verdicts.find((definition) => present.has(definition.id))?.id ?? 'skip';
}

/** A count per verdict, every verdict present (zero when none). */
export function countVerdicts(found: readonly Verdict[]): Record<Verdict, number> {
  const counts = Object.fromEntries(verdictIds.map((id) => [id, 0])) as Record<Verdict, number>;
  for (const verdict of found) counts[verdict] += 1;
  return counts;
}
