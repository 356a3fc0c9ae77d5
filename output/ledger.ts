/**
 * The run ledger: every customer the run creates, written the moment its creation answer
 * arrives, and every deletion seen, as JSON lines in ${PCS_OUTPUT_DIR:-reports}. The
 * transport (http/transport.ts) writes it for every client (the tests' ApiClient and
 * the property tests' FastClient alike), and global teardown (run/cleanup.ts) deletes
 * whatever it still shows, also after an interrupted run.
 *
 * Each line names the target (base URL, never the key) the customer lives on. A run killed
 * before its teardown (kill -9, a lost machine) leaves its ledger behind: the next run in the
 * same output directory carries the leftovers over (continueLedger) instead of forgetting
 * them; its teardown deletes those of its own target, and those of another target are
 * reported, and kept for a later run against that target. Leftovers of an embedded mock are
 * dropped: they died with that mock.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import { isUnsafeIntegerText, parseJson, standInFor, stringifyJson } from '../contract/big-integers.ts';
import { outputRootOf } from './output-directory.ts';

export const ledgerFileName = 'created-customers.jsonl';

/**
 * Where the customers of a run live: the base URL (no credentials:
 * config.ts refuses them), and whether it is the embedded mock.
 */
export interface LedgerTarget {
  baseUrl: string;
  embedded: boolean;
}

type CustomerEntry = {
  event: 'created' | 'deleted';
  id: number;
  runId: string;
  at: string;
  target?: string;
  embedded?: boolean;
};
/**
 * The first line of a run's ledger: which process writes it, so
 * that a run that is still going is not taken for a dead one.
 */
type RunEntry = {
  event: 'run';
  runId: string;
  target: string;
  embedded: boolean;
  pid: number;
  host: string;
  at: string;
};

/** A customer the ledger shows as created and not deleted. */
export interface OpenCustomer {
  id: number;
  runId: string;
  /** Absent in ledgers written before targets were recorded. */
  target?: string;
  embedded: boolean;
}

type Env = Record<string, string | undefined>;

export function ledgerPath(env: Env): string {
  return resolve(outputRootOf(env), ledgerFileName);
}

/** Starts an empty ledger (unit tests; a run starts with continueLedger, which keeps an earlier run's leftovers). */
export function startLedger(file: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, '');
}

function append(file: string, entry: CustomerEntry | RunEntry): void {
  mkdirSync(dirname(file), { recursive: true });
  // One appendFileSync per line: lines from parallel workers never interleave (O_APPEND, small writes).
  // Exact digits for ids beyond 2^53 (contract/big-integers.ts), read back by parseJson in any process.
  appendFileSync(file, `${stringifyJson(entry)}\n`);
}

function originFields(origin: LedgerTarget | undefined): Pick<CustomerEntry, 'target' | 'embedded'> {
  if (origin === undefined) return {};
  return origin.embedded ? { target: origin.baseUrl, embedded: true } : { target: origin.baseUrl };
}

export function recordCreatedCustomer(id: number, runId: string, file: string, origin?: LedgerTarget): void {
  append(file, { event: 'created', id, runId, at: new Date().toISOString(), ...originFields(origin) });
}

export function recordDeletedCustomer(id: number, runId: string, file: string, origin?: LedgerTarget): void {
  append(file, { event: 'deleted', id, runId, at: new Date().toISOString(), ...originFields(origin) });
}

function readLines(file: string): Array<Partial<CustomerEntry | RunEntry>> {
  if (!existsSync(file)) return [];
  const entries: Array<Partial<CustomerEntry | RunEntry>> = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      entries.push(parseJson(line) as Partial<CustomerEntry | RunEntry>);
    } catch {
      // A line cut by a killed worker: the customer it named is in a complete line or was never created.
    }
  }
  return entries;
}

