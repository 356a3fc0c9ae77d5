/**
 * Every exit code of the README's table, for `collect-conformance proxy` and for `judge`, as a user
 * meets it: 0 (a conforming recording, with a byte-order mark), 1 (a defect; a body nested 100,000
 * levels deep or naming a member twice is a finding, never the tool's failure), 2 (the live guard, a
 * FIFO refused at once), 3 (an upstream that never answers within the time-out, nothing judged), 4 (a
 * report that cannot be written: the verdicts already made are still written), 130, 143 and 129 (a
 * signal: the proxy's command is stopped, then the reports are written), 137 (the command, or the
 * judge, killed outright). The proxy runs from another working directory than the checkout.
 *
 *   node --import tsx --test tests/integration/traffic-exit-codes.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockServer, type RunningMock } from '../../mock/server.ts';
import { runCommand, startCommand, type CommandResult } from './run-command.ts';
import { harEntry, harText, recorded } from './traffic-fixtures.ts';

const scratch = mkdtempSync(join(tmpdir(), 'pcs-traffic-exit-'));
let mock: RunningMock;
let mutant: RunningMock;
before(async () => {
  mock = await startMockServer({ port: 0, host: '127.0.0.1' });
  mutant = await startMockServer({ port: 0, host: '127.0.0.1', mutant: 'getBalance.auth.wrong-key-accepted' });
});
after(async () => {
  await Promise.all([mock.close(), mutant.close()]);
  rmSync(scratch, { recursive: true, force: true });
});

const lastLines = (result: CommandResult): string => `${result.stdout.slice(-2000)}\n${result.stderr.slice(-1000)}`;

const failedRules = (output: string): string[] =>
  (
    JSON.parse(readFileSync(join(output, 'rule-coverage.json'), 'utf8')) as {
      rules: Array<{ id: string; verdict: string }>;
    }
  ).rules
    .filter((rule) => rule.verdict === 'fail')
    .map((rule) => rule.id);

const keys = (server: RunningMock) => ({ MOCK_KEY: server.sandboxKey, PCS_BALANCE_ID: '1', PCS_CURRENCY_ID: '1' });

/** A command for the proxy: one request (a wrong key, which the mutant accepts), then `then` (JavaScript). */
const requestThen = (then: string) =>
  "fetch(process.env.COLLECT_CONFORMANCE_PROXY_URL + '/balances/1', " +
  "{ headers: { authorization: 'Bearer wrong_1234' } })" +
  `.then((r) => r.text()).then(() => { ${then} })`;

/** A command for the proxy: a read of balance 1 with the key of the variable named. */
const readWith = (variable: string) =>
  "fetch(process.env.COLLECT_CONFORMANCE_PROXY_URL + '/balances/1', " +
  `{ headers: { authorization: 'Bearer ' + process.env.${variable} } }).then((r) => r.text())`;

