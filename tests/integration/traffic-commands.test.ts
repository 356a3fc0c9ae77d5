/**
 * `collect-conformance proxy` and `collect-conformance judge` as a user runs them: a black-box client
 * written from the reference alone (lab/independent-clients/python) through the proxy, against the
 * reference mock (exit 0, no server finding) and against mutants of it (exit 1 naming the rule the
 * mutant breaks); the optional violations header; the upstream going away (502 to the client, exit 3);
 * and each kind of bad input in one line with exit 2.
 *
 *   node --import tsx --test tests/integration/traffic-commands.test.ts
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockServer } from '../../mock/server.ts';
import { commandBin, projectRoot, runCommand, startCommand, type CommandResult } from './run-command.ts';

const scratch = mkdtempSync(join(tmpdir(), 'pcs-traffic-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const client = join(projectRoot, 'lab', 'independent-clients', 'python', 'client.py');
const python = spawnSync('python3', ['--version']).status === 0;
const noPython = python ? false : 'python3 is not installed (apt-get install python3)';

/** The client's variables, read from the ones the proxy gives its command (the embedded mock's) or set here. */
const clientShell =
  'API_KEY=$PCS_SECRET_KEY SECOND_API_KEY=$PCS_SECOND_SECRET_KEY BALANCE_ID=$PCS_BALANCE_ID ' +
  `CURRENCY_ID=$PCS_CURRENCY_ID SECOND_BALANCE_ID=$PCS_SECOND_BALANCE_ID exec python3 ${client}`;

const failedRules = (output: string): string[] =>
  (
    JSON.parse(readFileSync(join(output, 'rule-coverage.json'), 'utf8')) as {
      rules: Array<{ id: string; verdict: string }>;
    }
  ).rules
    .filter((rule) => rule.verdict === 'fail')
    .map((rule) => rule.id);

const lastLines = (result: CommandResult): string => `${result.stdout.slice(-1500)}\n${result.stderr.slice(-800)}`;

describe('the independent client through the proxy', { skip: noPython }, () => {
  test('against the embedded reference mock: exit 0, no server finding, the command’s status said', async () => {
    const output = join(scratch, 'conforming');
    const result = await runCommand(['proxy', '--output', output, '--', 'sh', '-c', clientShell]);
    assert.equal(result.code, 0, lastLines(result));
    assert.match(result.stdout, /summary: no rule broken/);
    assert.match(result.stdout, /^ {2}\d{3} exchange\(s\) judged through the proxy$/m);
    assert.match(result.stdout, /^ {2}command: sh -c .* exited 0$/m);
    assert.deepEqual(failedRules(output), []);
    // The traffic's coverage names what it exercised and what it never did.
    const coverage = readFileSync(join(output, 'traffic-coverage.md'), 'utf8');
    assert.match(coverage, /createTransaction/);
    // The keys never reach a report.
    for (const file of ['junit.xml', 'traffic-coverage.md', 'client-findings.md', 'conformance-matrix.md'])
      assert.doesNotMatch(readFileSync(join(output, file), 'utf8'), /sk_sandbox_collect_conformance_mock_000[12]/);
  });

  const defects: Array<[mutant: string, rules: string[]]> = [
    ['createTransaction.echo.amount', ['TXN-CREATE-ECHO']],
    ['getBalance.auth.wrong-key-accepted', ['AUTH-OTHERS-401', 'AUTH-KEY-EXACT']],
    ['deleteCustomer.state.delete-forgotten', ['CUSTOMER-DELETE-GONE']],
    ['sendTransaction.echo.amount', ['SEND-AMOUNT-MATCHES']],
  ];
  for (const [mutant, rules] of defects)
    test(`against the mutant ${mutant}: exit 1 naming ${rules.join(' or ')}`, async () => {
      const mock = await startMockServer({ port: 0, host: '127.0.0.1', mutant });
      try {
        const output = join(scratch, mutant);
        const result = await runCommand(
          ['proxy', '--upstream', mock.sandboxBaseUrl, '--output', output, '--', 'sh', '-c', clientShell],
          {
            PCS_SECRET_KEY: mock.sandboxKey,
            PCS_SECOND_SECRET_KEY: mock.secondSandboxKey,
            PCS_BALANCE_ID: '1',
            PCS_CURRENCY_ID: '1',
            PCS_SECOND_BALANCE_ID: '11',
          },
        );
        assert.equal(result.code, 1, lastLines(result));
        const failed = failedRules(output);
        assert.ok(
          failed.some((rule) => rules.includes(rule)),
          `failed: ${failed.join(', ')}\n${lastLines(result)}`,
        );
        assert.match(result.stdout, new RegExp(`breaks [^\\n]*(${rules.join('|')})`));
      } finally {
        await mock.close();
      }
    });
});

