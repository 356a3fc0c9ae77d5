/**
 * What `collect-conformance judge` costs on a large recording: a HAR of real traffic (creations,
 * links, sends, reads, wrong keys, against the reference mock, every answer the mock's own) grown to
 * the size asked for (default 100 MB), then judged by the installed command as a user runs it; the
 * wall time, the exchanges judged per second and the command's peak resident memory (read from
 * /proc while it runs). Target: a 100 MB HAR judged in under a minute.
 *
 * With --entries N: a HAR of N entries (a million by default: about a gigabyte), a hundred flows of
 * real traffic and then reads of the same balance and currency (one with a wrong key) until it has N,
 * judged the same way: memory must stay bounded whatever the size of the recording (the judge reads
 * it as a stream), and the summary counts every entry.
 *
 *   npx tsx lab/bench-har.ts [--megabytes N | --entries N]
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockServer, type RunningMock } from '../mock/server.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'collect-conformance.mjs');

export interface HarFigures {
  megabytes: number;
  entries: number;
  wallSeconds: number;
  exchangesPerSecond: number;
  peakRssMiB: number;
  exitCode: number;
  /** The judge's summary, first line. */
  summary: string;
}

interface Call {
  method: string;
  path: string;
  key: string | null;
  body?: unknown;
}

/** One HAR entry from a request made and its answer. */
async function entryOf(mock: RunningMock, call: Call): Promise<{ entry: object; json: unknown }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (call.key !== null) headers.authorization = `Bearer ${call.key}`;
  const text = call.body === undefined ? undefined : JSON.stringify(call.body);
  if (text !== undefined) headers['content-type'] = 'application/json';
  const started = Date.now();
  const response = await fetch(`${mock.sandboxBaseUrl}${call.path}`, { method: call.method, headers, body: text });
  const answer = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(answer);
  } catch {
    json = undefined;
  }
  const entry = {
    startedDateTime: new Date(started).toISOString(),
    time: Date.now() - started,
    request: {
      method: call.method,
      url: `${mock.sandboxBaseUrl}${call.path}`,
      httpVersion: 'HTTP/1.1',
      headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: text?.length ?? 0,
      ...(text === undefined ? {} : { postData: { mimeType: 'application/json', text } }),
    },
    response: {
      status: response.status,
      statusText: response.statusText,
      httpVersion: 'HTTP/1.1',
      headers: [...response.headers].map(([name, value]) => ({ name, value })),
      cookies: [],
      content: { size: answer.length, mimeType: response.headers.get('content-type') ?? '', text: answer },
      redirectURL: '',
      headersSize: -1,
      bodySize: answer.length,
    },
    cache: {},
    timings: { send: 0, wait: Date.now() - started, receive: 0 },
  };
  return { entry, json };
}

/** A flow of a client: a creation, its link, a send with its token, reads, and a request with a wrong key. */
async function flow(mock: RunningMock, n: number): Promise<object[]> {
  const key = mock.sandboxKey;
  const entries: object[] = [];
  const created = await entryOf(mock, {
    method: 'POST',
    path: '/transactions',
    key,
    body: { description: `bench ${n}`, amount: 1000 + (n % 5000), currency: { iso: 'XOF' } },
  });
  entries.push(created.entry);
  const id = (created.json as { id?: number }).id;
  if (typeof id === 'number') {
    const link = await entryOf(mock, { method: 'POST', path: `/transactions/${id}/token`, key });
    entries.push(link.entry);
    const token = (link.json as { token?: string }).token;
    if (token !== undefined)
      entries.push((await entryOf(mock, { method: 'POST', path: '/transactions/mtn', key, body: { token } })).entry);
  }
  entries.push((await entryOf(mock, { method: 'GET', path: '/balances/1', key })).entry);
  entries.push((await entryOf(mock, { method: 'GET', path: '/currencies/1', key })).entry);
  entries.push((await entryOf(mock, { method: 'GET', path: '/balances/1', key: `${key}x` })).entry);
  return entries;
}

/** Writes a HAR of at least `megabytes` MB (10^6 bytes) of real traffic to `file`; returns its entry count. */
export async function writeBenchHar(file: string, megabytes: number): Promise<{ entries: number; key: string }> {
  const mock = await startMockServer({ port: 0, host: '127.0.0.1' });
  const fd = openSync(file, 'w');
  let written = 0;
  let entries = 0;
  const write = (text: string): void => {
    written += writeSync(fd, text);
  };
  try {
    write('{"log":{"version":"1.2","creator":{"name":"collect-conformance bench","version":"1"},"entries":[');
    for (let n = 0; written < megabytes * 1_000_000; n += 8) {
      // Eight clients at once: their flows interleave as a real recording's would, each flow in its own order.
      const flows = await Promise.all(Array.from({ length: 8 }, (_, offset) => flow(mock, n + offset)));
      for (const entry of flows.flat()) {
        write(`${entries === 0 ? '' : ','}${JSON.stringify(entry)}`);
        entries++;
      }
    }
    write(']}}');
    return { entries, key: mock.sandboxKey };
  } finally {
    closeSync(fd);
    await mock.close();
  }
}

/**
 * Writes a HAR of exactly `count` entries: a hundred flows of real traffic against the reference mock, then the
 * reads of those flows again and again (a balance, a currency, a balance with a wrong key) until it has `count`.
 * What the judge learns stays the hundred flows' while the recording grows.
 */
