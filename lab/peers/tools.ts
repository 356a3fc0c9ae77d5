/**
 * The peer contract-testing tools of npm run bench:peers, each behind one interface: set up
 * once, then check one target (the reference mock or a mutant) and return the names of the
 * checks that failed. Every tool is driven by specs/openapi.json (Dredd by a 3.0 copy) and
 * installed in lab/peer-tools/ (its own package.json), never in the project's dependencies.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openapi30, openapi31, openapi31ConcreteCodes } from './spec.ts';
import { probeTraffic, type TrafficTarget } from './traffic.ts';

export const peersDir = fileURLToPath(new URL('../peer-tools/', import.meta.url));
const requirePeer = createRequire(join(peersDir, 'package.json'));

export interface Target {
  /** Base address ending in /v1. */
  baseUrl: string;
  key: string;
  /** Set when the mock picks the behaviour per request (x-pcs-mutant header). */
  mutantHeader?: string;
}

export interface PeerTool {
  name: string;
  /** True when the target must be a mock of its own per check (false: one mock, mutant chosen by header). */
  ownMockPerCheck: boolean;
  setup(work: string, upstream: { origin: string; key: string }): Promise<void>;
  check(target: Target): Promise<string[]>;
  teardown(): Promise<void>;
}

export function peersInstalled(): boolean {
  return ['@apideck/portman', 'newman', '@stoplight/prism-cli', 'dredd', 'tslib'].every((name) =>
    existsSync(join(peersDir, 'node_modules', name, 'package.json')),
  );
}

function run(command: string, args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-8000)));
    child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-8000)));
    child.on('close', (code) => done({ code, output }));
  });
}

// ---- Portman + Newman ------------------------------------------------------------------------

interface NewmanFailure {
  source?: { name?: string };
  error?: { test?: string; message?: string };
}

interface NewmanSummary {
  run: { failures: NewmanFailure[] };
}

type NewmanRun = (
  options: Record<string, unknown>,
  callback: (error: Error | null, summary: NewmanSummary) => void,
) => void;

/** Portman generates a Postman collection with contract tests from the document; Newman runs it. */
export function portmanNewman(): PeerTool {
  let collection: unknown;
  let newmanRun: NewmanRun;
  return {
    name: 'Portman + Newman',
    ownMockPerCheck: true,
    async setup(work) {
      const spec = join(work, 'openapi.json');
      writeFileSync(spec, JSON.stringify(openapi31ConcreteCodes()));
      const output = join(work, 'portman-collection.json');
      const portman = join(peersDir, 'node_modules', '.bin', 'portman');
      const result = await run(
        portman,
        ['-l', spec, '-b', 'http://127.0.0.1:1/v1', '-c', join(peersDir, 'portman-config.json'), '-o', output],
        work,
      );
      if (!existsSync(output))
        throw new Error(
          `portman wrote no collection (exit ${result.code}): ` +
            `${result.output.trim().split('\n').slice(-3).join(' / ')}`,
        );
      collection = JSON.parse(readFileSync(output, 'utf8'));
      newmanRun = (requirePeer('newman') as { run: NewmanRun }).run;
    },
    check(target) {
      return new Promise((done, fail) => {
        newmanRun(
          {
            collection,
            envVar: [
              { key: 'baseUrl', value: target.baseUrl },
              { key: 'bearerToken', value: target.key },
            ],
            reporters: [],
            timeoutRequest: 10_000,
          },
          (error, summary) => {
            if (error) return fail(error);
            done(
              summary.run.failures.map(
                (failure) =>
                  `${failure.source?.name ?? '?'}: ${failure.error?.test ?? failure.error?.message ?? 'failure'}`,
              ),
            );
          },
        );
      });
    },
    async teardown() {},
  };
}

// ---- Prism validation proxy ------------------------------------------------------------------

/** A loopback port free right now (Prism takes a port number, not 0). */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

