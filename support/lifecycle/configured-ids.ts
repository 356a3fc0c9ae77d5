/**
 * Ids the user configured that the target does not know. The suite cannot tell a wrong
 * PCS_BALANCE_ID from a server that loses a balance, so such a run still ends in a
 * non-conformance (exit 1); but every failure of a read of that id may be the configuration's,
 * and the summary says so first (reporters/run-summary.ts). Global setup reads each configured
 * id once, with the key of the account it belongs to, and keeps the ones answered 404 in the
 * output directory for the reporter.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { operationPath } from '../../contract/operations.ts';
import { nodeSender, sendWithPolicy, TransportError, type TransportSettings } from '../http/transport.ts';

/** A configured id the target answered 404 for. */
export interface ConfiguredIdSuspect {
  variable: string;
  id: number;
  operation: 'getBalance' | 'getCurrency';
  /** The request as reports name it: "GET /v1/balances/1". */
  request: string;
  status: number;
}

export interface ConfiguredIds {
  baseUrl: string;
  reads: Array<{
    variable: string;
    id: number | null;
    operation: ConfiguredIdSuspect['operation'];
    key: string | null;
  }>;
}

export const configuredIdsFileName = 'configured-ids.json';

/** Reads each configured id; the ones the target answered 404 for. Transport failures are the preflight's to report. */
export async function suspectConfiguredIds(
  target: ConfiguredIds,
  settings: TransportSettings,
): Promise<ConfiguredIdSuspect[]> {
  const suspects: ConfiguredIdSuspect[] = [];
  for (const read of target.reads) {
    if (read.id === null || read.key === null) continue;
    const path = operationPath(read.operation, { id: read.id });
    try {
      const { response } = await sendWithPolicy(
        nodeSender(),
        {
          method: 'GET',
          url: target.baseUrl + path,
          headers: { authorization: `Bearer ${read.key}`, accept: 'application/json' },
          operationId: read.operation,
        },
        settings,
      );
      if (response.status === 404)
        suspects.push({
          variable: read.variable,
          id: read.id,
          operation: read.operation,
          request: `GET ${new URL(target.baseUrl + path).pathname}`,
          status: response.status,
        });
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
    }
  }
  return suspects;
}

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
