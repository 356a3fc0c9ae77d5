/**
 * What the forwarding proxy (proxy/forwarding-proxy.ts) costs the traffic it carries, on
 * loopback on this machine. Figures are printed, never asserted.
 *
 *   npx tsx lab/bench-traffic.ts [--upstream fixed|mock] [--requests 4000] [--connections 16]
 *                                [--seconds 5] [--long-seconds 30] [--judged | --judged-only]
 *
 *   1. the round trip of requests sent one after another over one keep-alive connection, directly
 *      and through the proxy, in interleaved rounds (median and p95; target: the proxy adds at most
 *      1 ms to the median);
 *   2. the exchanges a second it forwards with N concurrent keep-alive clients (autocannon), beside
 *      the upstream alone, for each hook given (by default one that does nothing and one that does
 *      some work of a judge's kind: target at least 2,000 a second);
 *   3. the proxy process's resident memory over a long run, with a hook slower than the traffic, so
 *      that the queue in front of it fills (it must stay bounded: bodies go to disk, then new requests
 *      are held back; nothing is dropped);
 *   4. with --judged (alone: --judged-only), `collect-conformance proxy` as it judges, its worker and its
 *      reports included: 200 keep-alive connections for 60 s (--judged-seconds), and 200 connections
 *      asking for answers of 884 KB (--large-seconds, default 20 s). Each prints forwarded = judged +
 *      skipped + reported not judged (+ requests without an answer), which must hold to the exchange,
 *      with no exchange not judged; and the exchanges a second and the peak resident memory (targets:
 *      at least 2,000 a second for the first, under 512 MiB for both).
 *
 * The upstream (a fixed JSON server, or the reference mock) and the clients each run in a process of
 * their own; the proxy runs in this one, so that a hook is a plain function (runTrafficBench takes
 * them: the judge can be measured the same way) and this process's memory is the proxy's.
 */
import { defaultSandboxKey } from '../mock/app.ts';
import { pinnedValues } from '../generation/arbitraries.ts';
import { WorkerJudge } from '../proxy/worker-judge.ts';
import type { JudgeOptions } from '../judge/traffic-judge.ts';
import { unansweredText, type UnansweredReason } from '../proxy/proxy-events.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { request, Agent } from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ExchangeHook, type ForwardingStats, startForwardingProxy } from '../proxy/forwarding-proxy.ts';
import { autocannon } from './autocannon.ts';
import { benchCreationBody } from './bench-mock.ts';

const thisFile = fileURLToPath(import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));

export interface NamedHook {
  name: string;
  hook: ExchangeHook;
  /** Ends what the hook started (a worker), after the proxy it served closed. */
  close?: () => Promise<void>;
}

/** Does nothing: what capturing and queueing alone cost. */
export const noOpHook: NamedHook = { name: 'no-op hook', hook: () => {} };

/**
 * Work of a judge's kind, on the same thread as the forwarding: both bodies parsed, hashed, a few
 * fields read, and a bounded map of what was seen kept across exchanges.
 */
export function workingHook(): NamedHook {
  const seen = new Map<string, number>();
  return {
    name: 'working hook',
    hook: (exchange) => {
      const response = exchange.decodedResponseBody?.bytes ?? exchange.responseBody.bytes;
      const digest = createHash('sha256').update(exchange.requestBody.bytes).update(response).digest('hex');
      let id = digest;
      try {
        const body: unknown = JSON.parse(response.toString('utf8'));
        if (typeof body === 'object' && body !== null && 'id' in body) id = String(body.id);
        if (exchange.requestBody.bytes.length > 0) JSON.parse(exchange.requestBody.bytes.toString('utf8'));
      } catch {
        // not JSON: judged as bytes
      }
      seen.set(`${id}:${exchange.sequence}`, exchange.status);
      if (seen.size > 10_000) seen.delete(seen.keys().next().value!);
    },
  };
}

