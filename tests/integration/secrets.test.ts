/**
 * The key never leaves the suite: the whole conformance suite runs with a canary key
 * against a faulty target (the reference mock with injected faults, so that failures,
 * error messages and curl reproductions are written), with every reporter of
 * playwright.config.ts on (list, JUnit, HTML, Allure, the conformance reporter), then
 * again with the blob and JSON reporters used by sharding, and every file the runs wrote
 * (output directory, Allure results, the working directory, zip archives inside the HTML
 * and blob reports) and their console output are searched for the canary: raw, upper and
 * lower case, URL-encoded, JSON-escaped and base64 (at every alignment, so that
 * base64("canary:") or a Basic credential is found too). Zero occurrences.
 *
 * Also: a target that echoes the key back in each of those encodings (in
 * headers and bodies, so in every attachment); a run with Playwright's DEBUG=pw:* logging on;
 * and runs with NODE_DEBUG, whose output would print the key, which refuse to start.
 *
 * And the command's own messages: a key given where a variable's name belongs
 * (--secret-key-env), after --secret-key, as the value of another flag or variable, or alone,
 * is described in one line (exit 2) and never printed, in any of those encodings.
 *
 *   node --import tsx --test tests/unit/secrets.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import { startMockServer, type RunningMock } from '../../mock/server.ts';
import { leakingOptionsIn, refuseLeakingDiagnostics } from '../../settings/debug-guard.ts';
import { ConfigError } from '../../settings/config.ts';
import { filesUnder, needles } from './leak-scan.ts';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'pcs-secrets-'));
// Characters that change under URL encoding and JSON escaping, so that those forms are distinct needles.
const canary = `sk_sandbox_canary+${randomBytes(12).toString('hex')}/Q=`;
let mock: RunningMock;

before(async () => {
  mock = await startMockServer({
    host: '127.0.0.1',
    port: 0,
    sandboxKey: canary,
    // Enough faults that tests fail and print their exchanges, messages and curl lines; few enough that the
    // run stays short (Playwright starts a new worker after each failed test).
    faults: 'invalidJson=every:25,status503=every:40,reset=every:55,retryAfter=0,seed=5',
  });
});
after(async () => {
  await mock.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** The entries of a zip archive (stored or deflated), read from its central directory. */
