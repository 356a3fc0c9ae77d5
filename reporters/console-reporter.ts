/**
 * The suite's console reporter (`dot` and `line`, the default console output): progress while the
 * tests run, then the failures grouped by cause, then the counts. One defect of a target fails many
 * tests (403 where 401 is owed fails every test of a missing key): each is a failure, for Playwright
 * and for every report, but the console prints one test of each cause in full (the one whose message
 * shows it most simply) and the others one line each, "same cause". Nothing is hidden from Playwright:
 * its HTML and JSON reports hold every failure in full, and the counts here are Playwright's own
 * (expected, unexpected, flaky, skipped).
 *
 * `list` (--verbose) stays Playwright's own list reporter, which prints every failure in full.
 */
import { relative } from 'node:path';
import type {
  FullConfig,
  FullResult,
  Reporter,
  Suite,
  TestCase,
  TestError,
  TestResult,
} from '@playwright/test/reporter';
import { registerConfiguredSecrets } from '../settings/configured-secrets.ts';
import { redact } from '../settings/secrets.ts';
import { causeLine, causesOf, type Cause } from './causes.ts';
import { totalsOf, type TestRecord } from './conformance-model.ts';
import { recordOf, stripAnsi } from './conformance-reporter.ts';
import { verdictDefinition } from './verdicts.ts';

export interface ConsoleReporterOptions {
  /** `dot`: a character per test; `line`: one line a terminal updates (one line per test elsewhere). */
  mode?: 'dot' | 'line';
  /** Where Playwright's HTML report is, named where the failures are shortened. */
  htmlReport?: string;
}

const dotsPerLine = 80;
/** Output a test printed, kept for its failure's block: at most this much of it. */
const outputKept = 4000;

/** The character of a finished test: Playwright's dot reporter's. */
function dotOf(test: TestCase, result: TestResult): string {
  if (result.status === 'skipped') return '°';
  const failed = result.status !== test.expectedStatus;
  if (failed && test.results.length <= test.retries) return '×';
  if (result.status === 'timedOut') return 'T';
  if (result.status === 'interrupted') return '!';
  if (!failed && test.results.length > 1) return '±';
  return failed ? 'F' : '·';
}

function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  return `${(ms / 60_000).toFixed(1)}m`;
}

const indent = (text: string, by: string): string =>
  text
    .split('\n')
    .map((line) => (line === '' ? '' : `${by}${line}`))
    .join('\n');

/** A failed test, as this reporter prints it. */
interface Failure {
  test: TestCase;
  record: TestRecord;
  /** The cause of the first rule it broke; undefined for a failure without a verdict (an error, a time-out). */
  cause: Cause | undefined;
}

/** The length of a failure's first error message (a failure without one comes last). */
function firstErrorLength(failure: Failure): number {
  const error = failure.test.results.at(-1)?.errors[0];
  return (error?.message ?? error?.value)?.length ?? Number.MAX_SAFE_INTEGER;
}

export default class ConsoleReporter implements Reporter {
  private readonly mode: 'dot' | 'line';
  private readonly htmlReport: string | undefined;
  private readonly tty = process.stdout.isTTY === true;
  private config: FullConfig | undefined;
  private suite: Suite | undefined;
  private total = 0;
  private finished = 0;
  private dots = 0;
  /** The progress line is on screen (line mode in a terminal): a line printed now clears it first. */
  private progressShown = false;
  private readonly errors: TestError[] = [];
  private readonly output = new Map<TestResult, string>();

  constructor(options: ConsoleReporterOptions = {}) {
    this.mode = options.mode ?? 'dot';
    this.htmlReport = options.htmlReport;
  }

  printsToStdio(): boolean {
    return true;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.config = config;
    this.suite = suite;
    this.total = suite.allTests().length;
    if (this.total === 0) return;
    const workers = config.workers;
    const shard = config.shard ? `, shard ${config.shard.current} of ${config.shard.total}` : '';
    this.write(`\nRunning ${this.total} test${this.total === 1 ? '' : 's'} using ${workers} worker`);
    this.write(`${workers === 1 ? '' : 's'}${shard}\n`);
  }

  onStdOut(chunk: string | Buffer, test?: TestCase, result?: TestResult): void {
    this.keepOutput(chunk, test, result, process.stdout);
  }

