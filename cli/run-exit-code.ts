/**
 * The exit code of a finished run, from what the runner said and what the run left in its
 * output directory. One function for the command and the shards, so that a CI gate reads
 * the same code whichever way it ran the suite.
 *
 * A non-conformance wins over every other outcome of the tests: a run that found a broken
 * rule and also met a few 503s exits 1, not 3, because a job that reads 3 as "sandbox down,
 * retry tomorrow" would hide the defect. Only a configuration error (nothing ran) and a
 * signal (the run did not finish, and the caller asked it to stop) come before it.
 *
 * Playwright's runner exits 0 (passed), 1 (a test failed, or an error outside the tests) or 130
 * (interrupted); the suite's own global setup and signal handling add 2, 3, 143 and 129. A runner
 * that could not be started, or that ended with any other code (Node's own fatal exits: 7, 13,
 * ...), did not report on the target: that is the tool's own failure (4), not a verdict. A runner
 * exit of 1 stays a failed run, decided by the reports.
 */
import { readFileSync, renameSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { markerFileName, unreachableFileName } from '../http/transport.ts';
import { ExitCode } from './exit-codes.ts';
import { exitCodeForSignal } from './playwright-child.ts';

/** The report the conformance reporter writes last (reporters/conformance-reporter.ts). */
const coverageFile = 'rule-coverage.json';

export interface FinishedRun {
  /** The runner's exit code (143 or 129 when it was stopped by SIGTERM or SIGHUP itself). */
  runnerCode: number;
  /** The runner could not be started at all (the spawn failed): runnerCode then means nothing. */
  runnerNotStarted?: boolean;
  /** The runner's process id, for the line that says it failed. */
  runnerPid?: number | undefined;
  /** The signal that killed the runner outright (kill -9), when one did: nothing of the run after it ran. */
  runnerKilledBy?: NodeJS.Signals | null;
  /** The signal that stopped the command, when one did. */
  stoppedBy: NodeJS.Signals | null;
  /** The rule coverage of this run says at least one rule failed (❌). */
  nonConformance: boolean;
  /** The transport wrote its "target unavailable" marker during this run. */
  targetUnavailable: boolean;
}

export function exitCodeOfRun(run: FinishedRun): number {
  // SIGINT reaches the runner too, which then exits 130 itself.
  if (run.stoppedBy !== null && run.stoppedBy !== 'SIGINT') return exitCodeForSignal(run.stoppedBy);
  if (run.runnerKilledBy) return exitCodeForSignal(run.runnerKilledBy);
  if (run.runnerNotStarted) return ExitCode.internal;
  if (run.stoppedBy === 'SIGINT' || run.runnerCode === 130) return 130;
  // The runner stopped by a signal sent to it alone (run/termination.ts): its code stands.
  if (run.runnerCode === exitCodeForSignal('SIGTERM') || run.runnerCode === exitCodeForSignal('SIGHUP'))
    return run.runnerCode;
  // Global setup's configuration errors: no test ran, the reports are not this run's.
  if (run.runnerCode === ExitCode.usage) return ExitCode.usage;
  if (run.nonConformance) return ExitCode.nonConformance;
  if (run.runnerCode === ExitCode.unavailable || run.targetUnavailable) return ExitCode.unavailable;
  if (run.runnerCode === 0) return ExitCode.pass;
  // A failed test that broke no rule (a suite error, a time-out) still fails the gate as a failed run.
  if (run.runnerCode === 1) return ExitCode.nonConformance;
  return ExitCode.internal;
}

/**
 * exitCodeOfRun, saying in one line on stderr when the runner itself failed (the code is then 4),
 * since a runner that could not start or crashed may have printed nothing a reader would link to it.
 */
export function decideExitCode(run: FinishedRun, prefix = 'collect-conformance'): number {
  const code = exitCodeOfRun(run);
  if (code === ExitCode.internal) {
    const runner = `the test runner${run.runnerPid ? ` (pid ${run.runnerPid})` : ''}`;
    const what = run.runnerNotStarted
      ? 'could not be started'
      : `ended with exit code ${run.runnerCode}, which no outcome of a run gives`;
    process.stderr.write(
      `${prefix}: internal error: ${runner} ${what}: nothing was decided about the target (exit ${code})\n`,
    );
  }
  return code;
}

/** The reports a run writes into its output directory, which must never be mistaken for another run's. */
const reportFiles = [
  'conformance-matrix.json',
  'conformance-matrix.md',
  coverageFile,
  'rule-coverage.md',
  'junit.xml',
  'configured-ids.json',
  'html',
  'allure-results',
];

/**
 * Removes what an earlier run in the same output directory left, so that only this run's files are read, and so
 * that a run stopped before its reports (a configuration error, a signal) leaves no mix of two runs' reports. Each
 * is moved out of the way at once and deleted while the run starts (an earlier run's Allure results are thousands
 * of files): await the promise before the command ends.
 */
export function forgetEarlierVerdicts(outputDir: string): Promise<void> {
  const removals: Array<Promise<void>> = [];
  for (const name of [...reportFiles, markerFileName, unreachableFileName]) {
    const path = join(outputDir, name);
    const forgotten = `${path}.forgotten-${process.pid}`;
    try {
      renameSync(path, forgotten);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      // Not movable (another device, a busy directory): removed here and now.
      rmSync(path, { recursive: true, force: true });
      continue;
    }
    removals.push(rm(forgotten, { recursive: true, force: true, maxRetries: 3 }).catch(() => {}));
  }
  return Promise.all(removals).then(() => {});
}

/** True when this run's rule coverage holds a failed rule; false when it has none or was not written. */
export function nonConformanceRecorded(outputDir: string): boolean {
  try {
    const coverage = JSON.parse(readFileSync(join(outputDir, coverageFile), 'utf8')) as {
      totals?: { fail?: unknown };
    };
    return typeof coverage.totals?.fail === 'number' && coverage.totals.fail > 0;
  } catch {
    // Not written (a --reporter that replaces the configured ones, --list): the runner's code decides.
    return false;
  }
}

/** The line printed when the runner was killed outright: it could print nothing itself. */
export function killedRunnerLine(signal: NodeJS.Signals, pid: number | undefined): string {
  return (
    `collect-conformance: the test runner${pid ? ` (pid ${pid})` : ''} was killed by ${signal}: ` +
    'the run did not finish, its reports are incomplete and its cleanup did not run ' +
    '(the next run with the same output directory deletes the customers it left)'
  );
}
