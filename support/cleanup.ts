/**
 * Nothing the suite creates is left behind: every customer it creates is written to a
 * run ledger (JSON lines in the output directory) the moment it exists, and global
 * teardown deletes whatever the ledger shows as not yet deleted, also after failed tests,
 * crashed workers and an interrupted run (Playwright runs global teardown on SIGINT).
 * Transactions cannot be deleted; they carry the run id instead (support/bodies.ts).
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { operationPath } from '../contract/operations.ts';
import { redact } from './redact.ts';
import { nodeSender, sendWithPolicy, TransportError, type TransportSettings } from './transport.ts';

export const ledgerFileName = 'created-customers.jsonl';

type LedgerEntry = { event: 'created' | 'deleted'; id: number; runId: string; at: string };

type Env = Record<string, string | undefined>;

export function ledgerPath(env: Env = process.env): string {
  return resolve(env.PCS_OUTPUT_DIR?.trim() || 'reports', ledgerFileName);
}

/** Starts the run's ledger empty (global setup), so that a later run never deletes by an old one's ledger. */
export function startLedger(file: string = ledgerPath()): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, '');
}

function append(file: string, entry: LedgerEntry): void {
  mkdirSync(dirname(file), { recursive: true });
  // One appendFileSync per line: lines from parallel workers never interleave (O_APPEND, small writes).
  appendFileSync(file, `${JSON.stringify(entry)}\n`);
}

export function recordCreatedCustomer(id: number, runId: string, file: string = ledgerPath()): void {
  append(file, { event: 'created', id, runId, at: new Date().toISOString() });
}

export function recordDeletedCustomer(id: number, runId: string, file: string = ledgerPath()): void {
  append(file, { event: 'deleted', id, runId, at: new Date().toISOString() });
}

/** Ids the ledger shows as created and not deleted, in creation order. */
export function leftoverCustomers(file: string = ledgerPath()): number[] {
  if (!existsSync(file)) return [];
  const open = new Set<number>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    let entry: Partial<LedgerEntry>;
    try {
      entry = JSON.parse(line) as Partial<LedgerEntry>;
    } catch {
      continue; // a line cut by a killed worker: the customer it named is in a complete line or was never created
    }
    if (typeof entry.id !== 'number') continue;
    if (entry.event === 'created') open.add(entry.id);
    if (entry.event === 'deleted') open.delete(entry.id);
  }
  return [...open];
}

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
  for (const id of ids) {
    try {
      const { response } = await sendWithPolicy(
        sender,
        {
          method: 'DELETE',
          url: target.baseUrl + operationPath('deleteCustomer', { id }),
          headers: { authorization: `Bearer ${target.secretKey}`, accept: 'application/json' },
          operationId: 'deleteCustomer',
        },
        // Cleanup must not mark the run as "target unavailable": its failures are reported on their own.
        { ...settings, markerFile: null },
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
  }
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

/** Marks as deleted, in the ledger, the created customers a test's exchanges show deleted (2xx) or gone (404). */
export function recordDeletionsSeen(
  created: readonly number[],
  exchanges: readonly { operation: string; path: string; status: number }[],
  runId: string,
  file: string = ledgerPath(),
): void {
  for (const id of created) {
    const seen = exchanges.some(
      (exchange) =>
        exchange.operation === 'deleteCustomer' && exchange.path === operationPath('deleteCustomer', { id }) && (exchange.status === 404 || (exchange.status >= 200 && exchange.status < 300)),
    );
    if (seen) recordDeletedCustomer(id, runId, file);
  }
}
