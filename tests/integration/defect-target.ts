/**
 * A target with one stack-natural defect: the reference mock behind a loopback proxy that
 * rewrites its answers as a broken build would write them (every timestamp as a number, every
 * amount as a string, 403 where 401 is owed). For tests of how the reports name one cause.
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMockServer, type RunningMock } from '../../mock/server.ts';
import { runCommand } from './run-command.ts';

export type Defect = 'timestamps-as-numbers' | 'amounts-as-strings' | 'forbidden-for-unauthorised' | 'none';

export interface DefectTarget {
  baseUrl: string;
  secretKey: string;
  secondSecretKey: string;
  close(): Promise<void>;
}

/** Every member of every object of a JSON value, rewritten where `rewrite` returns a value. */
function rewriteMembers(value: unknown, rewrite: (key: string, member: unknown) => unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteMembers(item, rewrite));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [key, rewrite(key, rewriteMembers(member, rewrite))]),
  );
}

const timestampFields = new Set(['created_at', 'updated_at', 'approved_at', 'canceled_at', 'deleted_at']);

function rewrite(defect: Defect, status: number, body: string): { status: number; body: string } {
  if (defect === 'forbidden-for-unauthorised') return { status: status === 401 ? 403 : status, body };
  if (status < 200 || status >= 300 || body === '') return { status, body };
  const json = JSON.parse(body) as unknown;
  const changed = rewriteMembers(json, (key, member) => {
    if (defect === 'timestamps-as-numbers' && timestampFields.has(key) && typeof member === 'string')
      return Math.floor(Date.parse(member) / 1000);
    if (defect === 'amounts-as-strings' && key === 'amount' && typeof member === 'number') return String(member);
    return member;
  });
  return { status, body: JSON.stringify(changed) };
}

function forward(mock: RunningMock, defect: Defect): Server {
  return createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const upstream = request(
        `${mock.origin}${incoming.url ?? '/'}`,
        { method: incoming.method, headers: incoming.headers as IncomingHttpHeaders },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => parts.push(chunk));
          answer.on('end', () => {
            const rewritten = rewrite(defect, answer.statusCode ?? 502, Buffer.concat(parts).toString('utf8'));
            const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(rewritten.body)) };
            delete headers['transfer-encoding'];
            outgoing.writeHead(rewritten.status, headers).end(rewritten.body);
          });
        },
      );
      upstream.on('error', () => outgoing.writeHead(502).end());
      upstream.end(Buffer.concat(chunks));
    });
  });
}

export async function startDefectTarget(defect: Defect): Promise<DefectTarget> {
  const mock = await startMockServer({ port: 0, host: '127.0.0.1' });
  const proxy = forward(mock, defect);
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const port = (proxy.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    secretKey: mock.sandboxKey,
    secondSecretKey: mock.secondSandboxKey,
    close: async () => {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await mock.close();
    },
  };
}

/** The default run against a defect target, both accounts configured (ids may be overridden or added). */
export function runAgainst(target: DefectTarget, output: string, ids: Record<string, string> = {}) {
  return runCommand(
    [
      '--base-url',
      target.baseUrl,
      '--secret-key-env',
      'FIRST_KEY',
      '--second-secret-key-env',
      'SECOND_KEY',
      '--output',
      output,
    ],
    {
      FIRST_KEY: target.secretKey,
      SECOND_KEY: target.secondSecretKey,
      PCS_BALANCE_ID: '1',
      PCS_CURRENCY_ID: '1',
      PCS_SECOND_BALANCE_ID: '11',
      ...ids,
    },
  );
}

/** The closing summary's lines of a run's standard output. */
export const summaryOf = (stdout: string): string[] =>
  stdout.slice(stdout.lastIndexOf('collect-conformance: summary')).split('\n');
