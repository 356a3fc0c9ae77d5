/**
 * A conforming target whose integer ids are beyond 2^53 (64-bit ids) passes the whole suite:
 * a proxy in front of the reference mock turns every id into a 19-digit one on the way out,
 * and back on the way in. Without exact handling of such ids (contract/big-integers.ts),
 * paths built from rounded ids would name nothing and the run would fail.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockServer, type RunningMock } from '../../mock/server.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const prefix = '9200000000';
const toBig = (small: string): string => `${prefix}${small.padStart(9, '0')}`;
const fromBig = (text: string): string =>
  text.replace(new RegExp(`${prefix}(\\d{9})`, 'g'), (_match, digits: string) => String(Number(digits)));

let mock: RunningMock;
let proxy: http.Server;
let proxyBase: string;
let output: string;

before(async () => {
  mock = await startMockServer();
  proxy = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = fromBig(Buffer.concat(chunks).toString('utf8'));
      const headers: http.OutgoingHttpHeaders = { ...request.headers, host: new URL(mock.origin).host };
      if (body.length > 0) headers['content-length'] = String(Buffer.byteLength(body));
      const upstream = http.request(
        `${mock.origin}${fromBig(request.url ?? '/')}`,
        { method: request.method, headers },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => parts.push(chunk));
          answer.on('end', () => {
            const text = Buffer.concat(parts)
              .toString('utf8')
              .replace(
                /"(id|customer_id)":(\d+)/g,
                (_match, name: string, digits: string) => `"${name}":${toBig(digits)}`,
              );
            const outHeaders = { ...answer.headers };
            delete outHeaders['content-length'];
            response.writeHead(answer.statusCode ?? 502, outHeaders);
            response.end(text);
          });
        },
      );
      upstream.end(body.length > 0 ? body : undefined);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyBase = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1`;
  output = mkdtempSync(join(tmpdir(), 'cc-big-ids-'));
});

after(async () => {
  await new Promise<void>((resolve) => proxy?.close(() => resolve()));
  await mock?.close();
  if (output) rmSync(output, { recursive: true, force: true });
});

test('the proxy really serves ids beyond 2^53', async () => {
  const answer = await fetch(`${proxyBase}/currencies/${toBig('1')}`, {
    headers: { authorization: `Bearer ${mock.sandboxKey}` },
  });
  const text = await answer.text();
  assert.equal(answer.status, 200);
  assert.match(text, /"id":9200000000000000001/);
  assert.ok(!Number.isSafeInteger(Number(toBig('1'))));
});

test('the whole suite passes against a target with 64-bit ids', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/collect-conformance.ts', '--reporter', 'dot'], {
    cwd: root,
    env: {
      ...process.env,
      PCS_BASE_URL: proxyBase,
      PCS_SECRET_KEY: mock.sandboxKey,
      PCS_BALANCE_ID: toBig('1'),
      PCS_CURRENCY_ID: toBig('1'),
      PCS_OUTPUT_DIR: output,
      ALLURE_RESULTS_DIR: join(output, 'allure-results'),
      PCS_RUNS: '20',
    },
  });
  let log = '';
  child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, log.slice(-4000));
  assert.match(log, /\d+ passed/);
});
