/**
 * The run as a whole, before and while it talks to a target: the live guard refuses before
 * any request (exit 2, one line), an unreachable target ends the run at once in global
 * setup's preflight (exit 3, one line, the marker file), and a target that goes away during
 * the run gives one "target unavailable" failure, not one per test: the others are skipped.
 *
 *   node --import tsx --test tests/unit/run-safety.test.ts
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockServer } from '../../mock/server.ts';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'pcs-run-safety-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

function suite(
  env: Record<string, string>,
  outputDir: string,
  args: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      [
        join(projectRoot, 'node_modules', '@playwright', 'test', 'cli.js'),
        'test',
        '--config',
        join(projectRoot, 'playwright.config.ts'),
        '--reporter=line,junit',
        ...args,
      ],
      {
        cwd: scratch,
        env: {
          ...process.env,
          PCS_OUTPUT_DIR: outputDir,
          PLAYWRIGHT_JUNIT_OUTPUT_FILE: join(outputDir, 'junit.xml'),
          CI: '',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => done({ code, stdout, stderr }));
  });
}

/**
 * A loopback HTTP server that counts requests and answers them with `answer` (or closes for good after `lastRequest`).
 */
async function countingServer(lastRequest = Infinity): Promise<{ server: Server; base: string; count: () => number }> {
  let count = 0;
  const server = createServer((_request, response) => {
    count += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end('[{"id":1}]');
    if (count >= lastRequest) {
      // Gone for good: no listener any more, so the next connection is refused.
      server.close();
      server.closeAllConnections();
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { server, base: `http://127.0.0.1:${port}/v1`, count: () => count };
}

function stderrLines(text: string): string[] {
  return text.split('\n').filter((line) => line.startsWith('collect-conformance:'));
}

describe('before and during the run', () => {
  test('a live-looking base URL without PCS_ALLOW_LIVE=yes: exit 2, one line, no request', {
    timeout: 120_000,
  }, async () => {
    const target = await countingServer();
    try {
      const result = await suite(
        { PCS_BASE_URL: target.base.replace('/v1', '/live/v1'), PCS_SECRET_KEY: 'opaque-key-0001' },
        join(scratch, 'live'),
      );
      assert.equal(result.code, 2, result.stderr);
      assert.deepEqual(stderrLines(result.stderr), [
        'collect-conformance: configuration error: PCS_ALLOW_LIVE: ' +
          'the target is live (PCS_ENVIRONMENT, key or base URL); set PCS_ALLOW_LIVE=yes to run against it',
      ]);
      assert.equal(target.count(), 0, 'no request reached the target');
    } finally {
      target.server.close();
    }
  });

  test('a live key with PCS_ENVIRONMENT=sandbox: exit 2 and no request, whatever PCS_ALLOW_LIVE says', {
    timeout: 120_000,
  }, async () => {
    const target = await countingServer();
    try {
      const result = await suite(
        {
          PCS_BASE_URL: target.base,
          PCS_SECRET_KEY: 'sk_live_0123456789abcdef',
          PCS_ENVIRONMENT: 'sandbox',
          PCS_ALLOW_LIVE: 'yes',
        },
        join(scratch, 'contradiction'),
      );
      assert.equal(result.code, 2, result.stderr);
      assert.equal(stderrLines(result.stderr).length, 1);
      assert.ok(!result.stderr.includes('sk_live_0123456789abcdef'), 'the key is not repeated');
      assert.equal(target.count(), 0);
    } finally {
      target.server.close();
    }
  });

  test('an unreachable target: the preflight ends the run with exit 3 and one line, before any test', {
    timeout: 120_000,
  }, async () => {
    const gone = await countingServer();
    await new Promise<void>((done) => gone.server.close(() => done()));
    const outputDir = join(scratch, 'unreachable');
    const result = await suite({ PCS_BASE_URL: gone.base, PCS_SECRET_KEY: 'sk_sandbox_0123456789abcdef' }, outputDir);
    assert.equal(result.code, 3, result.stderr);
    const lines = stderrLines(result.stderr);
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0] ?? '', /^collect-conformance: target unavailable: GET \/v1\/currencies\/1: ECONNREFUSED/);
    assert.doesNotMatch(result.stdout, /passed|failed/, 'no test ran');
    assert.ok(existsSync(join(outputDir, 'target-unavailable.txt')), 'the marker file for the CLI');
  });

  test('a target that goes away mid-run: one "target unavailable" failure, the other tests skipped', {
    timeout: 180_000,
  }, async () => {
    // Answers the preflight, then stops listening.
    const target = await countingServer(1);
    const outputDir = join(scratch, 'mid-run');
    const result = await suite(
      {
        PCS_BASE_URL: target.base,
        PCS_SECRET_KEY: 'sk_sandbox_0123456789abcdef',
        PCS_WORKERS: '1',
        PCS_BALANCE_ID: '1',
        PCS_CURRENCY_ID: '1',
      },
      outputDir,
      [
        join(projectRoot, 'tests/conformance/balances-and-currencies.spec.ts'),
        join(projectRoot, 'tests/conformance/delete-customer.spec.ts'),
      ],
    );
    assert.equal(target.count(), 1, 'only the preflight was answered');
    assert.equal(result.code, 1, result.stdout.slice(-2000));
    const junit = readFileSync(join(outputDir, 'junit.xml'), 'utf8');
    const failed = Number(/failures="(\d+)"/.exec(junit)?.[1]) + Number(/errors="(\d+)"/.exec(junit)?.[1]);
    const skipped = Number(/skipped="(\d+)"/.exec(junit)?.[1]);
    assert.equal(failed, 1, `one failure, not one per test:\n${result.stdout.slice(-3000)}`);
    assert.ok(skipped >= 5, `the other tests are skipped (${skipped})`);
    assert.match(result.stdout, /target unavailable: GET \/v1\/\S+: ECONNREFUSED/);
    assert.match(readFileSync(join(outputDir, 'target-unavailable.txt'), 'utf8'), /\(unreachable\)/);
  });

  test('a persistent 429 is reported as "rate limited", never as a rule violation', { timeout: 180_000 }, async () => {
    // The preflight (the first GET) is answered; every later GET gets 429 with Retry-After: 0.
    const mock = await startMockServer({
      host: '127.0.0.1',
      port: 0,
      faults: 'rate429=after:1,retryAfter=0,methods=GET',
    });
    const outputDir = join(scratch, 'rate-limited');
    try {
      const result = await suite(
        {
          PCS_BASE_URL: mock.sandboxBaseUrl,
          PCS_SECRET_KEY: mock.sandboxKey,
          PCS_WORKERS: '1',
          PCS_RETRIES: '1',
          PCS_BALANCE_ID: '1',
          PCS_CURRENCY_ID: '1',
        },
        outputDir,
        [join(projectRoot, 'tests/conformance/balances-and-currencies.spec.ts'), '-g', 'an existing'],
      );
      assert.equal(result.code, 1);
      const junit = readFileSync(join(outputDir, 'junit.xml'), 'utf8');
      assert.ok(
        Number(/failures="(\d+)"/.exec(junit)?.[1]) + Number(/errors="(\d+)"/.exec(junit)?.[1]) >= 1,
        result.stdout.slice(-2000),
      );
      // PCS_RETRIES=1: two attempts that count, after the 429s that taught the rate controller (one, or two
      // when the coordinator saw the next request as asked before its decrease; http/rate-control.ts).
      assert.match(result.stdout, /rate limited: GET \/v1\/(balances|currencies)\/1 answered 429 on [34] attempts/);
      assert.doesNotMatch(result.stdout, /\) violated by get(Balance|Currency)/, 'no rule is said to be violated');
      assert.match(readFileSync(join(outputDir, 'target-unavailable.txt'), 'utf8'), /rate limited:/);
    } finally {
      await mock.close();
    }
  });

  test('transport faults never read as broken rules in the matrix and the coverage', {
    timeout: 240_000,
  }, async () => {
    // Every fourth request answered 503: creations are not repeated (target unavailable), reads are retried.
    const mock = await startMockServer({ host: '127.0.0.1', port: 0, faults: 'status503=every:4,retryAfter=0' });
    const outputDir = join(scratch, 'faults-in-matrix');
    try {
      const result = await suite(
        {
          PCS_BASE_URL: mock.sandboxBaseUrl,
          PCS_SECRET_KEY: mock.sandboxKey,
          PCS_WORKERS: '1',
          PCS_RETRIES: '1',
          PCS_BALANCE_ID: '1',
          PCS_CURRENCY_ID: '1',
          PCS_RUNS: '5',
        },
        outputDir,
        // The link's tests create transactions (not repeated after a 503) and read links (repeated): both kinds.
        [
          join(projectRoot, 'tests/conformance/payment-link.spec.ts'),
          `--reporter=line,junit,${join(projectRoot, 'reporters', 'conformance-reporter.ts')}`,
        ],
      );
      assert.equal(result.code, 1, result.stdout.slice(-2000));
      assert.match(
        result.stdout,
        /target unavailable: POST \/v1\/transactions answered 503/,
        'the faults did make tests fail',
      );
      assert.doesNotMatch(result.stdout, /\) violated by /, 'the target broke no rule');
      const matrix = JSON.parse(readFileSync(join(outputDir, 'conformance-matrix.json'), 'utf8')) as {
        cells: Array<{ rule: string; verdict: string }>;
      };
      assert.deepEqual(
        matrix.cells.filter((found) => found.verdict === 'fail').map((found) => found.rule),
        [],
        'no cell reads as a broken rule',
      );
      assert.ok(
        matrix.cells.some((found) => found.verdict === 'unavailable'),
        'the faults show as target unavailable',
      );
      const coverage = JSON.parse(readFileSync(join(outputDir, 'rule-coverage.json'), 'utf8')) as {
        totals: Record<string, number>;
      };
      assert.equal(coverage.totals.fail, 0);
      assert.ok((coverage.totals.unavailable ?? 0) > 0);
      for (const file of ['conformance-matrix.md', 'rule-coverage.md']) {
        const text = readFileSync(join(outputDir, file), 'utf8');
        assert.doesNotMatch(text.slice(0, text.indexOf('Legend:')), /❌/, `${file}: no ❌ outside the legend`);
        assert.match(text, /Legend: .*🔌/);
      }
    } finally {
      await mock.close();
    }
  });
});
