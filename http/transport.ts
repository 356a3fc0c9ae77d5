/**
 * How the suite's requests travel: a per-request timeout, a request rate learned from the target's
 * 429s and rate-limit headers and shared by the workers (rate-gate.ts; PCS_MAX_RPS is its ceiling),
 * 429 and 502/503/504 handled with Retry-After and bounded retries
 * (PCS_RETRIES), connection resets and timeouts retried with backoff and jitter for
 * requests that are safe to repeat, and an unreachable target (refused, DNS, TLS)
 * reported at once. None of these is a conformance verdict: they end in a TransportError
 * whose message starts with "target unavailable:" or "rate limited:" (the prefixes
 * docs/reference/reports.md lists) and append one line to the run's marker file.
 *
 * The sending itself is a Sender function, so that the policy here is tested without
 * Playwright's test runner (tests/unit/transport.test.ts) and reused by global setup.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import http from 'node:http';
import https from 'node:https';
import type { OperationId } from '../contract/operations.ts';
import { outputRootOf } from '../output/output-directory.ts';
import { readSetting } from '../settings/read-setting.ts';
import { settings } from '../settings/settings.ts';
import { parseJson } from '../contract/big-integers.ts';
import {
  createdCustomerId,
  deletedCustomerId,
  inlineCustomerId,
  ledgerPath,
  recordCreatedCustomer,
  recordDeletedCustomer,
  type LedgerTarget,
} from '../output/ledger.ts';
import { redact } from '../settings/secrets.ts';
import { coordinatorVariable } from './rate-coordinator.ts';
import { rateGateFor } from './rate-gate.ts';
import { timed } from './request-costs.ts';

export interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  data?: string;
  /** The operation, when the request is one of the table's; decides whether it may be repeated. */
  operationId?: OperationId;
}

export interface IncomingResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Sends one request once; throws on a network failure (whatever the underlying client throws). */
export type Sender = (request: OutgoingRequest, timeoutMs: number) => Promise<IncomingResponse>;

export interface TransportSettings {
  timeoutMs: number;
  /** Further attempts after the first, for 429/503 and for resets and timeouts of repeatable requests. */
  retries: number;
  /**
   * Requests per second for this process (PCS_MAX_RPS divided among the workers); null: unlimited. A ceiling:
   * the rate actually used is learned from the target's 429s and rate-limit headers (rate-control.ts).
   */
  maxRps: number | null;
  /**
   * host:port of the machine's rate coordinator (rate-coordinator.ts), which shares one budget among the
   * workers; absent or null: this process learns and paces on its own.
   */
  rateCoordinator?: string | null;
  /** The longest Retry-After the suite waits; a longer one ends the request as rate limited at once. */
  maxRetryAfterMs: number;
  /** First backoff delay; doubled per attempt, with jitter, up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  /** Where the marker line goes; null: no marker (unit tests of the policy). */
  markerFile: string | null;
  /** Where the run's unreachable finding is kept, for every later request of the run; null: not kept. */
  unreachableFile: string | null;
  /**
   * The run ledger customers are recorded in (output/ledger.ts), with the target they live on; null: none.
   */
  ledger: { file: string; runId: string; target?: LedgerTarget } | null;
}

export interface TransportResult {
  response: IncomingResponse;
  attempts: number;
  /** What happened on the way (retries, waits), for an annotation; empty when the first attempt answered. */
  notes: string[];
}

export type TransportFailure = 'unreachable' | 'unavailable' | 'rate-limited';

export class TransportError extends Error {
  override name = 'TransportError';
  readonly failure: TransportFailure;
  constructor(failure: TransportFailure, message: string) {
    super(redact(message));
    this.failure = failure;
    // A verdict on the target's availability, complete in its message: no code frame of the suite's transport under it.
    this.stack = `${this.name}: ${this.message}`;
  }
}

/**
 * Thrown instead of sending when the target was already found
 * unreachable in this run: the test is skipped, not failed again.
 */
export class TargetAlreadyUnreachable extends TransportError {
  override name = 'TargetAlreadyUnreachable';
}

/**
 * Thrown by a Sender for a request the suite gave up on itself (a property stopped at its time
 * budget, its client closed): not a fault of the target, so the policy neither retries it nor
 * writes the "target unavailable" marker. Deliberately not a TransportError: nothing may
 * classify it as the target's failure.
 */
export class RequestAbandoned extends Error {
  override name = 'RequestAbandoned';
}

