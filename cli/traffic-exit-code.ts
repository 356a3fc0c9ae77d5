/**
 * The exit code of `proxy` and `judge`, as a run's (README, exit codes): a signal that stopped the
 * traffic's command (or the judging) first, then a command killed outright; then a non-conformance,
 * which wins over every other outcome; then the tool's own failure; then an inconclusive verdict
 * (the upstream unavailable, traffic not judged, or nothing judged at all); else a pass.
 */
import { ExitCode } from './exit-codes.ts';
import { exitCodeForSignal } from './playwright-child.ts';

export interface TrafficOutcome {
  /** The signal that stopped the command, or the judging, before the traffic ended. */
  stoppedBy?: NodeJS.Signals | undefined;
  /** The signal that killed the command, not sent by the proxy (kill -9, the OOM killer). */
  killedBy?: NodeJS.Signals | undefined;
  /** A server finding (a client finding with --fail-on-client, the command's failure with --fail-on-command). */
  findings: boolean;
  /** The first error of the tool itself, or null. */
  internalError: string | null;
  /** The upstream was unreachable, did not answer in time, cut answers, or answered 429/502/503/504. */
  unavailable: boolean;
  /** Traffic not judged, not on purpose (--sample and --max-judge-lag skip on purpose). */
  notJudged: number;
  /** No exchange was matched to an operation of the reference. */
  judgedNothing: boolean;
}

export function trafficExitCode(outcome: TrafficOutcome): number {
  if (outcome.stoppedBy !== undefined) return exitCodeForSignal(outcome.stoppedBy);
  if (outcome.killedBy !== undefined) return exitCodeForSignal(outcome.killedBy);
  if (outcome.findings) return ExitCode.nonConformance;
  if (outcome.internalError !== null) return ExitCode.internal;
  if (outcome.unavailable || outcome.notJudged > 0 || outcome.judgedNothing) return ExitCode.unavailable;
  return ExitCode.pass;
}
