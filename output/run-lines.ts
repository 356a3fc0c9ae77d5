/**
 * What the workers of one run tell each other through a file of the output directory: one JSON line
 * per record, appended (O_APPEND keeps the short lines of concurrent workers whole), read back with
 * the lines of this run only (PCS_RUN_ID). A file rather than memory, because a failed test restarts
 * its worker. Used by the shrink ledger (generation/shrink-budget.ts) and the rules found
 * broken (judgment/known-broken.ts); global setup removes both files at the start of a run.
 */
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { outputRootOf } from './output-directory.ts';

type Env = Record<string, string | undefined>;

/** The file of that name in the run's output directory. */
export function runFilePath(name: string, env: Env): string {
  return resolve(outputRootOf(env), name);
}

/** Appends a record of this run; never fails the caller (without it, later workers only know less). */
export function appendRunLine(file: string, record: object, env: Env): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    appendFileSync(file, `${JSON.stringify({ runId: env.PCS_RUN_ID ?? null, ...record })}\n`);
  } catch {
    // a read-only output directory: the records are an optimisation, never a verdict
  }
}

/** The records of this run, in order; none when the file is missing. A line cut by a killed worker is skipped. */
export function runLines<T extends object>(file: string, env: Env): T[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const runId = env.PCS_RUN_ID ?? null;
  const found: T[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const parsed = JSON.parse(line) as T & { runId?: string | null };
      if (parsed.runId === runId) found.push(parsed);
    } catch {
      // a line cut by a worker killed mid-write: the others still count
    }
  }
  return found;
}
