/**
 * The mock under abuse (lab/fuzz-mock.ts), in a short form that runs with the unit
 * tests: random and malformed requests give no 5xx and no crash, oversized bodies get
 * 413, the store stays at its cap by evicting the oldest records; and the verdict fails
 * on a 5xx, a crash or a store past its cap. `npm run fuzz:mock` runs the 100,000.
 *
 *   node --import tsx --test tests/unit/fuzz-mock.test.ts
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runFuzz, verdict, type FuzzOptions, type FuzzReport } from '../../lab/fuzz-mock.ts';
import { startMockServer } from '../../mock/server.ts';
import { defaultBodyLimit } from '../../mock/app.ts';

describe('fuzzing the mock', () => {
  test('4,000 random and malformed requests: no 5xx, alive, 413 for oversized bodies, store at its cap', {
    timeout: 120_000,
  }, async () => {
    const options: FuzzOptions = {
      requests: 4_000,
      concurrency: 16,
      seed: 11,
      maxSeconds: 90,
      storeCap: 100,
      storeBytes: 1 * 2 ** 20,
      requestTimeoutMs: 300,
    };
    const report = await runFuzz(options);
    assert.deepEqual(verdict(report, options), []);
    assert.equal(report.sent, 4_000);
    for (const kind of [
      'valid',
      'wrong types',
      'bad JSON',
      'deep nesting',
      'large records',
      'odd path',
      'odd headers',
      'odd method',
      'raw malformed HTTP',
    ]) {
      assert.ok((report.byKind[kind] ?? 0) > 0, `the fuzz sent ${kind} requests`);
    }
    assert.ok(
      (report.statuses['400'] ?? 0) > 0 && (report.statuses['201'] ?? 0) > 0,
      'both refusals and creations happened',
    );
    assert.equal(report.largestCollection, 100, 'the store filled up to its cap and no further');
    assert.equal(report.evictionChecked, true, 'the oldest transaction was evicted at the cap');
    assert.ok(
      report.slowClients!.sent >= 10 && report.slowClients!.closedInTime === report.slowClients!.sent,
      `slow clients cut off: ${JSON.stringify(report.slowClients)}`,
    );
    assert.ok(
      report.storeBytesMax! > 0 && report.storeBytesMax! <= report.storeBytesLimit!,
      `store bytes ${report.storeBytesMax} within ${report.storeBytesLimit}`,
    );
  });

  test('the verdict fails on a 5xx, a crash, a missing 413 and a store past its cap (it can fail)', () => {
    const options: FuzzOptions = { requests: 10, concurrency: 1, seed: 1, maxSeconds: 10, storeCap: 5 };
    const healthy: FuzzReport = {
      sent: 10,
      statuses: { '200': 10 },
      byKind: { valid: 10 },
      serverErrors: [],
      oversized: { sent: 1, answered413: 1, other: {} },
      clientErrors: {},
      aliveAfter: true,
      rssBeforeMb: 80,
      rssAfterMb: 90,
      heapAfterMb: 20,
      storeCap: 5,
      largestCollection: 5,
      evictionChecked: true,
      seconds: 1,
      stoppedByTime: false,
    };
    assert.deepEqual(verdict(healthy, options), []);
    assert.equal(
      verdict(
        { ...healthy, serverErrors: [{ kind: 'bad JSON', status: 500, method: 'POST', path: '/v1/transactions' }] },
        options,
      ).length,
      1,
    );
    assert.equal(verdict({ ...healthy, aliveAfter: false }, options).length, 1);
    assert.equal(
      verdict({ ...healthy, oversized: { sent: 2, answered413: 1, other: { '400': 1 } } }, options).length,
      1,
    );
    assert.equal(verdict({ ...healthy, largestCollection: 6 }, options).length, 1);
    assert.equal(verdict({ ...healthy, rssAfterMb: 1_000 }, options).length, 1);
    assert.equal(verdict({ ...healthy, clientErrors: { 'valid: ECONNRESET': 1 } }, options).length, 1);
    assert.equal(verdict({ ...healthy, storeBytesMax: 2_000, storeBytesLimit: 1_000 }, options).length, 1);
    assert.equal(
      verdict({ ...healthy, slowClients: { sent: 3, closedInTime: 2, slowestMs: 60_000 } }, options).length,
      1,
    );
    assert.equal(verdict({ ...healthy, openConnectionsAfter: 40 }, options).length, 1);
  });

  test('a body one byte over the limit gets 413 in the error shape', async () => {
    const mock = await startMockServer({ host: '127.0.0.1', port: 0 });
    try {
      const response = await fetch(`${mock.sandboxBaseUrl}/transactions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${mock.sandboxKey}`, 'content-type': 'application/json' },
        body: `{"description":"${'a'.repeat(defaultBodyLimit - 17)}"}`,
      });
      assert.equal(response.status, 413);
      const body = (await response.json()) as { error?: { status?: number } };
      assert.equal(body.error?.status, 413);
    } finally {
      await mock.close();
    }
  });

  test('at the store cap the oldest record is evicted and the newest kept', async () => {
    const mock = await startMockServer({ host: '127.0.0.1', port: 0, storeCap: 3 });
    try {
      const store = mock.mock.stores.sandbox;
      const ids = Array.from(
        { length: 5 },
        (_, n) =>
          store.addCustomer({ email: `c${n}@example.com`, firstname: null, lastname: null, phone_number: null }).id,
      );
      assert.deepEqual([...store.customers.keys()], ids.slice(2));
    } finally {
      await mock.close();
    }
  });
});