/** The marker for people: a line per "target unavailable" or "rate limited" outcome (the CLI exits 3 if it exists). */
export const markerFileName = 'target-unavailable.txt';
/**
 * The run's finding that the target is unreachable, as data (the marker above is text for people): a JSON
 * object written beside it, by the first request that found the target unreachable, read by every later one.
 */
export const unreachableFileName = 'target-unreachable.json';
/** Said at the end of an unreachable outcome's marker line, for the people who read it. */
const unreachableTag = '(unreachable)';

/** What target-unreachable.json holds. */
export interface UnreachableFinding {
  kind: 'unreachable';
  /** When it was found (ISO 8601). */
  at: string;
  /** The failure's message, masked. */
  message: string;
}

type Env = Record<string, string | undefined>;

export function markerFilePath(env: Env): string {
  return resolve(outputRootOf(env), markerFileName);
}

export function unreachableFilePath(env: Env): string {
  return resolve(outputRootOf(env), unreachableFileName);
}

/** PCS_RETRIES and PCS_MAX_RPS (PCS_TIMEOUT_MS is parsed by config.ts); a wrong value is a ConfigError. */
export function transportVariables(env: Env): { retries: number; maxRps: number | null } {
  return { retries: readSetting(env, settings.retries), maxRps: readSetting(env, settings.maxRps) };
}

/** The settings of a worker: PCS_MAX_RPS is a budget for the whole run, shared by the workers global setup counted. */
export function transportSettings(timeoutMs: number, env: Env): TransportSettings {
  const { retries, maxRps } = transportVariables(env);
  const workers = Math.max(1, Number(env.COLLECT_CONFORMANCE_WORKER_COUNT) || 1);
  return {
    timeoutMs,
    retries,
    maxRps: maxRps === null ? null : maxRps / workers,
    rateCoordinator: env[coordinatorVariable]?.trim() || null,
    maxRetryAfterMs: 20_000,
    backoffMs: 250,
    maxBackoffMs: 4_000,
    markerFile: markerFilePath(env),
    unreachableFile: unreachableFilePath(env),
    ledger: { file: ledgerPath(env), runId: env.PCS_RUN_ID?.trim() || 'unlabelled', ...ledgerTarget(env) },
  };
}

/**
 * The target customers are recorded against: the base URL global
 * setup settled on (the embedded mock's, when it started one).
 */
function ledgerTarget(env: Env): { target?: LedgerTarget } {
  const baseUrl = env.PCS_BASE_URL?.trim();
  return baseUrl ? { target: { baseUrl, embedded: env.COLLECT_CONFORMANCE_EMBEDDED_MOCK === '1' } } : {};
}

/** Creating transactions or customers and sending a transaction must never be repeated blindly. */
export function safeToRepeat(request: Pick<OutgoingRequest, 'method' | 'operationId'>): boolean {
  const method = request.method.toUpperCase();
  if (method === 'GET' || method === 'HEAD' || method === 'DELETE') return true;
  // Asking a transaction's payment link again gives the same link: the token operation is repeatable.
  return request.operationId === 'getPaymentLink';
}

type NetworkFailure = 'unreachable' | 'timeout' | 'reset' | 'other';

const timeoutMessages = new RegExp(
  String.raw`Timeout \d+ms exceeded|timed out|ETIMEDOUT|ESOCKETTIMEDOUT|aborted due to timeout|` +
    'UND_ERR_(CONNECT|HEADERS|BODY)_TIMEOUT',
  'i',
);

export function classifyNetworkError(message: string): NetworkFailure {
  if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EAI_NONAME|EHOSTUNREACH|ENETUNREACH|getaddrinfo/i.test(message))
    return 'unreachable';
  if (/certificate|CERT_|SSL|TLS|EPROTO|wrong version number|self[- ]signed|handshake/i.test(message))
    return 'unreachable';
  if (timeoutMessages.test(message)) return 'timeout';
  if (/ECONNRESET|socket hang up|EPIPE|ECONNABORTED|other side closed|UND_ERR_SOCKET|premature close/i.test(message))
    return 'reset';
  return 'other';
}

/** The first line of an error, secrets masked: Playwright appends a call log that lists request headers. */
export function errorSummary(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const first = message.split('\n').find((line) => line.trim() !== '') ?? 'unknown error';
  return redact(first.replace(/^apiRequestContext\.fetch:\s*/, '').trim()).slice(0, 300);
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: number = Date.now()): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d{1,9}$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Exponential backoff with "equal jitter": half fixed, half random, so that workers do not retry in step. */
export function backoffDelay(
  attempt: number,
  settings: Pick<TransportSettings, 'backoffMs' | 'maxBackoffMs'>,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(settings.maxBackoffMs, settings.backoffMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolveSleep) => setTimeout(resolveSleep, ms));
}