/**
 * The traffic judge itself, as `collect-conformance proxy` runs it: each exchange copied to the judging worker,
 * judged there by the registered rules against what earlier ones showed, and gathered for the reports. Its keys are
 * the reference mock's. The worker starts with the first exchange; close() ends it.
 */
/** The judge's options for a bench: the key of the upstream, the ids of the reference mock. */
function benchJudgeOptions(key: string): JudgeOptions {
  return {
    keys: { first: key, second: null },
    keyVariables: { first: 'PCS_SECRET_KEY', second: 'PCS_SECOND_SECRET_KEY' },
    settings: { strict: false, clockToleranceSeconds: 300, earliestMs: Date.now() },
    documentedOnly: false,
    paymentMode: 'mtn',
    balanceIds: { first: 1, second: null },
    currencyId: 1,
    pinned: pinnedValues({ currencyIso: 'XOF', paymentMode: 'mtn', phoneNumber: '+22997000001', phoneCountry: 'BJ' }),
    credentialsRecorded: true,
  };
}

export function judgeHook(): NamedHook {
  let judge: WorkerJudge | undefined;
  return {
    name: 'the traffic judge (its worker thread)',
    hook: (exchange) => {
      judge ??= new WorkerJudge(benchJudgeOptions(defaultSandboxKey));
      return judge.judge(exchange);
    },
    close: async () => {
      await judge?.close();
      judge = undefined;
    },
  };
}

/** Slower than the traffic: each exchange waits about a millisecond, so the queue in front of it fills. */
export const slowHook: NamedHook = {
  name: 'slow hook (1 ms each)',
  hook: () => new Promise<void>((done) => setTimeout(done, 1)),
};

export interface TrafficBenchOptions {
  upstream: 'fixed' | 'mock';
  /** Sequential requests per path (direct, through the proxy). */
  requests: number;
  connections: number;
  seconds: number;
  longSeconds: number;
  /** The hooks of the throughput table; the first one is the sequential run's. */
  hooks: NamedHook[];
  /** The long run's hook. */
  longHook: NamedHook;
}

export const defaultTrafficBenchOptions = (): TrafficBenchOptions => ({
  upstream: 'fixed',
  requests: 4000,
  connections: 16,
  seconds: 5,
  longSeconds: 30,
  hooks: [noOpHook, workingHook(), judgeHook()],
  longHook: slowHook,
});

export interface LatencyFigures {
  medianMs: number;
  p95Ms: number;
}

export interface ThroughputFigures {
  path: string;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  /** Peak resident memory of this process (the proxy's) while it ran, in MiB; null for the upstream alone. */
  peakRssMiB: number | null;
  stats: ForwardingStats | null;
}

export interface LongRunFigures {
  hook: string;
  seconds: number;
  perSecond: number;
  rssMiB: { before: number; firstQuarterPeak: number; peak: number; lastQuarterPeak: number; after: number };
  stats: ForwardingStats;
}

export interface TrafficBenchResult {
  options: Omit<TrafficBenchOptions, 'hooks' | 'longHook'> & { hooks: string[]; longHook: string };
  machine: string;
  sequential: { rounds: number; direct: LatencyFigures; proxied: LatencyFigures; hook: string };
  throughput: ThroughputFigures[];
  longRun: LongRunFigures | null;
}

// ---------------------------------------------------------------- children: the upstream, the sequential client

interface UpstreamInfo {
  base: string;
  key: string;
  /** Sequential requests: a read. */
  readPath: string;
  /** Concurrent requests: a creation. */
  createPath: string;
}

/** The size of the large answers the judged bench asks for. */
const largeAnswerBytes = 884 * 1024;

/** A balance list of about 884 KB, as a server with thousands of balances in one answer would send. */
function largeBalanceList(): string {
  const items: string[] = [];
  let size = 2;
  for (let id = 1; size < largeAnswerBytes; id++) {
    const item = JSON.stringify({
      id,
      amount: 100_000 + id,
      mode: 'sandbox',
      account_id: 1,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    });
    items.push(item);
    size += item.length + 1;
  }
  return `[${items.join(',')}]`;
}

