/**
 * The run's timeline for npm run bench (lab/bench.ts): when global setup started and ended,
 * when the first test began and the last one ended, when the reporters finished. Each part
 * merges its moments into ${PCS_OUTPUT_DIR}/run-timing.json (epoch milliseconds); the bench
 * adds when it started and when the process ended, and prints the parts of the wall time.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export interface RunTiming {
  setupStarted?: number;
  setupEnded?: number;
  firstTestBegan?: number;
  lastTestEnded?: number;
  reportersEnded?: number;
}

export function runTimingFile(env: Record<string, string | undefined>): string {
  return join(resolve(env.PCS_OUTPUT_DIR?.trim() || 'reports'), 'run-timing.json');
}

/** Merges moments into the timing file; never fails the run (the file is for the bench). */
export function noteTiming(moments: RunTiming, file: string): void {
  try {
    const current = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as RunTiming) : {};
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify({ ...current, ...moments })}\n`);
  } catch {
    // Timing is for the bench only.
  }
}