export async function writeEntriesHar(file: string, count: number): Promise<{ entries: number; key: string }> {
  const mock = await startMockServer({ port: 0, host: '127.0.0.1' });
  const fd = openSync(file, 'w');
  let entries = 0;
  const write = (text: string): void => {
    writeSync(fd, text);
  };
  try {
    write('{"log":{"version":"1.2","creator":{"name":"collect-conformance bench","version":"1"},"entries":[');
    const reads: string[] = [];
    for (let n = 0; n < 100 && entries < count; n += 4) {
      const flows = await Promise.all(Array.from({ length: 4 }, (_, offset) => flow(mock, n + offset)));
      for (const entry of flows.flat()) {
        if (entries >= count) break;
        const text = JSON.stringify(entry);
        write(`${entries === 0 ? '' : ','}${text}`);
        entries++;
        if ((entry as { request: { method: string } }).request.method === 'GET') reads.push(text);
      }
    }
    // Written in batches: a million separate writes would measure the disk, not the judge.
    let batch: string[] = [];
    for (let at = 0; entries < count; at++, entries++) {
      batch.push(`,${reads[at % reads.length]}`);
      if (batch.length === 10_000) {
        write(batch.join(''));
        batch = [];
      }
    }
    write(`${batch.join('')}]}}`);
    return { entries, key: mock.sandboxKey };
  } finally {
    closeSync(fd);
    await mock.close();
  }
}

/** The peak resident memory of a process, sampled from /proc until it ends (MiB; 0 where /proc is not). */
function sampleRss(pid: number): { stop(): number } {
  let peak = 0;
  const timer = setInterval(() => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const match = /VmHWM:\s+(\d+) kB/.exec(status);
      if (match) peak = Math.max(peak, Number(match[1]) / 1024);
    } catch {
      // gone
    }
  }, 50);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

export async function harFigures(
  megabytes = 100,
  log: (line: string) => void = () => {},
  count?: number,
): Promise<HarFigures> {
  const work = mkdtempSync(join(tmpdir(), 'pcs-bench-har-'));
  try {
    const file = join(work, 'traffic.har');
    log(
      count === undefined
        ? `writing a HAR of ${megabytes} MB of real traffic against the reference mock…`
        : `writing a HAR of ${count} entries (a hundred flows of real traffic, then their reads again)…`,
    );
    const { entries, key } =
      count === undefined ? await writeBenchHar(file, megabytes) : await writeEntriesHar(file, count);
    const size = statSync(file).size / 1_000_000;
    log(`judging it (${entries} entries, ${size.toFixed(0)} MB) with collect-conformance judge…`);
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [
        bin,
        'judge',
        file,
        '--secret-key-env',
        'BENCH_KEY',
        '--balance-id',
        '1',
        '--currency-id',
        '1',
        '--output',
        join(work, 'output'),
      ],
      { env: { ...process.env, BENCH_KEY: key }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const rss = sampleRss(child.pid ?? 0);
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.resume();
    const code = await new Promise<number>((done) => child.once('close', (exit) => done(exit ?? -1)));
    const wallSeconds = (performance.now() - started) / 1000;
    return {
      megabytes: size,
      entries,
      wallSeconds,
      exchangesPerSecond: entries / wallSeconds,
      peakRssMiB: rss.stop(),
      exitCode: code,
      summary: stdout
        .split('\n')
        .filter((line) => /summary:|entr(y|ies) in \d+ HAR|incomplete:/.test(line))
        .join('\n'),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The target is a rate (100 MB a minute): a larger recording (--entries) is held to the same rate, not to a minute. */
function targetVerdict(figures: HarFigures): string {
  if (figures.megabytes < 99) return '(a smaller HAR: not measured)';
  const limitSeconds = 60 * Math.max(1, figures.megabytes / 100);
  const verdict = figures.wallSeconds < limitSeconds ? '(met)' : '(NOT met)';
  if (figures.megabytes < 110) return verdict;
  return `(${figures.megabytes.toFixed(0)} MB at that rate: ${limitSeconds.toFixed(0)} s) ${verdict}`;
}

export function harFigureLines(figures: HarFigures): string[] {
  return [
    `collect-conformance judge on a ${figures.megabytes.toFixed(0)} MB HAR (${figures.entries} entries of ` +
      'traffic against the reference mock):',
    `  ${figures.wallSeconds.toFixed(1)} s wall, ${Math.round(figures.exchangesPerSecond)} exchanges/s, ` +
      `peak resident memory ${figures.peakRssMiB.toFixed(0)} MiB, exit ${figures.exitCode}`,
    `  ${figures.summary.trim()}`,
    `target: a 100 MB HAR judged in under a minute ${targetVerdict(figures)}`,
  ];
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--megabytes');
  const megabytes = at >= 0 ? Number(process.argv[at + 1]) : 100;
  const entriesAt = process.argv.indexOf('--entries');
  const count = entriesAt >= 0 ? Number(process.argv[entriesAt + 1] ?? 1_000_000) : undefined;
  if (
    !Number.isFinite(megabytes) ||
    megabytes <= 0 ||
    (count !== undefined && !(Number.isInteger(count) && count > 0))
  ) {
    process.stderr.write('bench-har: --megabytes and --entries need a positive number\n');
    process.exit(2);
  }
  harFigures(megabytes, (line) => process.stderr.write(`${line}\n`), count).then(
    (figures) => process.stdout.write(`${harFigureLines(figures).join('\n')}\n`),
    (error: unknown) => {
      process.stderr.write(`bench-har: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