export function unzipEntries(archive: Buffer): { name: string; data: Buffer }[] {
  const entries: { name: string; data: Buffer }[] = [];
  let end = archive.length - 22;
  while (end >= 0 && archive.readUInt32LE(end) !== 0x06054b50) end -= 1;
  if (end < 0) return entries;
  const count = archive.readUInt16LE(end + 10);
  let offset = archive.readUInt32LE(end + 16);
  for (let index = 0; index < count; index += 1) {
    if (archive.readUInt32LE(offset) !== 0x02014b50) break;
    const method = archive.readUInt16LE(offset + 10);
    const compressedSize = archive.readUInt32LE(offset + 20);
    const nameLength = archive.readUInt16LE(offset + 28);
    const extraLength = archive.readUInt16LE(offset + 30);
    const commentLength = archive.readUInt16LE(offset + 32);
    const localOffset = archive.readUInt32LE(offset + 42);
    const name = archive.subarray(offset + 46, offset + 46 + nameLength).toString('utf8');
    const dataStart =
      localOffset + 30 + archive.readUInt16LE(localOffset + 26) + archive.readUInt16LE(localOffset + 28);
    const raw = archive.subarray(dataStart, dataStart + compressedSize);
    entries.push({ name, data: method === 8 ? inflateRawSync(raw) : raw });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * The readable contents of a file: itself, plus what zip archives
 * hold (also a zip embedded as base64 in the HTML report).
 */
function contents(name: string, data: Buffer, depth = 0): { name: string; data: Buffer }[] {
  const found = [{ name, data }];
  if (depth > 2) return found;
  if (data.length > 4 && data.readUInt32LE(0) === 0x04034b50) {
    for (const entry of unzipEntries(data)) found.push(...contents(`${name}!${entry.name}`, entry.data, depth + 1));
  }
  const embedded = /data:application\/zip;base64,([A-Za-z0-9+/=]+)/.exec(data.toString('latin1'));
  if (embedded?.[1]) found.push(...contents(`${name}!embedded.zip`, Buffer.from(embedded[1], 'base64'), depth + 1));
  return found;
}

function leaks(root: string, extra: { name: string; text: string }[]): string[] {
  const forms = needles(canary);
  const found: string[] = [];
  const items = filesUnder(root).flatMap((file) => contents(relative(root, file), readFileSync(file)));
  items.push(...extra.map((item) => ({ name: item.name, data: Buffer.from(item.text, 'utf8') })));
  for (const item of items) {
    const text = item.data.toString('utf8');
    for (const [form, needle] of forms) if (text.includes(needle)) found.push(`${item.name}: ${form}`);
  }
  return found;
}

async function runSuite(
  workDir: string,
  args: string[],
  options: { baseUrl?: string; env?: Record<string, string>; command?: string[] } = {},
): Promise<{ code: number | null; stdout: string; stderr: string; files: number }> {
  mkdirSync(workDir, { recursive: true });
  const command = options.command ?? [
    join(projectRoot, 'node_modules', '@playwright', 'test', 'cli.js'),
    'test',
    '--config',
    join(projectRoot, 'playwright.config.ts'),
  ];
  const child = spawn(process.execPath, [...command, ...args], {
    // The working directory is the scanned folder too: whatever a reporter writes relative to it is searched.
    cwd: workDir,
    env: {
      ...process.env,
      PCS_BASE_URL: options.baseUrl ?? mock.sandboxBaseUrl,
      PCS_SECRET_KEY: canary,
      PCS_ENVIRONMENT: 'sandbox',
      PCS_BALANCE_ID: '1',
      PCS_CURRENCY_ID: '1',
      PCS_OUTPUT_DIR: join(workDir, 'reports'),
      ALLURE_RESULTS_DIR: join(workDir, 'allure-results'),
      PLAYWRIGHT_BLOB_OUTPUT_DIR: join(workDir, 'blob-report'),
      PLAYWRIGHT_JSON_OUTPUT_FILE: join(workDir, 'results.json'),
      PCS_RETRIES: '1',
      PCS_RUNS: '10',
      PCS_PROPERTY_BUDGET_MS: '1500',
      CI: '',
      FORCE_COLOR: '0',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', (exitCode) => resolve(exitCode)));
  return { code, stdout, stderr, files: filesUnder(workDir).length };
}

describe('no key in anything a run writes', () => {
  test('the scanner finds every encoded form of a planted canary (it can fail)', () => {
    const planted = join(scratch, 'planted');
    mkdirSync(planted, { recursive: true });
    const forms = needles(canary);
    const samples = [
      `Authorization: Bearer ${canary}`,
      `Basic ${Buffer.from(`${canary}:`).toString('base64')}`,
      `Basic ${Buffer.from(`user:${canary}`).toString('base64')}`,
      `?key=${encodeURIComponent(canary)}`,
      JSON.stringify({ nested: `x${canary}` }).replace(/\//g, '\\/'),
    ];
    samples.forEach((sample, index) => {
      writeFileSync(join(planted, `sample-${index}.txt`), sample);
    });
    const found = leaks(planted, []);
    assert.equal(
      new Set(found.map((hit) => hit.split(':')[0])).size,
      samples.length,
      `every planted sample is found: ${found.join(', ')}`,
    );
    assert.ok(forms.size >= 8);
    rmSync(planted, { recursive: true, force: true });
  });

  test('a run with failures of every kind of test, every configured reporter on: zero occurrences', {
    timeout: 240_000,
  }, async () => {
    const workDir = join(scratch, 'full-run');
    // Example tests, properties (seed, path, shrunk counterexample, curl line), random sequences, accounts and
    // deletions: every kind of output a failure writes. A whole run would add minutes of the same kinds (each
    // failed test costs Playwright a new worker, each failed property its shrinking).
    const run = await runSuite(workDir, [
      'tests/conformance/create-transaction.spec.ts',
      'tests/conformance/accounts.spec.ts',
      'tests/conformance/delete-customer.spec.ts',
      'tests/conformance/send-transaction.spec.ts',
      'tests/conformance/properties/positive.spec.ts',
      'tests/conformance/properties/stateful.spec.ts',
    ]);
    const junit = readFileSync(join(workDir, 'reports', 'junit.xml'), 'utf8');
    const failures =
      Number(/failures="(\d+)"/.exec(junit)?.[1] ?? '0') + Number(/errors="(\d+)"/.exec(junit)?.[1] ?? '0');
    assert.ok(
      failures > 0,
      `the faulty target must make tests fail (so that failures are reported); ` +
        `exit ${run.code}\n${run.stderr.slice(0, 2000)}`,
    );
    assert.match(junit, /Bearer \*\*\*/, 'exchanges with the masked credential are in the JUnit report');
    assert.ok(filesUnder(join(workDir, 'allure-results')).length > 0, 'Allure results were written');
    assert.ok(run.files > 10, `the run wrote its reports (${run.files} files)`);
    assert.ok(
      mock.mock.stores.sandbox.transactions.size > 0,
      'the canary key was accepted by the target: the run really used it',
    );
    assert.deepEqual(
      leaks(workDir, [
        { name: 'stdout', text: run.stdout },
        { name: 'stderr', text: run.stderr },
      ]),
      [],
    );
  });

  test('a sharding run (blob and JSON reporters): zero occurrences', { timeout: 240_000 }, async () => {
    const workDir = join(scratch, 'blob-run');
    const run = await runSuite(workDir, [
      '--reporter=blob,json,line',
      'tests/conformance/create-transaction.spec.ts',
      'tests/conformance/authentication.spec.ts',
    ]);
    assert.ok(
      filesUnder(join(workDir, 'blob-report')).some((file) => file.endsWith('.zip')),
      `a blob report was written; exit ${run.code}\n${run.stderr.slice(0, 2000)}`,
    );
    assert.deepEqual(
      leaks(workDir, [
        { name: 'stdout', text: run.stdout },
        { name: 'stderr', text: run.stderr },
      ]),
      [],
    );
  });
});

/** Every encoded form of the credential a request carried, as a target that reflects it would write it. */
function echoesOf(authorization: string): Record<string, string> {
  const key = authorization.replace(/^Bearer\s+/i, '');
  return {
    raw: key,
    lower: key.toLowerCase(),
    upper: key.toUpperCase(),
    url: encodeURIComponent(key),
    form: new URLSearchParams({ key }).toString(),
    json: JSON.stringify(key).slice(1, -1).replace(/\//g, '\\/'),
    html: key.replace(/[^A-Za-z0-9]/g, (char) => `&#${char.charCodeAt(0)};`),
    base64: Buffer.from(key).toString('base64'),
    base64url: Buffer.from(key).toString('base64url'),
    bearerBase64: Buffer.from(authorization).toString('base64'),
    basic: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
    basicUser: `Basic ${Buffer.from(`user:${key}`).toString('base64url')}`,
  };
}

/**
 * A target that reflects the key: a proxy in front of the reference mock that adds every encoded
 * form of the request's credential to each answer, as headers and, in JSON objects, as a field.
 */
async function echoingProxy(upstream: string): Promise<{ server: Server; baseUrl: string }> {
  const origin = new URL(upstream);
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const forward = httpRequest(
        {
          host: origin.hostname,
          port: origin.port,
          method: incoming.method,
          path: incoming.url,
          headers: { ...incoming.headers, host: origin.host },
        },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => body.push(chunk));
          answer.on('end', () => {
            const echoes = echoesOf(String(incoming.headers.authorization ?? ''));
            let text = Buffer.concat(body).toString('utf8');
            try {
              const json = JSON.parse(text) as unknown;
              const holder = Array.isArray(json) ? json[0] : json;
              if (holder && typeof holder === 'object')
                (holder as Record<string, unknown>).echo = {
                  ...echoes,
                  link: `https://pay.example.com/?key=${echoes.url}`,
                };
              text = JSON.stringify(json);
            } catch {
              // Not JSON: passed on as it is.
            }
            const headers: Record<string, string | string[]> = {};
            for (const [name, value] of Object.entries(answer.headers))
              if (value !== undefined && name !== 'content-length' && name !== 'transfer-encoding')
                headers[name] = value;
            for (const [form, value] of Object.entries(echoes)) headers[`x-echo-${form}`] = value;
            outgoing.writeHead(answer.statusCode ?? 502, headers).end(text);
          });
        },
      );
      forward.on('error', () => outgoing.destroy());
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, baseUrl: `http://127.0.0.1:${port}${origin.pathname}` };
}

describe('the key in other forms and under debug output', () => {
  test('a target that echoes the key URL-encoded, JSON- and HTML-escaped, in base64 and base64url: zero occurrences', {
    timeout: 240_000,
  }, async () => {
    const proxy = await echoingProxy(mock.sandboxBaseUrl);
    try {
      const workDir = join(scratch, 'echo-run');
      const run = await runSuite(
        workDir,
        [
          'tests/conformance/create-transaction.spec.ts',
          'tests/conformance/balances-and-currencies.spec.ts',
          'tests/conformance/properties/positive.spec.ts',
        ],
        {
          baseUrl: proxy.baseUrl,
        },
      );
      assert.deepEqual(
        leaks(workDir, [
          { name: 'stdout', text: run.stdout },
          { name: 'stderr', text: run.stderr },
        ]),
        [],
      );
      const junit = readFileSync(join(workDir, 'reports', 'junit.xml'), 'utf8');
      assert.match(
        junit,
        /x-echo-base64: \*\*\*/,
        `exchanges with the echoed (masked) key are in the reports; exit ${run.code}\n${run.stderr.slice(0, 2000)}`,
      );
      assert.ok(
        filesUnder(join(workDir, 'allure-results')).some((file) => /attachment/.test(file)),
        'Allure attachments were written',
      );
    } finally {
      await new Promise<void>((resolve) => proxy.server.close(() => resolve()));
    }
  });

  test("Playwright's own DEBUG=pw:* logging: the suite's requests do not go through Playwright, zero occurrences", {
    timeout: 240_000,
  }, async () => {
    const workDir = join(scratch, 'pw-debug-run');
    const run = await runSuite(
      workDir,
      ['tests/conformance/create-transaction.spec.ts', 'tests/conformance/authentication.spec.ts'],
      { env: { DEBUG: 'pw:*' } },
    );
    assert.match(run.stderr, /pw:test:protocol/, `Playwright's debug log was on; exit ${run.code}`);
    assert.deepEqual(
      leaks(workDir, [
        { name: 'stdout', text: run.stdout },
        { name: 'stderr', text: run.stderr },
      ]),
      [],
    );
  });

  const debugVariablesTitle =
    'which debug variables are refused: any NODE_DEBUG, ' +
    'NODE_DEBUG_NATIVE, and NODE_OPTIONS flags that write the key';
  test(debugVariablesTitle, () => {
    assert.deepEqual(leakingOptionsIn('--max-old-space-size=4096 --import=file:///x/tsx/esm/index.mjs'), []);
    // A debugger attached through the inspector reads the key.
    assert.deepEqual(leakingOptionsIn('--inspect --inspect-brk=0 --inspect_port=9230 --inspect-wait --debug-port=1'), [
      '--inspect',
      '--inspect-brk',
      '--inspect-port',
      '--inspect-wait',
      '--debug-port',
    ]);
    assert.deepEqual(leakingOptionsIn('--report_on_signal --tls-keylog=/tmp/keys "--heapsnapshot-signal=SIGUSR2"'), [
      '--report-on-signal',
      '--tls-keylog',
      '--heapsnapshot-signal',
    ]);
    refuseLeakingDiagnostics({ NODE_DEBUG: ' ', DEBUG: 'pw:*', NODE_OPTIONS: '--enable-source-maps' });
    for (const env of [
      { NODE_DEBUG: 'fs' },
      { NODE_DEBUG: 'HTTP' },
      { NODE_DEBUG_NATIVE: 'HTTP2SESSION' },
      { NODE_OPTIONS: '--trace-tls' },
    ]) {
      assert.throws(
        () => refuseLeakingDiagnostics(env),
        (error: unknown) => error instanceof ConfigError && !error.message.includes('\n'),
        JSON.stringify(env),
      );
    }
  });

  for (const [variable, value] of [
    ['NODE_DEBUG', 'net'],
    ['NODE_DEBUG', 'http'],
    ['NODE_DEBUG', 'HTTP,tls'],
    ['NODE_DEBUG_NATIVE', 'HTTP2SESSION'],
    ['NODE_OPTIONS', '--report-on-signal'],
    ['NODE_OPTIONS', '--inspect-port=0'],
  ] as const) {
    for (const [how, command] of [
      ['playwright test', undefined],
      ['the command', [join(projectRoot, 'bin', 'collect-conformance.mjs')]],
    ] as const) {
      test(`${variable}=${value} (${how}): refuses to start with one line naming it, exit 2, nothing written, no key`, {
        timeout: 120_000,
      }, async () => {
        const workDir = join(scratch, `refused-${variable}-${value.replace(/\W/g, '')}-${how.replace(/\W/g, '')}`);
        const run = await runSuite(workDir, [], {
          env: { [variable]: value },
          ...(command ? { command: [...command] } : {}),
        });
        assert.equal(run.code, 2, run.stderr.slice(0, 2000));
        const lines = `${run.stdout}${run.stderr}`.split('\n').filter((line) => line.trim() !== '');
        assert.equal(lines.length, 1, `one line:\n${run.stdout}${run.stderr}`);
        assert.match(lines[0]!, new RegExp(`^collect-conformance: configuration error: ${variable}: `));
        assert.equal(existsSync(join(workDir, 'reports', 'junit.xml')), false, 'no report was written');
        assert.deepEqual(
          leaks(workDir, [
            { name: 'stdout', text: run.stdout },
            { name: 'stderr', text: run.stderr },
          ]),
          [],
        );
      });
    }
  }

  test("NODE_OPTIONS=--inspect=0 (the command): refused, exit 2, one line of its own after Node's own banner", {
    timeout: 120_000,
  }, async () => {
    const workDir = join(scratch, 'refused-inspect');
    const run = await runSuite(workDir, [], {
      env: { NODE_OPTIONS: '--inspect=127.0.0.1:0' },
      command: [join(projectRoot, 'bin', 'collect-conformance.mjs')],
    });
    assert.equal(run.code, 2, run.stderr.slice(0, 2000));
    const own = `${run.stdout}${run.stderr}`.split('\n').filter((line) => line.startsWith('collect-conformance:'));
    assert.deepEqual(own.length, 1, `${run.stdout}${run.stderr}`);
    assert.match(own[0]!, /^collect-conformance: configuration error: NODE_OPTIONS: --inspect: /);
    assert.equal(existsSync(join(workDir, 'reports', 'junit.xml')), false, 'no report was written');
  });
});

describe("the command's flags never repeat a key: given where a variable's name, a flag or a value belongs", () => {
  const bin = join(projectRoot, 'bin', 'collect-conformance.mjs');
  // Shaped like a variable's name, so that only its looks can keep it out of a message.
  const nameShaped = `sk_sandbox_${randomBytes(10).toString('hex')}`;
  // A valid name of an unset variable that a person would not write: it may be the key itself.
  const tokenShaped = `Tk${randomBytes(8).toString('hex')}Zq`;
  const secrets = [canary, nameShaped, tokenShaped];

  const cases: Array<[string, string[], Record<string, string>]> = [
    ['--secret-key-env KEY (not a name)', ['--secret-key-env', canary], {}],
    ['--secret-key-env KEY (shaped like a name)', ['--secret-key-env', nameShaped], {}],
    ['--secret-key-env=KEY', [`--secret-key-env=${nameShaped}`], {}],
    ['--second-secret-key-env KEY (not a name)', ['--second-secret-key-env', canary], {}],
    ['--second-secret-key-env KEY (shaped like a name)', ['--second-secret-key-env', nameShaped], {}],
    ['--secret-key-env TOKEN, an unset variable', ['--secret-key-env', tokenShaped], {}],
    ['--second-secret-key-env TOKEN, an unset variable', ['--second-secret-key-env', tokenShaped], {}],
    ['--secret-key KEY', ['--secret-key', canary], {}],
    ['--secret-key=KEY', [`--secret-key=${canary}`], {}],
    ['--second-secret-key KEY', ['--second-secret-key', nameShaped], {}],
    ['a flag of another setting, then the key', ['--balance-id', nameShaped], {}],
    ['a switch, then the key', ['--strict', canary], {}],
    ['the key alone', [nameShaped], {}],
    ['the key in a variable of another setting', [], { PCS_CURRENCY_ID: nameShaped }],
  ];
  for (const [name, args, env] of cases) {
    test(`${name}: one line, exit 2, the value described and never printed`, { timeout: 60_000 }, async () => {
      const workDir = join(scratch, `flag-${name.replace(/\W+/g, '-')}`);
      const run = await runSuite(workDir, args, { command: [bin], env });
      assert.equal(run.code, 2, `${run.stdout.slice(-800)}${run.stderr.slice(-800)}`);
      const lines = `${run.stdout}${run.stderr}`.split('\n').filter((line) => line.trim() !== '');
      assert.equal(lines.length, 1, `one line:\n${run.stdout}${run.stderr}`);
      assert.match(lines[0]!, /^collect-conformance: /);
      const found = secrets.flatMap((secret) =>
        [...needles(secret)]
          .filter(([, needle]) => run.stdout.includes(needle) || run.stderr.includes(needle))
          .map(
            ([form]) => `${secret === canary ? 'canary' : secret === nameShaped ? 'name-shaped' : 'token'}: ${form}`,
          ),
      );
      assert.deepEqual(found, [], lines[0]);
      assert.equal(existsSync(join(workDir, 'reports', 'junit.xml')), false, 'nothing ran');
    });
  }

  test('an ordinary variable name that is not set is named, so that the mistake can be found', async () => {
    const run = await runSuite(join(scratch, 'flag-unset-name'), ['--secret-key-env', 'MY_UNSET_KEY_VAR'], {
      command: [bin],
    });
    assert.equal(run.code, 2);
    assert.equal(
      run.stderr,
      'collect-conformance: --secret-key-env MY_UNSET_KEY_VAR: that environment variable is not set or empty\n',
    );
  });
});
