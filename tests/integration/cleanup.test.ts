/**
 * Cleanup (run/cleanup.ts, global teardown in run/global-setup.ts): the run ledger,
 * an interrupted run (SIGINT while a test is between creating and deleting a customer)
 * that still leaves no customer behind on the target, a terminated one (SIGTERM to the
 * command or to its whole process group, the command killed outright),
 * and the leftovers of a run killed before its teardown, which the next run deletes or
 * reports instead of forgetting them.
 *
 *   node --import tsx --test tests/unit/cleanup.test.ts
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockServer, type RunningMock } from '../../mock/server.ts';
import {
  carriedOverSummary,
  cleanupSummary,
  continueLedger,
  deleteLeftoverCustomers,
  leftoverCustomers,
  recordCreatedCustomer,
  recordDeletedCustomer,
  startLedger,
} from '../../run/cleanup.ts';
import {
  createdCustomerId,
  deletedCustomerId,
  inlineCustomerId,
  openCustomers,
  runStillGoing,
} from '../../output/ledger.ts';
import { nodeSender, sendWithPolicy, type TransportSettings } from '../../http/transport.ts';

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
  unreachableFile: null,
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
    assert.equal(
      inlineCustomerId('{"customer":{"id":9}}', { id: 1, customer_id: 9 }),
      undefined,
      'an existing customer is not ours to delete',
    );
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
        sendWithPolicy(
          nodeSender(),
          {
            method: 'POST',
            url: `${mock.sandboxBaseUrl}/customers`,
            headers,
            data: '{"email":"t@example.com"}',
            operationId: 'createCustomer',
          },
          policy,
        );
      const ids = [];
      for (let n = 0; n < 3; n += 1)
        ids.push((JSON.parse((await create()).response.body.toString()) as { id: number }).id);
      await sendWithPolicy(
        nodeSender(),
        { method: 'DELETE', url: `${mock.sandboxBaseUrl}/customers/${ids[0]}`, headers, operationId: 'deleteCustomer' },
        policy,
      );
      await sendWithPolicy(
        nodeSender(),
        { method: 'DELETE', url: `${mock.sandboxBaseUrl}/customers/999999`, headers, operationId: 'deleteCustomer' },
        policy,
      );
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
      const keep = store.addCustomer({
        email: 'keep@example.com',
        firstname: null,
        lastname: null,
        phone_number: null,
      });
      const left = [1, 2, 3].map((n) =>
        store.addCustomer({ email: `left${n}@example.com`, firstname: null, lastname: null, phone_number: null }),
      );
      for (const customer of left) recordCreatedCustomer(customer.id, 'run-b', file);
      recordCreatedCustomer(999_999, 'run-b', file); // already gone
      const target = { baseUrl: mock.sandboxBaseUrl, secretKey: mock.sandboxKey, runId: 'run-b' };
      const result = await deleteLeftoverCustomers(target, settings, file);
      assert.deepEqual(
        result.deleted,
        left.map((customer) => customer.id),
      );
      assert.deepEqual(result.gone, [999_999]);
      assert.deepEqual(result.failed, []);
      assert.deepEqual([...store.customers.keys()], [keep.id], 'only the customer the run did not create remains');
      assert.deepEqual(leftoverCustomers(file), []);
      assert.match(cleanupSummary(result) ?? '', /deleted 3 customer\(s\): 3 this run created; 1 already gone/);
      // Whose customers they were.
      assert.match(
        cleanupSummary(result, 1) ?? '',
        /deleted 3 customer\(s\): 2 this run created, 1 left by an earlier run/,
      );
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
      const result = await deleteLeftoverCustomers(
        { baseUrl: mock.sandboxBaseUrl, secretKey: 'sk_sandbox_wrong_key_1234', runId: 'run-c' },
        settings,
        file,
      );
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
    const mock = await startMockServer({
      host: '127.0.0.1',
      port: 0,
      faults: 'latency=1500,reset=first:2,methods=DELETE',
    });
    const outputDir = join(scratch, 'interrupted');
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
          '-g',
          'an existing customer is deleted',
        ],
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
          // Its own process group, so that the interrupt reaches the
          // runner and its workers as Ctrl-C in a terminal does.
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
      assert.equal(
        mock.mock.stores.sandbox.customers.size,
        0,
        `customers left on the target after SIGINT: ` +
          `${JSON.stringify([...mock.mock.stores.sandbox.customers.keys()])} ledger ` +
          `${existsSync(ledger) ? readFileSync(ledger, 'utf8') : 'none'}\n${output}`,
      );
      assert.deepEqual(leftoverCustomers(ledger), []);
      assert.match(
        output,
        /cleanup: deleted 1 customer\(s\): 1 this run created/,
        `global teardown did the deleting:\n${output}`,
      );
    } finally {
      await mock.close();
    }
  });

  test('SIGINT with two workers mid-run (customers created directly and inline in transactions): none is left', {
    timeout: 120_000,
  }, async () => {
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
          env: {
            ...process.env,
            PCS_BASE_URL: mock.sandboxBaseUrl,
            PCS_SECRET_KEY: mock.sandboxKey,
            PCS_ENVIRONMENT: 'sandbox',
            PCS_OUTPUT_DIR: outputDir,
            ALLURE_RESULTS_DIR: join(outputDir, 'allure-results'),
            PCS_WORKERS: '2',
            CI: '',
          },
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
      assert.ok(
        mock.mock.stores.sandbox.customers.size >= 1,
        `customers exist on the target at the interrupt:\n${output}`,
      );
      process.kill(-child.pid!, 'SIGINT');
      await exited;
      const left = [...mock.mock.stores.sandbox.customers.values()].map(
        (customer) => `${customer.id} ${customer.email}`,
      );
      assert.deepEqual(
        left,
        [],
        `customers left on the target after SIGINT; ledger:\n${readFileSync(ledger, 'utf8')}\n${output}`,
      );
      assert.deepEqual(leftoverCustomers(ledger), []);
    } finally {
      await mock.close();
    }
  });
});

describe('leftovers of a run killed before its teardown', () => {
  const here = { baseUrl: 'https://sandbox.example.com/v1', embedded: false };
  const elsewhere = { baseUrl: 'https://other.example.com/v1', embedded: false };

  const carriedOverTitle =
    'the next run carries them over: its own target deleted by its teardown, ' +
    'another target reported and kept, an embedded mock dropped';
  test(carriedOverTitle, () => {
    const file = join(scratch, 'ledger-carry.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify({
        event: 'run',
        runId: 'killed',
        target: here.baseUrl,
        embedded: false,
        pid: 2 ** 22 + 1,
        host: hostname(),
        at: 'x',
      })}\n`,
    );
    recordCreatedCustomer(1, 'killed', file, here);
    recordCreatedCustomer(2, 'killed', file, here);
    recordDeletedCustomer(2, 'killed', file, here);
    recordCreatedCustomer(3, 'killed', file, elsewhere);
    recordCreatedCustomer(4, 'killed', file, { baseUrl: 'http://127.0.0.1:40000/v1', embedded: true });
    recordCreatedCustomer(5, 'older', file); // a ledger that did not record its target
    const carried = continueLedger(file, 'next', here);
    assert.deepEqual(
      carried.sameTarget.map((customer) => customer.id),
      [1],
    );
    assert.deepEqual(
      carried.otherTargets.map((customer) => customer.id),
      [3],
    );
    assert.deepEqual(
      carried.unknownTarget.map((customer) => customer.id),
      [5],
    );
    assert.equal(carried.droppedEmbedded, 1);
    assert.deepEqual(leftoverCustomers(file, here.baseUrl), [1], "this run's teardown deletes the one on its target");
    assert.deepEqual(leftoverCustomers(file, elsewhere.baseUrl), [3]);
    assert.deepEqual(
      openCustomers(file).map((customer) => customer.id),
      [1, 3],
      'the unknown and the embedded ones are not kept',
    );
    const lines = carriedOverSummary(carried, file);
    assert.equal(lines.length, 3);
    assert.match(lines[0]!, /1 customer\(s\) left on this target .*1 \(run killed\).*this run's teardown deletes them/);
    assert.match(lines[1]!, /1 customer\(s\) left on https:\/\/other\.example\.com\/v1 .*3 \(run killed\)/);
    assert.match(lines[2]!, /5 \(run older\).*delete them by hand/);
    // A later run against the other target deletes what is left there, and still remembers this target's.
    const later = continueLedger(file, 'later', elsewhere);
    assert.deepEqual(
      later.sameTarget.map((customer) => customer.id),
      [3],
    );
    assert.deepEqual(
      later.otherTargets.map((customer) => customer.id),
      [1],
    );
  });

  const runStillGoingTitle =
    'a ledger whose run is still going on this machine is recognised; ' +
    'a dead pid, this process, another machine are not';
  test(runStillGoingTitle, async () => {
    const alive = join(scratch, 'ledger-alive.jsonl');
    // A process whose command line names Playwright stands for the other run's runner.
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', 'playwright', 'test'], {
      stdio: 'ignore',
    });
    try {
      writeFileSync(
        alive,
        `${JSON.stringify({
          event: 'run',
          runId: 'other',
          target: here.baseUrl,
          embedded: false,
          pid: other.pid,
          host: hostname(),
          at: 'x',
        })}\n`,
      );
      assert.deepEqual(runStillGoing(alive), { pid: other.pid, runId: 'other' });
    } finally {
      other.kill();
    }
    writeFileSync(
      alive,
      `${JSON.stringify({
        event: 'run',
        runId: 'other',
        target: here.baseUrl,
        embedded: false,
        pid: 2 ** 22 + 7,
        host: hostname(),
        at: 'x',
      })}\n`,
    );
    assert.equal(runStillGoing(alive), null, 'no such process');
    writeFileSync(
      alive,
      `${JSON.stringify({
        event: 'run',
        runId: 'other',
        target: here.baseUrl,
        embedded: false,
        pid: process.pid,
        host: hostname(),
        at: 'x',
      })}\n`,
    );
    assert.equal(runStillGoing(alive), null, 'this very process is not another run');
    writeFileSync(
      alive,
      `${JSON.stringify({
        event: 'run',
        runId: 'other',
        target: here.baseUrl,
        embedded: false,
        pid: process.pid,
        host: `${hostname()}-elsewhere`,
        at: 'x',
      })}\n`,
    );
    assert.equal(runStillGoing(alive), null, 'a run of another machine cannot be checked: not refused');
  });

  test('a run against the same target deletes the customers a killed run left, and says so', {
    timeout: 180_000,
  }, async () => {
    const mock = await startMockServer({ host: '127.0.0.1', port: 0 });
    const outputDir = join(scratch, 'after-kill');
    mkdirSync(outputDir, { recursive: true });
    try {
      const store = mock.mock.stores.sandbox;
      const left = [1, 2].map((n) =>
        store.addCustomer({ email: `killed${n}@example.com`, firstname: null, lastname: null, phone_number: null }),
      );
      const ledger = join(outputDir, 'created-customers.jsonl');
      // The ledger of a run killed with kill -9: its header names a process that no longer exists.
      writeFileSync(
        ledger,
        `${JSON.stringify({
          event: 'run',
          runId: 'cc-killed',
          target: mock.sandboxBaseUrl,
          embedded: false,
          pid: 2 ** 22 + 3,
          host: hostname(),
          at: 'x',
        })}\n`,
      );
      for (const customer of left)
        recordCreatedCustomer(customer.id, 'cc-killed', ledger, { baseUrl: mock.sandboxBaseUrl, embedded: false });
      const run = await command(mock, outputDir, [
        '--',
        'tests/conformance/balances-and-currencies.spec.ts',
        '-g',
        'an existing balance',
      ]);
      const code = await run.exited;
      assert.equal(code, 0, run.output());
      assert.match(
        run.output(),
        new RegExp(
          String.raw`cleanup: 2 customer\(s\) left on this target by an earlier run ` +
            String.raw`that was stopped before its cleanup \(\d+, \d+ \(run cc-killed\)\)`,
        ),
      );
      assert.match(run.output(), /cleanup: deleted 2 customer\(s\): 2 left by an earlier run/);
      assert.deepEqual(
        [...store.customers.keys()].filter((id) => left.some((customer) => customer.id === id)),
        [],
        "the killed run's customers are gone",
      );
      assert.deepEqual(leftoverCustomers(ledger), []);
    } finally {
      await mock.close();
    }
  });
});

const bin = join(projectRoot, 'bin', 'collect-conformance.mjs');

/**
 * The installed command (bin/collect-conformance.mjs, as npm
 * run conformance and npx run it) against a mock, one worker.
 */
