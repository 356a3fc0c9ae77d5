/**
 * Playwright reporter that writes, after every run, the conformance matrix (operation x
 * rule, with the statuses seen) and the rule coverage (every rule of specs/rules.json with
 * its tests and verdict, and the rules no test covers) as Markdown and JSON into the output
 * directory, and appends the Markdown to $GITHUB_STEP_SUMMARY when that variable is set.
 *
 * It reads what the tests already record: the 'rule' annotations of support/judgment/covers.ts and
 * the 'status' annotations of support/http/client.ts ("<operationId> <METHOD> <path> → <status>").
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase } from '@playwright/test/reporter';
import { operations } from '../contract/operations.ts';
import { rules } from '../contract/rules.ts';
import { redact, registerSecret } from '../support/http/redact.ts';
import { classifyFailure } from './categories.ts';
import { buildCoverage, buildMatrix, ruleNamedBy, type Outcome, type TestRecord } from './conformance-model.ts';
import { renderCoverageMarkdown, renderMatrixMarkdown, strictWarning, type RunHeader } from './markdown.ts';
import { recordedRequests } from './status-annotation.ts';
import { renderRunSummary } from './run-summary.ts';
import { allureResultsDirOf } from '../support/lifecycle/output-directory.ts';
import { noteTiming, runTimingFile } from './run-timing.ts';

export interface ConformanceReporterOptions {
  /** Where the four files go; default ${PCS_OUTPUT_DIR:-reports}. */
  outputDir?: string;
}

export const outputFiles = {
  matrixJson: 'conformance-matrix.json',
  matrixMarkdown: 'conformance-matrix.md',
  coverageJson: 'rule-coverage.json',
  coverageMarkdown: 'rule-coverage.md',
} as const;