async function upstreamRole(kind: string): Promise<void> {
  if (kind === 'large') {
    const { createServer } = await import('node:http');
    const body = Buffer.from(largeBalanceList());
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
        res.end(body);
      });
    });
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      const info: UpstreamInfo = {
        base: `http://127.0.0.1:${port}/v1`,
        key: 'sk_test_bench',
        readPath: '/balances/1',
        createPath: '/balances/1',
      };
      process.stdout.write(`${JSON.stringify(info)}\n`);
    });
    return;
  }
  if (kind === 'mock') {
    const { startMockServer } = await import('../mock/server.ts');
    const mock = await startMockServer({ host: '127.0.0.1', port: 0 });
    const info: UpstreamInfo = {
      base: mock.sandboxBaseUrl,
      key: mock.sandboxKey,
      readPath: '/currencies/1',
      createPath: '/transactions',
    };
    process.stdout.write(`${JSON.stringify(info)}\n`);
    return;
  }
  const { createServer } = await import('node:http');
  // The bytes of a created transaction, as a server of the reference would answer one.
  // Each creation gets an id of its own, as a server gives them (one id given twice is a finding to report).
  const transaction = JSON.stringify({
    id: 100000001,
    reference: 'bench-ref',
    amount: 1500,
    description: 'bench',
    status: 'pending',
    currency: { iso: 'XOF', name: 'Franc CFA', prefix: null, suffix: 'F' },
    custom_metadata: { bench: true },
    created_at: '2026-01-01T00:00:00.000Z',
  });
  const length = String(Buffer.byteLength(transaction));
  let next = 100000001;
  const server = createServer((req, res) => {
    req.on('data', () => {});
    req.on('end', () => {
      const post = req.method === 'POST';
      // Nine digits either way: the same length, the same bytes but the id.
      const body = post ? transaction.replace('100000001', String(next++)) : transaction;
      res.writeHead(post ? 201 : 200, ['Content-Type', 'application/json', 'Content-Length', length]);
      res.end(body);
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const info: UpstreamInfo = {
      base: `http://127.0.0.1:${port}/v1`,
      key: 'sk_test_bench',
      readPath: '/transactions/100000001',
      createPath: '/transactions',
    };
    process.stdout.write(`${JSON.stringify(info)}\n`);
  });
}

function roundTrip(agent: Agent, url: string, key: string): Promise<number> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const outgoing = request(url, { agent, headers: { Authorization: `Bearer ${key}` } }, (res) => {
      res.on('data', () => {});
      res.on('end', () => done(performance.now() - started));
      res.on('error', fail);
    });
    outgoing.on('error', fail);
    outgoing.end();
  });
}

/** Sends `requests` to each of two addresses over one keep-alive connection each, alternating in rounds. */
async function sequentialRole(direct: string, proxied: string, key: string, requests: number, rounds: number) {
  const agents = [new Agent({ keepAlive: true, maxSockets: 1 }), new Agent({ keepAlive: true, maxSockets: 1 })];
  const urls = [direct, proxied];
  const times: number[][] = [[], []];
  for (let side = 0; side < 2; side++) for (let i = 0; i < 200; i++) await roundTrip(agents[side]!, urls[side]!, key);
  const perRound = Math.ceil(requests / rounds);
  for (let round = 0; round < rounds; round++) {
    // Each side goes first in every other round, so that a drift of the machine weighs on both alike.
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const side of order)
      for (let i = 0; i < perRound; i++) times[side]!.push(await roundTrip(agents[side]!, urls[side]!, key));
  }
  for (const agent of agents) agent.destroy();
  process.stdout.write(`${JSON.stringify({ direct: times[0], proxied: times[1] })}\n`);
}

