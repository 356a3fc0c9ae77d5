/**
 * The packaged command, as another repository uses it: `npm pack`, installed into an
 * empty temporary project, then `npx collect-conformance` from there against a running
 * mock (exit 0), a faulty one (exit 1, the failure located at the spec's real line), with a
 * bad flag (exit 2, one line), against a closed port (exit 3) and with a broken file of its own
 * (exit 4, one line). Also `collect-conformance mock`, which prints its URLs and keys, and
 * `rules --show`, which lists a rule's tests by file and line. The package runs the JavaScript
 * compiled from the sources (dist/), without tsx, and carries its documentation: every link of
 * its README, and of the pages it leads to, resolves inside the installed package.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { relativeLinks } from '../../lab/build-package.ts';
import { startMockServer, type RunningMock } from '../../mock/server.ts';
import { mockVersionHeader } from '../../mock/version.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let project: string;
/** The installed package's folder. */
let installed: string;
let good: RunningMock;
let faulty: RunningMock;

before(async () => {
  project = mkdtempSync(join(tmpdir(), 'cc-installed-'));
  execFileSync(npm, ['pack', '--pack-destination', project], { cwd: root, stdio: 'ignore' });
  const tarball = readdirSync(project).find((file) => file.endsWith('.tgz'));
  assert.ok(tarball, 'npm pack wrote no tarball');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
  execFileSync(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', `./${tarball}`], {
    cwd: project,
    stdio: 'ignore',
  });
  installed = join(project, 'node_modules', 'collect-conformance');
  good = await startMockServer();
  faulty = await startMockServer();
  // A server that breaks one documented rule: the created transaction does not echo the amount sent.
  const store = faulty.mock.stores.sandbox;
  const addTransaction = store.addTransaction.bind(store);
  store.addTransaction = (fields) => ({ ...addTransaction(fields), amount: fields.amount + 1 });
});

after(async () => {
  await good?.close();
  await faulty?.close();
  if (project) rmSync(project, { recursive: true, force: true });
});

/**
 * Runs the installed command asynchronously (the mocks live in this process and must keep
 * answering). npm's own warnings about this machine's configuration are dropped from stderr.
 */
function collectConformance(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('npx', ['--no-install', 'collect-conformance', ...args], {
    cwd: project,
    // The caller's PCS_* variables removed, not emptied: an empty one is a configuration error.
    env: { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PCS_'))), ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const ownStderr = stderr
        .split('\n')
        .filter((line) => !line.startsWith('npm warn'))
        .join('\n');
      resolve({ code, stdout, stderr: ownStderr });
    });
  });
}

const targetFlags = (mock: RunningMock) => [
  '--base-url',
  mock.sandboxBaseUrl,
  '--secret-key-env',
  'MOCK_KEY',
  '--balance-id',
  '1',
  '--currency-id',
  '1',
  '--reporter',
  'dot',
];

test('against a running reference mock: exit 0', async () => {
  const run = await collectConformance(targetFlags(good), { MOCK_KEY: good.sandboxKey });
  assert.equal(run.code, 0, run.stdout.slice(-2000) + run.stderr.slice(-2000));
  assert.match(run.stdout, /\d+ passed/);
  assert.ok(
    !run.stdout.includes(good.sandboxKey) && !run.stderr.includes(good.sandboxKey),
    'the key never appears in the output',
  );
});

/** The lines of a spec: its source in this checkout, and the file the package ships. */
function specLines(spec: string): { source: string[]; shipped: string[] } {
  const read = (path: string): string[] => readFileSync(path, 'utf8').split('\n');
  return {
    source: read(join(root, 'tests', 'conformance', `${spec}.spec.ts`)),
    shipped: read(join(installed, 'dist', 'tests', 'conformance', `${spec}.spec.js`)),
  };
}

/** The text at line:column (1-based) of a file's lines. */
const at = (lines: string[], line: number, column: number): string => (lines[line - 1] ?? '').slice(column - 1);

