/**
 * npm run bench: figures of the suite's speed, printed (never asserted in a test). Measured
 * in one run, and printed as ratios too, so that they mean something on a shared, noisy machine.
 *
 *   1. the wall time of a default `npm run conformance` against the embedded mock, and its
 *      parts (start-up, global setup, the tests, what follows them: reporters/run-timing.ts);
 *   2. the generated requests per second of its property and stateful tests, from the
 *      statistics they append to ${PCS_OUTPUT_DIR:-reports}/property-stats.jsonl, and where
 *      the time of a generated request goes, by phase (http/request-costs.ts);
 *   3. the raw loopback ceiling: autocannon with one connection against the same mock
 *      (same code, started here), in the same bench run, and the generated rate over it;
 *   4. lab/bench-network.ts: the default run against the mock made 40 ms slow, behind
 *      a token bucket of 400/s, 50 ms away behind 200/s, and broken by one defect, each as a ratio
 *      to what the target forces (the floor its latency or rate limit sets, the passing run);
 *   5. then lab/bench-mock.ts: the mock beside a bare node:http server serving the same JSON;
 *   6. what judging a client's traffic costs: the forwarding proxy with the traffic judge on loopback (the
 *      round trip it adds, the exchanges a second it forwards, its memory over a long run: lab/bench-traffic.ts),
 *      and `collect-conformance judge` on a 100 MB HAR (lab/bench-har.ts).
 *
 * What it prints on stdout is the page it writes, docs/measured/bench.md, section by section as each is measured
 * (progress goes to stderr): the page holds what the run printed, never figures of another run.
 *
 * Targets: the default run in at most 8 s with at least 5,000 generated requests;
 * generated requests per second (both workers) at least 40 % of the one-connection ceiling;
 * the mock at least 70 % of bare node:http. They are reported, not enforced: the exit code is
 * the conformance run's (0 when it passed).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockServer } from '../mock/server.ts';
import { costPhases, type CostPhase } from '../http/request-costs.ts';
import type { RunTiming } from '../reporters/run-timing.ts';
import { benchCreationBody, mockVersusBare, ratioLines } from './bench-mock.ts';
import { writeMeasured } from './measured.ts';
import { networkFigures } from './bench-network.ts';
import { defaultTrafficBenchOptions, judgeHook, runTrafficBench, trafficBenchTables } from './bench-traffic.ts';
import { harFigureLines, harFigures } from './bench-har.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const outputDir = resolve(root, process.env.PCS_OUTPUT_DIR ?? 'reports');
const statsFile = resolve(outputDir, 'property-stats.jsonl');
const autocannonBin = resolve(root, 'node_modules/autocannon/autocannon.js');

interface StatsLine {
  costs?: Partial<Record<CostPhase, number>>;
  runId: string | null;
  title: string;
  worker: number;
  runs: number;
  requests: number;
  durationMs: number;
  startedAt: number;
  endedAt: number;
  interrupted: boolean;
}

interface Spawned {
  code: number;
  stdout: string;
  stderr: string;
  wallMs: number;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, echo = false): Promise<Spawned> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (echo) process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (echo) process.stderr.write(chunk);
    });
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? 1, stdout, stderr, wallMs: performance.now() - started }));
  });
}

/** Total length of the union of [start, end] intervals: the time at least one property test was running. */
function unionMs(intervals: Array<[number, number]>): number {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let current: [number, number] | undefined;
  for (const [start, end] of sorted) {
    if (!current || start > current[1]) {
      if (current) total += current[1] - current[0];
      current = [start, end];
    } else current[1] = Math.max(current[1], end);
  }
  if (current) total += current[1] - current[0];
  return total;
}

const number = (value: number): string => Math.round(value).toLocaleString('en-US');
const verdict = (ok: boolean): string => (ok ? 'met' : 'NOT met');

/**
 * Where a generated request's time went, by phase: microseconds per request and share, summed over the property tests.
 */
function costLines(lines: StatsLine[], requests: number): string[] {
  const totals = new Map<CostPhase, number>();
  for (const line of lines)
    for (const phase of costPhases) totals.set(phase, (totals.get(phase) ?? 0) + (line.costs?.[phase] ?? 0));
  const all = [...totals.values()].reduce((sum, ms) => sum + ms, 0);
  if (all === 0 || requests === 0) return ['cost per generated request: not recorded (PCS_COST_BREAKDOWN)'];
  return [
    `cost per generated request (worker time, ${((all * 1000) / requests).toFixed(0)} µs in all):`,
    ...costPhases.map((phase) => {
      const ms = totals.get(phase) ?? 0;
      return (
        `  ${phase.padEnd(11)} ${((ms * 1000) / requests).toFixed(0).padStart(6)} µs  ` +
        `${((100 * ms) / all).toFixed(1).padStart(5)} %`
      );
    }),
  ];
}

