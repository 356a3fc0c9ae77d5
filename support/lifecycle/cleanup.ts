/**
 * Nothing the suite creates is left behind: every customer it creates is written to the
 * run ledger (support/lifecycle/ledger.ts, by the transport) the moment its creation is answered, and
 * global teardown deletes whatever the ledger shows as not yet deleted, also after failed tests,
 * crashed workers and an interrupted run (Playwright runs global teardown on SIGINT).
 * Transactions cannot be deleted; they carry the run id instead (support/generation/bodies.ts).
 */
import { operationPath } from '../../contract/operations.ts';
import { leftoverCustomers, ledgerPath, recordDeletedCustomer } from './ledger.ts';
import { redact } from '../http/redact.ts';
import { nodeSender, sendWithPolicy, TransportError, type TransportSettings } from '../http/transport.ts';

export { ledgerPath, leftoverCustomers, recordCreatedCustomer, recordDeletedCustomer, startLedger } from './ledger.ts';

/** Deletions in flight at once during cleanup. */
export const cleanupConcurrency = 4;

export interface CleanupTarget {
  baseUrl: string;
  secretKey: string;
  runId: string;
}

export interface CleanupResult {
  deleted: number[];
  /** Already gone (404): deleted by a test whose result never reached the ledger. */
  gone: number[];
  failed: { id: number; reason: string }[];
}

/** Deletes every leftover customer of the ledger; never throws (teardown must finish). */
export async function deleteLeftoverCustomers(target: CleanupTarget, settings: TransportSettings, file: string = ledgerPath()): Promise<CleanupResult> {
  const result: CleanupResult = { deleted: [], gone: [], failed: [] };
  const ids = leftoverCustomers(file);
  if (ids.length === 0) return result;
  const sender = nodeSender();
  const deleteOne = async (id: number): Promise<void> => {
    try {
      const { response } = await sendWithPolicy(
        sender,
        {
          method: 'DELETE',
          url: target.baseUrl + operationPath('deleteCustomer', { id }),
          headers: { authorization: `Bearer ${target.secretKey}`, accept: 'application/json' },
          operationId: 'deleteCustomer',
        },
        // Cleanup must not mark the run as "target unavailable": its failures are reported on their own;
        // it records its deletions itself.
        { ...settings, markerFile: null, ledger: null },
      );
      if (response.status >= 200 && response.status < 300) {
        result.deleted.push(id);
        recordDeletedCustomer(id, target.runId, file);
      } else if (response.status === 404) {
        result.gone.push(id);
        recordDeletedCustomer(id, target.runId, file);
      } else {
        result.failed.push({ id, reason: `answered ${response.status}` });
      }
    } catch (error) {
      const reason = error instanceof TransportError ? error.message : redact((error as Error).message ?? String(error)).split('\n')[0] ?? '';
      result.failed.push({ id, reason });
    }
  };
  // A few deletions at a time: a remote sandbox answers in tens of milliseconds, and PCS_MAX_RPS
  // (the transport's gate) still bounds the rate.
  const queue = [...ids];
  await Promise.all(
    Array.from({ length: Math.min(cleanupConcurrency, queue.length) }, async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) await deleteOne(id);
    }),
  );
  for (const list of [result.deleted, result.gone]) list.sort((a, b) => ids.indexOf(a) - ids.indexOf(b));
  return result;
}

/** One line for the console: what cleanup did, and what a person must delete by hand. */
export function cleanupSummary(result: CleanupResult): string | null {
  if (result.deleted.length === 0 && result.gone.length === 0 && result.failed.length === 0) return null;
  const parts = [`cleanup: deleted ${result.deleted.length} leftover customer(s)`];
  if (result.gone.length > 0) parts.push(`${result.gone.length} already gone`);
  if (result.failed.length > 0) {
    parts.push(`could NOT delete ${result.failed.length}: ${result.failed.map((failure) => `${failure.id} (${failure.reason})`).join(', ')}`);
  }
  return redact(parts.join('; '));
}

