/**
 * The transport policy (http/transport.ts) against the reference mock with injected
 * faults (mock/faults.ts), on 127.0.0.1: 429 with Retry-After, persistent 429, resets and
 * timeouts retried only when the request is safe to repeat, 503, broken JSON passed
 * through, unreachable targets reported once and at once, the client-side rate limit,
 * and no key in any message.
 *
 *   node --import tsx --test tests/unit/transport.test.ts
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningMock } from '../../mock/server.ts';
import { faultyMock, getBalance } from './faulty-mock.ts';
import { FaultDecider, FaultSpecError, parseFaults } from '../../mock/faults.ts';
import { ConfigError } from '../../settings/config.ts';
import { registerSecret } from '../../settings/secrets.ts';
import {
  alreadyUnreachable,
  backoffDelay,
  classifyNetworkError,
  errorSummary,
  nodeSender,
  retryAfterMs,
  safeToRepeat,
  sendWithPolicy,
  TargetAlreadyUnreachable,
  TransportError,
  transportSettings,
  transportVariables,
  type OutgoingRequest,
  type Sender,
  type TransportSettings,
} from '../../http/transport.ts';

const scratch = mkdtempSync(join(tmpdir(), 'pcs-transport-'));
const running: RunningMock[] = [];

after(async () => {
  await Promise.all(running.map((mock) => mock.close()));
  rmSync(scratch, { recursive: true, force: true });
});

let markerCount = 0;
function settings(overrides: Partial<TransportSettings> = {}): TransportSettings {
  markerCount += 1;
  return {
    timeoutMs: 2_000,
    retries: 3,
    maxRps: null,
    maxRetryAfterMs: 5_000,
    backoffMs: 10,
    maxBackoffMs: 40,
    markerFile: join(scratch, `marker-${markerCount}.txt`),
    unreachableFile: join(scratch, `unreachable-${markerCount}.json`),
    ledger: null,
    ...overrides,
  };
}

/** The suite's sender, counting how many times a request really went out. */
function countingSender(): { sender: Sender; calls: () => number } {
  const inner = nodeSender();
  let calls = 0;
  return {
    sender: async (request, timeoutMs) => {
      calls += 1;
      return inner(request, timeoutMs);
    },
    calls: () => calls,
  };
}

function createTransaction(mock: RunningMock): OutgoingRequest {
  return {
    method: 'POST',
    url: `${mock.sandboxBaseUrl}/transactions`,
    headers: { authorization: `Bearer ${mock.sandboxKey}`, 'content-type': 'application/json' },
    data: JSON.stringify({ amount: 500, currency: { iso: 'XOF' }, description: 'transport test' }),
    operationId: 'createTransaction',
  };
}