/** The parts of the run's wall time, from its timeline (reporters/run-timing.ts). */
function timelineLines(started: number, ended: number): string[] {
  const file = resolve(outputDir, 'run-timing.json');
  if (!existsSync(file)) return ['  (no run-timing.json: the parts of the wall time are unknown)'];
  const t = JSON.parse(readFileSync(file, 'utf8')) as RunTiming;
  const part = (from: number | undefined, to: number | undefined): string =>
    from === undefined || to === undefined ? '?' : `${((to - from) / 1000).toFixed(2)} s`;
  return [
    `  start-up (command, TypeScript, configuration) ${part(started, t.setupStarted)}; ` +
      `global setup (embedded mock, preflight) ${part(t.setupStarted, t.setupEnded)};`,
    `  workers starting ${part(t.setupEnded, t.firstTestBegan)}; ` +
      `tests ${part(t.firstTestBegan, t.lastTestEnded)}; ` +
      `after the tests (teardown, reporters, exit) ${part(t.lastTestEnded, ended)}`,
  ];
}

async function conformanceRun(runId: string): Promise<Spawned & { command: string; startedAt: number }> {
  rmSync(statsFile, { force: true });
  // PCS_COST_BREAKDOWN: the property runner records where each generated request's time goes.
  const env: NodeJS.ProcessEnv = { ...process.env, PCS_RUN_ID: runId, PCS_COST_BREAKDOWN: '1' };
  // A default run: the embedded mock, default workers and runs;
  // the user's target variables would change what is measured.
  delete env.PCS_BASE_URL;
  delete env.PCS_SECRET_KEY;
  const command = 'npm run conformance';
  const startedAt = Date.now();
  const result = await run('npm', ['run', '--silent', 'conformance'], env);
  return { ...result, command, startedAt };
}

/**
 * The one-connection ceiling of a read (the issue's figure) or
 * of a creation, the request the generated traffic sends most.
 */
async function loopbackCeiling(
  seconds: number,
  request: 'read' | 'creation' = 'read',
): Promise<{ requestsPerSecond: number; latencyMs: number; errors: number }> {
  const mock = await startMockServer({ port: 0, host: '127.0.0.1' });
  try {
    const target =
      request === 'read'
        ? [`${mock.sandboxBaseUrl}/balances/1`]
        : [
            '-m',
            'POST',
            '-H',
            'content-type=application/json',
            '-b',
            benchCreationBody,
            `${mock.sandboxBaseUrl}/transactions`,
          ];
    // autocannon runs in its own process, as the Playwright
    // workers do, so that it does not share the mock's event loop.
    const result = await run(
      process.execPath,
      [
        autocannonBin,
        '-c',
        '1',
        '-d',
        String(seconds),
        '-j',
        '-H',
        `authorization=Bearer ${mock.sandboxKey}`,
        ...target,
      ],
      process.env,
    );
    if (result.code !== 0)
      throw new Error(`autocannon failed (exit ${result.code}): ${result.stderr.split('\n')[0] ?? ''}`);
    const json = JSON.parse(result.stdout) as {
      requests: { average: number };
      latency: { average: number };
      errors: number;
      non2xx: number;
    };
    return {
      requestsPerSecond: json.requests.average,
      latencyMs: json.latency.average,
      errors: json.errors + json.non2xx,
    };
  } finally {
    await mock.close();
  }
}

/**
 * The page and what the bench prints are one text: each section is printed as it is measured, exactly as the page
 * (docs/measured/bench.md) holds it, and the page is written from the same lines at the end.
 */
class Page {
  readonly body: string[] = [];

