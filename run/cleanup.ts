/**
 * Nothing the suite creates is left behind: every customer it creates is written to the
 * run ledger (output/ledger.ts, by the transport) the moment its creation is answered, and
 * global teardown deletes whatever the ledger shows as not yet deleted on its target, also after
 * failed tests, crashed workers and an interrupted run (Playwright runs global teardown on SIGINT;
 * run/termination.ts turns SIGTERM, SIGHUP and a vanished parent into one), and
 * what an earlier run killed before its teardown left on the same target.
 * Transactions cannot be deleted; they carry the run id instead (generation/bodies.ts).
 * Each deletion is judged like a test's (judgment/cleanup-verdicts.ts): a 5xx fails the run.
 */
import { operationPath } from '../contract/operations.ts';
import { leftoverCustomers, recordDeletedCustomer, type CarriedOver, type OpenCustomer } from '../output/ledger.ts';
import { redact } from '../settings/secrets.ts';
import { nodeSender, sendWithPolicy, TransportError, type TransportSettings } from '../http/transport.ts';
import type { CleanupDeletion } from '../judgment/cleanup-verdicts.ts';

export {
  continueLedger,
  ledgerPath,
  leftoverCustomers,
  recordCreatedCustomer,
  recordDeletedCustomer,
  startLedger,
} from '../output/ledger.ts';

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
  /** Every deletion with its answer's status, or why none came: what the cleanup's verdict records judge. */
  deletions: CleanupDeletion[];
}

/**
 * Deletes every leftover customer of the ledger on this target (the
 * others live elsewhere); never throws (teardown must finish).
 */
export async function deleteLeftoverCustomers(
  target: CleanupTarget,
  settings: TransportSettings,
  file: string,
): Promise<CleanupResult> {
  const result: CleanupResult = { deleted: [], gone: [], failed: [], deletions: [] };
  const ids = leftoverCustomers(file, target.baseUrl);
  const origin = { baseUrl: target.baseUrl, embedded: false };
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
        { ...settings, markerFile: null, unreachableFile: null, ledger: null },
      );
      result.deletions.push({ id, status: response.status });
      if (response.status >= 200 && response.status < 300) {
        result.deleted.push(id);
        recordDeletedCustomer(id, target.runId, file, origin);
      } else if (response.status === 404) {
        result.gone.push(id);
        recordDeletedCustomer(id, target.runId, file, origin);
      } else {
        result.failed.push({ id, reason: `answered ${response.status}` });
      }
    } catch (error) {
      const reason =
        error instanceof TransportError
          ? error.message
          : (redact((error as Error).message ?? String(error)).split('\n')[0] ?? '');
      result.failed.push({ id, reason });
      result.deletions.push({ id, unanswered: reason });
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

/**
 * One line for the console: what cleanup did, and what a person must delete by hand. On a clean run the
 * customers deleted are the run's own (its tests leave some to the cleanup), not something found lying
 * about: the line says whose they are. `carriedOver`: how many an earlier run left on this target.
 */
export function cleanupSummary(result: CleanupResult, carriedOver = 0): string | null {
  if (result.deleted.length === 0 && result.gone.length === 0 && result.failed.length === 0) return null;
  const earlier = Math.min(carriedOver, result.deleted.length);
  const own = result.deleted.length - earlier;
  const whose = [
    ...(own > 0 || earlier === 0 ? [`${own} this run created`] : []),
    ...(earlier > 0 ? [`${earlier} left by an earlier run`] : []),
  ];
  const parts = [`cleanup: deleted ${result.deleted.length} customer(s): ${whose.join(', ')}`];
  if (result.gone.length > 0) parts.push(`${result.gone.length} already gone`);
  if (result.failed.length > 0) {
    parts.push(
      `could NOT delete ${result.failed.length}: ` +
        `${result.failed.map((failure) => `${failure.id} (${failure.reason})`).join(', ')}`,
    );
  }
  return redact(parts.join('; '));
}

function idsByRun(customers: readonly OpenCustomer[]): string {
  const runs = new Map<string, number[]>();
  for (const customer of customers) runs.set(customer.runId, [...(runs.get(customer.runId) ?? []), customer.id]);
  return [...runs.entries()].map(([runId, ids]) => `${ids.join(', ')} (run ${runId})`).join('; ');
}

/**
 * Lines for the console about what an earlier run left in the ledger (global setup): what
 * this run's teardown will delete, and what lives on another target, with ids and run ids
 * to delete by hand. Base URLs only: a ledger never holds the key.
 */
export function carriedOverSummary(carried: CarriedOver, file: string): string[] {
  const lines: string[] = [];
  if (carried.sameTarget.length > 0) {
    lines.push(
      `cleanup: ${carried.sameTarget.length} customer(s) left on this target by an earlier run that ` +
        `was stopped before its cleanup (${idsByRun(carried.sameTarget)}): this run's teardown deletes them`,
    );
  }
  const byTarget = new Map<string, OpenCustomer[]>();
  for (const customer of carried.otherTargets)
    byTarget.set(customer.target!, [...(byTarget.get(customer.target!) ?? []), customer]);
  for (const [baseUrl, customers] of byTarget) {
    lines.push(
      `cleanup: ${customers.length} customer(s) left on ${baseUrl} by an earlier run ` +
        `that was stopped before its cleanup, not deleted by this run (another target): ` +
        `${idsByRun(customers)}; a run against that target deletes them, or delete them by hand`,
    );
  }
  if (carried.unknownTarget.length > 0) {
    lines.push(
      `cleanup: ${carried.unknownTarget.length} customer(s) ` +
        `left by an earlier run on a target it did not record, not deleted: ` +
        `${idsByRun(carried.unknownTarget)}; delete them by hand (they are no longer listed in ${file})`,
    );
  }
  return lines.map(redact);
}
