/**
 * The run ledger: every customer the run creates, written the moment its creation answer
 * arrives, and every deletion seen, as JSON lines in ${PCS_OUTPUT_DIR:-reports}. The
 * transport (support/http/transport.ts) writes it for every client (the tests' ApiClient and
 * the property tests' FastClient alike), and global teardown (support/lifecycle/cleanup.ts) deletes
 * whatever it still shows, also after an interrupted run.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isUnsafeIntegerText, parseJson, standInFor, stringifyJson } from '../../contract/big-integers.ts';

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
  // Exact digits for ids beyond 2^53 (contract/big-integers.ts), read back by parseJson in any process.
  appendFileSync(file, `${stringifyJson(entry)}\n`);
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
      entry = parseJson(line) as Partial<LedgerEntry>;
    } catch {
      continue; // a line cut by a killed worker: the customer it named is in a complete line or was never created
    }
    if (typeof entry.id !== 'number') continue;
    if (entry.event === 'created') open.add(entry.id);
    if (entry.event === 'deleted') open.delete(entry.id);
  }
  return [...open];
}

/**
 * The id in a customer-creation answer, whose shape the reference does not show: an integer
 * `id` on the body, on its first element, or on an object one level down ({ "data": {...} }),
 * as the customers fixture reads it.
 */
export function createdCustomerId(json: unknown): number | undefined {
  const candidates: unknown[] = [json];
  if (Array.isArray(json)) candidates.push(json[0]);
  else if (json && typeof json === 'object') candidates.push(...Object.values(json as Record<string, unknown>));
  for (const candidate of candidates) {
    if (candidate && typeof candidate === 'object' && !Array.isArray(candidate)) {
      const id = (candidate as Record<string, unknown>).id;
      if (typeof id === 'number' && Number.isSafeInteger(id)) return id;
    }
  }
  return undefined;
}

/** The customer id of a DELETE /customers/{id} URL. */
export function deletedCustomerId(url: string): number | undefined {
  const digits = /\/customers\/(\d{1,20})\/?$/.exec(new URL(url).pathname)?.[1];
  if (digits === undefined) return undefined;
  return isUnsafeIntegerText(digits) ? standInFor(digits) : Number(digits);
}

/**
 * The customer a transaction creation made on the side: when the request carried a new
 * customer (a customer object without an id) and the answer names its id, as customer_id
 * or customer.id. The reference does not show either field; a target that returns neither
 * leaves such customers to be found by their run id (their e-mail), not deleted.
 */
export function inlineCustomerId(requestBody: string | undefined, json: unknown): number | undefined {
  if (requestBody === undefined || !json || typeof json !== 'object' || Array.isArray(json)) return undefined;
  let sent: unknown;
  try {
    sent = parseJson(requestBody);
  } catch {
    return undefined;
  }
  const customer = sent && typeof sent === 'object' ? (sent as Record<string, unknown>).customer : undefined;
  if (!customer || typeof customer !== 'object' || Array.isArray(customer) || 'id' in customer) return undefined;
  const answer = json as Record<string, unknown>;
  const nested = answer.customer && typeof answer.customer === 'object' ? (answer.customer as Record<string, unknown>).id : undefined;
  for (const id of [answer.customer_id, nested]) if (typeof id === 'number' && Number.isSafeInteger(id)) return id;
  return undefined;
}
