/**
 * A request the suite abandons itself is not a fault of the target: a
 * property stopped by its time budget leaves its last case's request on the wire, and
 * closing the keep-alive client must neither reset it into a "target unavailable" failure
 * nor write the marker file that makes the run exit 3.
 *
 *   node --import tsx --test tests/unit/abandoned-requests.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { FastClient, RequestAbandoned } from '../../http/fast-client.ts';
import {
  markerFileName,
  sendWithPolicy,
  TransportError,
  type Sender,
  type TransportSettings,
} from '../../http/transport.ts';
import { runProperty } from '../../generation/properties.ts';
import { fakeTestInfo } from './fake-test-info.ts';

const scratch = mkdtempSync(join(tmpdir(), 'pcs-abandoned-'));
const secretKey = 'sk_sandbox_abandoned_requests_0001';
let server: Server;
let baseUrl: string;
let received = 0;
const latencyMs = 300;

before(async () => {
  // Answers every creation after a delay, so that a request is on the wire when the client closes; on a new
  // connection each time (a reset on a reused keep-alive connection is retried as stale, which would hide the reset).
  server = createServer((request, response) => {
    received += 1;
    request.resume();
    request.on('end', () => {
      setTimeout(() => {
        const stamp = new Date().toISOString();
        response.writeHead(201, { 'content-type': 'application/json', connection: 'close' }).end(
          JSON.stringify({
            id: received,
            amount: 500,
            description: 'd',
            callback_url: 'https://example.com/cb',
            reference: 'r',
            status: 'pending',
            created_at: stamp,
            updated_at: stamp,
          }),
        );
      }, latencyMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(scratch, { recursive: true, force: true });
});

/** Runs `body` with PCS_OUTPUT_DIR pointing at a fresh folder, where the transport writes its marker. */
async function withOutputDir<T>(name: string, body: (outputDir: string) => Promise<T>): Promise<T> {
  const outputDir = join(scratch, name);
  const previous = process.env.PCS_OUTPUT_DIR;
  process.env.PCS_OUTPUT_DIR = outputDir;
  try {
    return await body(outputDir);
  } finally {
    if (previous === undefined) delete process.env.PCS_OUTPUT_DIR;
    else process.env.PCS_OUTPUT_DIR = previous;
  }
}

const creation = {
  body: { amount: 500, description: 'abandoned', currency: { iso: 'XOF' }, callback_url: 'https://example.com/cb' },
};

function markerText(outputDir: string): string {
  const file = join(outputDir, markerFileName);
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail('timed out waiting for the condition');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('requests the suite abandons', () => {
  test('closing the client with a creation on the wire: no failure, no marker', async () => {
    await withOutputDir('close-in-flight', async (outputDir) => {
      const client = new FastClient({ baseUrl, secretKey, timeoutMs: 10_000 }, process.env);
      const before = received;
      const call = client.call('createTransaction', creation);
      await until(() => received > before);
      client.close();
      const outcome = await call.then(
        (exchange) => `answered ${exchange.status}`,
        (error: unknown) =>
          error instanceof TransportError ? `transport error: ${error.message}` : `abandoned: ${String(error)}`,
      );
      assert.doesNotMatch(outcome, /transport error/, outcome);
      assert.equal(markerText(outputDir), '', 'no "target unavailable" marker');
    });
  });

  test('a call after close is not sent and is reported as abandoned, not as the target failing', async () => {
    await withOutputDir('after-close', async (outputDir) => {
      const client = new FastClient({ baseUrl, secretKey, timeoutMs: 10_000 }, process.env);
      client.close();
      const before = received;
      await assert.rejects(
        client.call('createTransaction', creation),
        (error: unknown) => error instanceof RequestAbandoned && !(error instanceof TransportError),
      );
      assert.equal(received, before, 'nothing reached the target');
      assert.equal(markerText(outputDir), '');
    });
  });

  test('the transport policy neither retries nor marks a request its sender abandoned', async () => {
    const markerFile = join(scratch, 'policy-marker.txt');
    const settings: TransportSettings = {
      timeoutMs: 1000,
      retries: 3,
      maxRps: null,
      maxRetryAfterMs: 1000,
      backoffMs: 1,
      maxBackoffMs: 2,
      markerFile,
      unreachableFile: join(scratch, 'policy-unreachable.json'),
      ledger: null,
    };
    let attempts = 0;
    const sender: Sender = async () => {
      attempts += 1;
      throw new RequestAbandoned('GET /v1/balances/1: abandoned');
    };
    await assert.rejects(
      sendWithPolicy(
        sender,
        { method: 'GET', url: `${baseUrl}/balances/1`, headers: {}, operationId: 'getBalance' },
        settings,
      ),
      RequestAbandoned,
    );
    assert.equal(attempts, 1);
    assert.equal(existsSync(markerFile), false);
  });

  test('a property stopped by its time budget mid-request passes and leaves no marker', async () => {
    await withOutputDir('budget', async (outputDir) => {
      const testInfo = fakeTestInfo('property: abandoned at the budget');
      // Cases of two sequential creations of 300 ms each against a 700 ms budget: the budget ends mid-request.
      const outcome = await runProperty({
        testInfo,
        env: { PCS_RUNS: '1000', PCS_PROPERTY_BUDGET_MS: '700' },
        echo: false,
        target: { baseUrl, secretKey, timeoutMs: 10_000 },
        arbitrary: fc.integer({ min: 100, max: 100_000 }),
        async predicate(amount, client) {
          await client.call('createTransaction', { body: { ...creation.body, amount } });
          await client.call('createTransaction', { body: { ...creation.body, amount } });
        },
      });
      assert.equal(outcome.interrupted, true, 'the budget stopped the property');
      // The abandoned request ends (or is refused) after the property returned: give it the time to.
      await new Promise((resolve) => setTimeout(resolve, 2 * latencyMs + 200));
      assert.equal(markerText(outputDir), '', 'no "target unavailable" marker');
    });
  });

  const budgetInFirstCaseTitle =
    'a property stopped by its budget inside its first case passes ' +
    '(fast-check calls that a failure, with no error) and says so';
  test(budgetInFirstCaseTitle, async () => {
    await withOutputDir('budget-first', async () => {
      const testInfo = fakeTestInfo('property: a first case longer than the budget');
      // One case of five sequential creations of 300 ms each against a 700 ms budget.
      const outcome = await runProperty({
        testInfo,
        env: { PCS_RUNS: '10', PCS_PROPERTY_BUDGET_MS: '700' },
        echo: false,
        target: { baseUrl, secretKey, timeoutMs: 10_000 },
        arbitrary: fc.integer({ min: 100, max: 100_000 }),
        async predicate(amount, client) {
          for (let i = 0; i < 5; i++) await client.call('createTransaction', { body: { ...creation.body, amount } });
        },
      });
      assert.equal(outcome.interrupted, true);
      assert.ok(
        testInfo.annotations.some((a) => /inside its first case/.test(a.description ?? '')),
        JSON.stringify(testInfo.annotations),
      );
      await new Promise((resolve) => setTimeout(resolve, 2 * latencyMs + 200));
    });
  });
});
