/**
 * The exit code a CI gate reads, from the command run as a user runs it:
 * against a target that breaks a rule and also answers a few 503s, the run exits 1
 * (non-conformance), not 3 (target unavailable). A wrong key or a wrong host is told apart by
 * the preflight in seconds (item 3): exit 2, one line.
 *
 *   node --import tsx --test tests/integration/gate-exit-codes.test.ts
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockServer } from '../../mock/server.ts';
import { runCommand } from './run-command.ts';

const scratch = mkdtempSync(join(tmpdir(), 'pcs-gate-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

test('a broken rule with 503s on the side exits 1, not 3', { timeout: 180_000 }, async () => {
  // POST is not repeated after a 503 (it may have created something). On one worker, the echo's test (one
  // creation, answered with the broken echo), then a link's test (its creation answered 503: its rule undecided).
  // Random sequences would make the count of creations before each test a matter of the seed.
  const mock = await startMockServer({
    mutant: 'createTransaction.echo.amount',
    faults: 'status503=every:2,methods=POST',
  });
  try {
    const output = join(scratch, 'echo-and-503');
    const grep = 'the created transaction echoes amount|the response is an object with token and url strings';
    const result = await runCommand(['--grep', grep, '--output', output, '--reporter', 'dot'], {
      PCS_BASE_URL: mock.sandboxBaseUrl,
      PCS_SECRET_KEY: mock.sandboxKey,
      PCS_RETRIES: '0',
      PCS_WORKERS: '1',
    });
    assert.ok(existsSync(join(output, 'target-unavailable.txt')), 'the run met the target unavailable');
    const coverage = JSON.parse(readFileSync(join(output, 'rule-coverage.json'), 'utf8')) as {
      totals: { fail: number };
    };
    assert.ok(coverage.totals.fail > 0, 'the coverage holds a broken rule');
    assert.equal(result.code, 1, result.stderr.slice(-2000));
    // The last screen names the cause, the rule it breaks, and an example with location, expected and actual ...
    const lastLines = result.stdout.trimEnd().split('\n').slice(-8).join('\n');
    assert.match(lastLines, /^collect-conformance: summary: 1 cause breaks 1 rule \(❌\): .*; \d+ tests: /m, lastLines);
    assert.match(
      lastLines,
      new RegExp(
        String.raw`^ {2}❌ cause [0-9a-f]{8}: /amount: not the value owed .* — on createTransaction; ` +
          String.raw`breaks TXN-CREATE-ECHO \(\d+ tests?\)\n {5}e\.g\. POST /v1/transactions → 201 at ` +
          String.raw`body /amount: expected \d+ \(number\), actual \d+ \(number\)$`,
        'm',
      ),
    );
    assert.match(lastLines, /^ {2}🔌 target unavailable: \d+ rules? could not be decided$/m);
    assert.match(lastLines, /^ {2}matrix: \S+conformance-matrix\.md {2}rule coverage: \S+rule-coverage\.md$/m);
    // ... and no failure shows a code frame of the suite's own files.
    assert.doesNotMatch(result.stdout, /expect-rule\.ts|properties\.ts:\d+|^\s*> \d+ \|/m);
  } finally {
    await mock.close();
  }
});

/** The lines the command itself printed (Playwright's and npm's aside). */
const ownLines = (text: string) => text.split('\n').filter((line) => line.startsWith('collect-conformance:'));

