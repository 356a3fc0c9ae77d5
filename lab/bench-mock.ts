/**
 * The reference mock's throughput beside a bare node:http server serving the same bytes
 * (the ceiling of a Node server here) and beside Prism's mock of the same specs/openapi.json,
 * measured in the same run on loopback with autocannon (npm run bench calls this; or
 * npm run bench:mock). Figures are printed, never asserted.
 *
 *   npm run bench:mock -- --seconds 5 --connections 10 [--no-prism]
 *
 * Both servers run in their own process (the mock through tsx, Prism from lab/peer-tools/), so that
 * autocannon, also in its own process, measures the server and not a shared event loop.
 * Prism runs with --verboseLevel error, so that its per-request logging does not count
 * against it. Scenarios: a read (GET /currencies/1) and a creation (POST /transactions).
 */
import { ensurePeersInstalled } from './peers/install.ts';
import { autocannon, autocannonBin } from './autocannon.ts';
import { commandLineOf, writeMeasured } from './measured.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const prismBin = resolve(root, 'lab/peer-tools/node_modules/@stoplight/prism-cli/dist/index.js');
const prismShim = resolve(root, 'lab/peer-tools/node_modules/.bin/prism');

interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  /** Path after the base address (the mock's base ends in /v1; Prism serves the document's paths at its root). */
  path: string;
  body?: string;
}

/** The creation body of the benches (here, and the creation ceiling of npm run bench). */
export const benchCreationBody = JSON.stringify({
  description: 'bench',
  amount: 1500,
  currency: { iso: 'XOF' },
  callback_url: 'https://example.com/cb',
  custom_metadata: { bench: true },
});

const scenarios: Scenario[] = [
  { name: 'GET /currencies/1', method: 'GET', path: '/currencies/1' },
  { name: 'POST /transactions', method: 'POST', path: '/transactions', body: benchCreationBody },
];

interface Measured {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  total: number;
}

/** The fields of autocannon's --json output this script reads. */
function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  const value = index >= 0 ? process.argv[index + 1] : undefined;
  if (value === undefined) return fallback;
  if (!/^\d{1,4}$/.test(value) || Number(value) < 1) {
    process.stderr.write(`bench-mock: ${name} needs a positive whole number\n`);
    process.exit(2);
  }
  return Number(value);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise<void>((done) => server.close(() => done()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function waitFor(url: string, headers: Record<string, string>, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { headers });
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`${url} did not answer within ${seconds} s`);
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 3_000).unref();
  });
}

async function startReferenceMock(port: number): Promise<{ child: ChildProcess; base: string; key: string }> {
  const script =
    `import { startMockServer } from './mock/server.ts'; ` +
    `const m = await startMockServer({ host: '127.0.0.1', port: ${port} }); ` +
    `process.stdout.write(JSON.stringify({ base: m.sandboxBaseUrl, key: m.sandboxKey }) + '\\n');`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((done, fail) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      if (buffer.includes('\n')) done(buffer.split('\n')[0] ?? '');
    });
    child.once('exit', (code) => fail(new Error(`the mock exited with ${code}`)));
  });
  const { base, key } = JSON.parse(line) as { base: string; key: string };
  return { child, base, key };
}

/**
 * A bare node:http server answering each scenario with the bytes the mock answered it (status,
 * Content-Type, body), read once from the mock: the ceiling of a Node server on this machine,
 * measured in the same run, so that the mock's figure reads as a ratio (at least 70 %).
 * It reads every request body to its end, as a server must, and validates, stores and checks nothing.
 */
