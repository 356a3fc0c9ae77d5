/**
 * The configured ids the target answered 404 for, as global setup keeps them in the output directory for
 * the reporters of the same run (reporters/run-summary.ts says first that a failure may be the
 * configuration's), and the warning the run prints when it starts (run/configured-ids.ts reads them).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A configured id the target answered 404 for. */
export interface ConfiguredIdSuspect {
  variable: string;
  id: number;
  operation: 'getBalance' | 'getCurrency';
  /** The request as reports name it: "GET /v1/balances/1". */
  request: string;
  status: number;
}

export const configuredIdsFileName = 'configured-ids.json';

interface SuspectsFile {
  runId: string;
  suspects: ConfiguredIdSuspect[];
}

/** Kept for the reporter of this run (written every run, so that an earlier run's never counts). */
export function writeSuspects(outputDir: string, runId: string, suspects: ConfiguredIdSuspect[]): void {
  const body: SuspectsFile = { runId, suspects };
  try {
    writeFileSync(join(outputDir, configuredIdsFileName), `${JSON.stringify(body)}\n`);
  } catch {
    // The summary then says nothing of the configuration; the warning at the start of the run still did.
  }
}

/** The suspects global setup kept for this run; none when the file is another run's, missing or unreadable. */
export function readSuspects(outputDir: string, runId: string | undefined): ConfiguredIdSuspect[] {
  try {
    const body = JSON.parse(readFileSync(join(outputDir, configuredIdsFileName), 'utf8')) as Partial<SuspectsFile>;
    return body.runId === runId && Array.isArray(body.suspects) ? body.suspects : [];
  } catch {
    return [];
  }
}

/** The warning the run prints when it starts. */
export function suspectWarning(suspect: ConfiguredIdSuspect): string {
  return (
    `${suspect.variable}=${suspect.id}: ${suspect.request} answered ${suspect.status}: ` +
    'the target may not have this id; the tests that read it will fail, and the summary groups those failures under it'
  );
}