function requestName(request: OutgoingRequest): string {
  let path = request.url;
  try {
    path = new URL(request.url).pathname;
  } catch {
    // keep the raw URL
  }
  return `${request.method.toUpperCase()} ${path}`;
}

/** Appends the run's marker line (the CLI exits 3 when the file exists); never fails the caller. */
export function recordUnavailable(settings: Pick<TransportSettings, 'markerFile'>, line: string): void {
  if (settings.markerFile === null) return;
  try {
    mkdirSync(dirname(settings.markerFile), { recursive: true });
    appendFileSync(settings.markerFile, `${new Date().toISOString()} ${redact(line).replace(/\n/g, ' ')}\n`);
  } catch {
    // The failure itself is still reported by the test; the marker only sets the exit code.
  }
}

/** Records that the target is unreachable, for every later request of the run (any worker); never fails the caller. */
function recordUnreachable(settings: Pick<TransportSettings, 'unreachableFile'>, message: string): void {
  const file = settings.unreachableFile;
  if (file === null) return;
  const finding: UnreachableFinding = { kind: 'unreachable', at: new Date().toISOString(), message: redact(message) };
  try {
    mkdirSync(dirname(file), { recursive: true });
    // Whole or not at all for a worker reading it meanwhile: written aside, then renamed into place.
    const aside = `${file}.${process.pid}.tmp`;
    writeFileSync(aside, `${JSON.stringify(finding)}\n`);
    renameSync(aside, file);
  } catch {
    // The failure itself is still reported by the test; later requests then meet the target themselves.
  }
}

const isUnreachableFinding = (value: unknown): value is UnreachableFinding =>
  typeof value === 'object' &&
  value !== null &&
  (value as Partial<UnreachableFinding>).kind === 'unreachable' &&
  typeof (value as Partial<UnreachableFinding>).message === 'string';

/** The run's unreachable finding, when a request of this run made one. */
export function alreadyUnreachable(settings: Pick<TransportSettings, 'unreachableFile'>): UnreachableFinding | null {
  const file = settings.unreachableFile;
  if (file === null || !existsSync(file)) return null;
  try {
    const found: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return isUnreachableFinding(found) ? found : null;
  } catch {
    return null;
  }
}

function fail(settings: TransportSettings, failure: TransportFailure, message: string): never {
  const error = new TransportError(failure, message);
  if (failure === 'unreachable') recordUnreachable(settings, error.message);
  recordUnavailable(settings, failure === 'unreachable' ? `${error.message} ${unreachableTag}` : error.message);
  throw error;
}

const gatewayStatuses = new Set([502, 503, 504]);
/** The most 429s of one request retried without spending PCS_RETRIES while the rate controller learns. */
const learningAttempts = 8;

/**
 * Customers into the run ledger as soon as their creation is answered, here rather than in
 * a test: this runs even when the test that sent the request was interrupted meanwhile, and
 * for every client. Deletions answered 2xx or 404 close the entry.
 */
function noteInLedger(settings: TransportSettings, request: OutgoingRequest, response: IncomingResponse): void {
  if (settings.ledger === null) return;
  const success = response.status >= 200 && response.status < 300;
  try {
    if ((request.operationId === 'createCustomer' || request.operationId === 'createTransaction') && success) {
      let json: unknown;
      try {
        json = parseJson(response.body.toString('utf8'));
      } catch {
        return; // no id to record; the test reports the broken body
      }
      // A transaction created with a new customer inline creates that customer too.
      const id =
        request.operationId === 'createCustomer' ? createdCustomerId(json) : inlineCustomerId(request.data, json);
      if (id !== undefined)
        recordCreatedCustomer(id, settings.ledger.runId, settings.ledger.file, settings.ledger.target);
    } else if (request.operationId === 'deleteCustomer' && (success || response.status === 404)) {
      const id = deletedCustomerId(request.url);
      if (id !== undefined)
        recordDeletedCustomer(id, settings.ledger.runId, settings.ledger.file, settings.ledger.target);
    }
  } catch {
    // The ledger is a safety net: failing to write it must not fail the request.
  }
}

/**
 * Sends a request under the transport policy. Returns the response (any status, including
 * 4xx and other 5xx: judging them is the tests' job) or throws a TransportError.
 */
