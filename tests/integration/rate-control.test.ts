/**
 * The adaptive request rate (http/rate-control.ts, rate-gate.ts, rate-coordinator.ts) against the
 * reference mock throttled as a gateway would (mock/faults.ts: throttle=, burst=, window=), on 127.0.0.1:
 * a few hundred requests from ~16 concurrent callers all end in an answer (a 429 is never a TransportError
 * while the controller learns), and the achieved rate is printed. Its only timing assertion is loose (half
 * of the allowed rate); the figures are for reading.
 *
 *   node --import tsx --test tests/integration/rate-control.test.ts
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunningMock } from '../../mock/server.ts';
import { faultyMock, getBalance } from './faulty-mock.ts';
import { startRateCoordinator } from '../../http/rate-coordinator.ts';
import {
  nodeSender,
  sendWithPolicy,
  TransportError,
  type Sender,
  type TransportSettings,
} from '../../http/transport.ts';

const running: { close(): Promise<void> }[] = [];
after(async () => {
  await Promise.all(running.map((server) => server.close()));
});

function settings(overrides: Partial<TransportSettings> = {}): TransportSettings {
  return {
    timeoutMs: 5_000,
    retries: 3,
    maxRps: null,
    maxRetryAfterMs: 5_000,
    backoffMs: 10,
    maxBackoffMs: 40,
    markerFile: null,
    unreachableFile: null,
    ledger: null,
    ...overrides,
  };
}

interface Figures {
  answered: number;
  failed: number;
  refusals: number;
  seconds: number;
  rps: number;
}

/** `total` requests from `callers` concurrent loops; counts the 429s the target sent on the way. */
async function drive(
  mock: RunningMock,
  total: number,
  callers: number,
  policy: TransportSettings,
  sender: Sender = nodeSender(),
): Promise<Figures> {
  let refusals = 0;
  const counting: Sender = async (request, timeoutMs) => {
    const response = await sender(request, timeoutMs);
    if (response.status === 429) refusals += 1;
    return response;
  };
  let next = 0;
  let answered = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (next < total) {
        next += 1;
        try {
          const result = await sendWithPolicy(counting, getBalance(mock), policy);
          if (result.response.status === 200) answered += 1;
        } catch (error) {
          failed += 1;
          if (!(error instanceof TransportError)) throw error;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { answered, failed, refusals, seconds, rps: answered / seconds };
}

function print(label: string, figures: Figures, allowed: number): void {
  process.stdout.write(
    `# ${label}: ${figures.answered} answered, ${figures.failed} failed, ${figures.refusals} 429s, ` +
      `${figures.seconds.toFixed(2)} s, ${figures.rps.toFixed(0)} req/s = ` +
      `${Math.round((figures.rps / allowed) * 100)} % of ${allowed}\n`,
  );
}

describe('adaptive request rate against a throttled mock', () => {
  test('token bucket 400/s, burst 40: 16 concurrent callers, no request fails, the rate is learned', async () => {
    const mock = await faultyMock('throttle=400,burst=40', running);
    const figures = await drive(mock, 1200, 16, settings());
    print('throttle=400,burst=40', figures, 400);
    assert.equal(figures.failed, 0);
    assert.equal(figures.answered, 1200);
    // Learned, the rate stays under the bucket's: few requests meet a 429. The share of the allowed rate it reaches is
    // a figure of npm run bench (printed above), not asserted: it depends on what else the machine runs.
    assert.ok(figures.refusals <= 120, `at most 10 % of the requests refused with 429, got ${figures.refusals}`);
  });

  test('an HTTP-date Retry-After and a sliding window are learned as well', async () => {
    const mock = await faultyMock('window=30/100,retryAfterFormat=date', running);
    const figures = await drive(mock, 600, 16, settings());
    print('window=30/100,retryAfterFormat=date', figures, 300);
    assert.equal(figures.failed, 0);
  });

  test('RateLimit-* headers pace the requests before any 429', async () => {
    const mock = await faultyMock('throttle=300,burst=30,rateHeaders=yes', running);
    const figures = await drive(mock, 600, 16, settings());
    print('throttle=300,burst=30,rateHeaders=yes', figures, 300);
    assert.equal(figures.failed, 0);
  });

  test('two processes sharing a coordinator share one budget (simulated by two gates on one coordinator)', async () => {
    const coordinator = await startRateCoordinator({ ceilingRps: null, workers: 2 });
    running.push(coordinator);
    const mock = await faultyMock('throttle=400,burst=40', running);
    // Two settings objects with different ceilings are two gates of this process, as two workers would have.
    const [first, second] = await Promise.all([
      drive(mock, 600, 8, settings({ rateCoordinator: coordinator.address, maxRps: 100_000 })),
      drive(mock, 600, 8, settings({ rateCoordinator: coordinator.address, maxRps: 100_001 })),
    ]);
    const both: Figures = {
      answered: first.answered + second.answered,
      failed: first.failed + second.failed,
      refusals: first.refusals + second.refusals,
      seconds: Math.max(first.seconds, second.seconds),
      rps: 0,
    };
    both.rps = both.answered / both.seconds;
    print('coordinator, 2 gates × 8 callers, throttle=400,burst=40', both, 400);
    assert.equal(both.failed, 0);
  });

  test('an unreachable coordinator leaves the process on its own controller', async () => {
    const mock = await faultyMock('throttle=400,burst=40', running);
    const figures = await drive(mock, 400, 16, settings({ rateCoordinator: '127.0.0.1:1' }));
    print('coordinator unreachable, throttle=400,burst=40', figures, 400);
    assert.equal(figures.failed, 0);
  });
});