async function rejection(promise: Promise<unknown>): Promise<TransportError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof TransportError, `expected a TransportError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the request to fail');
}

async function freePortWithNothingListening(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address && typeof address === 'object');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address.port;
}

describe('fault specs (mock/faults.ts)', () => {
  test('parses probabilities, first:N, every:N, latency ranges, methods and retryAfter', () => {
    const plan = parseFaults(
      'latency=10-20,rate429=0.3,reset=first:2,status503=every:3,invalidJson=0,retryAfter=2,methods=GET+delete,seed=7',
    );
    assert.deepEqual(plan.latencyMs, { min: 10, max: 20 });
    assert.deepEqual(plan.triggers.rate429, { kind: 'probability', p: 0.3 });
    assert.deepEqual(plan.triggers.reset, { kind: 'first', n: 2 });
    assert.deepEqual(plan.triggers.status503, { kind: 'every', n: 3 });
    assert.equal(plan.retryAfterSeconds, 2);
    assert.deepEqual([...(plan.methods ?? [])], ['GET', 'DELETE']);
    assert.equal(plan.seed, 7);
  });

  test('refuses unknown faults and bad values with one line', () => {
    for (const spec of ['explode=1', 'rate429=2', 'latency=abc', 'reset=first:0', 'nonsense']) {
      assert.throws(
        () => parseFaults(spec),
        (error: Error) => error instanceof FaultSpecError && !error.message.includes('\n'),
        spec,
      );
    }
  });

  test('first:N, after:N and every:N fire on the right requests; probabilities are reproducible by seed', () => {
    const first = new FaultDecider(parseFaults('rate429=first:2'));
    assert.deepEqual([first.next(), first.next(), first.next()], ['rate429', 'rate429', null]);
    const later = new FaultDecider(parseFaults('reset=after:2'));
    assert.deepEqual([later.next(), later.next(), later.next(), later.next()], [null, null, 'reset', 'reset']);
    const every = new FaultDecider(parseFaults('status503=every:3'));
    assert.deepEqual([every.next(), every.next(), every.next(), every.next()], [null, null, 'status503', null]);
    const draw = (seed: number) => {
      const decider = new FaultDecider(parseFaults(`reset=0.5,seed=${seed}`));
      return Array.from({ length: 40 }, () => decider.next());
    };
    assert.deepEqual(draw(3), draw(3));
    const fired = draw(3).filter((fault) => fault === 'reset').length;
    assert.ok(fired > 5 && fired < 35, `about half should fire, got ${fired}/40`);
  });
});

describe('transport policy helpers', () => {
  test('classifies network errors (system error codes and messages)', () => {
    assert.equal(classifyNetworkError('connect ECONNREFUSED 127.0.0.1:1'), 'unreachable');
    assert.equal(classifyNetworkError('getaddrinfo ENOTFOUND sandbox.example.invalid'), 'unreachable');
    assert.equal(classifyNetworkError('getaddrinfo EAI_AGAIN sandbox.example.com'), 'unreachable');
    assert.equal(classifyNetworkError('self-signed certificate in certificate chain'), 'unreachable');
    assert.equal(
      classifyNetworkError('write EPROTO ...:SSL routines:ssl3_get_record:wrong version number'),
      'unreachable',
    );
    assert.equal(classifyNetworkError('Timeout 200ms exceeded.'), 'timeout');
    assert.equal(classifyNetworkError('socket hang up (ECONNRESET)'), 'reset');
    assert.equal(classifyNetworkError('something else entirely'), 'other');
  });

  test('errorSummary keeps the first line only and masks registered secrets', () => {
    registerSecret('sk_sandbox_summary_secret_1');
    const summary = errorSummary(
      new Error(
        'apiRequestContext.fetch: connect ECONNREFUSED 127.0.0.1:1 sk_sandbox_summary_secret_1\n' +
          'Call log:\n  - authorization: Bearer other-value',
      ),
    );
    assert.equal(summary, 'connect ECONNREFUSED 127.0.0.1:1 ***');
  });

  test('Retry-After as seconds or HTTP date; backoff grows, is capped and jittered', () => {
    assert.equal(retryAfterMs('3'), 3000);
    assert.equal(retryAfterMs(new Date(10_000 + 5_000).toUTCString(), 10_000), 5_000);
    assert.equal(retryAfterMs('soon'), null);
    assert.equal(retryAfterMs(undefined), null);
    const limits = { backoffMs: 100, maxBackoffMs: 1_000 };
    assert.equal(
      backoffDelay(1, limits, () => 0),
      50,
    );
    assert.equal(
      backoffDelay(1, limits, () => 1),
      100,
    );
    assert.equal(
      backoffDelay(3, limits, () => 1),
      400,
    );
    assert.equal(
      backoffDelay(10, limits, () => 1),
      1_000,
    );
    assert.notEqual(
      backoffDelay(2, limits, () => 0.1),
      backoffDelay(2, limits, () => 0.9),
    );
  });

  test('only reads, deletes and the token operation are repeated after a reset or timeout', () => {
    assert.equal(safeToRepeat({ method: 'GET', operationId: 'getBalance' }), true);
    assert.equal(safeToRepeat({ method: 'DELETE', operationId: 'deleteCustomer' }), true);
    assert.equal(safeToRepeat({ method: 'POST', operationId: 'getPaymentLink' }), true);
    assert.equal(safeToRepeat({ method: 'POST', operationId: 'createTransaction' }), false);
    assert.equal(safeToRepeat({ method: 'POST', operationId: 'createCustomer' }), false);
    assert.equal(safeToRepeat({ method: 'POST', operationId: 'sendTransaction' }), false);
    assert.equal(safeToRepeat({ method: 'POST' }), false);
  });

  test('PCS_RETRIES and PCS_MAX_RPS are validated; the rate is shared among the workers', () => {
    assert.deepEqual(transportVariables({}), { retries: 3, maxRps: null });
    assert.deepEqual(transportVariables({ PCS_RETRIES: '0', PCS_MAX_RPS: '2.5' }), { retries: 0, maxRps: 2.5 });
    for (const env of [{ PCS_RETRIES: '-1' }, { PCS_RETRIES: '11' }, { PCS_MAX_RPS: '0' }, { PCS_MAX_RPS: 'fast' }]) {
      assert.throws(() => transportVariables(env), ConfigError, JSON.stringify(env));
    }
    const shared = transportSettings(1_000, {
      PCS_MAX_RPS: '10',
      COLLECT_CONFORMANCE_WORKER_COUNT: '4',
      PCS_OUTPUT_DIR: scratch,
    });
    assert.equal(shared.maxRps, 2.5);
    assert.equal(shared.markerFile, join(scratch, 'target-unavailable.txt'));
  });
});

describe('transport against a faulty mock', () => {
  test('a 429 is retried after its Retry-After, then the answer is returned', async () => {
    const mock = await faultyMock('rate429=first:1,retryAfter=1', running);
    const { sender, calls } = countingSender();
    const started = performance.now();
    const result = await sendWithPolicy(sender, getBalance(mock), settings());
    const waited = performance.now() - started;
    assert.equal(result.response.status, 200);
    assert.equal(calls(), 2);
    assert.ok(waited >= 950, `Retry-After: 1 must be honoured, waited ${Math.round(waited)} ms`);
    assert.match(result.notes.join(), /429 \(Retry-After 1 s\)/);
  });

  test('a 429 on a creation is retried too (the request was refused, not carried out)', async () => {
    const mock = await faultyMock('rate429=first:2,retryAfter=0', running);
    const { sender, calls } = countingSender();
    const result = await sendWithPolicy(sender, createTransaction(mock), settings());
    assert.equal(result.response.status, 201);
    assert.equal(calls(), 3);
    assert.equal(mock.mock.stores.sandbox.transactions.size, 1);
  });

  test('a persistent 429 is reported as rate limited after bounded retries, with a marker line', async () => {
    const mock = await faultyMock('rate429=1,retryAfter=0', running);
    const { sender, calls } = countingSender();
    const policy = settings({ retries: 2 });
    const error = await rejection(sendWithPolicy(sender, getBalance(mock), policy));
    assert.equal(error.failure, 'rate-limited');
    // The first 429 teaches the rate controller (http/rate-control.ts) and spends no retry; the
    // next ones, sent at the learned rate, do: 1 + 1 + PCS_RETRIES attempts.
    assert.match(error.message, /^rate limited: GET \/v1\/balances\/1 answered 429 on 4 attempts/);
    assert.equal(calls(), 4);
    assert.match(readFileSync(policy.markerFile!, 'utf8'), /rate limited: GET \/v1\/balances\/1/);
  });

  test('a Retry-After longer than the suite waits ends the request at once as rate limited', async () => {
    const mock = await faultyMock('rate429=1,retryAfter=60', running);
    const { sender, calls } = countingSender();
    const error = await rejection(sendWithPolicy(sender, getBalance(mock), settings({ maxRetryAfterMs: 5_000 })));
    assert.equal(error.failure, 'rate-limited');
    assert.equal(calls(), 1);
  });

  test('a connection reset of a read is retried with backoff', async () => {
    const mock = await faultyMock('reset=first:2', running);
    const { sender, calls } = countingSender();
    const result = await sendWithPolicy(sender, getBalance(mock), settings());
    assert.equal(result.response.status, 200);
    assert.equal(calls(), 3);
    assert.equal(result.notes.length, 2);
    assert.match(result.notes[0] ?? '', /connection reset; retried after \d+ ms/);
  });

  test('a connection reset of a creation is never repeated', async () => {
    const mock = await faultyMock('reset=first:1', running);
    const { sender, calls } = countingSender();
    const policy = settings();
    const error = await rejection(sendWithPolicy(sender, createTransaction(mock), policy));
    assert.equal(error.failure, 'unavailable');
    assert.match(error.message, /^target unavailable: POST \/v1\/transactions: connection reset .*not repeated/);
    assert.equal(calls(), 1);
    assert.ok(existsSync(policy.markerFile!));
  });

  test('a timeout is retried for a read, then reported as target unavailable', async () => {
    const mock = await faultyMock('latency=600,methods=GET', running);
    const { sender, calls } = countingSender();
    const error = await rejection(sendWithPolicy(sender, getBalance(mock), settings({ timeoutMs: 150, retries: 1 })));
    assert.equal(error.failure, 'unavailable');
    assert.match(error.message, /^target unavailable: GET \/v1\/balances\/1: no answer within 150 ms on 2 attempts/);
    assert.equal(calls(), 2);
  });

  test('a timeout of a creation is not repeated', async () => {
    const mock = await faultyMock('latency=600,methods=POST', running);
    const { sender, calls } = countingSender();
    const error = await rejection(sendWithPolicy(sender, createTransaction(mock), settings({ timeoutMs: 150 })));
    assert.match(error.message, /no answer within 150 ms .*not repeated/);
    assert.equal(calls(), 1);
  });

  test('latency below the timeout is simply waited for', async () => {
    const mock = await faultyMock('latency=100', running);
    const { sender, calls } = countingSender();
    const result = await sendWithPolicy(sender, getBalance(mock), settings({ timeoutMs: 2_000 }));
    assert.equal(result.response.status, 200);
    assert.equal(calls(), 1);
  });

  test('a 503 is retried for a read and reported as target unavailable for a creation', async () => {
    const readMock = await faultyMock('status503=first:1,retryAfter=0', running);
    const read = countingSender();
    const result = await sendWithPolicy(read.sender, getBalance(readMock), settings());
    assert.equal(result.response.status, 200);
    assert.equal(read.calls(), 2);

    const writeMock = await faultyMock('status503=first:1,retryAfter=0', running);
    const write = countingSender();
    const error = await rejection(sendWithPolicy(write.sender, createTransaction(writeMock), settings()));
    assert.match(error.message, /^target unavailable: POST \/v1\/transactions answered 503 .*not repeated/);
    assert.equal(write.calls(), 1);
  });

  test('a body that is not JSON is passed through for the tests to judge, not retried', async () => {
    const mock = await faultyMock('invalidJson=1', running);
    const { sender, calls } = countingSender();
    const result = await sendWithPolicy(sender, getBalance(mock), settings());
    assert.equal(result.response.status, 200);
    assert.throws(() => JSON.parse(result.response.body.toString('utf8')) as unknown);
    assert.equal(calls(), 1);
  });

  test('an unreachable target fails once, at once; later requests are not sent', async () => {
    const port = await freePortWithNothingListening();
    const { sender, calls } = countingSender();
    const policy = settings({ retries: 3 });
    const request: OutgoingRequest = {
      method: 'GET',
      url: `http://127.0.0.1:${port}/v1/balances/1`,
      headers: {},
      operationId: 'getBalance',
    };
    const error = await rejection(sendWithPolicy(sender, request, policy));
    assert.equal(error.failure, 'unreachable');
    assert.match(error.message, /^target unavailable: GET \/v1\/balances\/1: ECONNREFUSED/);
    assert.equal(calls(), 1, 'refused connections are not retried');
    const again = await rejection(sendWithPolicy(sender, request, policy));
    assert.ok(again instanceof TargetAlreadyUnreachable);
    assert.equal(calls(), 1, 'nothing is sent once the target is known unreachable');
  });

  test('the unreachable state is data: a JSON finding decides, not the words of the marker text', async () => {
    const port = await freePortWithNothingListening();
    const { sender } = countingSender();
    const policy = settings();
    const request: OutgoingRequest = {
      method: 'GET',
      url: `http://127.0.0.1:${port}/v1/balances/1`,
      headers: {},
      operationId: 'getBalance',
    };
    await rejection(sendWithPolicy(sender, request, policy));
    const finding = JSON.parse(readFileSync(policy.unreachableFile!, 'utf8')) as Record<string, unknown>;
    assert.equal(finding.kind, 'unreachable');
    assert.match(String(finding.message), /^target unavailable: GET \/v1\/balances\/1: ECONNREFUSED/);
    assert.deepEqual(alreadyUnreachable(policy), finding);
    // The text for people still says it; a marker that says it without the finding stops nothing.
    assert.match(readFileSync(policy.markerFile!, 'utf8'), /\(unreachable\)/);
    const wordsOnly = settings();
    writeFileSync(wordsOnly.markerFile!, 'target unavailable: GET /v1/balances/1: ECONNREFUSED (unreachable)\n');
    assert.equal(alreadyUnreachable(wordsOnly), null);
    writeFileSync(wordsOnly.unreachableFile!, 'not json');
    assert.equal(alreadyUnreachable(wordsOnly), null, 'a finding that cannot be read is no finding');
  });

  test('a TLS failure (https to a plain http port) is reported as target unavailable', async () => {
    const mock = await faultyMock('', running);
    const { sender } = countingSender();
    const request: OutgoingRequest = {
      method: 'GET',
      url: `https://127.0.0.1:${mock.port}/v1/balances/1`,
      headers: {},
      operationId: 'getBalance',
    };
    const error = await rejection(sendWithPolicy(sender, request, settings()));
    assert.equal(error.failure, 'unreachable');
    assert.match(error.message, /^target unavailable: .*(EPROTO|SSL|wrong version)/);
  });

  test('error messages never carry the key', async () => {
    const key = 'sk_sandbox_transport_canary_0042';
    registerSecret(key);
    const port = await freePortWithNothingListening();
    const { sender } = countingSender();
    const request: OutgoingRequest = {
      method: 'GET',
      url: `http://127.0.0.1:${port}/v1/balances/1`,
      headers: { authorization: `Bearer ${key}` },
    };
    const error = await rejection(sendWithPolicy(sender, request, settings()));
    assert.ok(!error.message.includes(key));
    assert.ok(!String(error.stack).includes(key));
    assert.ok(!error.message.includes('Call log'));
  });

  test('PCS_MAX_RPS spaces requests out', async () => {
    const mock = await faultyMock('', running);
    const { sender, calls } = countingSender();
    const policy = settings({ maxRps: 20 });
    const started = performance.now();
    await Promise.all(Array.from({ length: 11 }, () => sendWithPolicy(sender, getBalance(mock), policy)));
    const elapsed = performance.now() - started;
    assert.equal(calls(), 11);
    // 11 requests at 20 per second: the last one may not leave before 10 × 50 ms.
    assert.ok(elapsed >= 480, `11 requests at 20 rps took only ${Math.round(elapsed)} ms`);
  });
});
