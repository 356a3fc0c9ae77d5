/**
 * The cost of the client alone, for the choice of the generated requests'
 * sender (http/wire-sender.ts). Three senders send the same requests (a read and a
 * creation, alternately, one at a time) to the reference mock, which runs in a child process so
 * that its work is not counted: undici's dispatch (the shipped one), undici's request() (a body
 * stream per answer), and node:http with a keep-alive agent. Printed per sender: the client
 * process's CPU time per request (steady on a shared machine, where wall-clock rates are not) and
 * requests per second; medians of interleaved rounds.
 *
 *   npx tsx lab/bench-senders.ts [rounds]
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { Agent } from 'undici';
import { benchCreationBody } from './bench-mock.ts';
import { wireSender } from '../http/wire-sender.ts';
import type { IncomingResponse, OutgoingRequest } from '../http/transport.ts';

type Send = (request: OutgoingRequest) => Promise<IncomingResponse>;

const mockScript = `
import { startMockServer } from './mock/server.ts';
const mock = await startMockServer({ host: '127.0.0.1', port: 0 });
process.stdout.write(JSON.stringify({ baseUrl: mock.sandboxBaseUrl, key: mock.sandboxKey }) + '\\n');
`;

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function nodeHttpSender(): { send: Send; close: () => void } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const send: Send = (request) =>
    new Promise((resolve, reject) => {
      const options = { method: request.method, headers: request.headers, agent };
      const outgoing = http.request(request.url, options, (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const headers = flatHeaders(incoming.headers);
          resolve({ status: incoming.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
        });
      });
      outgoing.on('error', reject);
      outgoing.end(request.data);
    });
  return { send, close: () => agent.destroy() };
}

function undiciRequestSender(): { send: Send; close: () => void } {
  const agent = new Agent({ connections: 16, pipelining: 1 });
  const send: Send = async (request) => {
    const url = new URL(request.url);
    const answer = await agent.request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: request.method as 'GET',
      headers: request.headers,
      body: request.data ?? null,
    });
    const chunks: Buffer[] = [];
    for await (const chunk of answer.body) chunks.push(chunk as Buffer);
    return { status: answer.statusCode, headers: flatHeaders(answer.headers), body: Buffer.concat(chunks) };
  };
  return { send, close: () => void agent.close() };
}

function shippedSender(): { send: Send; close: () => void } {
  const wire = wireSender();
  return { send: (request) => wire.send(request, 5_000), close: () => wire.destroy() };
}

interface Round {
  cpuMicros: number;
  perSecond: number;
}

/** Sends for `ms`, one request at a time; a request reset with its idle connection is sent again. */
async function round(send: Send, requests: OutgoingRequest[], ms: number): Promise<Round> {
  let sent = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  while (performance.now() - started < ms) {
    const request = requests[sent % requests.length]!;
    const answer = await send(request).catch(() => send(request));
    if (answer.status >= 300) throw new Error(`${request.method} ${request.url} answered ${answer.status}`);
    sent += 1;
  }
  const used = process.cpuUsage(cpu);
  return { cpuMicros: (used.user + used.system) / sent, perSecond: (sent * 1000) / (performance.now() - started) };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 7);
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', mockScript], {
    cwd: new URL('..', import.meta.url),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8')));
      child.once('exit', (code) => reject(new Error(`the mock exited (${code})`)));
    });
    const { baseUrl, key } = JSON.parse(line) as { baseUrl: string; key: string };
    const headers = { accept: 'application/json', authorization: `Bearer ${key}` };
    const length = String(Buffer.byteLength(benchCreationBody));
    const creationHeaders = { ...headers, 'content-type': 'application/json', 'content-length': length };
    const requests: OutgoingRequest[] = [
      { method: 'GET', url: `${baseUrl}/balances/1`, headers },
      { method: 'POST', url: `${baseUrl}/transactions`, headers: creationHeaders, data: benchCreationBody },
    ];
    const senders = {
      'undici dispatch (shipped)': shippedSender(),
      'undici request()': undiciRequestSender(),
      'node:http keep-alive': nodeHttpSender(),
    };
    for (const { send } of Object.values(senders)) await round(send, requests, 300); // warm-up
    const results = new Map<string, Round[]>();
    for (let index = 0; index < rounds; index += 1) {
      for (const [name, { send }] of Object.entries(senders)) {
        results.set(name, [...(results.get(name) ?? []), await round(send, requests, 500)]);
      }
    }
    process.stdout.write(`client cost per request, one request at a time, medians of ${rounds} interleaved rounds:\n`);
    for (const [name, list] of results) {
      const cpu = median(list.map((entry) => entry.cpuMicros)).toFixed(1);
      const rate = Math.round(median(list.map((entry) => entry.perSecond)));
      process.stdout.write(`  ${name.padEnd(26)} ${cpu.padStart(6)} µs CPU   ${String(rate).padStart(6)} req/s\n`);
    }
    for (const { close } of Object.values(senders)) close();
  } finally {
    child.kill();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench-senders: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