// eslint-disable-next-line no-control-regex
const ansi = /\x1b\[[0-9;]*m/g;

export function stripAnsi(text: string): string {
  return text.replace(ansi, '');
}

function outcomeOf(test: TestCase): Outcome {
  switch (test.outcome()) {
    case 'expected':
      return test.results.at(-1)?.status === 'skipped' ? 'skipped' : 'passed';
    case 'flaky':
      return 'flaky';
    case 'skipped':
      return 'skipped';
    default:
      return 'failed';
  }
}

/** One test as the model sees it: its rules, the requests of its last attempt, its failure. */
export function recordOf(test: TestCase, rootDir: string): TestRecord {
  const last = test.results.at(-1);
  const annotations = [...test.annotations, ...(last?.annotations ?? [])];
  const ruleIds = [
    ...new Set(
      annotations.filter((annotation) => annotation.type === 'rule').map((annotation) => annotation.description ?? ''),
    ),
  ];
  // Runtime annotations appear on the result and, at the end, on the test too: count each request once.
  const requests = recordedRequests(last?.annotations ?? test.annotations);
  const outcome = outcomeOf(test);
  const record: TestRecord = {
    title: test.titlePath().slice(3).join(' › '),
    location: `${relative(rootDir, test.location.file)}:${test.location.line}`,
    rules: ruleIds.filter((id) => id !== ''),
    outcome,
    requests,
  };
  const lenient = (last?.annotations ?? test.annotations)
    .filter((annotation) => annotation.type === 'lenient' && annotation.description)
    .map((annotation) => {
      const [rule = '', ...note] = annotation.description!.split(': ');
      return { rule, note: redact(note.join(': ')) };
    });
  if (lenient.length > 0) record.lenient = lenient;
  if (outcome === 'skipped') {
    const skip = annotations.find((annotation) => annotation.type === 'skip' && annotation.description);
    if (skip?.description) record.skipReason = redact(skip.description);
  }
  if (outcome === 'failed') {
    const errors = last?.errors.length ? last.errors : last?.error ? [last.error] : [];
    const messages = errors.map((error) =>
      redact(stripAnsi(error.message ?? error.value ?? 'an error without a message')),
    );
    if (messages.length === 0) messages.push(`test ${last?.status ?? 'failed'} without an error message`);
    const named = messages.map(ruleNamedBy);
    const category = classifyFailure(messages[0]!);
    const firstUnattributed = messages.find((_, index) => named[index] === undefined);
    const ruleMessages: Record<string, string> = {};
    messages.forEach((message, index) => {
      const rule = named[index];
      if (rule !== undefined) ruleMessages[rule] ??= message;
    });
    record.failure = {
      message: messages[0]!,
      category: category.id,
      categoryName: category.name,
      rules: [...new Set(named.filter((id) => id !== undefined))],
      unattributed: firstUnattributed !== undefined,
      ...(firstUnattributed !== undefined ? { unattributedCategory: classifyFailure(firstUnattributed).id } : {}),
      ruleMessages,
    };
  }
  return record;
}

function runHeader(): RunHeader {
  const base = process.env.PCS_BASE_URL;
  let target = 'unknown target';
  if (base) {
    try {
      const url = new URL(base);
      target =
        `${url.origin}${url.pathname}` +
        `${process.env.COLLECT_CONFORMANCE_EMBEDDED_MOCK === '1' ? ' (embedded reference mock)' : ''}`;
    } catch {
      target = 'an invalid PCS_BASE_URL';
    }
  }
  return {
    target,
    environment: process.env.PCS_ENVIRONMENT ?? 'sandbox',
    runId: process.env.PCS_RUN_ID ?? 'unknown',
    finishedAt: new Date().toISOString(),
  };
}

export default class ConformanceReporter implements Reporter {
  private suite: Suite | undefined;
  private rootDir = process.cwd();
  private readonly outputDir: string;

  constructor(options: ConformanceReporterOptions = {}) {
    this.outputDir = options.outputDir ?? process.env.PCS_OUTPUT_DIR ?? 'reports';
  }

  /** The run's timeline for npm run bench (reporters/run-timing.ts). */
  private firstTestBegan: number | undefined;
  private lastTestEnded: number | undefined;

  onBegin(config: FullConfig, suite: Suite): void {
    this.suite = suite;
    this.rootDir = config.rootDir;
  }

  onTestBegin(): void {
    this.firstTestBegan ??= Date.now();
  }

  onTestEnd(): void {
    this.lastTestEnded = Date.now();
  }

  onEnd(_result: FullResult): void {
    if (!this.suite) return;
    // The key must not reach these files, even through an error message of the suite itself.
    registerSecret(process.env.PCS_SECRET_KEY);
    registerSecret(process.env.COLLECT_CONFORMANCE_EMBEDDED_LIVE_KEY);
    const records = this.suite.allTests().map((test) => recordOf(test, this.rootDir));
    const header = runHeader();
    const documented = operations.filter((operation) => !operation.undocumented).map((operation) => operation.id);
    const matrix = buildMatrix(rules, documented, records);
    const coverage = buildCoverage(rules, records);
    const matrixMarkdown = renderMatrixMarkdown(matrix, header);
    const coverageMarkdown = renderCoverageMarkdown(coverage, header);
    mkdirSync(this.outputDir, { recursive: true });
    const write = (name: string, text: string): void => writeFileSync(join(this.outputDir, name), redact(text));
    write(outputFiles.matrixJson, `${JSON.stringify({ ...header, ...matrix }, null, 2)}\n`);
    write(outputFiles.matrixMarkdown, matrixMarkdown);
    write(outputFiles.coverageJson, `${JSON.stringify({ ...header, ...coverage }, null, 2)}\n`);
    write(outputFiles.coverageMarkdown, coverageMarkdown);
    const summary = process.env.GITHUB_STEP_SUMMARY;
    if (summary) appendFileSync(summary, redact(`${matrixMarkdown}\n${coverageMarkdown}\n`));
    // What --strict would fail, in the console summary too (the run still exits 0 for it).
    const warning = strictWarning(coverage);
    if (warning !== null) process.stdout.write(`${redact(warning)}\n`);
    // Last, so that the last screen of a run names every broken rule (reporters/run-summary.ts).
    const shown = (path: string): string => {
      const fromHere = relative(process.cwd(), path);
      return fromHere.startsWith('..') ? path : fromHere || '.';
    };
    const runSummary = renderRunSummary(coverage, records, matrix.totals, {
      matrix: shown(join(this.outputDir, outputFiles.matrixMarkdown)),
      coverage: shown(join(this.outputDir, outputFiles.coverageMarkdown)),
      html: shown(join(this.outputDir, 'html', 'index.html')),
      allureResults: shown(allureResultsDirOf({ ...process.env, PCS_OUTPUT_DIR: this.outputDir })),
    });
    // --list runs nothing: there is nothing to sum up.
    const ran = this.suite.allTests().some((test) => test.results.length > 0);
    if (ran) process.stdout.write(`\n${redact(runSummary.join('\n'))}\n`);
    noteTiming(
      { firstTestBegan: this.firstTestBegan, lastTestEnded: this.lastTestEnded, reportersEnded: Date.now() },
      runTimingFile({ PCS_OUTPUT_DIR: this.outputDir }),
    );
  }

  printsToStdio(): boolean {
    return false;
  }
}
