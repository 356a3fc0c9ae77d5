/**
 * The summary that ends every run's console output, the screen a person reads first: the
 * broken rules, one line each (the rule, the operation, the first location with expected and
 * actual, how many tests), the rules left unchecked because a precondition failed first, what
 * could not be decided (target unavailable, rate limited, errors of the suite), and where the
 * matrix and the reports are. A red run used to end 900 lines later on an unrelated warning,
 * with one 38-line block per failing test; this names every broken rule in a few lines.
 */
import type { RuleCoverage, TestRecord, Totals } from './conformance-model.ts';
import { gist } from '../support/judgment/verdict-message.ts';
import { verdictDefinition } from './verdicts.ts';

export interface SummaryPaths {
  matrix: string;
  coverage: string;
  html: string;
  allureResults: string;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function totalsText(totals: Totals): string {
  return (
    `${plural(totals.tests, 'test')}: ${totals.passed} passed, ${totals.failed} failed, ` +
    `${totals.skipped} skipped${totals.flaky > 0 ? `, ${totals.flaky} flaky` : ''}`
  );
}

/** The summary's lines, the first naming the run's verdict. */
export function renderRunSummary(
  coverage: RuleCoverage,
  records: readonly TestRecord[],
  totals: Totals,
  paths: SummaryPaths,
): string[] {
  const fail = verdictDefinition('fail').symbol;
  const broken = coverage.rules.filter((entry) => entry.verdict === 'fail');
  const lines = [
    broken.length === 0
      ? `collect-conformance: summary: no rule broken; ${totalsText(totals)}`
      : `collect-conformance: summary: ${plural(broken.length, 'rule')} broken (${fail}); ${totalsText(totals)}`,
  ];
  for (const entry of broken) {
    const failing = entry.tests.filter((test) => test.outcome === 'failed');
    const record = failing.find((test) => test.record !== undefined)?.record;
    const operation = record?.operation ?? entry.operations.join(', ');
    const where = record === undefined ? 'see the rule coverage' : gist(record);
    lines.push(`  ${fail} ${entry.id} (${entry.kind}) ${operation}: ${where} (${plural(failing.length, 'test')})`);
  }
  // Preconditions: a broken rule stopped tests of other rules before they checked theirs.
  const blockedBy = new Map<string, { tests: Set<string>; rules: Set<string> }>();
  for (const entry of coverage.rules) {
    for (const test of entry.tests) {
      if (test.outcome !== 'blocked') continue;
      for (const blocker of test.blockedBy ?? []) {
        const found = blockedBy.get(blocker) ?? { tests: new Set<string>(), rules: new Set<string>() };
        found.tests.add(test.title);
        if (blocker !== entry.id) found.rules.add(entry.id);
        blockedBy.set(blocker, found);
      }
    }
  }
  for (const [blocker, found] of blockedBy) {
    if (found.rules.size === 0) continue;
    const rules = [...found.rules];
    lines.push(
      `  blocked: ${blocker} failed as a precondition of ${plural(found.tests.size, 'test')}, which did not check ` +
        `${rules.slice(0, 6).join(', ')}${rules.length > 6 ? ` and ${rules.length - 6} more` : ''}`,
    );
  }
  // Rules no test checked: every test of theirs skipped (a variable not set, such as the second account's key).
  const skipped = coverage.rules.filter((entry) => entry.verdict === 'skip' && entry.tests.length > 0).map((e) => e.id);
  if (skipped.length > 0) {
    const shown = skipped.slice(0, 8).join(', ') + (skipped.length > 8 ? ` and ${skipped.length - 8} more` : '');
    lines.push(`  ${verdictDefinition('skip').symbol} not checked (their tests were skipped): ${shown}`);
  }
  for (const id of ['unavailable', 'rate-limited', 'suite-error'] as const) {
    const count = coverage.totals[id];
    if (count === 0) continue;
    const definition = verdictDefinition(id);
    lines.push(`  ${definition.symbol} ${definition.label}: ${plural(count, 'rule')} could not be decided`);
  }
  lines.push(`  matrix: ${paths.matrix}  rule coverage: ${paths.coverage}`);
  lines.push(`  report: ${paths.html}  Allure results: ${paths.allureResults}`);
  return lines;
}