  add(lines: readonly string[]): void {
    this.body.push(...lines);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}

/** Progress, between the sections: on stderr, so that stdout is the page's text alone. */
const progress = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

async function main(): Promise<number> {
  const runId = `bench-${Date.now().toString(36)}`;
  progress(`collect-conformance bench: Node ${process.version}, ${availableParallelism()} core(s)`);
  const page = new Page();
  const settings = Object.entries(process.env)
    .filter(([name]) => name.startsWith('PCS_') && name !== 'PCS_BASE_URL' && name !== 'PCS_SECRET_KEY')
    .map(([name, value]) => `${name}=${value}`);
  page.add([settings.length > 0 ? `Variables set for the run: ${settings.join(', ')}.` : 'No PCS_* variable set.', '']);

  progress('running a default conformance run against the embedded mock…');
  const conformance = await conformanceRun(runId);
  const summary = `${conformance.stdout}\n${conformance.stderr}`.match(/\d+ passed[^\n]*|\d+ failed[^\n]*/g) ?? [];

  const lines: StatsLine[] = existsSync(statsFile)
    ? readFileSync(statsFile, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as StatsLine)
        .filter((line) => line.runId === runId)
    : [];
  const requests = lines.reduce((sum, line) => sum + line.requests, 0);
  const summedMs = lines.reduce((sum, line) => sum + line.durationMs, 0);
  const spanMs = unionMs(lines.map((line) => [line.startedAt, line.endedAt]));
  const workers = new Set(lines.map((line) => line.worker)).size;
  const aggregateRate = spanMs > 0 ? (requests * 1000) / spanMs : 0;
  const perWorkerRate = summedMs > 0 ? (requests * 1000) / summedMs : 0;

  progress('measuring the loopback ceiling (autocannon, 1 connection, 5 s)…');
  const ceiling = await loopbackCeiling(5);
  const creationCeiling = await loopbackCeiling(3, 'creation');

  const wallSeconds = conformance.wallMs / 1000;
  const ratio = ceiling.requestsPerSecond > 0 ? aggregateRate / ceiling.requestsPerSecond : 0;
  page.add([
    '## A default conformance run against the embedded mock',
    '',
    '```text',
    `default conformance run (${conformance.command}, embedded mock): ${wallSeconds.toFixed(1)} s wall, ` +
      `exit ${conformance.code}${summary.length ? ` (${summary.join(', ')})` : ''}`,
    ...timelineLines(conformance.startedAt, conformance.startedAt + conformance.wallMs),
    `generated requests: ${number(requests)} in ${lines.length} property/stateful test(s) on ${workers} worker(s)`,
    `generated requests per second: ${number(aggregateRate)} (all workers: ` +
      `requests / ${(spanMs / 1000).toFixed(2)} s during which a property test ran)`,
    `                               ${number(perWorkerRate)} per worker ` +
      `(requests / ${(summedMs / 1000).toFixed(2)} s summed over the property tests)`,
    `loopback ceiling (autocannon, 1 connection, GET /v1/balances/1 on the same mock): ` +
      `${number(ceiling.requestsPerSecond)} req/s, ` +
      `mean latency ${ceiling.latencyMs.toFixed(2)} ms${ceiling.errors ? `, ${ceiling.errors} error(s)/non-2xx` : ''}`,
    `ratio: generated req/s (both workers) / one-connection ceiling = ${(ratio * 100).toFixed(0)} %`,
    `  (for comparison: the one-connection ceiling of a creation, POST /v1/transactions, ` +
      `the request the generated traffic sends most: ${number(creationCeiling.requestsPerSecond)} req/s; ` +
      `ratio ${((100 * aggregateRate) / Math.max(1, creationCeiling.requestsPerSecond)).toFixed(0)} %)`,
    ...costLines(lines, requests),
    `targets: run ≤ 8 s ${verdict(wallSeconds <= 8)}; ≥ 5,000 generated requests ${verdict(requests >= 5000)}; ` +
      `generated req/s ≥ 40 % of the ceiling ${verdict(ratio >= 0.4)}`,
    '```',
    '',
  ]);
  if (conformance.code !== 0)
    progress(`the conformance run failed; its last lines:\n${conformance.stdout.split('\n').slice(-30).join('\n')}`);

  // Against slow, throttling and broken targets, as ratios to what each forces.
  progress('against slow, throttling and broken targets (lab/bench-network.ts):');
  const network = await networkFigures((line) => progress(`  ${line}`));
  page.add([
    '## Against slow, throttling and broken targets',
    '',
    'The default run against the reference mock made slow, put behind lab/throttle-proxy.ts, or broken by one',
    'defect (lab/bench-network.ts), each as a ratio to what the target forces.',
    '',
    '```text',
    ...network.lines,
    '```',
    ...(network.ok ? [] : ['', 'A run of this section did not end as expected (see its exit code).']),
    '',
  ]);

  // The mock beside a bare node:http server serving the same bytes, in this run (Prism: npm run bench:mock).
  progress('the reference mock beside a bare node:http server serving the same bytes (autocannon, 3 s each)…');
  const ratios = await mockVersusBare(3, 10);
  const lowest = Math.min(...ratios.map((r) => r.mock / Math.max(1, r.bare)));
  page.add([
    '## The reference mock beside a bare node:http server serving the same bytes',
    '',
    'autocannon, 3 s per measurement, loopback.',
    '',
    ...ratioLines(ratios),
    '',
    `target: the mock ≥ 70 % of bare node:http ${verdict(lowest >= 0.7)} (lowest: ${Math.round(lowest * 100)} %)`,
    '',
  ]);

  // What judging a client's traffic costs: the proxy on loopback with the real judge, and a 100 MB HAR.
  progress('the forwarding proxy and the traffic judge (lab/bench-traffic.ts, lab/bench-har.ts)…');
  const traffic = await runTrafficBench(
    { ...defaultTrafficBenchOptions(), upstream: 'mock', hooks: [judgeHook()], longHook: judgeHook(), longSeconds: 15 },
    (line) => progress(`  ${line}`),
  );
  const har = harFigureLines(await harFigures(100, (line) => progress(`  ${line}`)));
  page.add([
    "## Judging a client's traffic",
    '',
    '`collect-conformance proxy` on loopback, judging with the traffic judge itself (lab/bench-traffic.ts), ',
    'and `collect-conformance judge` on a 100 MB HAR of real traffic (lab/bench-har.ts).',
    '',
    trafficBenchTables(traffic),
    '',
    '```text',
    ...har,
    '```',
  ]);
  if (conformance.code !== 0)
    page.add(['', `The conformance run failed (exit ${conformance.code}): these figures are not a passing run's.`]);

  progress(`bench: wrote ${writeMeasured({ name: 'bench', body: page.body })}`);
  // A run of the network section that did not end as expected (a false failure, a missed defect) is an error.
  return conformance.code !== 0 ? conformance.code : network.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
