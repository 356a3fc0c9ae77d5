/**
 * The API client the tests use: one method per operation of contract/operations.ts,
 * each request a Playwright test step whose request and response are attached to the
 * result with the key masked, and whose status is recorded as an annotation.
 *
 * Requests go through the suite's transport (http/transport.ts, node:http), not through
 * Playwright's `request` fixture: when a request of that fixture fails, Playwright keeps its
 * call log, every request header and so the Authorization key included, in its own step
 * records, which reach the HTML and blob reports whatever the suite masks (found by
 * tests/unit/secrets.test.ts). The transport also owns timeouts, retries and rate limits.
 */
import { test, type TestInfo } from '@playwright/test';
import { operation, type OperationId } from '../contract/operations.ts';
import { buildRequest, exchangeOf, type RequestOptions } from '../http/outgoing-request.ts';
import { formatExchange, type Exchange } from '../http/exchange.ts';
import type { Target } from '../settings/target.ts';
import type { VerdictSink } from '../judgment/verdict-sink.ts';
import {
  nodeSender,
  type Sender,
  sendWithPolicy,
  TargetAlreadyUnreachable,
  TransportError,
  transportSettings,
  type TransportSettings,
} from '../http/transport.ts';

export type { Auth } from '../http/outgoing-request.ts';

export interface CallOptions extends RequestOptions {
  /** Another base address than the target's (the embedded mock's other environment). */
  baseUrl?: string;
  /** Cleanup requests: not attached nor recorded as a status of the test. */
  quiet?: boolean;
  /**
   * Another sender than the shared one: a single keep-alive connection (wireSender({ connections: 1 })),
   * so that a test sends several requests over one connection (AUTH-PER-REQUEST).
   */
  sender?: Sender;
}

export class ApiClient {
  /** Every exchange of the current test, in order. */
  readonly exchanges: Exchange[] = [];
  /** Cleanup requests: not the test's, so not judged. */
  private readonly quietExchanges = new WeakSet<Exchange>();

  readonly target: Target;
  private readonly testInfo: TestInfo;
  /** Where a request the target could not answer is recorded: the test's rules were not decided. */
  private readonly verdicts: VerdictSink | undefined;

  constructor(target: Target, testInfo: TestInfo, verdicts?: VerdictSink) {
    this.target = target;
    this.testInfo = testInfo;
    this.verdicts = verdicts;
  }

  private transportCache: TransportSettings | undefined;

  private transport(): TransportSettings {
    this.transportCache ??= transportSettings(this.target.timeoutMs, this.target.env);
    return this.transportCache;
  }

  async call(operationId: OperationId, options: CallOptions = {}): Promise<Exchange> {
    const request = buildRequest(operationId, options, options.baseUrl ?? this.target.baseUrl, this.target.secretKey);
    const { op, path, url, headers, data } = request;
    const stepTitle = `${options.quiet ? 'cleanup: ' : ''}${op.method} ${new URL(url).pathname} (${operationId})`;
    return test.step(stepTitle, async () => {
      const started = performance.now();
      // Timeouts, retries, rate limits and an unreachable target are the transport's (http/transport.ts).
      // It sends through node:http, not this.request: Playwright reports its own fetches as steps whose
      // errors list every request header, the key included; transport errors carry a masked first line.
      let result;
      try {
        result = await sendWithPolicy(
          options.sender ?? nodeSender(),
          { method: op.method, url, headers, data, operationId },
          this.transport(),
        );
      } catch (error) {
        if (error instanceof TransportError)
          this.verdicts?.undecided(error.failure === 'rate-limited' ? 'rate-limited' : 'unavailable', error.message);
        // One test reports an unreachable target; the others are skipped instead of failing the same way.
        if (error instanceof TargetAlreadyUnreachable) test.skip(true, error.message);
        throw error;
      }
      if (result.notes.length > 0 && !options.quiet) {
        this.testInfo.annotations.push({
          type: 'transport',
          description: `${operationId}: ${result.notes.join('; ')}`,
        });
      }
      const exchange = exchangeOf(operationId, request, result.response, started);
      this.exchanges.push(exchange);
      if (options.quiet) {
        this.quietExchanges.add(exchange);
        return exchange;
      }
      this.testInfo.annotations.push({
        type: 'status',
        description: `${operationId} ${op.method} ${path} → ${exchange.status}`,
      });
      await this.testInfo.attach(`${op.method} ${path} → ${exchange.status}`, {
        body: formatExchange(exchange),
        contentType: 'text/plain',
      });
      return exchange;
    });
  }

  /**
   * The answers of documented operations the test got and did not judge (judgment/registry.ts):
   * every answer is judged by its operation's registered rules, so a test that left one is the suite's error.
   */
  unjudged(isJudged: (exchange: Exchange) => boolean): Exchange[] {
    return this.exchanges.filter(
      (exchange) =>
        !this.quietExchanges.has(exchange) && operation(exchange.operation).rules !== undefined && !isJudged(exchange),
    );
  }
}
