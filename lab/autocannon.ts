/**
 * One load run of autocannon, in a process of its own (so that it never shares the event loop of the server it
 * measures), read from its JSON output. The benches that measure throughput (bench-mock.ts, bench-traffic.ts) call it.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const autocannonBin = resolve(
  fileURLToPath(new URL('../', import.meta.url)),
  'node_modules/autocannon/autocannon.js',
);

export interface LoadRun {
  url: string;
  method: string;
  key: string;
  /** A JSON body, sent with Content-Type application/json. */
  body?: string;
  seconds: number;
  connections: number;
}

/** The figures of autocannon's JSON the benches read. */
export interface LoadFigures {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  /** Seconds the run lasted. */
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
}

export function autocannon(run: LoadRun): Promise<LoadFigures> {
  const args = [autocannonBin, '-j', '-c', String(run.connections), '-d', String(run.seconds), '-m', run.method];
  args.push('-H', `authorization=Bearer ${run.key}`);
  if (run.body !== undefined) args.push('-H', 'content-type=application/json', '-b', run.body);
  args.push(run.url);
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      if (code !== 0) return fail(new Error(`autocannon exited with ${code}`));
      done(JSON.parse(output) as LoadFigures);
    });
  });
}