/** Prism proxies traffic to the mock and reports every response that violates the document. */
export function prismProxy(): PeerTool {
  let child: ChildProcess | undefined;
  let port = 0;
  return {
    name: 'Prism proxy (--errors)',
    ownMockPerCheck: false,
    async setup(work, upstream) {
      const spec = join(work, 'openapi-prism.json');
      writeFileSync(spec, JSON.stringify(openapi31()));
      port = await freePort();
      const prism = join(peersDir, 'node_modules', '.bin', 'prism');
      child = spawn(
        prism,
        ['proxy', spec, `${upstream.origin}/v1`, '--errors', '--host', '127.0.0.1', '--port', String(port)],
        {
          cwd: work,
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, FORCE_COLOR: '0' },
        },
      );
      let log = '';
      const ready = new Promise<void>((done, fail) => {
        const timer = setTimeout(() => fail(new Error(`prism did not start in 60 s: ${log.slice(-300)}`)), 60_000);
        const listen = (chunk: Buffer): void => {
          log = (log + chunk.toString('utf8')).slice(-4000);
          if (/Prism is listening/.test(log)) {
            clearTimeout(timer);
            done();
          }
        };
        child!.stdout!.on('data', listen);
        child!.stderr!.on('data', listen);
        child!.on('exit', (code) => fail(new Error(`prism exited (${code}): ${log.slice(-300)}`)));
      });
      await ready;
    },
    async check(target) {
      const through: TrafficTarget = {
        baseUrl: `http://127.0.0.1:${port}`,
        key: target.key,
        mutantHeader: target.mutantHeader,
      };
      const exchanges = await probeTraffic(through);
      return exchanges
        .filter((exchange) => exchange.violations !== undefined)
        .map((exchange) => `${exchange.label}: ${exchange.violations}`);
    },
    async teardown() {
      if (child && child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((done) => child!.once('exit', done));
      }
    },
  };
}

// ---- Dredd -------------------------------------------------------------------------------------

interface DreddStats {
  failures: number;
  errors: number;
}

type DreddConstructor = new (
  config: Record<string, unknown>,
) => {
  run(callback: (error: Error | null, stats: DreddStats) => void): void;
};

/** Dredd reads a 3.0 copy of the document and checks the documented success response of each operation. */
export function dredd(): PeerTool {
  let spec = '';
  let hooks = '';
  let Dredd: DreddConstructor;
  return {
    name: 'Dredd',
    ownMockPerCheck: true,
    async setup(work) {
      spec = join(work, 'openapi-3.0.json');
      writeFileSync(
        spec,
        JSON.stringify(
          openapi30({
            customerEmail: 'peer-bench@example.com',
            transaction: {
              description: 'peer benchmark',
              amount: 1500,
              currency: { iso: 'XOF' },
              callback_url: 'https://example.com/callback',
            },
            send: { token: 'TOKEN', phone_number: { number: '+22997000001', country: 'BJ' } },
          }),
        ),
      );
      hooks = join(peersDir, 'dredd-hooks.cjs');
      Dredd = requirePeer('dredd') as DreddConstructor;
    },
    check(target) {
      return new Promise((done, fail) => {
        const failures: string[] = [];
        const dreddRun = new Dredd({
          endpoint: target.baseUrl,
          path: [spec],
          hookfiles: [hooks],
          header: [`Authorization: Bearer ${target.key}`],
          reporter: [],
          output: [],
          loglevel: 'silent',
          color: false,
        });
        // Dredd reports each failing transaction on its emitter; the names are what the table counts.
        const emitter = (dreddRun as unknown as { configuration?: { emitter?: NodeJS.EventEmitter } }).configuration
          ?.emitter;
        // Title and message: Dredd fails some transactions against the reference already (its exact
        // Content-Type match), so a mutant is seen by the new messages it adds.
        emitter?.on('test fail', (test: { title?: string; message?: string }) =>
          failures.push(`${test.title ?? 'transaction'}: ${test.message ?? ''}`),
        );
        emitter?.on('test error', (_error: unknown, test: { title?: string }) =>
          failures.push(`${test.title ?? 'transaction'} (error)`),
        );
        // Dredd prints its summary whatever the reporter options say: muted while it runs, so the table stays readable.
        const write = process.stdout.write;
        process.stdout.write = (() => true) as typeof process.stdout.write;
        dreddRun.run((error, stats) => {
          process.stdout.write = write;
          if (error) return fail(error);
          if (failures.length === 0 && stats.failures + stats.errors > 0)
            failures.push(`${stats.failures} failures, ${stats.errors} errors`);
          done(failures);
        });
      });
    },
    async teardown() {},
  };
}
