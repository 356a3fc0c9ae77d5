/**
 * The reference mock under hostile input (memory through large records, deep nesting,
 * slow clients, parser errors without the mock's header and shape), and the outcomes it gives
 * payment intents. Each test fails on the mock as it was before the fix it covers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startMockServer, type RunningMock } from '../../mock/server.ts';
import { buildMockApp } from '../../mock/app.ts';
import { mockVersionHeader } from '../../mock/version.ts';
import { jsonDepthExceeds } from '../../mock/http/json-depth.ts';

const transaction = (extra: Record<string, unknown> = {}) => ({
  description: 'd',
  amount: 1000,
  currency: { iso: 'XOF' },
  callback_url: 'https://example.com/cb',
  ...extra,
});

async function post(
  mock: RunningMock,
  path: string,
  body: unknown,
  contentType = 'application/json',
): Promise<{ status: number; version: string | null; json: unknown }> {
  const response = await fetch(mock.sandboxBaseUrl + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${mock.sandboxKey}`, 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    version: response.headers.get(mockVersionHeader),
    json: text === '' ? undefined : JSON.parse(text),
  };
}

/** Writes raw bytes on a new connection; resolves with what came back and when the connection closed. */
function raw(port: number, payload: string): Promise<{ text: string; ms: number }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const started = Date.now();
    let text = '';
    socket.on('data', (data) => (text += data.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ text, ms: Date.now() - started }));
    socket.write(payload);
  });
}

test('records are bounded in bytes: large transactions evict the oldest, and the newest stays findable', async () => {
  const { app, stores } = buildMockApp({ storeBytes: 2 * 1024 * 1024 });
  const metadata = { big: Array.from({ length: 4_000 }, (_, i) => `value-${i}`) }; // about 47 KiB as JSON
  const ids: number[] = [];
  try {
    for (let i = 0; i < 120; i++) {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/transactions',
        headers: {
          authorization: 'Bearer sk_sandbox_collect_conformance_mock_0001',
          'content-type': 'application/json',
        },
        payload: JSON.stringify(transaction({ custom_metadata: metadata })),
      });
      assert.equal(response.statusCode, 201);
      ids.push((JSON.parse(response.body) as { id: number }).id);
      assert.ok(
        stores.sandbox.bytes.used <= stores.sandbox.bytes.limit,
        `${stores.sandbox.bytes.used} bytes kept over a budget of ${stores.sandbox.bytes.limit}`,
      );
    }
    assert.ok(stores.sandbox.transactions.size < 120, 'some transactions were evicted');
    assert.ok(stores.sandbox.transactions.has(ids.at(-1)!), 'the newest transaction is kept');
    const link = await app.inject({
      method: 'POST',
      url: `/v1/transactions/${ids[0]}/token`,
      headers: { authorization: 'Bearer sk_sandbox_collect_conformance_mock_0001' },
    });
    assert.equal(link.statusCode, 404, 'an evicted transaction behaves as if it never existed');
  } finally {
    await app.close();
  }
});

test('JSON nested beyond the bound is refused with a 4xx and nothing is stored', async () => {
  const mock = await startMockServer();
  try {
    for (const depth of [5_000, 100_000]) {
      const body = JSON.stringify(transaction()).replace(
        /}$/,
        `,"custom_metadata":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`,
      );
      const before = mock.mock.stores.sandbox.transactions.size;
      const answer = await post(mock, '/transactions', body);
      assert.ok(answer.status >= 400 && answer.status < 500, `depth ${depth}: ${answer.status}`);
      assert.equal(mock.mock.stores.sandbox.transactions.size, before, `depth ${depth}: stored`);
      assert.deepEqual(Object.keys((answer.json as { error: object }).error).sort(), ['code', 'message', 'status']);
    }
    // Within the bound, nesting is accepted; brackets inside strings do not count.
    assert.equal(
      (await post(mock, '/transactions', transaction({ custom_metadata: { a: [[[{ b: '[[[[{{{{' }]]] } }))).status,
      201,
    );
    assert.equal(jsonDepthExceeds('"[[[[["'.repeat(3), 2), false);
    assert.equal(jsonDepthExceeds('[[["\\"]"]]]', 2), true);
  } finally {
    await mock.close();
  }
});