describe('the suite itself through the proxy', () => {
  test('its run keeps its reports; the proxy writes its own in proxy/ and names the suite as the client', async () => {
    const output = join(scratch, 'suite');
    const result = await runCommand(
      ['proxy', '--', process.execPath, commandBin, '--grep', 'getCurrency refuses requests without a valid key'],
      { PCS_OUTPUT_DIR: output },
    );
    assert.equal(result.code, 0, lastLines(result));
    const matrix = (dir: string) => readFileSync(join(dir, 'conformance-matrix.md'), 'utf8');
    assert.doesNotMatch(matrix(output), /traffic through the proxy/, 'the inner run’s matrix is its own');
    assert.match(matrix(join(output, 'proxy')), /traffic through the proxy/);
    assert.match(
      result.stdout,
      new RegExp(`the command's run wrote its reports in ${output}: the proxy's are in ${output}/proxy`),
    );
    assert.match(result.stdout, /client findings: \d+ request\(s\) \(the suite's own deliberate invalid requests;/);
    // The proxy's summary points at its own files only.
    const proxySummary = result.stdout.slice(result.stdout.lastIndexOf('collect-conformance: summary:'));
    for (const path of proxySummary.match(/\/[^\s]*\.(?:md|xml|json)\b/g) ?? [])
      assert.ok(path.startsWith(`${output}/proxy/`), `${path} is not the proxy's`);
  });
});

/** A line the command printed, once it is there. */
async function waitFor(output: () => string, pattern: RegExp, timeoutMs = 20_000): Promise<RegExpExecArray> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; ) {
    const found = pattern.exec(output());
    if (found !== null) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`not printed within ${timeoutMs} ms: ${pattern}\n${output()}`);
}

