/**
 * The conformance matrix and the rule coverage as Markdown (GitHub-flavoured tables), for
 * reports/ and for $GITHUB_STEP_SUMMARY. Cells are short: a mark and the statuses seen.
 * Marks and legend come from reporters/verdicts.ts.
 */
import type {
  ConformanceMatrix,
  CoverageVerdict,
  RuleCoverage,
  RuleCoverageEntry,
  RuleOutcome,
  Totals,
} from './conformance-model.ts';
import { headline, violationLine } from '../judgment/verdict-message.ts';
import { causeLine, type Cause } from './causes.ts';
import { categoryName } from './categories.ts';
import { notCoveredSymbol, verdictDefinition, verdicts } from './verdicts.ts';

/** Who never checked a rule: "no test checks" it in a run, "the traffic never exercised" it in judged traffic. */
const neverChecked = (header: RunHeader, verb: 'checks' | 'covers'): string =>
  header.traffic ? 'the traffic never exercised' : `no test ${verb}`;

/** What a rule or cell nothing decided is called: a run's tests do not cover it; traffic never exercised it. */
const notDecided = (header: RunHeader): string => (header.traffic ? 'not exercised' : 'not covered');

function verdictText(verdict: CoverageVerdict, header: RunHeader): string {
  if (verdict === 'not covered') return `${notCoveredSymbol} ${notDecided(header)}`;
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

/** The outcomes whose note the coverage table shows for a rule, in the order it picks the case to show. */
const noteOrder: readonly RuleOutcome[] = [
  'failed',
  'suite-error',
  'unavailable',
  'rate-limited',
  'blocked',
  'lenient',
  'skipped',
];

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
  /** True for judged traffic: what nothing decided was never exercised by it (not "not covered" by a test). */
  traffic?: boolean;
  /** Why the reports do not hold a whole run (it was stopped), when they do not. */
  incomplete?: string;
  environment: string;
  runId: string;
  finishedAt: string;
}

function headerLines(title: string, header: RunHeader): string[] {
  return [
    `## ${title}`,
    '',
    ...(header.incomplete === undefined ? [] : [`**Incomplete: ${header.incomplete}.**`, '']),
    `Target ${header.target} (${header.environment}), run ${header.runId}, ${header.finishedAt}.`,
    '',
  ];
}

/** The causes of the broken rules, first in a report: one line each, and an example of each. */
export function causesSection(causes: readonly Cause[]): string[] {
  if (causes.length === 0) return [];
  const fail = verdictDefinition('fail').symbol;
  return [
    `### Causes (${causes.length})`,
    '',
    ...causes.map(
      (cause) =>
        `- ${fail} ${cell(causeLine(cause))} (${cause.tests.length} test${cause.tests.length === 1 ? '' : 's'}); ` +
        `e.g. \`${cell(violationLine(cause.violation)).slice(0, 200)}\``,
    ),
    '',
  ];
}

/** The rules no test checked, each with why (the note of its first test that was not checked). */
export function notCheckedSection(coverage: RuleCoverage | undefined): string[] {
  const entries = (coverage?.rules ?? []).filter((entry) => entry.verdict === 'skip' && entry.tests.length > 0);
  if (entries.length === 0) return [];
  return [
    `### Not checked (${entries.length})`,
    '',
    ...entries.map((entry) => {
      const first = entry.tests.find((test) => test.outcome === 'skipped' || test.outcome === 'blocked');
      const why = first === undefined ? '' : outcomeNote(first);
      return `- ${verdictDefinition('skip').symbol} ${entry.id}: ${cell(why)}`;
    }),
    '',
  ];
}