test('a wrong key against a conforming target: exit 2 in seconds, naming the variable it came from', {
  timeout: 60_000,
}, async () => {
  const mock = await startMockServer();
  try {
    const started = Date.now();
    const wrongKey = 'sk_sandbox_not_the_right_one_0042';
    const result = await runCommand(
      [
        ...['--base-url', mock.sandboxBaseUrl, '--secret-key-env', 'HOLD_KEY', '--balance-id', '1'],
        ...['--currency-id', '1', '--output', join(scratch, 'wrong-key')],
      ],
      { HOLD_KEY: wrongKey },
    );
    assert.equal(result.code, 2, result.stdout.slice(-1500) + result.stderr);
    assert.ok(Date.now() - started < 30_000, 'in seconds, not minutes');
    const lines = ownLines(result.stderr);
    assert.equal(lines.length, 1, result.stderr);
    assert.match(
      lines[0]!,
      new RegExp(
        '^collect-conformance: configuration error: HOLD_KEY: ' +
          'the target refused this key with 401 on GET /v1/currencies/1 and GET /v1/balances/1',
      ),
    );
    assert.doesNotMatch(result.stdout + result.stderr, new RegExp(wrongKey), 'the key is not printed');
    assert.doesNotMatch(result.stdout, /passed|failed/, 'no test ran');
  } finally {
    await mock.close();
  }
});

test('a host that answers 404 to everything: exit 2 in seconds, with what was tried', { timeout: 60_000 }, async () => {
  const server = createServer((_request, response) => response.writeHead(404).end('Not Found'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  try {
    const started = Date.now();
    const result = await runCommand(['--base-url', base, '--output', join(scratch, 'not-this-api')], {
      PCS_SECRET_KEY: 'sk_sandbox_somewhere_else_0001',
      PCS_BALANCE_ID: '7',
      PCS_CURRENCY_ID: '3',
    });
    assert.equal(result.code, 2, result.stdout.slice(-1500) + result.stderr);
    assert.ok(Date.now() - started < 30_000, 'in seconds, not minutes');
    const lines = ownLines(result.stderr);
    assert.equal(lines.length, 1, result.stderr);
    assert.match(
      lines[0]!,
      new RegExp(
        `^collect-conformance: configuration error: PCS_BASE_URL: ${base} does not serve this API: ` +
          'GET /api/v1/currencies/3 and GET /api/v1/balances/7 answered 404, and GET /api/v1/currencies/3 ' +
          'answered 404 without a key too',
      ),
    );
  } finally {
    server.close();
  }
});

test('the replay line is the command the user ran, seed and path added, and it replays the failure', {
  timeout: 240_000,
}, async () => {
  const mock = await startMockServer({ mutant: 'createTransaction.echo.amount' });
  try {
    const env = { HOLD_KEY: mock.sandboxKey, PCS_RUNS: '20' };
    const userArgs = [
      ...['--base-url', mock.sandboxBaseUrl, '--secret-key-env', 'HOLD_KEY', '--reporter', 'line'],
      ...['--grep', 'property: any valid creation body gives', '--output', join(scratch, 'replay-first')],
    ];
    const first = await runCommand(userArgs, env);
    assert.equal(first.code, 1, first.stdout.slice(-1500) + first.stderr);
    const replay = /replay: (.*)/.exec(first.stdout)?.[1];
    assert.ok(replay, first.stdout.slice(-3000));
    assert.match(
      replay,
      new RegExp(
        `^npm run conformance -- --base-url ${mock.sandboxBaseUrl} --secret-key-env HOLD_KEY --reporter line ` +
          `--output \\S+ --seed -?\\d+ --path \\S+ --grep '`,
      ),
    );
    assert.match(first.stdout, /-H "Authorization: Bearer \$HOLD_KEY"/, 'curl names the variable the user chose');
    assert.doesNotMatch(first.stdout, /\$PCS_SECRET_KEY/);
    // The line, as a shell would split it, run again: the same failure.
    const words = [...replay.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((match) =>
      match[1] !== undefined ? match[1].replace(/'\\''/g, "'") : match[2]!,
    );
    assert.deepEqual(words.slice(0, 4), ['npm', 'run', 'conformance', '--']);
    const again = await runCommand(
      words.slice(4).map((word) => (word.endsWith('replay-first') ? join(scratch, 'replay-again') : word)),
      env,
    );
    assert.equal(again.code, 1, again.stdout.slice(-1500) + again.stderr);
    assert.match(again.stdout, /1 failed/);
    assert.match(again.stdout, /TXN-CREATE-ECHO \(documented\) violated by createTransaction/);
  } finally {
    await mock.close();
  }
});
