/**
 * Playwright reporter that writes, after every run, the conformance matrix (operation x
 * rule, with the statuses seen), the rule coverage (every rule of specs/rules.json with its
 * tests and verdict, and the rules no test covers) as Markdown and JSON, and JUnit, into the
 * output directory (reporters/report-pipeline.ts), appends the Markdown to
 * $GITHUB_STEP_SUMMARY when that variable is set, and prints the closing summary.
 *
 * It reads the verdict records each test attached to its result (suite/fixtures.ts) and the
 * test's declared rules (the 'rule' annotations of covers()); what it writes comes from the
 * records (reporters/conformance-model.ts), never from a failure's message.
 */
import { join, relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { FullConfig, FullResult, Reporter, Suite, TestCase } from '@playwright/test/reporter';
import { registerConfiguredSecrets } from '../settings/configured-secrets.ts';
import { redact } from '../settings/secrets.ts';
import { recordsOfAttachment, verdictAttachment, type VerdictRecord } from '../judgment/verdict-record.ts';
import type { Outcome, TestRecord } from './conformance-model.ts';
import type { RunHeader } from './markdown.ts';
import { buildReports, outputFiles, writeReports } from './report-pipeline.ts';
import { allureResultsDirOf } from '../output/output-directory.ts';
import { noteTiming, runTimingFile } from './run-timing.ts';
import { readSuspects } from '../output/configured-id-suspects.ts';
import { cleanupCase } from './cleanup-case.ts';

export interface ConformanceReporterOptions {
  /** Where the four files go; default ${PCS_OUTPUT_DIR:-reports}. */
  outputDir?: string;
}

export { outputFiles } from './report-pipeline.ts';

/** A text without its terminal colours (Playwright colours the errors it reports). */
export const stripAnsi = (text: string): string => stripVTControlCharacters(text);

export function outcomeOf(test: TestCase): Outcome {
  // A failure a harness marked expected (failuresExpected, against a server known to be broken) is a failure all the
  // same: the reports judge the target, not the harness's expectation.
  const last = test.results.at(-1)?.status;
  if (test.outcome() === 'expected' && (last === 'failed' || last === 'timedOut')) return 'failed';
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

/** The verdict records a test's last attempt attached (none when it never ran, or its worker died). */
export function verdictsOf(test: TestCase): VerdictRecord[] {
  const attachment = test.results
    .at(-1)
    ?.attachments.find((candidate) => candidate.contentType === verdictAttachment.contentType);
  return recordsOfAttachment(attachment?.body);
}

/** The rules a test declares (covers() annotations). */
export function declaredRules(test: TestCase): string[] {
  return [
    ...new Set(
      test.annotations.filter((annotation) => annotation.type === 'rule').map((annotation) => annotation.description),
    ),
  ].filter((id): id is string => id !== undefined && id !== '');
}

/** One test as the model sees it: its rules, its outcome, and the records of its last attempt. */
export function recordOf(test: TestCase, rootDir: string): TestRecord {
  const last = test.results.at(-1);
  const title = test.titlePath().slice(3).join(' › ');
  const location = `${relative(rootDir, test.location.file)}:${test.location.line}`;
  const source = { kind: 'test' as const, title, location };
  const outcome = outcomeOf(test);
  const verdicts = verdictsOf(test).map((record) => ({ ...record, source }));
  // A test skipped before its fixtures ran (a describe-level skip) attached nothing: its own skip reason says why.
  if (outcome === 'skipped' && verdicts.length === 0) {
    const reason = [...test.annotations, ...(last?.annotations ?? [])].find(
      (annotation) => annotation.type === 'skip',
    )?.description;
    for (const rule of declaredRules(test))
      verdicts.push({ rule, kind: 'skipped', violations: [], reason: redact(reason ?? 'skipped'), source });
  }
  const record: TestRecord = { title, location, rules: declaredRules(test), outcome, verdicts };
  const error = last?.errors[0] ?? last?.error;
  if (outcome === 'failed' && error !== undefined)
    record.error = redact(stripAnsi(error.message ?? error.value ?? 'an error without a message'));
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

  onEnd(result: FullResult): void {
    if (!this.suite) return;
    const tests = this.suite.allTests();
    // Nothing ran (a listing, a run stopped before its first test): there is no run to report.
    if (!tests.some((test) => test.results.length > 0)) return;
    // The key must not reach these files, even through an error message of the suite itself.
    registerConfiguredSecrets(process.env);
    const cases = tests.map((test) => recordOf(test, this.rootDir));
    // Global teardown ran before onEnd: its cleanup's judgments are one more case.
    const cleanup = cleanupCase(this.outputDir, process.env);
    const durations = new Map(
      tests.map((test, index) => [cases[index]!.title, (test.results.at(-1)?.duration ?? 0) / 1000]),
    );
    const shown = (path: string): string => {
      const fromHere = relative(process.cwd(), path);
      return fromHere.startsWith('..') ? path : fromHere || '.';
    };
    const header = runHeader();
    if (result.status === 'interrupted')
      header.incomplete = 'the run was stopped before it finished; the verdicts are those of the tests that ran';
    const reports = buildReports(cleanup === undefined ? cases : [...cases, cleanup], {
      header,
      junitName: 'collect-conformance',
      durations,
      suspects: readSuspects(this.outputDir, process.env.PCS_RUN_ID),
      paths: {
        matrix: shown(join(this.outputDir, outputFiles.matrixMarkdown)),
        coverage: shown(join(this.outputDir, outputFiles.coverageMarkdown)),
        html: shown(join(this.outputDir, 'html', 'index.html')),
        allureResults: shown(allureResultsDirOf({ ...process.env, PCS_OUTPUT_DIR: this.outputDir })),
      },
    });
    writeReports(this.outputDir, reports, process.env.GITHUB_STEP_SUMMARY);
    // What --strict would fail, in the console summary too (the run still exits 0 for it).
    if (reports.warning !== null) process.stdout.write(`${reports.warning}\n`);
    // Last, so that the last screen of a run names every broken rule.
    process.stdout.write(`\n${reports.summary.join('\n')}\n`);
    noteTiming(
      { firstTestBegan: this.firstTestBegan, lastTestEnded: this.lastTestEnded, reportersEnded: Date.now() },
      runTimingFile({ PCS_OUTPUT_DIR: this.outputDir }),
    );
  }

  printsToStdio(): boolean {
    return false;
  }
}
