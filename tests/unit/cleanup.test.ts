/**
 * Cleanup (support/cleanup.ts, global teardown in support/global-setup.ts): the run ledger,
 * and an interrupted run (SIGINT while a test is between creating and deleting a customer)
 * that still leaves no customer behind on the target.
 *
 *   node --import tsx --test tests/unit/cleanup.test.ts
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockServer } from '../../mock/server.ts';
import {
  cleanupSummary,
  deleteLeftoverCustomers,
  leftoverCustomers,
  recordCreatedCustomer,
  recordDeletedCustomer,
  recordDeletionsSeen,
  startLedger,
} from '../../support/cleanup.ts';
import type { TransportSettings } from '../../support/transport.ts';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'pcs-cleanup-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const settings: TransportSettings = {
  timeoutMs: 5_000,
  retries: 1,
  maxRps: null,
  maxRetryAfterMs: 5_000,
  backoffMs: 10,
  maxBackoffMs: 20,
  markerFile: null,
};

describe('run ledger', () => {
  test('leftovers are the customers created and not deleted; cut lines are ignored', () => {
    const file = join(scratch, 'ledger-1.jsonl');
    startLedger(file);
    recordCreatedCustomer(1, 'run-a', file);
    recordCreatedCustomer(2, 'run-a', file);
    recordCreatedCustomer(3, 'run-a', file);
    recordDeletedCustomer(2, 'run-a', file);
    recordDeletionsSeen([3], [{ operation: 'deleteCustomer', path: '/customers/3', status: 404 }], 'run-a', file);
    recordDeletionsSeen([1], [{ operation: 'deleteCustomer', path: '/customers/1', status: 500 }], 'run-a', file);
    readFileSync(file); // the file exists and is readable
    assert.deepEqual(leftoverCustomers(file), [1]);
    startLedger(file);
    assert.deepEqual(leftoverCustomers(file), [], 'a new run starts with an empty ledger');
  });

  test('teardown deletes the leftovers on the target and records them', async () => {
    const mock = await startMockServer({ host: '127.0.0.1', port: 0 });
    try {
      const file = join(scratch, 'ledger-2.jsonl');
      startLedger(file);
      const store = mock.mock.stores.sandbox;
      const keep = store.addCustomer({ email: 'keep@example.com', firstname: null, lastname: null, phone_number: null });
      const left = [1, 2, 3].map((n) => store.addCustomer({ email: `left${n}@example.com`, firstname: null, lastname: null, phone_number: null }));
      for (const customer of left) recordCreatedCustomer(customer.id, 'run-b', file);
      recordCreatedCustomer(999_999, 'run-b', file); // already gone
      const target = { baseUrl: mock.sandboxBaseUrl, secretKey: mock.sandboxKey, runId: 'run-b' };
      const result = await deleteLeftoverCustomers(target, settings, file);
      assert.deepEqual(result.deleted, left.map((customer) => customer.id));
      assert.deepEqual(result.gone, [999_999]);
      assert.deepEqual(result.failed, []);
      assert.deepEqual([...store.customers.keys()], [keep.id], 'only the customer the run did not create remains');
      assert.deepEqual(leftoverCustomers(file), []);
      assert.match(cleanupSummary(result) ?? '', /deleted 3 leftover customer\(s\); 1 already gone/);
    } finally {
      await mock.close();
    }
  });

  test('a customer that cannot be deleted is named in the summary, with no key', async () => {
    const mock = await startMockServer({ host: '127.0.0.1', port: 0 });
    try {
      const file = join(scratch, 'ledger-3.jsonl');
      startLedger(file);
      recordCreatedCustomer(7, 'run-c', file);
      const result = await deleteLeftoverCustomers({ baseUrl: mock.sandboxBaseUrl, secretKey: 'sk_sandbox_wrong_key_1234', runId: 'run-c' }, settings, file);
      assert.deepEqual(result.failed, [{ id: 7, reason: 'answered 401' }]);
      assert.match(cleanupSummary(result) ?? '', /could NOT delete 1: 7 \(answered 401\)/);
      assert.deepEqual(leftoverCustomers(file), [7], 'still a leftover for the next attempt');
    } finally {
      await mock.close();
    }
  });
});

describe('an interrupted run', () => {
  test('SIGINT while customers exist: global teardown deletes them all', { timeout: 120_000 }, async () => {
    // Deletions are slow on this target, so the interrupt lands between a test's creation and its deletion,
    // and the first two fail (connection reset, no retries): neither the test nor its fixture can delete the
    // customer, as when a worker is stopped mid-request. Only global teardown, run on SIGINT, can.
    const mock = await startMockServer({ host: '127.0.0.1', port: 0, faults: 'latency=1500,reset=first:2,methods=DELETE' });
    const outputDir = join(scratch, 'interrupted');
    const ledger = join(outputDir, 'created-customers.jsonl');
    try {
      const child = spawn(
        process.execPath,
        [join(projectRoot, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '--config', join(projectRoot, 'playwright.config.ts'), '--reporter=line', 'tests/conformance/delete-customer.spec.ts', '-g', 'an existing customer is deleted'],
        {
          cwd: projectRoot,
          env: {
            ...process.env,
            PCS_BASE_URL: mock.sandboxBaseUrl,
            PCS_SECRET_KEY: mock.sandboxKey,
            PCS_ENVIRONMENT: 'sandbox',
            PCS_OUTPUT_DIR: outputDir,
            PCS_WORKERS: '1',
            PCS_TIMEOUT_MS: '10000',
            PCS_RETRIES: '0',
            CI: '',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
          // Its own process group, so that the interrupt reaches the runner and its workers as Ctrl-C in a terminal does.
          detached: true,
        },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

      // Wait until the run has created customers (ledger lines), then interrupt it.
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && !(existsSync(ledger) && leftoverCustomers(ledger).length >= 1)) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const createdBeforeInterrupt = existsSync(ledger) ? leftoverCustomers(ledger) : [];
      assert.ok(createdBeforeInterrupt.length >= 1, `the run never created a customer:\n${output}`);
      assert.ok(mock.mock.stores.sandbox.customers.size >= 1, 'customers exist on the target at the interrupt');
      process.kill(-child.pid!, 'SIGINT');
      const code = await exited;

      assert.notEqual(code, 0, 'an interrupted run does not pass');
      assert.match(output, /interrupted/i, `the run was interrupted, not finished:\n${output}`);
      assert.equal(mock.mock.stores.sandbox.customers.size, 0, `customers left on the target after SIGINT: ${JSON.stringify([...mock.mock.stores.sandbox.customers.keys()])} ledger ${existsSync(ledger) ? readFileSync(ledger, "utf8") : "none"}\n${output}`);
      assert.deepEqual(leftoverCustomers(ledger), []);
      assert.match(output, /cleanup: deleted 1 leftover customer/, `global teardown did the deleting:\n${output}`);
    } finally {
      await mock.close();
    }
  });
});