/** A line the command printed, once it is there. */
async function printed(output: () => string, pattern: RegExp, ms = 30_000): Promise<void> {
  for (const started = Date.now(); !pattern.test(output()); ) {
    if (Date.now() - started > ms) throw new Error(`not printed within ${ms} ms: ${pattern}\n${output()}`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

/** A server that counts the requests it gets and never answers one. */
async function silentServer() {
  const sockets = new Set<Socket>();
  let requests = 0;
  const server: Server = createServer((req) => {
    requests++;
    req.resume();
  });
  server.on('connection', (socket) => sockets.add(socket));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  return {
    port: (server.address() as AddressInfo).port,
    requests: () => requests,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

describe('proxy', { concurrency: 4 }, () => {
  test('2: a live-looking upstream or key without PCS_ALLOW_LIVE is refused before anything is forwarded', async () => {
    const upstream = await silentServer();
    try {
      const live = await runCommand(
        ['proxy', '--upstream', `http://127.0.0.1:${upstream.port}/live/v1`, '--', 'true'],
        { PCS_SECRET_KEY: 'sk_live_never_forwarded_0001' },
      );
      assert.equal(live.code, 2, lastLines(live));
      assert.match(live.stderr, /^collect-conformance: configuration error: PCS_(SECRET_KEY|ALLOW_LIVE): /);
      const mismatch = await runCommand(
        ['proxy', '--upstream', `http://127.0.0.1:${upstream.port}/live/v1`, '--', 'true'],
        { PCS_SECRET_KEY: 'sk_sandbox_key_0001', PCS_ENVIRONMENT: 'sandbox' },
      );
      assert.equal(mismatch.code, 2, lastLines(mismatch));
      assert.match(mismatch.stderr, /PCS_ALLOW_LIVE: the target is live/);
      assert.equal(upstream.requests(), 0, 'nothing was forwarded');
    } finally {
      await upstream.close();
    }
  });

  test('3: an upstream that never answers within --timeout-ms: the client gets 504, the code is 3', async () => {
    const silent = await silentServer();
    try {
      const result = await runCommand(
        [
          'proxy',
          '--upstream',
          `http://127.0.0.1:${silent.port}/v1`,
          '--timeout-ms',
          '300',
          '--output',
          join(scratch, 'silent'),
          '--',
          process.execPath,
          '-e',
          "fetch(process.env.COLLECT_CONFORMANCE_PROXY_URL + '/balances/1')" +
            '.then((r) => process.exit(r.status === 504 ? 0 : 9))',
        ],
        { PCS_SECRET_KEY: 'sk_sandbox_silent_0001' },
      );
      assert.equal(result.code, 3, lastLines(result));
      assert.match(result.stderr, /did not answer within the time-out \(the client got 504\)/);
      assert.match(result.stdout, /command: .* exited 0/);
    } finally {
      await silent.close();
    }
  });

  test('3 from any working directory: a command that made no request judged nothing, which is no pass', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'pcs-elsewhere-'));
    try {
      const result = await runCommand(['proxy', '--output', join(elsewhere, 'out'), '--', 'true'], {}, elsewhere);
      assert.equal(result.code, 3, lastLines(result));
      assert.match(result.stderr, /nothing was judged/);
      assert.doesNotMatch(result.stderr, /Cannot find package|internal error/);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  test('1, not 4: an answer nested 100,000 levels deep after a 500 is a finding; every report written', async () => {
    let calls = 0;
    const deep = createServer((req, res) => {
      req.resume();
      calls++;
      if (calls === 1) {
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end('{"error":"boom"}');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    });
    await new Promise<void>((done) => deep.listen(0, '127.0.0.1', () => done()));
    const base = `http://127.0.0.1:${(deep.address() as AddressInfo).port}/v1`;
    try {
      const output = join(scratch, 'deep');
      const get = readWith('MOCK_KEY');
      const result = await runCommand(
        [
          'proxy',
          '--upstream',
          base,
          '--secret-key-env',
          'MOCK_KEY',
          '--output',
          output,
          '--',
          process.execPath,
          '-e',
          `${get}.then(() => ${get})`,
        ],
        { ...keys(mock) },
      );
      assert.equal(result.code, 1, lastLines(result));
      const failed = failedRules(output);
      assert.ok(failed.includes('BALANCE-2XX'), `the 500 judged first: ${failed.join(', ')}`);
      assert.ok(failed.includes('BALANCE-ARRAY'), `the deep body: ${failed.join(', ')}`);
      assert.match(readFileSync(join(output, 'junit.xml'), 'utf8'), /nests deeper than 512 levels/);
    } finally {
      deep.closeAllConnections();
      await new Promise<void>((done) => deep.close(() => done()));
    }
  });

  test('4: a report that cannot be written is the tool’s failure, in one line; the others are written', async () => {
    const output = join(scratch, 'unwritable');
    mkdirSync(join(output, 'traffic-coverage.md'), { recursive: true });
    const get = readWith('PCS_SECRET_KEY');
    const result = await runCommand(['proxy', '--output', output, '--', process.execPath, '-e', get]);
    assert.equal(result.code, 4, lastLines(result));
    const own = result.stderr.split('\n').filter((line) => line.includes('internal error'));
    assert.equal(own.length, 1, result.stderr);
    assert.match(own[0]!, /traffic-coverage\.md: EISDIR/);
    assert.ok(existsSync(join(output, 'junit.xml')), 'the other reports were written');
  });

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)
    test(`${code}: ${signal} to the proxy alone stops its command, then the reports are written`, async () => {
      const output = join(scratch, `signal-${signal}`);
      const started = startCommand(
        [
          'proxy',
          '--upstream',
          mutant.sandboxBaseUrl,
          '--secret-key-env',
          'MOCK_KEY',
          '--output',
          output,
          '--',
          process.execPath,
          '-e',
          requestThen(
            `process.on('${signal}', () => { console.log('command got ${signal}'); process.exit(0); }); ` +
              "console.log('requested'); setInterval(() => {}, 1000);",
          ),
        ],
        keys(mutant),
      );
      await printed(() => started.output().stdout, /^requested$/m);
      started.child.kill(signal);
      const result = await started.done;
      assert.equal(result.code, code, lastLines(result));
      assert.match(result.stdout, new RegExp(`command got ${signal}`), 'the command was stopped by the proxy');
      assert.deepEqual(failedRules(output).includes('AUTH-OTHERS-401'), true);
      assert.match(result.stdout, new RegExp(`judged through the proxy \\(stopped by ${signal}\\)`));
    });

  test('137: a command killed outright (kill -9) ends the run as a killed runner does, after the reports', async () => {
    const output = join(scratch, 'killed');
    const result = await runCommand(
      [
        'proxy',
        '--upstream',
        mutant.sandboxBaseUrl,
        '--secret-key-env',
        'MOCK_KEY',
        '--output',
        output,
        '--',
        process.execPath,
        '-e',
        requestThen(`process.kill(process.pid, 'SIGKILL');`),
      ],
      keys(mutant),
    );
    assert.equal(result.code, 137, lastLines(result));
    assert.match(result.stdout, /command: .* ended by SIGKILL/);
    assert.ok(failedRules(output).includes('AUTH-OTHERS-401'));
  });
});

describe('judge', { concurrency: 4 }, () => {
  let conforming: object[];
  let big: string;
  before(async () => {
    conforming = [
      harEntry(await recorded(mock.sandboxBaseUrl, 'GET', '/balances/1', { key: mock.sandboxKey })),
      harEntry(await recorded(mock.sandboxBaseUrl, 'GET', '/currencies/1', { key: mock.sandboxKey })),
    ];
    // Long enough to be judging when a signal comes.
    big = join(scratch, 'big.har');
    writeFileSync(big, harText(Array.from({ length: 50_000 }, (_, i) => conforming[i % 2]!)));
  });

  const judge = (files: string[], output: string, extra: string[] = []) =>
    runCommand(['judge', ...files, '--secret-key-env', 'MOCK_KEY', '--output', output, ...extra], keys(mock));

  test('0: a conforming recording, written with a byte-order mark (as Fiddler writes it)', async () => {
    const file = join(scratch, 'bom.har');
    writeFileSync(file, `\uFEFF${harText(conforming)}`);
    const result = await judge([file], join(scratch, 'bom'));
    assert.equal(result.code, 0, lastLines(result));
    assert.match(result.stdout, /2 entries in 1 HAR file\(s\): 2 exchange\(s\) judged/);
    // Skipping on purpose is said, and is no reason to fail the gate.
    const sampled = await judge([file], join(scratch, 'sampled'), ['--sample', '50%']);
    assert.equal(sampled.code, 0, lastLines(sampled));
    assert.match(sampled.stdout, /incomplete: 1 skipped on purpose: 1 \(left out by --sample\)/);
  });

  const outsideTitle =
    '1 by --fail-on-client alone: a recording without credentials whose one departure is outside the reference';
  test(outsideTitle, async () => {
    // Exported as browsers do, without the Authorization headers: no credential rule is judged, on either side.
    const stripped = [
      ...conforming,
      harEntry(await recorded(mock.sandboxBaseUrl, 'GET', '/balances/1', { key: null })),
      harEntry(await recorded(mock.sandboxBaseUrl, 'POST', '/mtn', { key: mock.sandboxKey, body: { token: 't' } })),
    ].map((entry) => {
      const { request } = entry as { request: { headers: Array<{ name: string }> } };
      return {
        ...entry,
        request: { ...request, headers: request.headers.filter(({ name }) => name.toLowerCase() !== 'authorization') },
      };
    });
    const file = join(scratch, 'outside.har');
    writeFileSync(file, harText(stripped));
    const output = join(scratch, 'outside');
    const result = await judge([file], output, ['--fail-on-client']);
    assert.equal(result.code, 1, lastLines(result));
    assert.match(
      result.stdout,
      /^collect-conformance: summary: 1 client finding\(s\) fail the run \(--fail-on-client\); /m,
    );
    assert.match(result.stdout, /4 entries in 1 HAR file\(s\): 3 exchange\(s\) judged/);
    assert.deepEqual(failedRules(output), []);
    const findings = readFileSync(join(output, 'client-findings.md'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('- '));
    assert.equal(findings.length, 1, findings.join('\n'));
    assert.match(findings[0]!, /^- POST \/v1\/mtn → 404: at method and path: /);
  });

  test('1: a defect, a body nested 100,000 levels deep, a member named twice: findings, never a crash', async () => {
    const base = mock.sandboxBaseUrl;
    const answer = (path: string, body: string, key = mock.sandboxKey) =>
      harEntry({
        method: 'GET',
        url: `${base}${path}`,
        requestHeaders: [['Authorization', `Bearer ${key}`]],
        status: 200,
        responseHeaders: [['Content-Type', 'application/json']],
        responseBody: body,
      });
    const currency = JSON.parse(
      (conforming[1] as { response: { content: { text: string } } }).response.content.text,
    ) as Array<Record<string, unknown>>;
    const duplicated = JSON.stringify(currency).replace('"id":1,', '"id":1,"id":2,');
    const file = join(scratch, 'defects.har');
    writeFileSync(
      file,
      harText([
        answer('/balances/1', `${'['.repeat(100_000)}${']'.repeat(100_000)}`),
        answer('/currencies/1', duplicated),
        answer(
          '/balances/1',
          (conforming[0] as { response: { content: { text: string } } }).response.content.text,
          'sk_sandbox_wrong_key_0000',
        ),
      ]),
    );
    const output = join(scratch, 'defects');
    const result = await judge([file], output);
    assert.equal(result.code, 1, lastLines(result));
    const failed = failedRules(output);
    for (const rule of ['BALANCE-ARRAY', 'CURRENCY-ARRAY', 'AUTH-OTHERS-401'])
      assert.ok(failed.includes(rule), `${rule}: ${failed}`);
    const junit = readFileSync(join(output, 'junit.xml'), 'utf8');
    assert.match(junit, /nests deeper than 512 levels/);
    assert.match(junit, /the member &quot;id&quot; named twice/);
  });

  test('2: a FIFO and a directory are refused at once, in one line', async () => {
    const fifo = join(scratch, 'traffic.fifo');
    try {
      execFileSync('mkfifo', [fifo]);
    } catch {
      return;
    }
    const result = await judge([fifo], join(scratch, 'fifo'));
    assert.equal(result.code, 2, lastLines(result));
    assert.match(result.stderr, /^collect-conformance: \S*traffic\.fifo: is not a regular file/);
    const directory = await judge([scratch], join(scratch, 'dir-out'));
    assert.equal(directory.code, 2, lastLines(directory));
    assert.match(directory.stderr, /is a directory, not a HAR file/);
  });

  test('3: a recording with no entries judged nothing, which is no pass', async () => {
    const file = join(scratch, 'empty.har');
    writeFileSync(file, harText([]));
    const result = await judge([file], join(scratch, 'empty'));
    assert.equal(result.code, 3, lastLines(result));
    assert.match(result.stderr, /nothing was judged/);
  });

  test('4: a report that cannot be written; the verdicts are still written in the others', async () => {
    const file = join(scratch, 'unwritable.har');
    writeFileSync(file, harText(conforming));
    const output = join(scratch, 'judge-unwritable');
    mkdirSync(join(output, 'client-findings.md'), { recursive: true });
    const result = await judge([file], output);
    assert.equal(result.code, 4, lastLines(result));
    assert.match(result.stderr, /internal error: .*client-findings\.md: EISDIR/);
    assert.ok(existsSync(join(output, 'rule-coverage.json')));
  });

  /** Starts judge on the big recording, and waits until it has begun reading it (the earlier reports went). */
  async function judging(name: string) {
    const output = join(scratch, name);
    mkdirSync(output, { recursive: true });
    writeFileSync(join(output, 'junit.xml'), '<testsuites name="an earlier run that passed"/>');
    const started = startCommand(['judge', big, '--secret-key-env', 'MOCK_KEY', '--output', output], keys(mock));
    for (const since = Date.now(); existsSync(join(output, 'junit.xml')); ) {
      if (Date.now() - since > 30_000) throw new Error('judge did not start');
      await new Promise((done) => setTimeout(done, 10));
    }
    return { started, output };
  }

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)
    test(`${code}: ${signal} stops the judging; the reports of what was judged are written first`, async () => {
      const { started, output } = await judging(`judge-${signal}`);
      started.child.kill(signal);
      const result = await started.done;
      assert.equal(result.code, code, lastLines(result));
      assert.match(result.stdout, new RegExp(`stopped by ${signal}`));
      assert.ok(existsSync(join(output, 'rule-coverage.json')), 'the reports were written');
    });

  test('137: the judge killed outright leaves no earlier run’s report to be read as its own', async () => {
    const { started, output } = await judging('judge-killed');
    started.child.kill('SIGKILL');
    const result = await started.done;
    assert.equal(result.signal, 'SIGKILL', 'a shell reports 137');
    assert.equal(existsSync(join(output, 'junit.xml')), false);
    assert.equal(existsSync(join(output, 'rule-coverage.json')), false);
  });
});