test('slow and incomplete requests are cut off after the request time-out; open connections are bounded', async () => {
  const mock = await startMockServer({ requestTimeoutMs: 300, maxConnections: 5 });
  const auth = `authorization: Bearer ${mock.sandboxKey}\r\n`;
  try {
    const short = raw(
      mock.port,
      `POST /v1/transactions HTTP/1.1\r\nhost: x\r\n${auth}` +
        `content-type: application/json\r\ncontent-length: 100\r\n\r\n{"a":`,
    );
    const chunked = raw(
      mock.port,
      `POST /v1/transactions HTTP/1.1\r\nhost: x\r\n${auth}` +
        `content-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n3\r\n{"a\r\n`,
    );
    const trickled = raw(mock.port, `GET /v1/currencies/1 HTTP/1.1\r\nhost: x\r\n`);
    const badChunk = raw(
      mock.port,
      `POST /v1/transactions HTTP/1.1\r\nhost: x\r\n${auth}` +
        `content-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n{"a\r\n`,
    );
    for (const [name, closed, status] of [
      ['short body', short, 408],
      ['chunked without end', chunked, 408],
      ['headers without end', trickled, 408],
      ['a bad chunk size', badChunk, 400],
    ] as const) {
      const { ms, text } = await closed;
      assert.ok(ms < 3_000, `${name}: connection still open after ${ms} ms`);
      // The answer docs/reference/mock.md promises, in the mock's error shape, before the connection closes.
      assert.match(text, new RegExp(`^HTTP/1\\.1 ${status} `), `${name}: ${JSON.stringify(text.slice(0, 80))}`);
    }
    // Past the bound, a connection is closed at once; the mock keeps answering the others.
    const held = Array.from({ length: 5 }, () => net.connect(mock.port, '127.0.0.1'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const extra = await raw(mock.port, `GET /v1/currencies/1 HTTP/1.1\r\nhost: x\r\n${auth}\r\n`);
    assert.equal(extra.text, '', 'a connection past the bound gets no answer');
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const after = await fetch(`${mock.sandboxBaseUrl}/currencies/1`, {
      headers: { authorization: `Bearer ${mock.sandboxKey}` },
    });
    assert.equal(after.status, 200);
  } finally {
    await mock.close();
  }
});

test("parser and framework errors carry the mock's header and error shape; text/plain gets 415", async () => {
  const mock = await startMockServer();
  try {
    const plain = await post(mock, '/transactions', JSON.stringify(transaction()), 'text/plain');
    assert.equal(plain.status, 415);
    assert.equal(plain.version !== null, true);
    const badUrl = await fetch(`${mock.sandboxBaseUrl}/currencies/%E0%A4%A`, {
      headers: { authorization: `Bearer ${mock.sandboxKey}` },
    });
    assert.equal(badUrl.status, 400);
    assert.ok(badUrl.headers.get(mockVersionHeader));
    assert.equal(((await badUrl.json()) as { error: { status: number } }).error.status, 400);
    const garbage = await raw(mock.port, 'HELLO\r\n\r\n');
    assert.match(garbage.text, /^HTTP\/1\.1 400 /);
    assert.match(garbage.text, new RegExp(`${mockVersionHeader}: `));
    assert.match(garbage.text, /\{"error":\{"status":400,/);
    const huge = await raw(
      mock.port,
      `GET /v1/currencies/1 HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    assert.match(huge.text, /^HTTP\/1\.1 431 /);
    assert.match(huge.text, new RegExp(`${mockVersionHeader}: `));
  } finally {
    await mock.close();
  }
});

const paymentIntentsTitle =
  'payment intents: pending without a phone number, sent (approved_at) ' +
  'for an even amount, failed (canceled_at, last_error_code) for an odd one';
test(paymentIntentsTitle, async () => {
  const mock = await startMockServer();
  try {
    const send = async (amount: number, phone: boolean) => {
      const created = await post(mock, '/transactions', transaction({ amount }));
      const link = await post(mock, `/transactions/${(created.json as { id: number }).id}/token`, '');
      const token = (link.json as { token: string }).token;
      const answer = await post(mock, '/transactions/mtn', {
        token,
        ...(phone ? { phone_number: { number: '+22997000001', country: 'BJ' } } : {}),
      });
      return (answer.json as Array<Record<string, unknown>>)[0]!;
    };
    const pending = await send(1000, false);
    assert.deepEqual(
      [pending.status, pending.approved_at, pending.canceled_at, pending.last_error_code],
      ['pending', null, null, null],
    );
    const sent = await send(1000, true);
    assert.equal(sent.status, 'sent');
    assert.equal(typeof sent.approved_at, 'string');
    assert.equal(sent.canceled_at, null);
    const failed = await send(1001, true);
    assert.equal(failed.status, 'failed');
    assert.equal(typeof failed.canceled_at, 'string');
    assert.equal(failed.last_error_code, 'insufficient_funds');
  } finally {
    await mock.close();
  }
});

const cappedCollectionTitle =
  'a capped collection evicts its oldest record, ' +
  'not a key deleted and set again, and its queue of insertions stays bounded';
test(cappedCollectionTitle, async () => {
  const { CappedMap, ByteBudget } = await import('../../mock/store.ts');
  const map = new CappedMap<number, string>(3);
  map.set(1, 'a').set(2, 'b').set(3, 'c');
  map.delete(1);
  map.set(1, 'a again'); // now the newest
  map.set(4, 'd');
  assert.deepEqual([...map.keys()], [3, 1, 4], 'the oldest (2) went, not 1, which was set again after its delete');
  map.set(5, 'e');
  assert.deepEqual([...map.keys()], [1, 4, 5]);
  // Creations deleted by requests, never evicted: the queue does not grow with them.
  const churn = new CappedMap<number, string>(10);
  for (let i = 0; i < 100_000; i++) {
    churn.set(i, 'x');
    churn.delete(i);
  }
  assert.ok((churn as unknown as { queueKeys: unknown[] }).queueKeys.length < 5_000);
  // The byte budget evicts the oldest records until the newest fits.
  const budget = new ByteBudget(1_000);
  const sized = new CappedMap<number, string>(1_000, budget, (value) => value.length);
  for (let i = 0; i < 50; i++) sized.set(i, 'y'.repeat(100));
  assert.equal(budget.used, 1_000);
  assert.deepEqual([...sized.keys()], [40, 41, 42, 43, 44, 45, 46, 47, 48, 49]);
});
