/**
 * How answers are judged: by default, as the reference makes them valid; with --strict, as
 * --strict reads the reference (inputs the reference leaves open only to a lenient reading must
 * be refused, values that do not exist yet must be there); and how far the target's timestamps
 * may be from its own clock (TIME-NOW). Passed to the checks as a value: a test gets it from its
 * fixture, a judge of recorded traffic from its own configuration.
 */
import { defaultClockToleranceSeconds } from '../settings/settings.ts';

export interface AnswerSettings {
  strict: boolean;
  clockToleranceSeconds: number;
  /**
   * The earliest time, epoch milliseconds, at which what the answers show can have been made: the start of the
   * traffic a judge reads (a recording may be days old); unset, the start of this process.
   */
  earliestMs?: number;
}

/** The default reading (what a run without --strict and without PCS_CLOCK_TOLERANCE_S judges by). */
export const defaultAnswerSettings: AnswerSettings = {
  strict: false,
  clockToleranceSeconds: defaultClockToleranceSeconds,
};