export function renderMatrixMarkdown(
  matrix: ConformanceMatrix,
  header: RunHeader,
  causes: readonly Cause[] = [],
  coverage?: RuleCoverage,
): string {
  const lines = [...headerLines('Conformance matrix', header), ...causesSection(causes)];
  lines.push(totalsLine(matrix.totals), '');
  lines.push(`| Rule | Kind | ${matrix.operations.join(' | ')} |`);
  lines.push(`|---|---|${matrix.operations.map(() => '---').join('|')}|`);
  for (const rule of matrix.rules) {
    const row = matrix.operations.map((operation) => {
      if (!rule.operations.includes(operation)) return '';
      const found = matrix.cells.find((candidate) => candidate.rule === rule.id && candidate.operation === operation);
      if (!found) return `${notCoveredSymbol} ${notDecided(header)}`;
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
      `${notCoveredSymbol} ${neverChecked(header, 'checks')} the rule on that operation; ` +
      `empty: the rule does not concern the operation.`,
    '',
    ...notCheckedSection(coverage),
  );
  return lines.join('\n');
}

/** The first line of a text (an error of the suite, as its runner reported it). */
export function firstLine(message: string): string {
  return message.split('\n', 1)[0] ?? '';
}

function coverageTotalsLine(coverage: RuleCoverage, header: RunHeader): string {
  const notDecidedBy = header.traffic ? 'never exercised by the traffic' : 'not covered by any test';
  const { totals } = coverage;
  // Pass first for the reader, then the table's order.
  const counts = [verdictDefinition('pass'), ...verdicts.filter((definition) => definition.id !== 'pass')]
    .filter((definition) => ['pass', 'fail', 'skip'].includes(definition.id) || totals[definition.id] > 0)
    .map((definition) => `${totals[definition.id]} ${definition.label}`);
  return `${totals.rules} rules: ${counts.join(', ')}, ${totals.notCovered} ${notDecidedBy}.`;
}

/** What the coverage table says of a rule's outcome in a case: why it failed, was not checked, or passed leniently. */
export function outcomeNote(test: RuleCoverageEntry['tests'][number]): string {
  const category = test.category === undefined ? '' : `${categoryName(test.category)}: `;
  switch (test.outcome) {
    case 'failed':
      return test.record === undefined ? category : `${category}${headline(test.record)}`;
    case 'suite-error':
      return `${category}${firstLine(test.error ?? test.record?.reason ?? 'an error of the suite itself')}`;
    case 'unavailable':
    case 'rate-limited':
      return `${category}${test.record?.reason ?? ''}`;
    case 'blocked':
      return `not checked where ${(test.blockedBy ?? []).join(', ') || 'another rule'} failed first`;
    case 'lenient':
      return `--strict fails it: ${test.lenient ?? ''}`;
    case 'skipped':
      return `skipped: ${test.record?.reason ?? 'no reason given'}`;
    default:
      return '';
  }
}

export function renderCoverageMarkdown(
  coverage: RuleCoverage,
  header: RunHeader,
  causes: readonly Cause[] = [],
): string {
  const lines = [...headerLines('Rule coverage', header), ...causesSection(causes)];
  lines.push(
    coverageTotalsLine(coverage, header),
    '',
    '| Rule | Kind | Verdict | Tests | Failure |',
    '|---|---|---|---|---|',
  );
  for (const entry of coverage.rules) {
    const noted = noteOrder
      .map((outcome) => entry.tests.find((test) => test.outcome === outcome))
      .find((test) => test !== undefined);
    const failure = noted === undefined ? '' : outcomeNote(noted);
    const tests = entry.tests.map((test) => `${outcomeMarks[test.outcome]}${test.title}`).join('<br>');
    lines.push(
      `| ${entry.id} | ${entry.kind} | ${verdictText(entry.verdict, header)} | ${cell(tests)} | ${cell(failure)} |`,
    );
  }
  lines.push(
    '',
    coverage.uncovered.length === 0
      ? `Every rule of the catalogue is checked by ${header.traffic ? 'the traffic' : 'at least one test'}.`
      : `Rules ${neverChecked(header, 'covers')}: ${coverage.uncovered.join(', ')}.`,
    '',
    `Legend: ${verdictLegend()} ${notCoveredSymbol} ${neverChecked(header, 'covers')} the rule.`,
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