export function sendWithPolicy(
  sender: Sender,
  request: OutgoingRequest,
  settings: TransportSettings,
  random: () => number = Math.random,
): Promise<TransportResult> {
  const sending = sendUnderPolicy(sender, request, settings, random);
  inFlight.add(sending);
  const forget = () => inFlight.delete(sending);
  sending.then(forget, forget);
  return sending;
}

/** Requests of this process not answered yet: an interrupted test abandons its request, which still runs. */
const inFlight = new Set<Promise<TransportResult>>();

/**
 * Waits (at most maxWaitMs) for this process's requests in flight to end. A worker stopped by
 * Ctrl-C calls it before exiting (suite/fixtures.ts), so that a creation already sent is
 * still answered and written to the run ledger, and global teardown can delete what it made.
 */
export async function settleInFlight(maxWaitMs: number): Promise<number> {
  const pending = [...inFlight];
  if (pending.length === 0) return 0;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled(pending),
    new Promise((resolveWait) => (timer = setTimeout(resolveWait, maxWaitMs))),
  ]);
  clearTimeout(timer);
  return pending.length;
}

/**
 * Headers a harness adds to every request of this process (npm run mutation names the behaviour
 * the mock must serve, per test). Kept on globalThis under a registered symbol, so that a
 * configuration file and the tests reach the same hook even if they load this module twice.
 */
const outgoingHeadersKey = Symbol.for('collect-conformance.outgoing-headers');
type OutgoingHeaders = () => Record<string, string> | undefined;

export function setOutgoingHeaders(headers: OutgoingHeaders | undefined): void {
  (globalThis as Record<symbol, unknown>)[outgoingHeadersKey] = headers;
}

function withOutgoingHeaders(request: OutgoingRequest): OutgoingRequest {
  const extra = ((globalThis as Record<symbol, unknown>)[outgoingHeadersKey] as OutgoingHeaders | undefined)?.();
  return extra ? { ...request, headers: { ...request.headers, ...extra } } : request;
}

async function sendUnderPolicy(
  sender: Sender,
  original: OutgoingRequest,
  settings: TransportSettings,
  random: () => number,
): Promise<TransportResult> {
  const request = withOutgoingHeaders(original);
  const name = requestName(request);
  const earlier = alreadyUnreachable(settings);
  if (earlier !== null) {
    throw new TargetAlreadyUnreachable(
      'unreachable',
      `target unavailable: not sent (${name}); the target was found unreachable earlier in this run`,
    );
  }
  const repeatable = safeToRepeat(request);
  const notes: string[] = [];
  // The target's rate, learned and shared (http/rate-gate.ts); not active before a sign of a limit.
  const gate = rateGateFor(request.url, {
    coordinator: settings.rateCoordinator ?? null,
    ceilingRps: settings.maxRps,
    maxHoldMs: settings.maxRetryAfterMs,
  });
  let attempts = 0;
  // 429s that taught the rate controller (rate-control.ts, RateController.refused): retried without
  // spending PCS_RETRIES. A 429 while the controller is learning is expected, not the target's refusal to
  // serve the suite; only one for a request sent at the rate already learned from every earlier 429 counts,
  // so "rate limited: ... lower PCS_MAX_RPS or PCS_WORKERS" still ends a request the target keeps refusing.
  // The learning ones are bounded too (learningAttempts), so that nothing retries forever.
  let learning = 0;
  for (;;) {
    attempts += 1;
    const retriesLeft = attempts - learning <= settings.retries;
    // When the request asked for its slot: a 429 is judged against the rate its slot was given at.
    const sentAt = performance.now();
    if (gate.active) await gate.pass();
    let response: IncomingResponse;
    try {
      response = await sender(request, settings.timeoutMs);
    } catch (error) {
      if (error instanceof RequestAbandoned) throw error;
      const summary = errorSummary(error);
      const kind = classifyNetworkError(summary);
      if (kind === 'unreachable') {
        fail(settings, 'unreachable', `target unavailable: ${name}: ${summary}`);
      }
      if (kind === 'other') throw new Error(`${name}: ${summary}`);
      const what = kind === 'timeout' ? `no answer within ${settings.timeoutMs} ms` : 'connection reset';
      if (!repeatable) {
        fail(
          settings,
          'unavailable',
          `target unavailable: ${name}: ${what} (${summary}); not repeated because it may have created something`,
        );
      }
      if (!retriesLeft) {
        fail(settings, 'unavailable', `target unavailable: ${name}: ${what} on ${attempts} attempts (${summary})`);
      }
      const delay = backoffDelay(attempts, settings, random);
      notes.push(`attempt ${attempts}: ${what}; retried after ${delay} ms`);
      await sleep(delay);
      continue;
    }

    const limited = response.status === 429;
    if (!limited) gate.accepted(response.headers);
    const gateway = gatewayStatuses.has(response.status);
    if (!limited && !gateway) {
      timed('ledger', () => noteInLedger(settings, request, response));
      return { response, attempts, notes };
    }

    const advised = retryAfterMs(response.headers['retry-after']);
    const advice = advised === null ? 'no Retry-After' : `Retry-After ${Math.round(advised / 1000)} s`;
    if (limited) {
      // A 429 means the request was refused, not carried out: repeating it is safe for every operation.
      if (advised !== null && advised > settings.maxRetryAfterMs) {
        fail(
          settings,
          'rate-limited',
          `rate limited: ${name} answered 429 with ${advice}, ` +
            `longer than the ${settings.maxRetryAfterMs / 1000} s the suite waits`,
        );
      }
      const counts = await gate.refused(sentAt, response.headers);
      if (!counts && learning < learningAttempts) learning += 1;
      else if (!retriesLeft) {
        fail(
          settings,
          'rate-limited',
          `rate limited: ${name} answered 429 on ${attempts} attempts (${advice}); lower PCS_MAX_RPS or PCS_WORKERS`,
        );
      }
    } else {
      if (!repeatable) {
        fail(
          settings,
          'unavailable',
          `target unavailable: ${name} answered ${response.status} (${advice}); ` +
            `not repeated because it may have created something`,
        );
      }
      if (!retriesLeft || (advised !== null && advised > settings.maxRetryAfterMs)) {
        fail(
          settings,
          'unavailable',
          `target unavailable: ${name} answered ${response.status} on ${attempts} attempts (${advice})`,
        );
      }
    }
    const delay = advised ?? backoffDelay(attempts, settings, random);
    notes.push(`attempt ${attempts}: ${response.status} (${advice}); retried after ${delay} ms`);
    await sleep(delay);
  }
}

