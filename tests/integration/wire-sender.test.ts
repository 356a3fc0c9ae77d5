/**
 * The keep-alive sender of the generated requests (http/wire-sender.ts, undici) reads
 * every answer form node:http reads: Content-Length, chunked, delimited by the connection's end
 * (HTTP/1.0 servers), interim 1xx answers, Connection: close; it keeps the body's bytes as sent,
 * reuses connections, marks a reset of an idle connection as safe to resend (and a reset of a
 * fresh one as not), times out (a request timed out while waiting for a connection never goes
 * out), refuses header injection, and fails in ways the transport policy classifies, with no
 * secret in any message. Servers are raw sockets on 127.0.0.1, so each answer is byte-exact.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { wireSender, type SendFailure } from '../../http/wire-sender.ts';
import { classifyNetworkError, type OutgoingRequest } from '../../http/transport.ts';

interface RawServer {
  url: string;
  connections: () => number;
  requests: string[];
  close: () => Promise<void>;
}

/**
 * A raw server: `answer` gets each request head (and body) and writes bytes back; `index` counts the
 * server's requests, `onConnection` the requests of that connection.
 */
type Answer = (socket: net.Socket, request: string, index: number, onConnection: number) => void;

async function rawServer(answer: Answer): Promise<RawServer> {
  let connections = 0;
  let index = 0;
  const requests: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffered = '';
    let onConnection = 0;
    socket.on('data', (data) => {
      buffered += data.toString('latin1');
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/content-length: *(\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        const request = buffered.slice(0, end + 4 + length);
        buffered = buffered.slice(end + 4 + length);
        requests.push(request);
        answer(socket, request, index++, onConnection++);
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A server that writes `greeting` as soon as a connection opens, then closes it. */
async function greetingServer(greeting: string): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.end(greeting);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = (): Promise<void> =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return { url: `http://127.0.0.1:${port}`, close };
}

const get = (url: string, path = '/v1/x'): OutgoingRequest => ({
  method: 'GET',
  url: url + path,
  headers: { accept: 'application/json' },
});
const json = (body: string, extra = ''): string =>
  'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n' +
  `content-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;
const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The failure a send ended with (the test fails if it answered). */
async function failureOf(sending: Promise<unknown>): Promise<SendFailure> {
  try {
    await sending;
  } catch (error) {
    return error as SendFailure;
  }
  assert.fail('expected the request to fail');
}

test('Content-Length answers on reused connections; request line, Host and body as sent', async () => {
  const server = await rawServer((socket) => socket.write(json('{"ok":true}', 'x-two: a\r\nX-Two: b\r\n')));
  const wire = wireSender();
  try {
    const first = await wire.send(get(server.url, '/v1/x?q=1'), 2000);
    assert.equal(first.status, 200);
    assert.equal(first.body.toString(), '{"ok":true}');
    assert.equal(first.headers['x-two'], 'a, b');
    assert.equal(first.headers['content-type'], 'application/json');
    const body = '{"é":1}';
    const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
    const second = await wire.send({ method: 'POST', url: `${server.url}/v1/t`, headers, data: body }, 2000);
    assert.equal(second.status, 200);
    const empty = await wire.send({ method: 'POST', url: `${server.url}/v1/t`, headers: {} }, 2000);
    assert.equal(empty.status, 200);
    for (let i = 0; i < 5; i += 1) assert.equal((await wire.send(get(server.url), 2000)).status, 200);
    // Keep-alive: undici's pool frees a connection one event-loop turn after its answer, so that
    // requests sent back to back alternate between two connections.
    assert.ok(server.connections() <= 2, `${server.connections()} connections for 8 requests in sequence`);
    const [one, two, three] = server.requests;
    assert.match(one!, /^GET \/v1\/x\?q=1 HTTP\/1\.1\r\n/);
    assert.match(one!, /\r\nhost: 127\.0\.0\.1:\d+\r\n/i);
    assert.match(one!, /\r\naccept: application\/json\r\n/i);
    assert.ok(two!.endsWith(`\r\n\r\n${Buffer.from(body).toString('latin1')}`));
    assert.match(two!, /content-length: 8\r\n/i);
    assert.match(three!, /content-length: 0\r\n/i);
  } finally {
    wire.destroy();
    await server.close();
  }
});

test('the body is the bytes received: 64-bit ids, bytes split over several packets, invalid UTF-8', async () => {
  const bigId = '{"id":18446744073709551615,"amount":1.10}';
  const server = await rawServer((socket, _request, index) => {
    if (index === 0) {
      socket.write(json(bigId));
      return;
    }
    const head = 'HTTP/1.1 200 OK\r\ncontent-length: 4\r\n\r\n';
    socket.write(Buffer.from(`${head}\xc3`, 'latin1'));
    setTimeout(() => socket.write(Buffer.from([0xa9, 0xff, 0x7b])), 10);
  });
  const wire = wireSender();
  try {
    assert.equal((await wire.send(get(server.url), 2000)).body.toString('utf8'), bigId);
    const split = await wire.send(get(server.url), 2000);
    assert.deepEqual([...split.body], [0xc3, 0xa9, 0xff, 0x7b]);
  } finally {
    wire.destroy();
    await server.close();
  }
});

test('chunked answers, 1xx interim answers and answers delimited by the end of the connection', async () => {
  const server = await rawServer((socket, _request, index) => {
    const chunked = '3\r\n{"a\r\n4\r\n":1}\r\n0\r\n\r\n';
    if (index === 0) socket.write(`HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n${chunked}`);
    else if (index === 1) socket.write(`HTTP/1.1 103 Early Hints\r\nlink: </x>\r\n\r\n${json('[1]')}`);
    else socket.end('HTTP/1.0 201 Created\r\ncontent-type: application/json\r\n\r\n{"id":7}');
  });
  const wire = wireSender();
  try {
    assert.equal((await wire.send(get(server.url), 2000)).body.toString(), '{"a":1}');
    const early = await wire.send(get(server.url), 2000);
    assert.deepEqual([early.status, early.body.toString(), early.headers.link], [200, '[1]', undefined]);
    const closed = await wire.send(get(server.url), 2000);
    assert.deepEqual([closed.status, closed.body.toString()], [201, '{"id":7}']);
  } finally {
    wire.destroy();
    await server.close();
  }
});

test('Connection: close opens a new connection; an idle connection closed by the server is not an error', async () => {
  const server = await rawServer((socket, _request, index) => {
    if (index === 0) socket.end(json('1', 'connection: close\r\n'));
    else if (index === 1) {
      socket.write(json('2'));
      setTimeout(() => socket.destroy(), 20); // closes the idle keep-alive connection
    } else socket.write(json('3'));
  });
  const wire = wireSender();
  try {
    assert.equal((await wire.send(get(server.url), 2000)).body.toString(), '1');
    assert.equal((await wire.send(get(server.url), 2000)).body.toString(), '2');
    await wait(80);
    assert.equal((await wire.send(get(server.url), 2000)).body.toString(), '3');
    assert.equal(server.connections(), 3);
  } finally {
    wire.destroy();
    await server.close();
  }
});

test('a connection closed under a request: safe to resend if it had served answers, not if fresh', async () => {
  // Each connection answers its first request and closes under the next one (the idle-close race).
  const closingSecond = await rawServer((socket, _request, _index, onConnection) => {
    if (onConnection === 0) socket.write(json('1'));
    else socket.destroy();
  });
  // Each connection closes under its first request.
  const closingFirst = await rawServer((socket) => socket.destroy());
  const wire = wireSender();
  try {
    let onReused: SendFailure | undefined;
    for (let i = 0; i < 4 && onReused === undefined; i += 1) {
      await wire.send(get(closingSecond.url), 2000).catch((error: SendFailure) => (onReused = error));
    }
    assert.ok(onReused, 'a reused connection was closed under a request');
    assert.equal(classifyNetworkError(onReused.message), 'reset', onReused.message);
    assert.equal(onReused.stale, true);
    const onFresh = await failureOf(wire.send(get(closingFirst.url), 2000));
    assert.equal(classifyNetworkError(onFresh.message), 'reset', onFresh.message);
    assert.equal(onFresh.stale, false);
  } finally {
    wire.destroy();
    await closingSecond.close();
    await closingFirst.close();
  }
});

test('time-outs close the connection; a request timed out while waiting for one never goes out', async () => {
  const server = await rawServer((socket, request) => {
    if (request.includes('/slow')) return; // never answers
    socket.write(json('"fast"'));
  });
  const wire = wireSender({ connections: 1 });
  try {
    const slow = failureOf(wire.send(get(server.url, '/slow'), 300));
    const queued = await failureOf(wire.send(get(server.url, '/queued'), 100));
    assert.equal(queued.code, 'ETIMEDOUT');
    assert.equal(classifyNetworkError(queued.message), 'timeout');
    assert.equal((await slow).code, 'ETIMEDOUT');
    assert.equal((await wire.send(get(server.url, '/after'), 2000)).body.toString(), '"fast"');
    await wait(50);
    // The timed-out connection was closed (/after had to open another), and /queued never went out.
    assert.deepEqual(
      server.requests.map((request) => request.split(' ')[1]),
      ['/slow', '/after'],
    );
  } finally {
    wire.destroy();
    await server.close();
  }
});

test('refused connections, malformed answers, TLS to plain HTTP, header injection: classified failures', async () => {
  const secret = 'sk_sandbox_wire_secret_0123456789';
  const server = await rawServer((socket) => socket.write('HTTP/1.1 2xx Nope\r\n\r\n'));
  // Plain text before any request: what a TLS client meets on a plain-HTTP port that greets first.
  const plain = await greetingServer('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n');
  const wire = wireSender();
  try {
    const malformed = await failureOf(wire.send(get(server.url, '/bad'), 2000));
    assert.match(malformed.code ?? '', /^HPE_/, malformed.message);
    const tls = await failureOf(wire.send(get(plain.url.replace('http:', 'https:')), 2000));
    assert.equal(classifyNetworkError(tls.message), 'unreachable', tls.message);
    const injected = {
      method: 'GET',
      url: `${server.url}/x`,
      headers: { authorization: `Bearer ${secret}\r\nx-injected: 1` },
    };
    const refusedHeader = await failureOf(wire.send(injected, 2000));
    assert.equal(refusedHeader.code, 'UND_ERR_INVALID_ARG');
    assert.ok(!refusedHeader.message.includes(secret), refusedHeader.message);
    const badHeaderName = { method: 'GET', url: `${server.url}/x`, headers: { 'x-bad\r\nx-injected': '1' } };
    const badName = await failureOf(wire.send(badHeaderName, 2000));
    assert.equal(badName.code, 'UND_ERR_INVALID_ARG');
    assert.ok(server.requests.every((request) => !/x-injected/i.test(request)));
  } finally {
    wire.destroy();
    await server.close();
    await plain.close();
  }
  const closedPort = wireSender();
  try {
    const refused = await failureOf(closedPort.send(get(server.url), 2000));
    assert.equal(refused.code, 'ECONNREFUSED');
    assert.equal(classifyNetworkError(refused.message), 'unreachable');
  } finally {
    closedPort.destroy();
  }
});

test("undici's own failure codes are classified as node's are: time-outs, resets", () => {
  for (const code of ['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']) {
    assert.equal(classifyNetworkError(`${code}: Connect Timeout Error`), 'timeout', code);
  }
  assert.equal(classifyNetworkError('UND_ERR_SOCKET: other side closed'), 'reset');
  assert.equal(classifyNetworkError('UND_ERR_INVALID_ARG: invalid authorization header'), 'other');
});
