/**
 * The network figures of npm run bench: what a default run costs against a target that is
 * slow, that throttles, or that is broken, each as a ratio to what the target forces. Measured in
 * the bench's one run, on loopback, with the reference mock made slow (its latency fault) or put
 * behind lab/throttle-proxy.ts (an independent rate limiter: a token bucket, 429 with Retry-After):
 *
 *   1. latency: the mock answers after 40 ms. Wall time against the floor
 *      requests × latency ÷ in flight (workers × the auto ceiling of http/in-flight.ts);
 *      target: within 40 s, with as many generated requests as the same cases without latency (one
 *      seed for every run of this section); beside it, the same run with one case in flight per worker
 *      (PCS_IN_FLIGHT=1), measured in the same bench run: what keeping the wire busy buys.
 *   2. a token bucket of 400 requests per second (burst 40): the requests the target served per
 *      second while the tests ran, over 400; target: at least 80 %.
 *   3. 50 ms away and 200 per second together: wall time against the floor the rate limit sets
 *      (the requests served ÷ 200); target: at most 1.5 times.
 *   4. a one-defect mock (createTransaction echoes amount + 1) against the same mock without it: the
 *      failing run's wall time over the passing one's; target: at most 1.5 times.
 *
 * Each run is `npm run conformance` with PCS_BASE_URL pointing at the target (both keys of the mock,
 * so every test runs), its own output directory, default workers and runs.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, type AddressInfo } from 'node:net';
import { defaultSandboxKey, defaultSecondSandboxKey } from '../mock/app.ts';
import { autoCeiling } from '../http/in-flight.ts';
import { workersForRoundTrip } from '../settings/round-trip-probe.ts';
import { defaultWorkers } from '../settings/config.ts';
import type { RunTiming } from '../reporters/run-timing.ts';
import { startThrottleProxy, type ThrottleProxy } from './throttle-proxy.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface NetworkRun {
  label: string;
  exitCode: number;
  wallMs: number;
  /** From the first test's start to the last test's end (reporters/run-timing.ts). */
  testsMs: number;
  generatedRequests: number;
  summary: string;
}

/**
 * One seed for the runs of this section: the same cases everywhere, so that the slow run's generated
 * requests compare with the unlimited run's one for one (their count otherwise varies by a few %).
 */
const benchSeed = '20261124';

function conformance(
  label: string,
  baseUrl: string,
  mock: MockProcess,
  extra: NodeJS.ProcessEnv = {},
): Promise<NetworkRun> {
  const output = mkdtempSync(join(tmpdir(), 'cc-bench-network-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...extra,
    PCS_BASE_URL: baseUrl,
    PCS_SECRET_KEY: mock.sandboxKey,
    PCS_SECOND_SECRET_KEY: mock.secondSandboxKey,
    PCS_OUTPUT_DIR: output,
    PCS_RUN_ID: `bench-net-${Date.now().toString(36)}`,
    PCS_SEED: benchSeed,
  };
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn('npm', ['run', '--silent', 'conformance', '--', '--reporter', 'dot'], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    child.on('error', fail);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      const statsFile = join(output, 'property-stats.jsonl');
      const generatedRequests = existsSync(statsFile)
        ? readFileSync(statsFile, 'utf8')
            .split('\n')
            .filter((line) => line.trim() !== '')
            .reduce((sum, line) => sum + (JSON.parse(line) as { requests: number }).requests, 0)
        : 0;
      const timingFile = join(output, 'run-timing.json');
      const timing = existsSync(timingFile) ? (JSON.parse(readFileSync(timingFile, 'utf8')) as RunTiming) : undefined;
      const testsMs =
        timing?.firstTestBegan !== undefined && timing.lastTestEnded !== undefined
          ? timing.lastTestEnded - timing.firstTestBegan
          : wallMs;
      const summary = /summary: [^\n]*/.exec(text)?.[0] ?? `no summary (exit ${code})`;
      rmSync(output, { recursive: true, force: true });
      done({ label, exitCode: code ?? 1, wallMs, testsMs, generatedRequests, summary });
    });
  });
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const count = (value: number): string => Math.round(value).toLocaleString('en-US');
const verdict = (ok: boolean): string => (ok ? 'met' : 'NOT met');