test("against a faulty server: exit 1, the failure names the rule and points at the spec's real line", async () => {
  const run = await collectConformance([...targetFlags(faulty), '--grep', '@TXN-CREATE-ECHO'], {
    MOCK_KEY: faulty.sandboxKey,
  });
  assert.equal(run.code, 1);
  assert.match(run.stdout, /TXN-CREATE-ECHO \(documented\) violated by createTransaction/);
  assert.match(run.stdout, /at body \/amount: expected \d+ \(number\), actual \d+ \(number\)/);
  const { source, shipped } = specLines('create-transaction');
  // The failed test's heading gives the line and column of its test( call ...
  const heading =
    /create-transaction\.spec\.js:(\d+):(\d+) › createTransaction: POST \/transactions › the created /.exec(run.stdout);
  assert.ok(heading, run.stdout.slice(-3000));
  const [line, column] = [Number(heading[1]), Number(heading[2])];
  assert.ok(line > 1, 'a line of the spec, not line 1 of transpiled code');
  assert.match(at(source, line, column), /^test\(/, `source line ${line}: ${source[line - 1]}`);
  assert.match(at(shipped, line, column), /^test\(/, `shipped line ${line}: ${shipped[line - 1]}`);
  // ... and its stack the line and column of the assertion that failed, in the file the package ships.
  const frame = /create-transaction\.spec\.js:(\d+):(\d+)\)?$/m.exec(run.stdout);
  assert.ok(frame, 'a stack frame in the spec');
  const [frameLine, frameColumn] = [Number(frame[1]), Number(frame[2])];
  assert.match(at(source, frameLine, frameColumn), /^expect(Answer|Rule)\(/, source[frameLine - 1]);
  assert.match(at(shipped, frameLine, frameColumn), /^expect(Answer|Rule)\(/, shipped[frameLine - 1]);
});

test('rules --show lists the tests of a rule at their real lines', async () => {
  const run = await collectConformance(['rules', '--show', 'TXN-CREATE-ECHO', '--json']);
  assert.equal(run.code, 0, run.stderr);
  const shown = JSON.parse(run.stdout) as { tests: Array<{ file: string; line?: number; title: string }> };
  const example = shown.tests.find((listed) => listed.file === 'tests/conformance/create-transaction.spec.js');
  assert.ok(example?.line, JSON.stringify(shown.tests));
  assert.match(specLines('create-transaction').source[example.line - 1] ?? '', /\btest\(/);
});

test('a broken file of the installed package: exit 4 and one line, not the 1 of a non-conformance', async () => {
  const rulesFile = join(installed, 'dist', 'specs', 'rules.json');
  const original = readFileSync(rulesFile, 'utf8');
  writeFileSync(rulesFile, '{ "rules": [');
  try {
    const run = await collectConformance(['rules']);
    assert.equal(run.code, 4, run.stdout + run.stderr);
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
    assert.match(run.stderr, /^collect-conformance: internal error: SyntaxError: .*not of the target: exit 4\)$/m);
  } finally {
    writeFileSync(rulesFile, original);
  }
});

test('with a bad flag: exit 2 and one line', async () => {
  const run = await collectConformance(['--shard', 'x']);
  assert.equal(run.code, 2);
  assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
  assert.match(run.stderr, /--shard: must be i\/n/);
});

test('against a closed port: exit 3', async () => {
  const port = await new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as { port: number };
      server.close(() => resolve(address.port));
    });
  });
  const run = await collectConformance(
    ['--base-url', `http://127.0.0.1:${port}/v1`, '--secret-key-env', 'MOCK_KEY', '--reporter', 'dot'],
    { MOCK_KEY: 'sk_sandbox_x' },
  );
  assert.equal(run.code, 3, run.stdout.slice(-1500) + run.stderr.slice(-1500));
  assert.match(run.stdout + run.stderr, /target unavailable/);
});

test('the proxy judges in its worker thread from the compiled package: a client meets the defect, exit 1', async () => {
  // A client that creates one transaction through the proxy; the faulty mock answers another amount.
  const client = [
    'const body = { description: "package check", amount: 1500, currency: { iso: "XOF" },',
    '  callback_url: "https://example.com/callback" };',
    'fetch(process.env.COLLECT_CONFORMANCE_PROXY_URL + "/transactions", { method: "POST",',
    '  headers: { authorization: "Bearer " + process.env.MOCK_KEY, "content-type": "application/json" },',
    '  body: JSON.stringify(body) }).then((answer) => process.exit(answer.ok ? 0 : 1));',
  ].join('\n');
  const run = await collectConformance(
    ['proxy', '--upstream', faulty.sandboxBaseUrl, '--secret-key-env', 'MOCK_KEY', '--', 'node', '-e', client],
    { MOCK_KEY: faulty.sandboxKey },
  );
  assert.equal(run.code, 1, run.stdout.slice(-1500) + run.stderr.slice(-1500));
  assert.match(run.stdout, /TXN-CREATE-ECHO/);
  assert.ok(!`${run.stdout}${run.stderr}`.includes(faulty.sandboxKey), 'the key never appears in the output');
});