describe('the proxy without a command', () => {
  test('runs until SIGINT, names the broken rules in a header only when asked, and then reports', async () => {
    const mock = await startMockServer({ port: 0, host: '127.0.0.1', mutant: 'getBalance.auth.wrong-key-accepted' });
    try {
      const output = join(scratch, 'header');
      const started = startCommand(
        ['proxy', '--upstream', mock.sandboxBaseUrl, '--violations-header', '--output', output],
        { PCS_SECRET_KEY: mock.sandboxKey },
      );
      const [, url] = await waitFor(() => started.output().stdout, /proxy: (http:\/\/127\.0\.0\.1:\d+\/v1) →/);
      const wrong = await fetch(`${url}/balances/1`, { headers: { authorization: 'Bearer sk_sandbox_nobody' } });
      assert.equal(wrong.status, 200);
      assert.match(wrong.headers.get('collect-conformance-violations') ?? '', /AUTH-OTHERS-401/);
      const right = await fetch(`${url}/balances/1`, { headers: { authorization: `Bearer ${mock.sandboxKey}` } });
      assert.equal(right.status, 200);
      assert.equal(right.headers.get('collect-conformance-violations'), null);
      started.child.kill('SIGINT');
      const result = await started.done;
      assert.equal(result.code, 1, lastLines(result));
      assert.match(result.stdout, /2 exchange\(s\) judged through the proxy \(stopped by SIGINT\)/);
    } finally {
      await mock.close();
    }
  });

  test('is transparent by default: no header of its own', async () => {
    const mock = await startMockServer({ port: 0, host: '127.0.0.1', mutant: 'getBalance.auth.wrong-key-accepted' });
    try {
      const started = startCommand(['proxy', '--upstream', mock.sandboxBaseUrl, '--output', join(scratch, 'plain')], {
        PCS_SECRET_KEY: mock.sandboxKey,
      });
      const [, url] = await waitFor(() => started.output().stdout, /proxy: (http:\/\/127\.0\.0\.1:\d+\/v1) →/);
      const direct = await fetch(`${mock.sandboxBaseUrl}/balances/1`, { headers: { authorization: 'Bearer x' } });
      const proxied = await fetch(`${url}/balances/1`, { headers: { authorization: 'Bearer x' } });
      const names = (response: Response) => [...response.headers.keys()].filter((name) => name !== 'date').sort();
      assert.deepEqual(names(proxied), names(direct));
      assert.equal(await proxied.text(), await direct.text());
      started.child.kill('SIGTERM');
      assert.equal((await started.done).code, 1);
    } finally {
      await mock.close();
    }
  });

  test('an upstream that cannot be reached: the client gets 502, the exit code is 3', async () => {
    const port = await freePort();
    const result = await runCommand(
      [
        'proxy',
        '--upstream',
        `http://127.0.0.1:${port}/v1`,
        '--output',
        join(scratch, 'gone'),
        '--',
        process.execPath,
        '-e',
        'fetch(process.env.COLLECT_CONFORMANCE_PROXY_URL + "/balances/1")' +
          '.then((r) => process.exit(r.status === 502 ? 0 : 9))',
      ],
      { PCS_SECRET_KEY: 'sk_sandbox_gone_0001' },
    );
    assert.equal(result.code, 3, lastLines(result));
    assert.match(result.stderr, /could not be reached.*\(the client got 502\) \(ECONNREFUSED\)/);
    assert.match(result.stdout, /command: .* exited 0/);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

describe('bad input: one line, exit 2', () => {
  const oneLine = (result: CommandResult, pattern: RegExp): void => {
    assert.equal(result.code, 2, lastLines(result));
    const lines = result.stderr.trim().split('\n');
    assert.equal(lines.length, 1, result.stderr);
    assert.match(lines[0]!, pattern);
    assert.doesNotMatch(result.stderr, /\n\s+at /);
  };

  test('an upstream that is not a /v1 base address', async () => {
    oneLine(await runCommand(['proxy', '--upstream', 'http://127.0.0.1:9/api']), /--upstream: .* does not end in \/v1/);
    oneLine(await runCommand(['proxy', '--upstream', 'ftp://example.test/v1']), /--upstream: .*not an http/);
  });

  test('a port in use', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (busy.address() as { port: number }).port;
      oneLine(await runCommand(['proxy', '--port', String(port), '--', 'true']), /port .*in use/i);
    } finally {
      busy.close();
    }
  });

  test('a command that cannot be started', async () => {
    oneLine(await runCommand(['proxy', '--', 'no-such-command-here']), /no-such-command-here could not be started/);
  });

  test('a key without an upstream', async () => {
    oneLine(await runCommand(['proxy', '--', 'true'], { PCS_SECRET_KEY: 'sk_sandbox_x_0001' }), /no upstream/);
  });

  test('a HAR that is missing, not JSON, or not a HAR', async () => {
    oneLine(await runCommand(['judge', join(scratch, 'missing.har')]), /missing\.har/);
    const notJson = join(scratch, 'broken.har');
    writeFileSync(notJson, '{"log": {"entries": [');
    oneLine(await runCommand(['judge', notJson]), /broken\.har/);
    const notHar = join(scratch, 'other.har');
    writeFileSync(notHar, '{"hello": "world"}');
    oneLine(await runCommand(['judge', notHar]), /other\.har/);
  });

  test('an entry without a response is listed and counted, never a crash; judging nothing is no pass', async () => {
    const file = join(scratch, 'partial.har');
    writeFileSync(
      file,
      JSON.stringify({
        log: {
          version: '1.2',
          entries: [
            {
              startedDateTime: new Date().toISOString(),
              request: { method: 'GET', url: 'http://127.0.0.1:9/v1/balances/1', headers: [] },
            },
          ],
        },
      }),
    );
    const result = await runCommand(['judge', file, '--output', join(scratch, 'partial')]);
    assert.equal(result.code, 3, lastLines(result));
    assert.match(result.stdout, /not an exchange: \S*partial\.har entry \d+: no response/);
    assert.match(result.stdout, /without an answer to judge: 1 \(no response\)/);
    assert.match(result.stderr, /nothing was judged/);
  });
});
