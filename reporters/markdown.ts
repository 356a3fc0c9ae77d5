/**
 * The conformance matrix and the rule coverage as Markdown (GitHub-flavoured tables), for
 * reports/ and for $GITHUB_STEP_SUMMARY. Cells are short: a mark and the statuses seen.
 * Marks and legend come from reporters/verdicts.ts.
 */
import type { ConformanceMatrix, CoverageVerdict, RuleCoverage, RuleOutcome, Totals } from './conformance-model.ts';
import { notCoveredSymbol, verdictDefinition, verdicts } from './verdicts.ts';

function verdictText(verdict: CoverageVerdict): string {
  if (verdict === 'not covered') return `${notCoveredSymbol} not covered`;
  const definition = verdictDefinition(verdict);
  return `${definition.symbol} ${definition.label}`;
}

const outcomeMarks: Record<RuleOutcome, string> = {
  passed: '',
  flaky: '(flaky) ',
  skipped: '(skipped) ',
  failed: `${verdictDefinition('fail').symbol} `,
  blocked: '(blocked) ',
  unavailable: `${verdictDefinition('unavailable').symbol} `,
  'rate-limited': `${verdictDefinition('rate-limited').symbol} `,
  'suite-error': `${verdictDefinition('suite-error').symbol} `,
  lenient: `${verdictDefinition('lenient').symbol} `,
};

/** Outcomes that carry a failure message worth showing, in the order the coverage table picks one. */
const failingOutcomes: readonly RuleOutcome[] = ['failed', 'suite-error', 'unavailable', 'rate-limited'];

/** Table cells cannot hold pipes or line breaks. */
export function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function totalsLine(totals: Totals): string {
  return (
    `${totals.tests} tests: ${totals.passed} passed, ` +
    `${totals.failed} failed, ${totals.skipped} skipped, ${totals.flaky} flaky.`
  );
}

/** The legend of the marks: every verdict, in order of precedence. */
export function verdictLegend(): string {
  return (
    `${verdicts.map((definition) => `${definition.symbol} ${definition.meaning}`).join('; ')}. ` +
    `When a rule has several tests, the first of these that any test gives is shown: ` +
    `one non-conformance shows ${verdictDefinition('fail').symbol}, whatever the others say.`
  );
}

export interface RunHeader {
  /** Target origin (never the key), sandbox or live, run id, time. */
  target: string;
  environment: string;
  runId: string;
  finishedAt: string;
}

function headerLines(title: string, header: RunHeader): string[] {
  return [
    `## ${title}`,
    '',
    `Target ${header.target} (${header.environment}), run ${header.runId}, ${header.finishedAt}.`,
    '',
  ];
}

export function renderMatrixMarkdown(matrix: ConformanceMatrix, header: RunHeader): string {
  const lines = headerLines('Conformance matrix', header);
  lines.push(totalsLine(matrix.totals), '');
  lines.push(`| Rule | Kind | ${matrix.operations.join(' | ')} |`);
  lines.push(`|---|---|${matrix.operations.map(() => '---').join('|')}|`);
  for (const rule of matrix.rules) {
    const row = matrix.operations.map((operation) => {
      if (!rule.operations.includes(operation)) return '';
      const found = matrix.cells.find((candidate) => candidate.rule === rule.id && candidate.operation === operation);
      if (!found) return `${notCoveredSymbol} not covered`;
      return (
        `${verdictDefinition(found.verdict).symbol}` +
        `${found.statuses.length > 0 ? ` ${found.statuses.join(', ')}` : ''}`
      );
    });
    lines.push(`| ${rule.id} | ${rule.kind} | ${row.join(' | ')} |`);
  }
  lines.push(
    '',
    `Legend: ${verdictLegend()} Each mark is followed by the statuses the operation answered; ` +
      `${notCoveredSymbol} no test checks the rule on that operation; ` +
      `empty: the rule does not concern the operation.`,
    '',
  );
  return lines.join('\n');
}

/** The first line of a failure message (the rule, the operation, the request), without Playwright's "Error: ". */
export function firstLine(message: string): string {
  return (message.split('\n', 1)[0] ?? '').replace(/^[A-Za-z]*Error: /, '');
}

function coverageTotalsLine(coverage: RuleCoverage): string {
  const { totals } = coverage;
  // Pass first for the reader, then the table's order.
  const counts = [verdictDefinition('pass'), ...verdicts.filter((definition) => definition.id !== 'pass')]
    .filter((definition) => ['pass', 'fail', 'skip'].includes(definition.id) || totals[definition.id] > 0)
    .map((definition) => `${totals[definition.id]} ${definition.label}`);
  return `${totals.rules} rules: ${counts.join(', ')}, ${totals.notCovered} not covered by any test.`;
}

export function renderCoverageMarkdown(coverage: RuleCoverage, header: RunHeader): string {
  const lines = headerLines('Rule coverage', header);
  lines.push(coverageTotalsLine(coverage), '', '| Rule | Kind | Verdict | Tests | Failure |', '|---|---|---|---|---|');
  for (const entry of coverage.rules) {
    const failed = failingOutcomes
      .map((outcome) => entry.tests.find((test) => test.outcome === outcome))
      .find((test) => test !== undefined);
    const blocked = [...new Set(entry.tests.flatMap((test) => test.blockedBy ?? []))];
    const lenient = entry.tests.find((test) => test.lenient !== undefined)?.lenient;
    const failure =
      failed?.message !== undefined
        ? `${failed.categoryName ?? failed.category ?? ''}: ${firstLine(failed.message)}`
        : blocked.length > 0
          ? `not checked where ${blocked.join(', ')} failed first`
          : lenient !== undefined
            ? `--strict fails it: ${lenient}`
            : '';
    const tests = entry.tests.map((test) => `${outcomeMarks[test.outcome]}${test.title}`).join('<br>');
    lines.push(`| ${entry.id} | ${entry.kind} | ${verdictText(entry.verdict)} | ${cell(tests)} | ${cell(failure)} |`);
  }
  lines.push(
    '',
    coverage.uncovered.length === 0
      ? 'Every rule of the catalogue is checked by at least one test.'
      : `Rules no test covers: ${coverage.uncovered.join(', ')}.`,
    '',
    `Legend: ${verdictLegend()} ${notCoveredSymbol} no test covers the rule.`,
    '',
  );
  return lines.join('\n');
}

/**
 * The console's warning for rules that passed only leniently: what --strict would fail, visible
 * without it (exit code 0). Null when there is none.
 */
export function strictWarning(coverage: RuleCoverage): string | null {
  const lenient = coverage.rules.filter((entry) => entry.verdict === 'lenient');
  if (lenient.length === 0) return null;
  const symbol = verdictDefinition('lenient').symbol;
  const lines = [
    `collect-conformance: warning: ${lenient.length} rule(s) passed only through a lenient reading ` +
      `(input the reference leaves open accepted, or a value it does not require yet left out); ` +
      `--strict fails them:`,
    ...lenient.map((entry) =>
      `  ${symbol} ${entry.id}: ${entry.tests.find((test) => test.lenient !== undefined)?.lenient ?? ''}`.slice(0, 400),
    ),
  ];
  return lines.join('\n');
}