test('collect-conformance mock starts the mock and prints its base URLs and keys', async () => {
  // Its own process group, so that stopping it stops npx's child too.
  const child = spawn('npx', ['--no-install', 'collect-conformance', 'mock', '--port', '0'], {
    cwd: project,
    env: process.env,
    detached: true,
  });
  try {
    const output = await new Promise<string>((resolve, reject) => {
      let text = '';
      const timer = setTimeout(() => reject(new Error(`mock did not start: ${text}`)), 60_000);
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('Ctrl+C')) {
          clearTimeout(timer);
          resolve(text);
        }
      });
    });
    const base = /PCS_BASE_URL=(\S+)/.exec(output)?.[1];
    const key = /PCS_SECRET_KEY=(\S+)/.exec(output)?.[1];
    assert.ok(base && key, output);
    const response = await fetch(`${base}/currencies/1`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(response.status, 200);
    assert.ok(response.headers.get(mockVersionHeader), 'version header');
  } finally {
    process.kill(-child.pid!, 'SIGINT');
  }
});

const productOnlyTitle =
  'the package holds the product only: no lab (bench, fuzz, profile, peers, mutation runner) and no project tests';
test(productOnlyTitle, () => {
  const files = readdirSync(installed, { recursive: true, encoding: 'utf8' });
  const lab = files.filter(
    (file) => /^(dist\/)?(lab|tools|peers)\//.test(file) || /(bench|fuzz|profile|mutation)[^/]*\.[jt]s$/.test(file),
  );
  assert.deepEqual(lab, [], 'lab code in the package');
  const tests = files.filter((file) => /^(dist\/)?tests\//.test(file) && !/^dist\/tests\/conformance(\/|$)/.test(file));
  assert.deepEqual(tests, [], "the project's own tests in the package");
  assert.ok(files.includes('dist/tests/conformance/create-transaction.spec.js'), 'the suite is in the package');
  assert.ok(
    files.includes('dist/specs/input-cases/create-transaction-body.json'),
    'the input cases rules --show reads',
  );
});

test('the package carries the documentation its README links: every relative link resolves inside it', () => {
  const dangling: string[] = [];
  const seen = new Set<string>();
  const pages = ['README.md'];
  while (pages.length > 0) {
    const page = pages.pop()!;
    for (const target of relativeLinks(readFileSync(join(installed, page), 'utf8'))) {
      const path = relative(installed, resolve(installed, dirname(page), target));
      if (seen.has(path)) continue;
      seen.add(path);
      if (path.startsWith('..') || !existsSync(join(installed, path))) dangling.push(`${page}: ${target}`);
      else if (path.endsWith('.md')) pages.push(path);
    }
  }
  assert.deepEqual(dangling, [], 'links of the installed documentation that lead nowhere');
  for (const page of [
    'docs/reference/shapes.md',
    'docs/reference/configuration.md',
    'docs/guides/sdk-traffic.md',
    'docs/guides/sdk-mock.md',
  ])
    assert.ok(seen.has(page), `the README does not lead to ${page}`);
  assert.match(readFileSync(join(installed, 'docs/reference/shapes.md'), 'utf8'), /unknown_mode/);
});

test('the package runs JavaScript compiled from the sources, without tsx', () => {
  const files = readdirSync(installed, { recursive: true, encoding: 'utf8' });
  assert.deepEqual(
    files.filter((file) => file.endsWith('.ts')),
    [],
    'TypeScript in the package',
  );
  assert.ok(files.includes('dist/playwright.config.js') && files.includes('dist/cli/collect-conformance.js'));
  // Nothing of the package depends on tsx: it is not installed beside it.
  assert.equal(existsSync(join(project, 'node_modules', 'tsx')), false, 'tsx installed with the package');
  // Every compiled module has the lines of its source.
  for (const file of files.filter((name) => name.startsWith('dist/') && name.endsWith('.js'))) {
    const sourcePath = join(root, file.slice('dist/'.length).replace(/\.js$/, '.ts'));
    const lines = (path: string): number => readFileSync(path, 'utf8').split('\n').length;
    assert.equal(lines(join(installed, file)), lines(sourcePath), file);
  }
});