async function startBareServer(
  port: number,
  answers: Record<string, { status: number; contentType: string; body: string }>,
): Promise<{ child: ChildProcess; base: string }> {
  // Two lines of the script are cut in the middle (` + `) so that no line here is longer than 120 characters.
  const script =
    `
    const http = require('node:http');
    const answers = JSON.parse(process.env.BARE_ANSWERS);
    const prepared = Object.fromEntries(Object.entries(answers).map(([key, a]) => [key, { status: a.status, ` +
    `headers: { 'content-type': a.contentType, 'content-length': Buffer.byteLength(a.body) }, body: a.body }]));
    http.createServer((req, res) => {
      const answer = prepared[req.method + ' ' + req.url] ?? ` +
    `{ status: 404, headers: { 'content-length': 0 }, body: '' };
      req.on('data', () => {});
      req.on('end', () => { res.writeHead(answer.status, answer.headers); res.end(answer.body); });
    }).listen(${port}, '127.0.0.1', () => process.stdout.write('ready\\n'));`;
  const child = spawn(process.execPath, ['-e', script], {
    cwd: root,
    env: { ...process.env, BARE_ANSWERS: JSON.stringify(answers) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((done, fail) => {
    child.stdout!.once('data', () => done());
    child.once('exit', (code) => fail(new Error(`the bare server exited with ${code}`)));
  });
  return { child, base: `http://127.0.0.1:${port}/v1` };
}

/** What the mock answers each scenario: the bare server serves the same bytes. */
async function mockAnswers(
  base: string,
  key: string,
): Promise<Record<string, { status: number; contentType: string; body: string }>> {
  const answers: Record<string, { status: number; contentType: string; body: string }> = {};
  for (const scenario of scenarios) {
    const response = await fetch(base + scenario.path, {
      method: scenario.method,
      headers: { authorization: `Bearer ${key}`, ...(scenario.body ? { 'content-type': 'application/json' } : {}) },
      ...(scenario.body ? { body: scenario.body } : {}),
    });
    answers[`${scenario.method} ${new URL(base + scenario.path).pathname}`] = {
      status: response.status,
      contentType: response.headers.get('content-type') ?? 'application/json',
      body: await response.text(),
    };
  }
  return answers;
}

export interface MockRatio {
  scenario: string;
  connections: number;
  mock: number;
  bare: number;
}

async function startPrism(port: number): Promise<{ child: ChildProcess; base: string }> {
  const command = existsSync(prismBin) ? [process.execPath, prismBin] : [prismShim];
  const child = spawn(
    command[0]!,
    [
      ...command.slice(1),
      'mock',
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      '--verboseLevel',
      'error',
      resolve(root, 'specs/openapi.json'),
    ],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/currencies/1`, { authorization: 'Bearer bench' }, 30);
  return { child, base };
}

async function load(
  url: string,
  scenario: Scenario,
  key: string,
  seconds: number,
  connections: number,
): Promise<Measured> {
  const json = await autocannon({ url, method: scenario.method, key, body: scenario.body, seconds, connections });
  return {
    requestsPerSecond: Math.round(json.requests.average),
    p50Ms: json.latency.p50,
    p99Ms: json.latency.p99,
    non2xx: json.non2xx,
    errors: json.errors,
    total: json.requests.total,
  };
}

function row(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/**
 * The mock beside the bare server, per scenario, with 1 connection (the suite's generated
 * requests, one at a time per worker) and with `connections`. Returns the ratios for npm run bench.
 */
export async function mockVersusBare(seconds: number, connections: number): Promise<MockRatio[]> {
  const mock = await startReferenceMock(await freePort());
  const bare = await startBareServer(await freePort(), await mockAnswers(mock.base, mock.key));
  const ratios: MockRatio[] = [];
  try {
    for (const scenario of scenarios) {
      for (const count of [...new Set([1, connections])]) {
        await load(mock.base + scenario.path, scenario, mock.key, 1, count);
        const ours = await load(mock.base + scenario.path, scenario, mock.key, seconds, count);
        await load(bare.base + scenario.path, scenario, mock.key, 1, count);
        const theirs = await load(bare.base + scenario.path, scenario, mock.key, seconds, count);
        ratios.push({
          scenario: scenario.name,
          connections: count,
          mock: ours.requestsPerSecond,
          bare: theirs.requestsPerSecond,
        });
      }
    }
  } finally {
    await stop(mock.child);
    await stop(bare.child);
  }
  return ratios;
}

export function ratioLines(ratios: MockRatio[]): string[] {
  return [
    row(['scenario', 'connections', 'reference mock req/s', 'bare node:http req/s', 'mock / bare']),
    row(['---', '---:', '---:', '---:', '---:']),
    ...ratios.map((r) =>
      row([
        r.scenario,
        String(r.connections),
        String(r.mock),
        String(r.bare),
        `${Math.round((100 * r.mock) / Math.max(1, r.bare))} %`,
      ]),
    ),
  ];
}

async function main(): Promise<void> {
  const seconds = option('--seconds', 5);
  const connections = option('--connections', 10);
  // What is printed is also the page of figures the docs link to (docs/measured/bench-mock.md).
  const figures: string[] = [];
  const say = (line: string): void => {
    console.log(line);
    figures.push(line.replace(/^bench-mock: /, ''));
  };
  if (!existsSync(autocannonBin)) {
    process.stderr.write('bench-mock: autocannon is not installed (npm install)\n');
    process.exit(2);
  }
  say(
    `bench-mock: the reference mock beside a bare node:http server ` +
      `serving the same bytes (autocannon, ${seconds} s each, same run)`,
  );
  for (const line of ratioLines(await mockVersusBare(seconds, connections))) say(line);
  say('');
  const write = (): void => {
    const body = figures.map((line) => (line.startsWith('|') || line === '' ? line : `${line}\n`));
    const written = writeMeasured({ name: 'bench-mock', commandLine: commandLineOf('bench-mock'), body });
    console.log(`bench-mock: wrote ${written}`);
  };
  if (process.argv.includes('--no-prism')) return write();
  const prismAvailable = ensurePeersInstalled() && (existsSync(prismBin) || existsSync(prismShim));
  const mock = await startReferenceMock(await freePort());
  const prism = prismAvailable ? await startPrism(await freePort()) : null;
  try {
    say(`bench-mock: autocannon, ${connections} connections, ${seconds} s per scenario, loopback, same run`);
    say(row(['scenario', 'server', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors']));
    say(row(['---', '---', '---:', '---:', '---:', '---:', '---:']));
    for (const scenario of scenarios) {
      // A short warm-up of each server first (JIT, connection pools), not counted.
      await load(mock.base + scenario.path, scenario, mock.key, 1, connections);
      const ours = await load(mock.base + scenario.path, scenario, mock.key, seconds, connections);
      say(
        row([
          scenario.name,
          'reference mock',
          String(ours.requestsPerSecond),
          String(ours.p50Ms),
          String(ours.p99Ms),
          String(ours.non2xx),
          String(ours.errors),
        ]),
      );
      if (prism) {
        await load(prism.base + scenario.path, scenario, 'bench', 1, connections);
        const theirs = await load(prism.base + scenario.path, scenario, 'bench', seconds, connections);
        say(
          row([
            scenario.name,
            'Prism mock',
            String(theirs.requestsPerSecond),
            String(theirs.p50Ms),
            String(theirs.p99Ms),
            String(theirs.non2xx),
            String(theirs.errors),
          ]),
        );
        say(
          row([
            scenario.name,
            'ratio',
            `${(ours.requestsPerSecond / Math.max(1, theirs.requestsPerSecond)).toFixed(1)}×`,
            '',
            '',
            '',
            '',
          ]),
        );
      }
    }
    if (!prism)
      say(
        'bench-mock: Prism is not installed in lab/peer-tools/ (flock /tmp/npm.lock ' +
          'npm install --prefix lab/peer-tools @stoplight/prism-cli): its column is missing',
      );
  } finally {
    await stop(mock.child);
    if (prism) await stop(prism.child);
  }
  write();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