// ---------------------------------------------------------------- the parent

function spawnRole(args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', thisFile, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((done, fail) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const at = buffer.indexOf('\n');
      if (at >= 0) done(buffer.slice(0, at));
    });
    child.once('exit', (code) => fail(new Error(`${child.spawnargs.slice(3).join(' ')} exited with ${code}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 3000).unref();
  });
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

const latency = (values: number[]): LatencyFigures => ({
  medianMs: percentile(values, 0.5),
  p95Ms: percentile(values, 0.95),
});

const mib = (bytes: number): number => bytes / (1024 * 1024);

/** Samples this process's resident memory until stopped. */
function sampleRss(everyMs = 100): { stop(): number[] } {
  const samples = [process.memoryUsage.rss()];
  const timer = setInterval(() => samples.push(process.memoryUsage.rss()), everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      samples.push(process.memoryUsage.rss());
      return samples;
    },
  };
}

async function load(url: string, key: string, connections: number, seconds: number) {
  const json = await autocannon({ url, method: 'POST', key, body: benchCreationBody, seconds, connections });
  return {
    perSecond: json.requests.total / json.duration,
    p50Ms: json.latency.p50,
    p99Ms: json.latency.p99,
    errors: json.errors + json.timeouts,
    non2xx: json.non2xx,
  };
}

export function machineLine(): string {
  return `Node ${process.version}, ${availableParallelism()} core(s), load average ${loadavg()[0]!.toFixed(1)}`;
}

export async function runTrafficBench(
  options: TrafficBenchOptions = defaultTrafficBenchOptions(),
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<TrafficBenchResult> {
  const upstreamChild = spawnRole(['--role', 'upstream', '--kind', options.upstream]);
  try {
    const info = JSON.parse(await firstLine(upstreamChild)) as UpstreamInfo;
    const machine = machineLine();

    log(`sequential: ${options.requests} requests each way, one keep-alive connection each`);
    const rounds = 10;
    const sequentialProxy = await startForwardingProxy({ upstream: info.base, onExchange: options.hooks[0]?.hook });
    const client = spawnRole([
      '--role',
      'sequential',
      '--direct',
      info.base + info.readPath,
      '--proxied',
      sequentialProxy.url + info.readPath,
      '--key',
      info.key,
      '--requests',
      String(options.requests),
      '--rounds',
      String(rounds),
    ]);
    const times = JSON.parse(await firstLine(client)) as { direct: number[]; proxied: number[] };
    await stop(client);
    await sequentialProxy.close();

    const throughput: ThroughputFigures[] = [];
    log(`throughput: the upstream alone, ${options.connections} connections, ${options.seconds} s`);
    const alone = await load(info.base + info.createPath, info.key, options.connections, options.seconds);
    throughput.push({ path: 'upstream alone', ...alone, peakRssMiB: null, stats: null });
    for (const { name, hook, close } of options.hooks) {
      log(`throughput: through the proxy, ${name}`);
      const proxy = await startForwardingProxy({ upstream: info.base, onExchange: hook });
      const rss = sampleRss();
      const measured = await load(proxy.url + info.createPath, info.key, options.connections, options.seconds);
      await proxy.close();
      await close?.();
      const samples = rss.stop();
      throughput.push({
        path: `proxy, ${name}`,
        ...measured,
        peakRssMiB: mib(Math.max(...samples)),
        stats: proxy.stats(),
      });
    }

    let longRun: LongRunFigures | null = null;
    if (options.longSeconds > 0) {
      log(`long run: ${options.longSeconds} s through the proxy, ${options.longHook.name}`);
      const before = process.memoryUsage.rss();
      const proxy = await startForwardingProxy({ upstream: info.base, onExchange: options.longHook.hook });
      const rss = sampleRss();
      const measured = await load(proxy.url + info.createPath, info.key, options.connections, options.longSeconds);
      const samples = rss.stop();
      await proxy.close();
      await options.longHook.close?.();
      const quarter = Math.max(1, Math.floor(samples.length / 4));
      longRun = {
        hook: options.longHook.name,
        seconds: options.longSeconds,
        perSecond: measured.perSecond,
        rssMiB: {
          before: mib(before),
          firstQuarterPeak: mib(Math.max(...samples.slice(0, quarter))),
          peak: mib(Math.max(...samples)),
          lastQuarterPeak: mib(Math.max(...samples.slice(-quarter))),
          after: mib(process.memoryUsage.rss()),
        },
        stats: proxy.stats(),
      };
    }

    return {
      options: { ...options, hooks: options.hooks.map((hook) => hook.name), longHook: options.longHook.name },
      machine,
      sequential: {
        rounds,
        direct: latency(times.direct),
        proxied: latency(times.proxied),
        hook: options.hooks[0]?.name ?? 'no hook',
      },
      throughput,
      longRun,
    };
  } finally {
    await stop(upstreamChild);
  }
}

export interface JudgedRunFigures {
  name: string;
  connections: number;
  seconds: number;
  /** Requests the proxy received. */
  forwarded: number;
  judged: number;
  skipped: number;
  /** Reported as not judged (with their reasons): none is the target without --sample. */
  notJudged: number;
  /** Requests that got no answer to judge (reported with their reasons). */
  unanswered: number;
  perSecond: number;
  peakRssMiB: number;
  held: number;
  spilled: number;
  errors: number;
  reasons: string[];
}

/**
 * `collect-conformance proxy` as it judges (its worker, its reports), under `connections` keep-alive clients for
 * `seconds`: what was forwarded, judged, skipped and reported not judged, the exchanges a second, peak memory.
 */
export async function judgedRun(
  name: string,
  kind: 'fixed' | 'large',
  connections: number,
  seconds: number,
): Promise<JudgedRunFigures> {
  const upstreamChild = spawnRole(['--role', 'upstream', '--kind', kind]);
  const output = mkdtempSync(join(tmpdir(), 'pcs-bench-judged-'));
  try {
    const info = JSON.parse(await firstLine(upstreamChild)) as UpstreamInfo;
    const judge = new WorkerJudge({ ...benchJudgeOptions(info.key), basePath: '/v1' });
    const proxy = await startForwardingProxy({
      upstream: info.base,
      answerTimeoutMs: 15_000,
      onExchange: (exchange) => judge.judge(exchange),
    });
    const rss = sampleRss();
    const loaded = await autocannon({
      url: proxy.url + info.createPath,
      method: kind === 'large' ? 'GET' : 'POST',
      key: info.key,
      ...(kind === 'large' ? {} : { body: benchCreationBody }),
      seconds,
      connections,
    });
    await proxy.close();
    const stats = proxy.stats();
    const unanswered = Object.entries(stats.unanswered).filter(([, count]) => count > 0) as Array<
      [UnansweredReason, number]
    >;
    const verdict = await judge.report({
      options: {
        outputDir: output,
        allureResultsDir: join(output, 'allure-results'),
        header: {
          target: name,
          environment: 'bench',
          runId: 'bench',
          finishedAt: new Date().toISOString(),
          traffic: true,
        },
        origin: 'proxy',
        skipped: [],
        credentialsRecorded: true,
      },
      notes: [],
      notJudged: stats.queue.failed > 0 ? [['the hook failed on it', stats.queue.failed]] : [],
      unanswered: unanswered.map(([reason, count]) => [unansweredText[reason], count]),
    });
    const samples = rss.stop();
    return {
      name,
      connections,
      seconds,
      forwarded: stats.received,
      judged: verdict.judged,
      skipped: verdict.skipped,
      notJudged: verdict.notJudged,
      unanswered: unanswered.reduce((sum, [, count]) => sum + count, 0),
      perSecond: stats.received / loaded.duration,
      peakRssMiB: mib(Math.max(...samples)),
      held: stats.held,
      spilled: stats.queue.spilled,
      errors: loaded.errors + loaded.timeouts,
      reasons: unanswered.map(([reason, count]) => `${count} ${reason}`),
    };
  } finally {
    rmSync(output, { recursive: true, force: true });
    await stop(upstreamChild);
  }
}

/** The judged runs' figures, one paragraph each. */
export function judgedRunLines(runs: readonly JudgedRunFigures[]): string[] {
  const lines: string[] = [];
  for (const run of runs) {
    const sum = run.judged + run.skipped + run.notJudged + run.unanswered;
    const why = run.unanswered > 0 ? ` (${run.reasons.join(', ')})` : '';
    const holds = sum === run.forwarded ? 'holds' : 'DOES NOT HOLD';
    const rate = run.name.startsWith('small')
      ? `; at least 2,000 exchanges/s ${run.perSecond >= 2000 ? 'met' : 'NOT met'}`
      : '';
    lines.push(
      `${run.name}: ${run.connections} connections, ${run.seconds} s`,
      `  forwarded ${run.forwarded} = judged ${run.judged} + skipped ${run.skipped} + reported not judged ` +
        `${run.notJudged} + without an answer ${run.unanswered}` +
        `${why}: ${holds}`,
      `  ${Math.round(run.perSecond)} exchanges/s, peak resident memory ${run.peakRssMiB.toFixed(0)} MiB, ` +
        `requests held back ${run.held}, exchanges spilled to disk ${run.spilled}, client errors ${run.errors}`,
      `  targets: not judged = 0 ${run.notJudged === 0 ? 'met' : 'NOT met'}; under 512 MiB ` +
        `${run.peakRssMiB < 512 ? 'met' : 'NOT met'}` +
        rate,
    );
  }
  return lines;
}

const ms = (value: number): string => value.toFixed(3);
const row = (cells: (string | number)[]): string => `| ${cells.join(' | ')} |`;

/** The figures as a few small Markdown tables, with the targets and whether they were met. */
export function trafficBenchTables(result: TrafficBenchResult): string {
  const { sequential, throughput, longRun, options } = result;
  const added = sequential.proxied.medianMs - sequential.direct.medianMs;
  const upstream = options.upstream === 'mock' ? 'the reference mock' : 'a fixed JSON server';
  const lines = [
    `Forwarding proxy on loopback: ${result.machine}; upstream: ${upstream}`,
    '',
    `Sequential round trip, ${options.requests} GETs each way over one keep-alive connection, ` +
      `${sequential.rounds} interleaved rounds:`,
    '',
    row(['Path', 'median ms', 'p95 ms']),
    row(['---', '---:', '---:']),
    row(['direct', ms(sequential.direct.medianMs), ms(sequential.direct.p95Ms)]),
    row([`proxy, ${sequential.hook}`, ms(sequential.proxied.medianMs), ms(sequential.proxied.p95Ms)]),
    row(['added by the proxy', ms(added), ms(sequential.proxied.p95Ms - sequential.direct.p95Ms)]),
    '',
    `Target: at most 1 ms added to the median: ${added <= 1 ? 'met' : 'NOT met'}.`,
    '',
    `Throughput, ${options.connections} concurrent keep-alive connections, ${options.seconds} s each ` +
      '(autocannon, POST):',
    '',
    row(['Path', 'exchanges/s', 'p50 ms', 'p99 ms', 'errors', 'peak RSS MiB', 'to the hook', 'held back, spilled']),
    row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---']),
  ];
  for (const figures of throughput) {
    const queue = figures.stats?.queue;
    lines.push(
      row([
        figures.path,
        Math.round(figures.perSecond),
        figures.p50Ms,
        figures.p99Ms,
        figures.errors + figures.non2xx,
        figures.peakRssMiB === null ? '' : figures.peakRssMiB.toFixed(0),
        queue === undefined ? '' : queue.delivered,
        queue === undefined ? '' : `${figures.stats?.held ?? 0} held, ${queue.spilled} spilled`,
      ]),
    );
  }
  const slowest = Math.min(...throughput.filter((each) => each.stats !== null).map((each) => each.perSecond));
  lines.push('', `Target: at least 2,000 exchanges/s through the proxy: ${slowest >= 2000 ? 'met' : 'NOT met'}.`);
  if (longRun !== null) {
    const { rssMiB, stats } = longRun;
    lines.push(
      '',
      `Long run, ${longRun.seconds} s, ${options.connections} connections, ${longRun.hook}: ` +
        `${Math.round(longRun.perSecond)} exchanges/s; this process's resident memory (MiB):`,
      '',
      row(['before', 'peak, first quarter', 'peak, last quarter', 'peak', 'after close']),
      row(['---:', '---:', '---:', '---:', '---:']),
      row(
        [rssMiB.before, rssMiB.firstQuarterPeak, rssMiB.lastQuarterPeak, rssMiB.peak, rssMiB.after].map((v) =>
          v.toFixed(0),
        ),
      ),
      '',
      `Exchanges ${stats.completed}, to the hook ${stats.queue.delivered}, queue peak ${stats.queue.peakWaiting}, ` +
        `requests held back ${stats.held}, exchanges spilled to disk ${stats.queue.spilled} (none dropped).`,
    );
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------- the command

function argument(argv: string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
}

function whole(argv: string[], name: string, fallback: number, minimum: number): number {
  const value = argument(argv, name);
  if (value === undefined) return fallback;
  if (!/^\d{1,7}$/.test(value) || Number(value) < minimum) {
    process.stderr.write(`bench-traffic: ${name} needs a whole number of at least ${minimum}\n`);
    process.exit(2);
  }
  return Number(value);
}

async function main(argv: string[]): Promise<void> {
  const role = argument(argv, '--role');
  if (role === 'upstream') return upstreamRole(argument(argv, '--kind') ?? 'fixed');
  if (role === 'sequential')
    return sequentialRole(
      argument(argv, '--direct')!,
      argument(argv, '--proxied')!,
      argument(argv, '--key')!,
      whole(argv, '--requests', 4000, 1),
      whole(argv, '--rounds', 10, 1),
    );
  const judgedRuns = async (): Promise<void> => {
    const connections = whole(argv, '--judged-connections', 200, 1);
    const runs = [
      await judgedRun(
        'small answers (a created transaction)',
        'fixed',
        connections,
        whole(argv, '--judged-seconds', 60, 1),
      ),
      await judgedRun(
        'answers of 884 KB (a balance list)',
        'large',
        connections,
        whole(argv, '--large-seconds', 20, 1),
      ),
    ];
    process.stdout.write(
      `\nThe proxy as collect-conformance proxy judges (${machineLine()}):\n${judgedRunLines(runs).join('\n')}\n`,
    );
  };
  if (argv.includes('--judged-only')) return judgedRuns();
  const upstream = argument(argv, '--upstream') ?? 'fixed';
  if (upstream !== 'fixed' && upstream !== 'mock') {
    process.stderr.write('bench-traffic: --upstream is fixed or mock\n');
    process.exit(2);
  }
  const defaults = defaultTrafficBenchOptions();
  const result = await runTrafficBench({
    ...defaults,
    upstream,
    requests: whole(argv, '--requests', defaults.requests, 10),
    connections: whole(argv, '--connections', defaults.connections, 1),
    seconds: whole(argv, '--seconds', defaults.seconds, 1),
    longSeconds: whole(argv, '--long-seconds', defaults.longSeconds, 0),
  });
  process.stdout.write(`${trafficBenchTables(result)}\n`);
  if (argv.includes('--judged')) await judgedRuns();
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === thisFile) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`bench-traffic: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