/**
 * A Sender over node:http/https. Not Playwright's APIRequestContext: Playwright records each
 * of its fetches as a report step whose error carries a call log listing every request
 * header, the key included (found by tests/unit/secrets.test.ts in blob and HTML reports).
 * Here nothing but the suite's own redacted step and attachment reaches a report.
 * Requests that may create something go on a fresh connection: a reset on a reused idle
 * keep-alive connection would otherwise end a creation that the server never saw.
 */
const keepAlive = {
  http: new http.Agent({ keepAlive: true, maxSockets: 32 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 32 }),
};
const fresh = { http: new http.Agent({ keepAlive: false }), https: new https.Agent({ keepAlive: false }) };

export function nodeSender(): Sender {
  return (request, timeoutMs) =>
    new Promise<IncomingResponse>((resolveResponse, rejectResponse) => {
      const url = new URL(request.url);
      const secure = url.protocol === 'https:';
      const body = request.data === undefined ? undefined : Buffer.from(request.data, 'utf8');
      const headers: Record<string, string> = { ...request.headers };
      if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-length')) {
        headers['content-length'] = String(body.length);
      }
      const agents = safeToRepeat(request) ? keepAlive : fresh;
      let settled = false;
      const settle = (action: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        action();
      };
      const outgoing = (secure ? https : http).request(
        url,
        { method: request.method, headers, agent: secure ? agents.https : agents.http },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('error', (error) => settle(() => rejectResponse(describeSocketError(error))));
          incoming.on('aborted', () =>
            settle(() => rejectResponse(new Error('ECONNRESET: the connection was reset during the response'))),
          );
          incoming.on('end', () => {
            const responseHeaders: Record<string, string> = {};
            for (const [name, value] of Object.entries(incoming.headers)) {
              if (value !== undefined) responseHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
            }
            settle(() =>
              resolveResponse({
                status: incoming.statusCode ?? 0,
                headers: responseHeaders,
                body: Buffer.concat(chunks),
              }),
            );
          });
        },
      );
      const timer = setTimeout(() => {
        settle(() => rejectResponse(new Error(`Timeout ${timeoutMs}ms exceeded`)));
        outgoing.destroy();
      }, timeoutMs);
      outgoing.on('error', (error) => settle(() => rejectResponse(describeSocketError(error))));
      outgoing.end(body);
    });
}

/** "CODE: message", so that classifyNetworkError sees the system error code (ECONNREFUSED, ENOTFOUND, EPROTO...). */
function describeSocketError(error: Error & { code?: string }): Error {
  return new Error(error.code ? `${error.code}: ${error.message}` : error.message);
}
