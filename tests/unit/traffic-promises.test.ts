/**
 * The pieces behind the promises of `proxy` and `judge`, each alone: the HAR stream (entries across
 * chunks, a byte-order mark, strings and entries too long to keep, files that are no HAR), the scan of
 * a JSON text (its depth, a member named twice), the masking of credentials seen in traffic (raw,
 * encoded, however many), the spill file, a judging session that goes on past an error, HTTP's 304, 206
 * and HEAD, the checks the suite makes on one answer made on traffic (ID-EXACT, AUTH-REFUSED-NO-EFFECT,
 * LINK-TOKEN-OWN), the exit code's order, and a command line shown with its credentials masked.
 *
 *   node --import tsx --test tests/unit/traffic-promises.test.ts
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanJsonText } from '../../contract/json-text.ts';
import { parseJsonBody } from '../../http/exchange.ts';
import { redact, registerSeenSecret } from '../../settings/secrets.ts';
import { harEntries, HarStructureError, tooLongMarker } from '../../judge/har-stream.ts';
import { JudgingSession } from '../../reporters/judging-session.ts';
import { TrafficJudge, type JudgedExchange } from '../../judge/traffic-judge.ts';
import { learnSecrets } from '../../judge/seen-secrets.ts';
import { SpillFile } from '../../proxy/spill-file.ts';
import type { TrafficExchange } from '../../judge/traffic-exchange.ts';
import { judgeOptions, trafficSequence } from './traffic-exchanges.ts';
import { commandLineShown } from '../../cli/signals.ts';
import { trafficExitCode } from '../../cli/traffic-exit-code.ts';

const scratch = mkdtempSync(join(tmpdir(), 'pcs-traffic-promises-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

async function entriesOf(text: string | Buffer, limits = {}): Promise<unknown[]> {
  const file = join(scratch, `${Math.random()}.har`);
  writeFileSync(file, text);
  const found: unknown[] = [];
  for await (const entry of harEntries(file, limits))
    found.push('text' in entry ? JSON.parse(entry.text) : { tooLarge: entry.tooLarge });
  return found;
}

describe('the HAR stream', () => {
  test('every entry of log.entries, whatever the chunks cut, a BOM skipped, other members ignored', async () => {
    const entries = Array.from({ length: 50 }, (_, i) => ({ n: i, text: `a "quoted" \\ ${'x'.repeat(i * 7)} ]},[{` }));
    const document = JSON.stringify({ log: { version: '1.2', pages: [{ entries: [9] }], entries }, extra: [1] });
    for (const chunkBytes of [1, 7, 64, 1 << 20])
      assert.deepEqual(await entriesOf(`\uFEFF${document}`, { chunkBytes }), entries, `chunks of ${chunkBytes}`);
  });

  test('a string too long to keep becomes a marker with its size; an entry too large is said so', async () => {
    const document = JSON.stringify({ log: { entries: [{ a: 'x'.repeat(100), b: 'short' }, { c: 'y'.repeat(500) }] } });
    const found = await entriesOf(document, { maxStringBytes: 50, maxEntryBytes: 300, chunkBytes: 16 });
    assert.deepEqual(found[0], { a: `${tooLongMarker}100`, b: 'short' });
    assert.deepEqual(found[1], { c: `${tooLongMarker}500` }, 'without its long string, the entry fits');
    const large = JSON.stringify({
      log: { entries: [Object.fromEntries(Array.from({ length: 50 }, (_, i) => [i, i]))] },
    });
    const [tooLarge] = await entriesOf(large, { maxEntryBytes: 100 });
    assert.ok((tooLarge as { tooLarge: number }).tooLarge > 100);
  });

  test('a file that is no HAR: cut short, no log.entries, text after the document', async () => {
    for (const [text, pattern] of [
      ['{"log": {"entries": [', /ends inside a value/],
      ['{"hello": "world"}', /no log\.entries list/],
      ['{"log": {"entries": []}} trailing', /text follows the end/],
    ] as const)
      await assert.rejects(
        entriesOf(text),
        (error: unknown) => error instanceof HarStructureError && pattern.test(error.message),
      );
  });
});

describe('a JSON text before it is parsed', () => {
  test('nesting past the limit is found by one scan; the body is then not read further', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    assert.equal(scanJsonText(deep).tooDeep, true);
    assert.match(parseJsonBody(deep).jsonError ?? '', /nests deeper than 512 levels/);
    assert.equal(scanJsonText('[[["[[[[["]]]').tooDeep, false, 'brackets inside strings are text');
  });

  test('a member named twice is found with its object, escapes decoded; the body read as JavaScript reads it', () => {
    assert.deepEqual(scanJsonText('[{"a":1},{"b":{"status":500,"st\\u0061tus":200}}]').duplicate, {
      pointer: '/1/b',
      name: 'status',
    });
    assert.equal(scanJsonText('[{"a":1},{"a":2}]').duplicate, undefined, 'the same name in two objects is fine');
    const parsed = parseJsonBody('{"status":500,"status":200}');
    assert.deepEqual(parsed.json, { status: 200 });
    assert.deepEqual(parsed.duplicateName, { pointer: '', name: 'status' });
  });
});

describe('credentials seen in traffic', () => {
  test('masked raw, in any case, URL-encoded, JSON-escaped and in base64, and key shapes always', () => {
    const seen = 'Zq9-unknown-credential-81f2';
    registerSeenSecret(seen);
    const base64 = Buffer.from(`user:${seen}`).toString('base64');
    for (const text of [
      seen,
      seen.toUpperCase(),
      encodeURIComponent(`"${seen}"`),
      base64,
      `{"k":${JSON.stringify(seen)}}`,
    ])
      assert.doesNotMatch(redact(text), /unknown-credential|VU5LTk9XTi1DUkVERU5USUFM/i, text);
    assert.equal(redact('pay with sk_live_abc123XYZ please'), 'pay with *** please');
    assert.equal(redact('a sk_live_... placeholder stays'), 'a sk_live_... placeholder stays');
  });

  test('a scheme without a key, or a missing value, is no secret: rule ids and messages stay readable', () => {
    for (const value of ['Bearer', 'Bearer undefined', 'basic null'])
      learnSecrets({
        url: 'http://x.test/v1/balances/1',
        requestHeaders: [['Authorization', value]],
        requestBody: undefined,
        responseHeaders: [],
        responseBody: '',
      });
    assert.equal(
      redact('AUTH-BEARER-SCHEME: expected Bearer <secret key>, actual undefined'),
      'AUTH-BEARER-SCHEME: expected Bearer <secret key>, actual undefined',
    );
  });

  test('thousands of them: each masked, at a cost that does not grow with their number', () => {
    const many = Array.from({ length: 3000 }, (_, i) => `credential-${i}-${'q'.repeat(8)}`);
    for (const credential of many) registerSeenSecret(credential);
    const text = many.filter((_, i) => i % 97 === 0).join(' and ');
    assert.doesNotMatch(redact(text), /credential-/);
  });
});

test('the spill file gives back what was written, and empties once nothing waits', () => {
  const file = new SpillFile(1024);
  const a = file.write(Buffer.from('first body'))!;
  const b = file.write(Buffer.from('second'))!;
  assert.equal(file.write(Buffer.alloc(2000)), undefined, 'past its budget it refuses');
  assert.equal(file.take(b).toString(), 'second');
  assert.equal(file.take(a).toString(), 'first body');
  assert.equal(file.held, 0);
  file.close();
});

// ---------------------------------------------------------------- judging

const key = 'sk_sandbox_promises_0001';
const base = 'http://127.0.0.1:9/v1';
const now = Date.parse('2026-11-28T01:24:44Z');
const options = judgeOptions(key, now);
const next = trafficSequence();
function exchange(
  method: string,
  path: string,
  status: number,
  answer: string,
  extra: { request?: Array<[string, string]>; response?: Array<[string, string]>; credential?: string } = {},
): TrafficExchange {
  return next({
    method,
    url: `${base}${path}`,
    status,
    responseBody: answer,
    requestBody: method === 'POST' && path === '/transactions' ? '{"amount":1500,"description":"x"}' : undefined,
    bodyType: null,
    credential: extra.credential ?? key,
    requestHeaders: extra.request,
    responseHeaders: [['Content-Type', 'application/json'], ...(extra.response ?? [])],
    source: (exchange) => ({ kind: 'proxy', exchange }),
    at: now,
  });
}
const broken = (judged: JudgedExchange): string[] =>
  [...new Set(judged.records.filter((record) => record.kind === 'broken').map((record) => record.rule))].sort();
const balance = JSON.stringify([
  {
    id: 1,
    amount: 500,
    mode: 'sandbox',
    account_id: 7,
    created_at: '2026-11-28T01:00:00Z',
    updated_at: '2026-11-28T01:00:00Z',
  },
]);
const transaction = (id: number) =>
  JSON.stringify({
    id,
    reference: `trx_${id}`,
    amount: 1500,
    description: 'x',
    status: 'pending',
    callback_url: '',
    created_at: '2026-11-28T01:24:44Z',
    updated_at: '2026-11-28T01:24:44Z',
  });

describe('HTTP as the client used it', () => {
  test('a 304 to a conditional read is the representation it validates; a 304 not asked for is a wrong status', () => {
    const judge = new TrafficJudge(options);
    assert.deepEqual(
      broken(judge.judge(exchange('GET', '/balances/1', 200, balance, { response: [['ETag', 'W/"v1"']] }))),
      [],
    );
    const validated = judge.judge(exchange('GET', '/balances/1', 304, '', { request: [['If-None-Match', '"v1"']] }));
    assert.deepEqual(broken(validated), []);
    assert.ok(
      validated.records.every((record) => record.exchange?.status === 304),
      'reported with the status sent',
    );
    const unheld = judge.judge(exchange('GET', '/currencies/1', 304, '', { request: [['If-None-Match', '"x"']] }));
    assert.deepEqual(broken(unheld), [], 'a representation the traffic does not hold: judged by its status');
    assert.deepEqual(broken(judge.judge(exchange('GET', '/balances/1', 304, ''))), ['BALANCE-2XX']);
  });

  test('a 206 to a Range request and a HEAD are judged as the reads they are', () => {
    const judge = new TrafficJudge(options);
    const part = judge.judge(
      exchange('GET', '/balances/1', 206, balance.slice(0, 20), { request: [['Range', 'bytes=0-19']] }),
    );
    assert.deepEqual(broken(part), []);
    const head = judge.judge(exchange('HEAD', '/balances/1', 200, ''));
    assert.equal(head.route?.operation, 'getBalance');
    assert.deepEqual(broken(head), []);
  });
});

describe('every check the suite makes on one answer, made on traffic', () => {
  test('ID-EXACT: a known id followed by other characters is refused, and a link for it is a finding', () => {
    const judge = new TrafficJudge(options);
    judge.judge(exchange('POST', '/transactions', 201, transaction(1001)));
    const link = JSON.stringify({ token: 'tok_1001_abcdef', url: 'https://pay.example/tok_1001_abcdef' });
    assert.deepEqual(broken(judge.judge(exchange('POST', '/transactions/1001xyz/token', 200, link))), ['ID-EXACT']);
    assert.deepEqual(broken(judge.judge(exchange('POST', '/transactions/1001xyz/token', 404, '{"error":"no"}'))), []);
    assert.deepEqual(broken(judge.judge(exchange('POST', '/transactions/77xyz/token', 200, link))), [], 'unknown 77');
  });

  test('AUTH-REFUSED-NO-EFFECT: a refused read holds none of the balance the traffic showed its owner', () => {
    const judge = new TrafficJudge(options);
    judge.judge(exchange('GET', '/balances/1', 200, balance));
    const leaking = judge.judge(exchange('GET', '/balances/1', 401, balance, { credential: 'sk_sandbox_wrong_0000' }));
    assert.deepEqual(broken(leaking), ['AUTH-REFUSED-NO-EFFECT']);
    const fine = judge.judge(
      exchange('GET', '/balances/1', 401, '{"error":"no"}', { credential: 'sk_sandbox_wrong_0000' }),
    );
    assert.deepEqual(broken(fine), []);
  });

  test('LINK-TOKEN-OWN: a link whose url carries another transaction’s token, its token right', () => {
    const judge = new TrafficJudge(options);
    judge.judge(exchange('POST', '/transactions', 201, transaction(1)));
    judge.judge(exchange('POST', '/transactions', 201, transaction(2)));
    const first = JSON.stringify({ token: 'tok_first_123456', url: 'https://pay.example/c/tok_first_123456' });
    assert.deepEqual(broken(judge.judge(exchange('POST', '/transactions/1/token', 200, first))), []);
    const second = JSON.stringify({ token: 'tok_second_654321', url: 'https://pay.example/c/tok_first_123456?x=1' });
    assert.deepEqual(broken(judge.judge(exchange('POST', '/transactions/2/token', 200, second))), ['LINK-TOKEN-OWN']);
  });

  test('a judging session goes on past an error of the judge, counting it as not judged', () => {
    const session = new JudgingSession(options);
    const judge = session.judge;
    const original = judge.judge.bind(judge);
    let calls = 0;
    judge.judge = (traffic) => {
      if (++calls === 2) throw new RangeError('Maximum call stack size exceeded');
      return original(traffic);
    };
    for (let i = 0; i < 3; i++) session.take(exchange('GET', '/balances/1', 200, balance));
    assert.equal(session.collected.exchanges, 2);
    assert.equal(session.collected.internalErrors, 1);
    assert.match(session.collected.notJudged.text(), /1 \(an error of the judge on it \(RangeError/);
  });
});

test('the exit code: a signal, then a finding, then the tool’s failure, then inconclusive, then a pass', () => {
  const pass = { findings: false, internalError: null, unavailable: false, notJudged: 0, judgedNothing: false };
  assert.equal(trafficExitCode(pass), 0);
  assert.equal(trafficExitCode({ ...pass, judgedNothing: true }), 3);
  assert.equal(trafficExitCode({ ...pass, notJudged: 1 }), 3);
  assert.equal(trafficExitCode({ ...pass, unavailable: true, internalError: 'x' }), 4);
  assert.equal(trafficExitCode({ ...pass, findings: true, internalError: 'x', notJudged: 3 }), 1);
  assert.equal(trafficExitCode({ ...pass, findings: true, killedBy: 'SIGKILL' }), 137);
  assert.equal(trafficExitCode({ ...pass, findings: true, stoppedBy: 'SIGINT', killedBy: 'SIGKILL' }), 130);
  assert.equal(trafficExitCode({ ...pass, stoppedBy: 'SIGTERM' }), 143);
  assert.equal(trafficExitCode({ ...pass, stoppedBy: 'SIGHUP' }), 129);
});

test('a command line is shown on one line, its Authorization credentials and key-shaped strings masked', () => {
  const shown = commandLineShown([
    'curl',
    '-H',
    'Authorization: Bearer opaque-token-value',
    '-H',
    'authorization:Basic dXNlcjpwYXNz',
    'https://x.test/v1?key=sk_live_abcdef123',
    'multi\nline',
  ]);
  assert.equal(
    shown,
    'curl -H Authorization: Bearer *** -H authorization:Basic *** https://x.test/v1?key=*** multi line',
  );
});
