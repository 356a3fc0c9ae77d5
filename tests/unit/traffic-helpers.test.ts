/**
 * The pure parts of the forwarding proxy (proxy/): the upstream's base address and where
 * a request target goes there, hop-by-hop headers, bounded body captures, bounded decompression,
 * and the bounded queue in front of the exchange hook.
 *
 *   node --import tsx --test tests/unit/traffic-helpers.test.ts
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { BodyCapture, contentCodings, decodeBody, isZlibWrapped } from '../../proxy/body-capture.ts';
import { ExchangeQueue } from '../../proxy/exchange-queue.ts';
import { endToEndHeaders, flatHeaders, headerPairs, headerValue, isHopByHop } from '../../proxy/header-list.ts';
import { forwardedTarget, parseUpstream, ProxyConfigError } from '../../proxy/upstream-address.ts';
import { ConfigError } from '../../settings/config-error.ts';

describe('the upstream', () => {
  test('an http(s) base address ending in /v1, with or without a trailing slash', () => {
    assert.deepEqual(parseUpstream('http://127.0.0.1:8080/v1'), {
      protocol: 'http:',
      hostname: '127.0.0.1',
      port: 8080,
      host: '127.0.0.1:8080',
      origin: 'http://127.0.0.1:8080',
      basePath: '/v1',
      baseUrl: 'http://127.0.0.1:8080/v1',
    });
    const secure = parseUpstream('https://api.example.com/payments/v1/');
    assert.equal(secure.port, 443);
    assert.equal(secure.host, 'api.example.com');
    assert.equal(secure.basePath, '/payments/v1');
    const ipv6 = parseUpstream('http://[::1]:9000/v1');
    assert.equal(ipv6.hostname, '::1');
    assert.equal(ipv6.host, '[::1]:9000');
  });

  test('anything else is a one-line configuration error naming --upstream', () => {
    for (const bad of [
      'not a url',
      'ftp://example.com/v1',
      'http://example.com/',
      'http://example.com/v2',
      'http://example.com/v1/transactions',
      'http://example.com/v1?x=1',
      'http://example.com/v1#top',
      'http://user:secret@example.com/v1',
      '',
    ]) {
      assert.throws(
        () => parseUpstream(bad),
        (error: unknown) =>
          error instanceof ProxyConfigError &&
          error instanceof ConfigError &&
          error.variable === '--upstream' &&
          !error.message.includes('\n') &&
          !error.message.includes('secret'),
        bad,
      );
    }
  });

  test("/v1 moves onto the upstream's base path; other targets go as they are", () => {
    const upstream = { basePath: '/api/v1' };
    assert.equal(forwardedTarget(upstream, '/v1'), '/api/v1');
    assert.equal(forwardedTarget(upstream, '/v1/'), '/api/v1/');
    assert.equal(forwardedTarget(upstream, '/v1?limit=2'), '/api/v1?limit=2');
    assert.equal(forwardedTarget(upstream, '/v1/transactions/7?x=%2F&y'), '/api/v1/transactions/7?x=%2F&y');
    // Nothing is decoded or normalised.
    assert.equal(forwardedTarget(upstream, '/v1/a/../b//c%20d'), '/api/v1/a/../b//c%20d');
    assert.equal(forwardedTarget(upstream, '/v10/x'), '/v10/x');
    assert.equal(forwardedTarget(upstream, '/v1x'), '/v1x');
    assert.equal(forwardedTarget(upstream, '/health'), '/health');
    assert.equal(forwardedTarget(upstream, '/'), '/');
    assert.equal(forwardedTarget(upstream, '*'), '*');
    // Absolute form: the scheme and authority are the proxy's, not the upstream's.
    assert.equal(forwardedTarget(upstream, 'http://127.0.0.1:1234/v1/x?q'), '/api/v1/x?q');
    assert.equal(forwardedTarget(upstream, 'http://127.0.0.1:1234'), '/');
    assert.equal(forwardedTarget(upstream, 'http://127.0.0.1:1234?q'), '/?q');
  });
});

describe('headers', () => {
  test('hop-by-hop: the connection-level headers and every Proxy-*', () => {
    for (const name of ['connection', 'keep-alive', 'te', 'transfer-encoding', 'upgrade'])
      assert.ok(isHopByHop(name), name);
    assert.ok(isHopByHop('proxy-authorization'));
    assert.ok(isHopByHop('proxy-connection'));
    // Trailer announces end-to-end trailer fields (RFC 9110 6.6.2): it goes through with them.
    for (const name of ['host', 'authorization', 'content-length', 'content-encoding', 'trailer', 'x-proxy'])
      assert.ok(!isHopByHop(name), name);
  });

  test('end-to-end headers keep order, case and duplicates, and drop what Connection names', () => {
    const raw = [
      'Host',
      'a',
      'X-Case',
      'One',
      'Connection',
      'keep-alive, X-Hop , x-other',
      'x-case',
      'two',
      'X-Hop',
      'dropped',
      'Transfer-Encoding',
      'chunked',
      'X-OTHER',
      'dropped too',
      'Proxy-Authorization',
      'Basic x',
      'Set-Cookie',
      'a=1',
      'Set-Cookie',
      'b=2',
    ];
    assert.deepEqual(endToEndHeaders(raw), [
      'Host',
      'a',
      'X-Case',
      'One',
      'x-case',
      'two',
      'Set-Cookie',
      'a=1',
      'Set-Cookie',
      'b=2',
    ]);
    assert.deepEqual(endToEndHeaders(raw, new Set(['host', 'set-cookie'])), ['X-Case', 'One', 'x-case', 'two']);
    const pairs = headerPairs(raw);
    assert.equal(pairs.length, raw.length / 2);
    assert.deepEqual(pairs[1], ['X-Case', 'One']);
    assert.equal(headerValue(pairs, 'x-CASE'), 'One');
    assert.equal(headerValue(pairs, 'absent'), undefined);
    assert.deepEqual(flatHeaders(pairs), raw);
  });
});

describe('body captures', () => {
  test('the first bytes up to the limit, the size of the whole, and a copy of its own', () => {
    const capture = new BodyCapture(10);
    const socketBuffer = Buffer.from('abcdefghijklmnop');
    capture.add(socketBuffer.subarray(0, 4));
    capture.add(socketBuffer.subarray(4, 12));
    capture.add(socketBuffer.subarray(12));
    const body = capture.result();
    assert.equal(body.bytes.toString(), 'abcdefghij');
    assert.equal(body.size, 16);
    assert.equal(body.truncated, true);
    socketBuffer.fill(0);
    assert.equal(body.bytes.toString(), 'abcdefghij', 'not a view of the buffers it was given');

    const whole = new BodyCapture(10);
    whole.add(Buffer.from('0123456789'));
    assert.deepEqual({ ...whole.result(), bytes: undefined }, { bytes: undefined, size: 10, truncated: false });
    const none = new BodyCapture(0);
    none.add(Buffer.from('x'));
    assert.deepEqual(none.result(), { bytes: Buffer.alloc(0), size: 1, truncated: true });
  });
});

describe('decompressed copies', () => {
  const json = Buffer.from(JSON.stringify({ id: 42, items: Array.from({ length: 200 }, (_, i) => `item ${i}`) }));
  const whole = (bytes: Buffer) => ({ bytes, size: bytes.length, truncated: false });

  test('gzip, x-gzip, deflate (zlib or raw), br, and several codings in the order applied', async () => {
    const cases: [string, Buffer][] = [
      ['gzip', gzipSync(json)],
      ['X-Gzip', gzipSync(json)],
      ['deflate', deflateSync(json)],
      ['deflate', deflateRawSync(json)],
      ['br', brotliCompressSync(json)],
      ['gzip, br', brotliCompressSync(gzipSync(json))],
      ['identity, gzip', gzipSync(json)],
    ];
    for (const [encoding, bytes] of cases) {
      const decoded = await decodeBody(whole(bytes), encoding, 1 << 20);
      assert.ok(decoded !== null, encoding);
      assert.equal(decoded.error, null, encoding);
      assert.equal(decoded.truncated, false, encoding);
      assert.deepEqual(decoded.bytes, json, encoding);
    }
    assert.equal(isZlibWrapped(deflateSync(json)), true);
    assert.equal(isZlibWrapped(deflateRawSync(json)), false);
  });

  test('no coding, identity: no copy', async () => {
    assert.equal(await decodeBody(whole(json), undefined, 100), null);
    assert.equal(await decodeBody(whole(json), 'identity', 100), null);
    assert.deepEqual(contentCodings(' gzip , identity,BR'), ['gzip', 'br']);
  });

  test('bounded: a bomb stops at the limit, a truncated capture decodes as far as it goes', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const decoded = await decodeBody(whole(bomb), 'gzip', 4096);
    assert.equal(decoded?.bytes.length, 4096);
    assert.equal(decoded?.truncated, true);
    assert.equal(decoded?.error, null);

    const compressed = gzipSync(json);
    const cut = {
      bytes: compressed.subarray(0, Math.floor(compressed.length / 2)),
      size: compressed.length,
      truncated: true,
    };
    const partial = await decodeBody(cut, 'gzip', 1 << 20);
    assert.equal(partial?.truncated, true);
    assert.equal(partial?.error, null);
    assert.ok(
      partial !== null && partial.bytes.length > 0 && json.subarray(0, partial.bytes.length).equals(partial.bytes),
    );
  });

  test('a corrupt body or an unknown coding says why, with what it got', async () => {
    const corrupt = await decodeBody(whole(Buffer.from('not gzip at all')), 'gzip', 1024);
    assert.match(corrupt?.error ?? '', /^gzip: /);
    assert.equal(corrupt?.truncated, true);
    const unknown = await decodeBody(whole(json), 'zstd', 1024);
    assert.match(unknown?.error ?? '', /^zstd: not a coding/);
    assert.deepEqual(unknown?.bytes, json);
  });
});

describe('the queue in front of the hook', () => {
  interface Item {
    id: number;
    body: number;
    onDisk?: boolean;
  }
  const handlers = (delivered: Item[], gate?: Promise<void>, room = Number.POSITIVE_INFINITY) => {
    let disk = 0;
    return {
      bodyBytes: (item: Item) => (item.onDisk ? 0 : item.body),
      spill: (item: Item) => {
        if (disk + item.body > room) return undefined;
        disk += item.body;
        return { ...item, onDisk: true };
      },
      deliver: async (item: Item) => {
        await gate;
        if (item.id === 13) throw new Error('unlucky');
        if (item.onDisk) disk -= item.body;
        delivered.push(item);
      },
      failed: () => {},
    };
  };

  test('delivers in order, later than the push, one at a time, and goes on after a failure', async () => {
    const delivered: Item[] = [];
    const queue = new ExchangeQueue<Item>({ maxItems: 100, maxMemoryBytes: 1000 }, handlers(delivered));
    for (let id = 10; id < 16; id++) queue.push({ id, body: 1 });
    assert.equal(delivered.length, 0, 'nothing is delivered on the pushing turn');
    await queue.flush();
    assert.deepEqual(
      delivered.map((item) => item.id),
      [10, 11, 12, 14, 15],
    );
    const stats = queue.stats();
    assert.equal(stats.delivered, 5);
    assert.equal(stats.failed, 1);
    assert.equal(stats.waiting, 0);
    assert.equal(stats.bodyBytes, 0);
    await queue.flush();
  });

  test('past its memory budget bodies are spilled; past its length it is full; nothing is ever dropped', async () => {
    let open = (): void => {};
    const gate = new Promise<void>((done) => {
      open = done;
    });
    const delivered: Item[] = [];
    const queue = new ExchangeQueue<Item>({ maxItems: 5, maxMemoryBytes: 250 }, handlers(delivered, gate));
    for (let id = 0; id < 12; id++) queue.push({ id, body: 100 });
    const stats = queue.stats();
    assert.ok(stats.bodyBytes <= 250, `${stats.bodyBytes} bytes held in memory`);
    assert.equal(stats.spilled, 10, 'the bodies past the budget went to disk');
    assert.equal(queue.isFull(), true);
    let roomMade = false;
    const room = queue.whenRoom().then(() => {
      roomMade = true;
    });
    await new Promise((done) => setImmediate(done));
    assert.equal(roomMade, false, 'a full queue holds the pusher until the consumer catches up');
    open();
    await room;
    await queue.flush();
    assert.deepEqual(
      delivered.map((item) => item.id),
      Array.from({ length: 12 }, (_, id) => id),
    );
    assert.equal(queue.stats().full, 1);
  });

  test('with the spill full too, memory past the budget makes it full', async () => {
    let open = (): void => {};
    const gate = new Promise<void>((done) => {
      open = done;
    });
    const delivered: Item[] = [];
    const queue = new ExchangeQueue<Item>({ maxItems: 100, maxMemoryBytes: 100 }, handlers(delivered, gate, 200));
    for (let id = 0; id < 4; id++) queue.push({ id, body: 100 });
    assert.equal(queue.stats().spilled, 2);
    assert.equal(queue.isFull(), true, 'over the memory budget with nowhere to spill');
    open();
    await queue.whenRoom();
    await queue.flush();
    assert.equal(delivered.length, 4);
  });
});