async function command(mock: RunningMock, outputDir: string, extra: string[], options: { detached?: boolean } = {}) {
  const child = spawn(
    process.execPath,
    [
      bin,
      '--base-url',
      mock.sandboxBaseUrl,
      '--secret-key-env',
      'CLEANUP_TEST_KEY',
      '--workers',
      '1',
      '--reporter',
      'line',
      '--output',
      outputDir,
      ...extra,
    ],
    {
      cwd: projectRoot,
      env: {
        ...process.env,
        CLEANUP_TEST_KEY: mock.sandboxKey,
        PCS_ENVIRONMENT: 'sandbox',
        PCS_TIMEOUT_MS: '10000',
        PCS_RETRIES: '0',
        ALLURE_RESULTS_DIR: join(outputDir, 'allure-results'),
        CI: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: options.detached ?? false,
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))),
  );
  return { child, exited, output: () => output };
}

/** Waits until the run's ledger shows a customer created and not yet deleted. */
async function untilCustomerExists(ledger: string, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline && !(existsSync(ledger) && leftoverCustomers(ledger).length >= 1)) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.ok(
    existsSync(ledger) && leftoverCustomers(ledger).length >= 1,
    `the run never created a customer:\n${output()}`,
  );
}

function runnerPid(ledger: string): number {
  const header = JSON.parse(readFileSync(ledger, 'utf8').split('\n')[0]!) as { event: string; pid: number };
  assert.equal(header.event, 'run');
  return header.pid;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('a terminated run (SIGTERM, a killed command) cleans up like Ctrl-C', () => {
  // Deletions are slow on this target, so that the signal lands while a test's customer exists.
  const faults = 'latency=2500,methods=DELETE';
  const selection = ['--', 'tests/conformance/delete-customer.spec.ts', '-g', 'an existing customer is deleted'];

  test('SIGTERM to the command: teardown deletes the customers, the command exits 143', {
    timeout: 180_000,
  }, async () => {
    const mock = await startMockServer({ host: '127.0.0.1', port: 0, faults });
    const outputDir = join(scratch, 'sigterm-command');
    try {
      const run = await command(mock, outputDir, selection);
      await untilCustomerExists(join(outputDir, 'created-customers.jsonl'), run.output);
      run.child.kill('SIGTERM');
      const code = await run.exited;
      assert.equal(code, 143, run.output());
      assert.equal(
        mock.mock.stores.sandbox.customers.size,
        0,
        `customers left on the target after SIGTERM:\n${run.output()}`,
      );
      assert.deepEqual(leftoverCustomers(join(outputDir, 'created-customers.jsonl')), []);
      assert.match(run.output(), /SIGTERM received: stopping the run/);
    } finally {
      await mock.close();
    }
  });

  test('SIGTERM to the whole process group (as timeout sends it): one clean stop, teardown runs, exit 143', {
    timeout: 180_000,
  }, async () => {
    const mock = await startMockServer({ host: '127.0.0.1', port: 0, faults });
    const outputDir = join(scratch, 'sigterm-group');
    try {
      const run = await command(mock, outputDir, selection, { detached: true });
      await untilCustomerExists(join(outputDir, 'created-customers.jsonl'), run.output);
      process.kill(-run.child.pid!, 'SIGTERM');
      const code = await run.exited;
      assert.equal(code, 143, run.output());
      assert.equal(
        mock.mock.stores.sandbox.customers.size,
        0,
        `customers left on the target after SIGTERM:\n${run.output()}`,
      );
      assert.equal(run.output().match(/SIGTERM received/g)?.length, 1, `the runner stopped once:\n${run.output()}`);
    } finally {
      await mock.close();
    }
  });

  test('the command killed outright (kill -9): the runner notices, stops and cleans up instead of running on', {
    timeout: 180_000,
  }, async () => {
    const mock = await startMockServer({ host: '127.0.0.1', port: 0, faults });
    const outputDir = join(scratch, 'killed-command');
    const ledger = join(outputDir, 'created-customers.jsonl');
    try {
      const run = await command(mock, outputDir, selection);
      await untilCustomerExists(ledger, run.output);
      const runner = runnerPid(ledger);
      run.child.kill('SIGKILL');
      await run.exited;
      const deadline = Date.now() + 90_000;
      while (Date.now() < deadline && isRunning(runner)) await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(isRunning(runner), false, `the runner went on in the background:\n${run.output()}`);
      assert.equal(mock.mock.stores.sandbox.customers.size, 0, `customers left on the target:\n${run.output()}`);
      assert.deepEqual(leftoverCustomers(ledger), []);
    } finally {
      await mock.close();
    }
  });

  test('SIGTERM to the runner alone: teardown runs, the command exits 143, not 130', {
    timeout: 180_000,
  }, async () => {
    const mock = await startMockServer({ host: '127.0.0.1', port: 0, faults });
    const outputDir = join(scratch, 'sigterm-runner');
    const ledger = join(outputDir, 'created-customers.jsonl');
    try {
      const run = await command(mock, outputDir, selection);
      await untilCustomerExists(ledger, run.output);
      process.kill(runnerPid(ledger), 'SIGTERM');
      const code = await run.exited;
      assert.equal(code, 143, run.output());
      assert.equal(mock.mock.stores.sandbox.customers.size, 0, `customers left on the target:\n${run.output()}`);
    } finally {
      await mock.close();
    }
  });

  test('the runner killed outright (kill -9): the command exits 137 and says in one line that the run was killed', {
    timeout: 180_000,
  }, async () => {
    const mock = await startMockServer({ host: '127.0.0.1', port: 0, faults });
    const outputDir = join(scratch, 'killed-runner');
    const ledger = join(outputDir, 'created-customers.jsonl');
    try {
      const run = await command(mock, outputDir, selection);
      await untilCustomerExists(ledger, run.output);
      process.kill(runnerPid(ledger), 'SIGKILL');
      const code = await run.exited;
      assert.equal(code, 137, run.output());
      const said = run
        .output()
        .split('\n')
        .filter((line) => /was killed by SIGKILL/.test(line));
      assert.equal(said.length, 1, run.output());
      assert.match(
        said[0]!,
        /^collect-conformance: the test runner \(pid \d+\) was killed by SIGKILL: the run did not/,
      );
    } finally {
      await mock.close();
    }
  });
});