/** Customers created and not deleted, in creation order. A deletion without a target closes the id on any target. */
export function openCustomers(file: string): OpenCustomer[] {
  const open: OpenCustomer[] = [];
  for (const entry of readLines(file)) {
    if (entry.event !== 'created' && entry.event !== 'deleted') continue;
    const customer = entry as Partial<CustomerEntry>;
    if (typeof customer.id !== 'number') continue;
    const sameCustomer = (candidate: OpenCustomer): boolean =>
      candidate.id === customer.id &&
      (candidate.target === undefined || customer.target === undefined || candidate.target === customer.target);
    if (customer.event === 'created' && !open.some(sameCustomer)) {
      open.push({
        id: customer.id,
        runId: customer.runId ?? 'unknown',
        ...(customer.target ? { target: customer.target } : {}),
        embedded: customer.embedded === true,
      });
    }
    if (customer.event === 'deleted') {
      const index = open.findIndex(sameCustomer);
      if (index !== -1) open.splice(index, 1);
    }
  }
  return open;
}

/**
 * Ids the ledger shows as created and not deleted, in creation order;
 * with a base URL, those of that target (or of none recorded).
 */
export function leftoverCustomers(file: string, baseUrl?: string): number[] {
  return openCustomers(file)
    .filter((customer) => baseUrl === undefined || customer.target === undefined || customer.target === baseUrl)
    .map((customer) => customer.id);
}

/** What continueLedger found of an earlier run. */
export interface CarriedOver {
  /** On this run's target: its teardown deletes them with its own. */
  sameTarget: OpenCustomer[];
  /** On another target: reported, and kept for a run against that target. */
  otherTargets: OpenCustomer[];
  /** Of a ledger that did not record its target: reported once, then dropped (nothing can tell where they live). */
  unknownTarget: OpenCustomer[];
  /** Of an embedded mock: gone with it. */
  droppedEmbedded: number;
}

/** The earlier run, when its ledger says it is still running on this machine (another runner process with its pid). */
export function runStillGoing(file: string): { pid: number; runId: string } | null {
  const header = readLines(file).find((entry): entry is RunEntry => entry.event === 'run');
  if (!header || header.host !== hostname() || header.pid === process.pid) return null;
  try {
    process.kill(header.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return null;
  }
  // A recycled pid is not that run: on Linux, the process must be a Playwright runner.
  try {
    const command = readFileSync(`/proc/${header.pid}/cmdline`, 'utf8');
    if (!command.includes('playwright') || command.includes('workerProcessEntry')) return null;
  } catch {
    // No /proc (macOS): the pid alone decides.
  }
  return { pid: header.pid, runId: header.runId };
}

/**
 * Starts this run's ledger (global setup): the earlier run's leftovers are carried over
 * rather than forgotten (see the module comment), after a header naming this run.
 */
export function continueLedger(file: string, runId: string, origin: LedgerTarget): CarriedOver {
  const open = openCustomers(file);
  const carried: CarriedOver = { sameTarget: [], otherTargets: [], unknownTarget: [], droppedEmbedded: 0 };
  for (const customer of open) {
    if (customer.embedded) carried.droppedEmbedded += 1;
    else if (customer.target === undefined) carried.unknownTarget.push(customer);
    else if (customer.target === origin.baseUrl && !origin.embedded) carried.sameTarget.push(customer);
    else carried.otherTargets.push(customer);
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, '');
  append(file, {
    event: 'run',
    runId,
    target: origin.baseUrl,
    embedded: origin.embedded,
    pid: process.pid,
    host: hostname(),
    at: new Date().toISOString(),
  });
  for (const customer of [...carried.sameTarget, ...carried.otherTargets]) {
    append(file, {
      event: 'created',
      id: customer.id,
      runId: customer.runId,
      at: new Date().toISOString(),
      target: customer.target!,
    });
  }
  return carried;
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
  const nested =
    answer.customer && typeof answer.customer === 'object'
      ? (answer.customer as Record<string, unknown>).id
      : undefined;
  for (const id of [answer.customer_id, nested]) if (typeof id === 'number' && Number.isSafeInteger(id)) return id;
  return undefined;
}
