/**
 * The conformance matrix and the rule coverage as Markdown (GitHub-flavoured tables), for
 * reports/ and for $GITHUB_STEP_SUMMARY. Cells are short: a mark and the statuses seen.
 */
import type { ConformanceMatrix, CoverageVerdict, RuleCoverage, RuleOutcome, Totals, Verdict } from './conformance-model.ts';

const marks: Record<Verdict, string> = { pass: '✅', fail: '❌', skip: '⏭️' };
const verdictText: Record<CoverageVerdict, string> = { pass: '✅ pass', fail: '❌ fail', skip: '⏭️ skip', 'not covered': '⚠️ not covered' };

const outcomeMarks: Record<RuleOutcome, string> = { passed: '', flaky: '(flaky) ', skipped: '(skipped) ', failed: '❌ ', blocked: '(blocked) ' };

/** Table cells cannot hold pipes or line breaks. */
export function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function totalsLine(totals: Totals): string {
  return `${totals.tests} tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped, ${totals.flaky} flaky.`;
}

export interface RunHeader {
  /** Target origin (never the key), sandbox or live, run id, time. */
  target: string;
  environment: string;
  runId: string;
  finishedAt: string;
}

function headerLines(title: string, header: RunHeader): string[] {
  return [`## ${title}`, '', `Target ${header.target} (${header.environment}), run ${header.runId}, ${header.finishedAt}.`, ''];
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
      if (!found) return '⚠️ not covered';
      return `${marks[found.verdict]}${found.statuses.length > 0 ? ` ${found.statuses.join(', ')}` : ''}`;
    });
    lines.push(`| ${rule.id} | ${rule.kind} | ${row.join(' | ')} |`);
  }
  lines.push('', '✅ pass, ❌ fail, ⏭️ skipped, with the statuses the operation answered; ⚠️ no test checks the rule on that operation; empty: the rule does not concern the operation.', '');
  return lines.join('\n');
}

/** The first line of a failure message (the rule, the operation, the request), without Playwright's "Error: ". */
export function firstLine(message: string): string {
  return (message.split('\n', 1)[0] ?? '').replace(/^[A-Za-z]*Error: /, '');
}

export function renderCoverageMarkdown(coverage: RuleCoverage, header: RunHeader): string {
  const { totals } = coverage;
  const lines = headerLines('Rule coverage', header);
  lines.push(
    `${totals.rules} rules: ${totals.pass} pass, ${totals.fail} fail, ${totals.skip} skipped, ${totals.notCovered} not covered by any test.`,
    '',
    '| Rule | Kind | Verdict | Tests | Failure |',
    '|---|---|---|---|---|',
  );
  for (const entry of coverage.rules) {
    const failed = entry.tests.find((test) => test.outcome === 'failed');
    const blocked = [...new Set(entry.tests.flatMap((test) => test.blockedBy ?? []))];
    const failure =
      failed?.message !== undefined
        ? `${failed.categoryName ?? failed.category ?? ''}: ${firstLine(failed.message)}`
        : blocked.length > 0
          ? `not checked where ${blocked.join(', ')} failed first`
          : '';
    const tests = entry.tests.map((test) => `${outcomeMarks[test.outcome]}${test.title}`).join('<br>');
    lines.push(`| ${entry.id} | ${entry.kind} | ${verdictText[entry.verdict]} | ${cell(tests)} | ${cell(failure)} |`);
  }
  lines.push('', coverage.uncovered.length === 0 ? 'Every rule of the catalogue is checked by at least one test.' : `Rules no test covers: ${coverage.uncovered.join(', ')}.`, '');
  return lines.join('\n');
}
