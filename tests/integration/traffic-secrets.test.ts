/**
 * Keys the run was not told about are secrets too: a client's traffic through `collect-conformance
 * proxy` (an unknown live key, a third sandbox key, a Basic credential, a key in a query string and
 * in a request body, an upstream that echoes them all back in its answers, and a key on the
 * command's own command line) and the same kinds of traffic recorded in a HAR judged without any
 * key given: every file written and the console hold none of them, raw or encoded (base64 at every
 * alignment included), while the findings they caused are reported.
 *
 *   node --import tsx --test tests/integration/traffic-secrets.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { filesUnder, needles } from './leak-scan.ts';
import { runCommand, type CommandResult } from './run-command.ts';
import { harEntry, harText } from './traffic-fixtures.ts';

const scratch = mkdtempSync(join(tmpdir(), 'pcs-traffic-secrets-'));
const hex = () => randomBytes(10).toString('hex');
const configured = `sk_sandbox_configured_${hex()}`;
/** Keys nobody told the run about. */
const unknown = {
  live: `sk_live_${hex()}`,
  sandbox: `sk_sandbox_third_${hex()}`,
  inBody: `sk_live_body_${hex()}`,
  inQuery: `sk_sandbox_query_${hex()}`,
  password: `Passw0rd${hex()}`,
  onCommandLine: `sk_live_cli_${hex()}`,
};
const basic = `Basic ${Buffer.from(`merchant:${unknown.password}`).toString('base64')}`;

/** Answers 200 to everything, echoing the request's target, headers and body (so every answer holds the keys). */
let echo: Server;
let base: string;
before(async () => {
  echo = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.stringify([
        { id: 1, amount: 100, echo: { url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() } },
      ]);
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'X-Echo-Authorization': req.headers.authorization ?? '',
      });
      res.end(body);
    });
  });
  await new Promise<void>((done) => echo.listen(0, '127.0.0.1', () => done()));
  base = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/v1`;
});
after(async () => {
  echo.closeAllConnections();
  await new Promise<void>((done) => echo.close(() => done()));
  rmSync(scratch, { recursive: true, force: true });
});

/** Every form of every key found in the files under `root` and in the console, as "where: which key, which form". */
function leaks(root: string, result: CommandResult): string[] {
  const places = [
    ...filesUnder(root).map((file) => ({ name: relative(root, file), text: readFileSync(file, 'utf8') })),
    { name: 'stdout', text: result.stdout },
    { name: 'stderr', text: result.stderr },
  ];
  const found: string[] = [];
  for (const [which, key] of Object.entries({ ...unknown, configured }))
    for (const [form, needle] of needles(key))
      for (const place of places) if (place.text.includes(needle)) found.push(`${place.name}: ${which} ${form}`);
  return found;
}

/** The requests a client makes with the keys the run was not told about. */
const requests = [
  { method: 'GET', path: '/balances/1', authorization: `Bearer ${unknown.live}` },
  { method: 'GET', path: '/currencies/1', authorization: `Bearer ${unknown.sandbox}` },
  {
    method: 'POST',
    path: '/transactions',
    authorization: `Bearer ${configured}`,
    body: JSON.stringify({ description: `pay with ${unknown.inBody}`, amount: 100, currency: { iso: 'XOF' } }),
  },
  { method: 'GET', path: `/balances/1?api_key=${unknown.inQuery}`, authorization: basic },
];

describe('keys the run was not told about', { concurrency: true }, () => {
  test('through the proxy: none in any file or on the console, raw or encoded', async () => {
    const client = `(async () => { for (const r of ${JSON.stringify(requests)}) {
      const headers = { authorization: r.authorization, ...(r.body ? { 'content-type': 'application/json' } : {}) };
      const url = process.env.COLLECT_CONFORMANCE_PROXY_URL + r.path;
      await (await fetch(url, { method: r.method, headers, body: r.body })).text();
    } })()`;
    const output = join(scratch, 'proxy');
    const result = await runCommand(
      [
        'proxy',
        '--upstream',
        base,
        '--secret-key-env',
        'CONFIGURED_KEY',
        '--output',
        output,
        '--',
        process.execPath,
        '-e',
        client,
        '--',
        '-H',
        `Authorization: Bearer ${unknown.onCommandLine}`,
      ],
      { CONFIGURED_KEY: configured },
    );
    assert.equal(result.code, 1, `${result.stdout.slice(-3000)}\n${result.stderr}`);
    assert.match(result.stdout, /AUTH-OTHERS-401/, 'the unknown keys got 2xx: findings, with their exchanges');
    assert.deepEqual(leaks(output, result), []);
  });

  test('judge on a HAR, no key given: none in any file or on the console, raw or encoded', async () => {
    const file = join(scratch, 'secrets.har');
    writeFileSync(
      file,
      harText(
        requests.map((request) =>
          harEntry({
            method: request.method,
            url: `${base}${request.path}`,
            requestHeaders: [
              ['Authorization', request.authorization],
              ...(request.body ? ([['Content-Type', 'application/json']] as Array<[string, string]>) : []),
            ],
            ...(request.body ? { requestBody: request.body } : {}),
            status: 200,
            responseHeaders: [
              ['Content-Type', 'application/json'],
              ['X-Echo-Authorization', request.authorization],
            ],
            responseBody: JSON.stringify([{ id: 1, echo: { ...request } }]),
          }),
        ),
      ),
    );
    const output = join(scratch, 'judge');
    const result = await runCommand(['judge', file, '--output', output]);
    assert.ok(result.code === 0 || result.code === 1 || result.code === 3, `${result.stdout}\n${result.stderr}`);
    assert.deepEqual(leaks(output, result), []);
  });
});