  onStdErr(chunk: string | Buffer, test?: TestCase, result?: TestResult): void {
    this.keepOutput(chunk, test, result, process.stderr);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.finished += 1;
    if (this.mode === 'dot') {
      if (this.dots === dotsPerLine) {
        this.write('\n');
        this.dots = 0;
      }
      this.write(dotOf(test, result));
      this.dots += 1;
      return;
    }
    const line = `[${this.finished}/${this.total}] ${this.titleOf(test)}`;
    if (!this.tty) {
      this.write(`${line}\n`);
      return;
    }
    const width = Math.max(20, (process.stdout.columns ?? 100) - 1);
    this.write(`\r\u001b[2K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
    this.progressShown = true;
  }

  onError(error: TestError): void {
    this.errors.push(error);
    this.endProgress();
    this.write(`\n${indent(this.errorText(error), '  ')}\n`);
  }

  onEnd(result: FullResult): void {
    this.endProgress();
    if (this.suite === undefined || this.config === undefined) return;
    const tests = this.suite.allTests();
    if (!tests.some((test) => test.results.length > 0)) return;
    const records = tests.map((test) => recordOf(test, this.config!.rootDir));
    this.printFailures(tests, records);
    const totals = totalsOf(records);
    const counts = [
      ...(totals.failed > 0 ? [`  ${totals.failed} failed`] : []),
      ...(totals.flaky > 0 ? [`  ${totals.flaky} flaky`] : []),
      ...(totals.skipped > 0 ? [`  ${totals.skipped} skipped`] : []),
      `  ${totals.passed} passed (${duration(result.duration)})`,
      ...(this.errors.length > 0
        ? [`  ${this.errors.length} error${this.errors.length === 1 ? ' was' : 's were'} not a part of any test`]
        : []),
    ];
    this.write(`\n${counts.join('\n')}\n`);
  }

  private printFailures(tests: readonly TestCase[], records: readonly TestRecord[]): void {
    const causes = causesOf(records);
    const failures: Failure[] = [];
    tests.forEach((test, index) => {
      const record = records[index]!;
      if (record.outcome !== 'failed' && record.outcome !== 'flaky') return;
      const first = record.verdicts.find((verdict) => verdict.kind === 'broken');
      const cause = first === undefined ? undefined : causes.find((candidate) => candidate.records.includes(first));
      failures.push({ test, record, cause });
    });
    if (failures.length === 0) return;
    const grouped = causes
      .map((cause) => ({ cause, failures: failures.filter((failure) => failure.cause === cause) }))
      .filter((group) => group.failures.length > 0);
    const alone = failures.filter((failure) => failure.cause === undefined);
    const shortened = grouped.some((group) => group.failures.length > 1);
    const fromHere = this.htmlReport === undefined ? undefined : relative(process.cwd(), this.htmlReport);
    const where =
      this.htmlReport === undefined
        ? "Playwright's HTML report"
        : fromHere === undefined || fromHere.startsWith('..')
          ? this.htmlReport
          : fromHere;
    this.write(
      `\n  ${failures.length} failed test${failures.length === 1 ? '' : 's'}` +
        (shortened ? `, grouped by cause: one of each in full (every one in full: ${where})` : '') +
        '\n',
    );
    let number = 0;
    const fail = verdictDefinition('fail').symbol;
    for (const group of grouped) {
      const count = group.failures.length;
      this.write(`\n  ${fail} ${causeLine(group.cause)} (${count} failed test${count === 1 ? '' : 's'})\n`);
      // In full: the failure that shows the cause most simply (the shortest message: an example test's one
      // request rather than a stateful sequence), then the others, one line each.
      const shown = [...group.failures].sort((a, b) => firstErrorLength(a) - firstErrorLength(b))[0]!;
      for (const failure of [shown, ...group.failures.filter((other) => other !== shown)]) {
        number += 1;
        if (failure === shown) this.printInFull(failure, number);
        else this.write(`  ${number}) ${this.titleOf(failure.test)}: same cause\n`);
      }
    }
    for (const failure of alone) {
      number += 1;
      this.printInFull(failure, number);
    }
  }

  private printInFull(failure: Failure, number: number): void {
    const result = failure.test.results.at(-1);
    const errors = result?.errors ?? [];
    const flaky = failure.record.outcome === 'flaky' ? ' (flaky: it passed on a retry)' : '';
    this.write(`\n  ${number}) ${this.titleOf(failure.test)}${flaky}\n\n`);
    const first = errors[0];
    const text = first === undefined ? 'failed without an error' : this.errorText(first, failure.test.location.file);
    this.write(`${indent(text, '    ')}\n`);
    if (errors.length > 1)
      this.write(`    (and ${errors.length - 1} more error${errors.length === 2 ? '' : 's'} of this test)\n`);
    const output = result === undefined ? undefined : this.output.get(result);
    if (output !== undefined && output.trim() !== '')
      this.write(`\n    output:\n${indent(output.trimEnd(), '    ')}\n`);
    this.write('\n');
  }

  /** An error's message, then where it was thrown: the frames of the spec (the failed line), else its location. */
  private errorText(error: TestError, specFile?: string): string {
    // The key must not reach the console, even through an error of the suite itself (as the reports).
    registerConfiguredSecrets(process.env);
    const message = stripAnsi(error.message ?? error.value ?? 'an error without a message');
    const frames =
      specFile === undefined
        ? []
        : stripAnsi(error.stack ?? '')
            .split('\n')
            .filter((line) => /^\s+at /.test(line) && line.includes(specFile))
            .map((line) => line.trim().replace(specFile, relative(process.cwd(), specFile)));
    const at =
      frames.length > 0
        ? `\n${frames.join('\n')}`
        : error.location === undefined
          ? ''
          : `\nat ${relative(process.cwd(), error.location.file)}:${error.location.line}:${error.location.column}`;
    return redact(`${message}${at}`);
  }

  private titleOf(test: TestCase): string {
    const file = relative(process.cwd(), test.location.file);
    return [`${file}:${test.location.line}:${test.location.column}`, ...test.titlePath().slice(3)].join(' › ');
  }

  private keepOutput(
    chunk: string | Buffer,
    test: TestCase | undefined,
    result: TestResult | undefined,
    stream: NodeJS.WriteStream,
  ): void {
    if (test === undefined || result === undefined) {
      this.endProgress();
      stream.write(redact(chunk.toString()));
      return;
    }
    const kept = this.output.get(result) ?? '';
    if (kept.length < outputKept) this.output.set(result, (kept + chunk.toString()).slice(0, outputKept));
  }

  /** The line a terminal was updating is left as it is, and what follows starts on a line of its own. */
  private endProgress(): void {
    if (this.progressShown) this.write('\n');
    this.progressShown = false;
    if (this.dots > 0) this.write('\n');
    this.dots = 0;
  }

  private write(text: string): void {
    process.stdout.write(text);
  }
}
