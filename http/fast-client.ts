/**
 * The HTTP client of the generated requests (property and stateful tests): keep-alive
 * connections (http/wire-sender.ts), no Playwright step per request (thousands of steps
 * would swamp the reports), and the same Exchange shape as suite/api-client.ts, so that
 * checks.ts and expect-rule.ts work on what it returns. It counts requests per operation and
 * status for the one summary attachment each property test writes.
 */
import type { OperationId } from '../contract/operations.ts';
import { buildRequest, exchangeOf, type RequestOptions } from './outgoing-request.ts';
import { addCost, peekCost, timed } from './request-costs.ts';
import { wireSender } from './wire-sender.ts';
import type { Exchange } from './exchange.ts';
import { inFlightLimit, inOrderInFlight, noteRoundTrip } from './in-flight.ts';
import {
  RequestAbandoned,
  sendWithPolicy,
  type IncomingResponse,
  type Sender,
  transportSettings,
  type TransportSettings,
} from './transport.ts';

export { RequestAbandoned, TransportError } from './transport.ts';

export interface FastTarget {
  baseUrl: string;
  secretKey: string;
  timeoutMs: number;
}

export interface FastCallOptions extends RequestOptions {
  /** Cleanup requests: counted, but not part of the case's record (nor of a counterexample). */
  quiet?: boolean;
}

/** One step of a generated case (a command of a stateful test) and the requests it made. */
export interface CaseStep {
  label: string | undefined;
  exchanges: Exchange[];
}

/** A reset on a reused idle connection before any answer byte: the request was not received; sent once more. */
function retryStale(once: Sender): Sender {
  return async (request, timeoutMs) => {
    try {
      return await once(request, timeoutMs);
    } catch (error) {
      if ((error as { stale?: boolean }).stale) return once(request, timeoutMs);
      throw error;
    }
  };
}

/**
 * A Sender that the client can stop: once closed, a new attempt is not sent and an attempt
 * that fails is reported as abandoned by the suite, never as the target's fault (a property
 * stopped by its time budget leaves its last case running; see FastClient.close).
 */
function closableSender(send: Sender, isClosed: () => boolean, pending: Set<Promise<IncomingResponse>>): Sender {
  return async (request, timeoutMs) => {
    if (isClosed())
      throw new RequestAbandoned(`${request.method} ${new URL(request.url).pathname}: not sent, the client was closed`);
    const attempt = send(request, timeoutMs);
    pending.add(attempt);
    try {
      return await attempt;
    } catch (error) {
      if (isClosed())
        throw new RequestAbandoned(
          `${request.method} ${new URL(request.url).pathname}: abandoned when the client was closed`,
        );
      throw error;
    } finally {
      pending.delete(attempt);
    }
  };
}

/** What the views of one client share: the connections, the transport policy, the counts and the closing. */
interface ClientPool {
  readonly sender: Sender;
  readonly settings: TransportSettings;
  /** How many requests may be in flight now (http/in-flight.ts, by PCS_IN_FLIGHT). */
  readonly inFlight: () => number;
  /** Attempts on the wire; close() lets them end before it destroys the sockets. */
  readonly pending: Set<Promise<IncomingResponse>>;
  /** Requests sent (retries included), by "operationId status". */
  readonly counts: Map<string, number>;
  readonly tally: { requests: number; closed: boolean };
  readonly destroyConnections: () => void;
}

type Env = Record<string, string | undefined>;

export class FastClient {
  private readonly pool: ClientPool;
  /** The steps of this client's case, in order (a case has a client of its own: forCase). */
  caseSteps: CaseStep[] = [];
  readonly target: FastTarget;

