/**
 * Cleanup (support/lifecycle/cleanup.ts, global teardown in support/lifecycle/global-setup.ts): the run ledger,
 * and an interrupted run (SIGINT while a test is between creating and deleting a customer)
 * that still leaves no customer behind on the target.
 *
 *   node --import tsx --test tests/unit/cleanup.test.ts
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
  startLedger,
} from '../../support/lifecycle/cleanup.ts';
import { createdCustomerId, deletedCustomerId, inlineCustomerId } from '../../support/lifecycle/ledger.ts';
import { nodeSender, sendWithPolicy, type TransportSettings } from '../../support/http/transport.ts';

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
  ledger: null,
};

describe('run ledger', () => {
  test('leftovers are the customers created and not deleted; cut lines are ignored', () => {
    const file = join(scratch, 'ledger-1.jsonl');
    startLedger(file);
    recordCreatedCustomer(1, 'run-a', file);
    recordCreatedCustomer(2, 'run-a', file);
    recordCreatedCustomer(3, 'run-a', file);
    recordDeletedCustomer(2, 'run-a', file);
    appendFileSync(file, '{"event":"deleted","id":3'); // cut by a killed worker
    assert.deepEqual(leftoverCustomers(file), [1, 3]);
    startLedger(file);
    assert.deepEqual(leftoverCustomers(file), [], 'a new run starts with an empty ledger');
  });

  test('ids are read from creation answers of any likely shape and from deletion URLs', () => {
    assert.equal(createdCustomerId({ id: 5 }), 5);
    assert.equal(createdCustomerId([{ id: 6 }]), 6);
    assert.equal(createdCustomerId({ data: { id: 7 } }), 7);
    assert.equal(createdCustomerId({ id: '8' }), undefined);
    assert.equal(deletedCustomerId('http://127.0.0.1:1/v1/customers/42'), 42);
    assert.equal(deletedCustomerId('http://127.0.0.1:1/v1/customers/abc'), undefined);
    assert.equal(inlineCustomerId('{"customer":{"email":"a@example.com"}}', { id: 1, customer_id: 9 }), 9);
    assert.equal(inlineCustomerId('{"customer":{"email":"a@example.com"}}', { id: 1, customer: { id: 10 } }), 10);
    assert.equal(inlineCustomerId('{"customer":{"id":9}}', { id: 1, customer_id: 9 }), undefined, 'an existing customer is not ours to delete');
    assert.equal(inlineCustomerId('{"amount":1}', { id: 1, customer_id: 9 }), undefined);
  });

  test('the transport writes every created customer and every deletion seen into the ledger', async () => {
    const mock = await startMockServer({ host: '127.0.0.1', port: 0 });
    try {
      const file = join(scratch, 'ledger-transport.jsonl');
      startLedger(file);
      const policy = { ...settings, ledger: { file, runId: 'run-t' } };
      const headers = { authorization: `Bearer ${mock.sandboxKey}`, 'content-type': 'application/json' };
      const create = () =>
        sendWithPolicy(nodeSender(), { method: 'POST', url: `${mock.sandboxBaseUrl}/customers`, headers, data: '{"email":"t@example.com"}', operationId: 'createCustomer' }, policy);
      const ids = [];
      for (let n = 0; n < 3; n += 1) ids.push((JSON.parse((await create()).response.body.toString()) as { id: number }).id);
      await sendWithPolicy(nodeSender(), { method: 'DELETE', url: `${mock.sandboxBaseUrl}/customers/${ids[0]}`, headers, operationId: 'deleteCustomer' }, policy);
      await sendWithPolicy(nodeSender(), { method: 'DELETE', url: `${mock.sandboxBaseUrl}/customers/999999`, headers, operationId: 'deleteCustomer' }, policy);
      assert.deepEqual(leftoverCustomers(file), ids.slice(1));
      assert.match(readFileSync(file, 'utf8'), /"runId":"run-t"/);
    } finally {
      await mock.close();
    }
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

  test('SIGINT with two workers mid-run (customers created directly and inline in transactions): none is left', { timeout: 120_000 }, async () => {
    const mock = await startMockServer({ host: '127.0.0.1', port: 0, faults: 'latency=2500,methods=DELETE' });
    const outputDir = join(scratch, 'interrupted-two-workers');
    const ledger = join(outputDir, 'created-customers.jsonl');
    try {
      const child = spawn(
        process.execPath,
        [
          join(projectRoot, 'node_modules', '@playwright', 'test', 'cli.js'),
          'test',
          '--config',
          join(projectRoot, 'playwright.config.ts'),
          '--reporter=line',
          'tests/conformance/delete-customer.spec.ts',
          'tests/conformance/create-transaction.spec.ts',
        ],
        {
          cwd: projectRoot,
          env: { ...process.env, PCS_BASE_URL: mock.sandboxBaseUrl, PCS_SECRET_KEY: mock.sandboxKey, PCS_ENVIRONMENT: 'sandbox', PCS_OUTPUT_DIR: outputDir, ALLURE_RESULTS_DIR: join(outputDir, 'allure-results'), PCS_WORKERS: '2', CI: '' },
          stdio: ['ignore', 'pipe', 'pipe'],
          detached: true,
        },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && !(existsSync(ledger) && leftoverCustomers(ledger).length >= 1)) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.ok(mock.mock.stores.sandbox.customers.size >= 1, `customers exist on the target at the interrupt:\n${output}`);
      process.kill(-child.pid!, 'SIGINT');
      await exited;
      const left = [...mock.mock.stores.sandbox.customers.values()].map((customer) => `${customer.id} ${customer.email}`);
      assert.deepEqual(left, [], `customers left on the target after SIGINT; ledger:\n${readFileSync(ledger, 'utf8')}\n${output}`);
      assert.deepEqual(leftoverCustomers(ledger), []);
    } finally {
      await mock.close();
    }
  });
});