/** What a run needs of the mock: where it listens and its two sandbox keys. */
interface MockProcess {
  sandboxBaseUrl: string;
  sandboxKey: string;
  secondSandboxKey: string;
}

/**
 * The mock in a process of its own (`collect-conformance mock`), as a real target is: in the bench's
 * process it would share one event loop with the throttling proxy, and each would slow the other.
 */
async function withMock<T>(options: { faults?: string; mutant?: string }, work: (mock: MockProcess) => Promise<T>) {
  const port = await freePort();
  const args = [join(root, 'bin', 'collect-conformance.mjs'), 'mock', '--port', String(port), '--host', '127.0.0.1'];
  if (options.faults) args.push('--faults', options.faults);
  if (options.mutant) args.push('--mutant', options.mutant);
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    await new Promise<void>((ready, fail) => {
      let text = '';
      const timer = setTimeout(() => fail(new Error(`the mock did not start: ${text.slice(0, 300)}`)), 30_000);
      const read = (chunk: Buffer) => {
        text += chunk.toString('utf8');
        if (text.includes('listening')) {
          clearTimeout(timer);
          ready();
        }
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.on('exit', (code) => fail(new Error(`the mock exited (${code}): ${text.slice(0, 300)}`)));
    });
    return await work({
      sandboxBaseUrl: `http://127.0.0.1:${port}/v1`,
      sandboxKey: defaultSandboxKey,
      secondSandboxKey: defaultSecondSandboxKey,
    });
  } finally {
    child.kill('SIGTERM');
  }
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolvePort(port));
    });
  });
}

async function behindProxy(spec: string, label: string): Promise<{ run: NetworkRun; served: number; refused: number }> {
  return withMock({}, async (mock) => {
    const proxy: ThrottleProxy = await startThrottleProxy(mock.sandboxBaseUrl, spec);
    try {
      const run = await conformance(label, proxy.url, mock);
      const stats = proxy.stats();
      return { run, served: stats.forwarded, refused: stats.refused };
    } finally {
      await proxy.close();
    }
  });
}