  /**
   * A client of its own connections, under the transport policy and the requests in flight the run's variables
   * set (PCS_RETRIES, PCS_MAX_RPS, PCS_IN_FLIGHT, the output directory); or, given a pool, another view of that
   * client's.
   */
  constructor(target: FastTarget, env: Env, shared?: ClientPool) {
    this.target = target;
    if (shared !== undefined) {
      this.pool = shared;
      return;
    }
    // Connections reused by this worker's requests (no handshake per request); cases run side by side
    // (generation/concurrent-cases.ts) and the concurrency property sends bursts of up to 16 at once.
    const wire = wireSender({ connections: 16, connectTimeoutMs: target.timeoutMs });
    const pending = new Set<Promise<IncomingResponse>>();
    const tally = { requests: 0, closed: false };
    this.pool = {
      sender: closableSender(retryStale(wire.send), () => tally.closed, pending),
      // PCS_RETRIES, PCS_MAX_RPS, 429/503 handling and the target-unavailable marker: the suite's one transport policy.
      settings: transportSettings(target.timeoutMs, env),
      inFlight: () => inFlightLimit(env),
      pending,
      counts: new Map(),
      tally,
      destroyConnections: () => wire.destroy(),
    };
  }

  /**
   * A client for one case that runs beside others: the same connections, policy and counts,
   * its own record of steps (the counterexample of that case alone).
   */
  forCase(): FastClient {
    return new FastClient(this.target, {}, this.pool);
  }

  /** Requests sent (retries included), by "operationId status". */
  get counts(): Map<string, number> {
    return this.pool.counts;
  }

  /** Requests sent by this client and its case views, retries included. */
  get requests(): number {
    return this.pool.tally.requests;
  }

  /**
   * Runs `work` over the items with as many in flight as the target's round trip calls for
   * (http/in-flight.ts), and gives the results in the items' order. Every started item
   * ends before it returns; then the failure of the lowest index, if any, is thrown, so that a
   * case fails the same way whatever order the answers came in.
   */
  each<T, R>(items: readonly T[], work: (item: T, index: number) => Promise<R>): Promise<R[]> {
    return inOrderInFlight(items, this.pool.inFlight, work);
  }

  /** Names the next requests of the case (a stateful command): failures print them as numbered steps. */
  step(label: string): void {
    this.caseSteps.push({ label, exchanges: [] });
  }

  async call(operationId: OperationId, options: FastCallOptions = {}): Promise<Exchange> {
    const request = timed('build', () => {
      const built = buildRequest(operationId, options, this.target.baseUrl, this.target.secretKey);
      if (built.data !== undefined) built.headers['content-length'] = String(Buffer.byteLength(built.data));
      return built;
    });
    const { op, url, headers, data } = request;

    const started = performance.now();
    const ledgerBefore = peekCost('ledger');
    const result = await sendWithPolicy(
      this.pool.sender,
      { method: op.method, url, headers, data, operationId },
      this.pool.settings,
    );
    noteRoundTrip(performance.now() - started, result.attempts);
    // The transport's time, less the ledger's, which the transport writes on the way (its own phase).
    addCost('transport', performance.now() - started - (peekCost('ledger') - ledgerBefore));
    this.pool.tally.requests += result.attempts;
    const exchange = exchangeOf(operationId, request, result.response, started);
    const key = `${operationId} ${exchange.status}`;
    this.pool.counts.set(key, (this.pool.counts.get(key) ?? 0) + 1);
    if (!options.quiet) {
      if (this.caseSteps.length === 0) this.caseSteps.push({ label: undefined, exchanges: [] });
      this.caseSteps[this.caseSteps.length - 1]!.exchanges.push(exchange);
    }
    return exchange;
  }

  /** "createTransaction 201 ×100" lines, sorted: the summary attached to each property test. */
  summary(): string {
    return [...this.counts.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, count]) => `${key} ×${count}`)
      .join('\n');
  }

  /**
   * Stops the client and its case views: no new request is sent (a call throws RequestAbandoned), and the sockets
   * are destroyed once the requests on the wire have ended (each is bounded by its timeout).
   * Destroying them at once would reset a request the property abandoned at its time budget:
   * the transport would report the target unavailable, and a creation the target still carried
   * out would never reach the run ledger.
   */
  close(): void {
    const pool = this.pool;
    pool.tally.closed = true;
    if (pool.pending.size === 0) {
      pool.destroyConnections();
      return;
    }
    void Promise.allSettled([...pool.pending]).then(() => pool.destroyConnections());
  }
}
