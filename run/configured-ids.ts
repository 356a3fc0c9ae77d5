/**
 * Ids the user configured that the target does not know. The suite cannot tell a wrong
 * PCS_BALANCE_ID from a server that loses a balance, so such a run still ends in a
 * non-conformance (exit 1); but every failure of a read of that id may be the configuration's,
 * and the summary says so first (reporters/run-summary.ts). Global setup reads each configured
 * id once, with the key of the account it belongs to, and keeps the ones answered 404 in the
 * output directory for the reporter.
 */
import { operationPath } from '../contract/operations.ts';
import { nodeSender, sendWithPolicy, TransportError, type TransportSettings } from '../http/transport.ts';
import type { ConfiguredIdSuspect } from '../output/configured-id-suspects.ts';

export interface ConfiguredIds {
  baseUrl: string;
  reads: Array<{
    variable: string;
    id: number | null;
    operation: ConfiguredIdSuspect['operation'];
    key: string | null;
  }>;
}

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