/** Runs the four measurements; returns the lines to print (and write), and whether every run passed as expected. */
export async function networkFigures(
  log: (line: string) => void,
  /** The measurements to make (default: all). */
  only: ReadonlySet<Measurement> = new Set(measurements),
): Promise<{ lines: string[]; ok: boolean }> {
  const lines: string[] = [];
  let ok = true;
  // The same mock without latency, limit or defect, with the same seed: what the others are compared with.
  let passing: NetworkRun | undefined;
  if (only.has('latency') || only.has('defect')) {
    log('a default run against the mock (no latency, no limit), the reference of the others…');
    passing = await withMock({}, (mock) => conformance('passing', mock.sandboxBaseUrl, mock));
    ok &&= passing.exitCode === 0;
  }

  if (only.has('latency')) {
    log('a default run against the mock answering after 40 ms…');
    const slow = await withMock({ faults: 'latency=40' }, (mock) =>
      conformance('latency 40 ms', mock.sandboxBaseUrl, mock),
    );
    log('the same run with one case in flight per worker (PCS_IN_FLIGHT=1)…');
    const oneInFlight = await withMock({ faults: 'latency=40' }, (mock) =>
      conformance('latency 40 ms, one in flight', mock.sandboxBaseUrl, mock, { PCS_IN_FLIGHT: '1' }),
    );
    // The workers the command chose for a target 40 ms away (settings/round-trip-probe.ts).
    const workers = workersForRoundTrip(40) ?? defaultWorkers;
    const inFlight = workers * autoCeiling;
    const floorMs = (slow.generatedRequests * 40) / inFlight;
    const reference = passing?.generatedRequests ?? 0;
    lines.push(
      `40 ms latency: ${seconds(slow.wallMs)} wall, ${count(slow.generatedRequests)} generated requests ` +
        `(exit ${slow.exitCode}; ${slow.summary})`,
      `  floor requests × 40 ms ÷ ${inFlight} in flight (${workers} workers × ${autoCeiling}) = ` +
        `${seconds(floorMs)}; wall / floor = ${(slow.wallMs / Math.max(1, floorMs)).toFixed(2)}`,
      `  the same cases without latency (PCS_SEED=${benchSeed}): ${count(reference)} generated requests; ` +
        `one in flight per worker (PCS_IN_FLIGHT=1), 40 ms away: ${seconds(oneInFlight.wallMs)} wall, ` +
        `${count(oneInFlight.generatedRequests)} generated requests (exit ${oneInFlight.exitCode})`,
      `  targets: within 40 s ${verdict(slow.wallMs <= 40_000)}; as many generated requests as without latency ` +
        `${verdict(slow.generatedRequests >= reference)}`,
    );
    ok &&= slow.exitCode === 0 && oneInFlight.exitCode === 0;
  }

  if (only.has('bucket')) {
    log('a default run through a token bucket of 400 requests per second (burst 40)…');
    const bucket = await behindProxy('bucket=400/40,retry-after=seconds', 'bucket 400/s');
    const bucketRate = (bucket.served * 1000) / bucket.run.testsMs;
    lines.push(
      `token bucket 400/s, burst 40, 429 with Retry-After: 1: ${seconds(bucket.run.wallMs)} wall, ` +
        `${count(bucket.served)} requests served and ${count(bucket.refused)} refused (429) ` +
        `(exit ${bucket.run.exitCode}; ${bucket.run.summary})`,
      `  served per second while the tests ran (${seconds(bucket.run.testsMs)}): ${count(bucketRate)}; ` +
        `over the allowed 400: ${((100 * bucketRate) / 400).toFixed(0)} %`,
      `  target: at least 80 % of the allowed rate ${verdict(bucketRate >= 320)}`,
    );
    ok &&= bucket.run.exitCode === 0;
  }

  if (only.has('far')) {
    log('a default run 50 ms away through a token bucket of 200 requests per second…');
    const far = await behindProxy('bucket=200/20,latency=50,retry-after=seconds', '50 ms and 200/s');
    const rateFloorMs = (far.served * 1000) / 200;
    lines.push(
      `50 ms away and 200/s (token bucket, burst 20): ${seconds(far.run.wallMs)} wall, ` +
        `${count(far.served)} requests served and ${count(far.refused)} refused (429) ` +
        `(exit ${far.run.exitCode}; ${far.run.summary})`,
      `  floor the rate limit sets (served ÷ 200) = ${seconds(rateFloorMs)}; ` +
        `wall / floor = ${(far.run.wallMs / Math.max(1, rateFloorMs)).toFixed(2)}`,
      `  target: at most 1.5 times the floor ${verdict(far.run.wallMs <= 1.5 * rateFloorMs)}`,
    );
    ok &&= far.run.exitCode === 0;
  }

  if (only.has('defect')) {
    log('a run against a one-defect mock, and the same mock without it…');
    const reference = passing as NetworkRun;
    const failing = await withMock({ mutant: 'createTransaction.echo.amount' }, (mock) =>
      conformance('one defect', mock.sandboxBaseUrl, mock),
    );
    lines.push(
      `one defect (createTransaction echoes amount + 1): ${seconds(failing.wallMs)} wall ` +
        `(exit ${failing.exitCode}; ${failing.summary})`,
      `  passing run against the same mock without it: ${seconds(reference.wallMs)} wall ` +
        `(exit ${reference.exitCode})`,
      `  failing / passing = ${(failing.wallMs / Math.max(1, reference.wallMs)).toFixed(2)}; ` +
        `target: at most 1.5 ${verdict(failing.wallMs <= 1.5 * reference.wallMs)}`,
    );
    // The defect must be found (exit 1); the passing run must pass (checked above).
    ok &&= failing.exitCode === 1;
  }
  return { lines, ok };
}

export const measurements = ['latency', 'bucket', 'far', 'defect'] as const;
export type Measurement = (typeof measurements)[number];

/** `npx tsx lab/bench-network.ts [--only latency,bucket,far,defect]`: these figures alone (not written to docs). */
async function main(argv: string[]): Promise<number> {
  const at = argv.indexOf('--only');
  const names = at === -1 ? [...measurements] : (argv[at + 1] ?? '').split(',').filter((name) => name !== '');
  const unknown = names.filter((name) => !(measurements as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0) {
    process.stderr.write(`bench-network: --only takes some of ${measurements.join(', ')}; got "${names.join(',')}"\n`);
    return 2;
  }
  const { lines, ok } = await networkFigures(
    (line) => process.stdout.write(`${line}\n`),
    new Set(names as Measurement[]),
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  return ok ? 0 : 1;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`bench-network: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
