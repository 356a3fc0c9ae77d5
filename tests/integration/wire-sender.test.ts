/**
 * The direct keep-alive sender for plain-HTTP targets (support/http/wire-sender.ts) reads
 * every answer form node:http reads: Content-Length, chunked, delimited by the connection's
 * end (HTTP/1.0 servers), interim 1xx answers, Connection: close; it reuses connections,
 * resends once on an idle connection the server closed, times out, and refuses what node:http
 * refuses to write. Servers are raw sockets on 127.0.0.1, so each answer is byte-exact.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { wireSender } from '../../support/http/wire-sender.ts';
import type { OutgoingRequest } from '../../support/http/transport.ts';

/** A raw server: `answer` gets each request head (and body) and writes bytes back. */
async function rawServer(answer: (socket: net.Socket, request: string, index: number) => void): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  let index = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffered = '';
    socket.on('data', (data) => {
      buffered += data.toString('latin1');
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/content-length: *(\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        const request = buffered.slice(0, end + 4 + length);
        buffered = buffered.slice(end + 4 + length);
        answer(socket, request, index++);
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const get = (url: string, path = '/v1/x'): OutgoingRequest => ({ method: 'GET', url: url + path, headers: { accept: 'application/json' } });
const json = (body: string, extra = ''): string => `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

test('Content-Length answers on one reused connection; request line, Host and body as sent', async () => {
  const seen: string[] = [];
  const server = await rawServer((socket, request) => {
    seen.push(request);
    socket.write(json('{"ok":true}', 'x-two: a\r\nX-Two: b\r\n'));
  });
  const wire = wireSender()!;
  try {
    const first = await wire.send(get(server.url, '/v1/x?q=1'), 2000);
    assert.equal(first.status, 200);
    assert.equal(first.body.toString(), '{"ok":true}');
    assert.equal(first.headers['x-two'], 'a, b');
    const second = await wire.send({ method: 'POST', url: `${server.url}/v1/t`, headers: { 'content-type': 'application/json' }, data: '{"é":1}' }, 2000);
    assert.equal(second.status, 200);
    assert.equal(server.connections(), 1);
    assert.match(seen[0]!, /^GET \/v1\/x\?q=1 HTTP\/1\.1\r\nHost: 127\.0\.0\.1:\d+\r\n/);
    assert.ok(seen[1]!.endsWith('\r\n\r\n{"é":1}'.replace('é', Buffer.from('é').toString('latin1'))));
    assert.match(seen[1]!, /content-length: 8\r\n/);
  } finally {
    wire.destroy();
    await server.close();
  }
});

test('chunked answers, 1xx interim answers and answers delimited by the end of the connection', async () => {
  const server = await rawServer((socket, _request, index) => {
    if (index === 0) socket.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\n{"a\r\n4\r\n":1}\r\n0\r\n\r\n');
    else if (index === 1) socket.write('HTTP/1.1 103 Early Hints\r\nlink: </x>\r\n\r\n' + json('[1]'));
    else socket.end('HTTP/1.0 201 Created\r\ncontent-type: application/json\r\n\r\n{"id":7}');
  });
  const wire = wireSender()!;
  try {
    assert.equal((await wire.send(get(server.url), 2000)).body.toString(), '{"a":1}');
    const early = await wire.send(get(server.url), 2000);
    assert.deepEqual([early.status, early.body.toString()], [200, '[1]']);
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
  const wire = wireSender()!;
  try {
    assert.equal((await wire.send(get(server.url), 2000)).body.toString(), '1');
    assert.equal((await wire.send(get(server.url), 2000)).body.toString(), '2');
    await new Promise((resolve) => setTimeout(resolve, 80));
    assert.equal((await wire.send(get(server.url), 2000)).body.toString(), '3');
    assert.equal(server.connections(), 3);
  } finally {
    wire.destroy();
    await server.close();
  }
});

test('time-outs, resets, refused connections, malformed answers and header injection are errors with node codes', async () => {
  const server = await rawServer((socket, request) => {
    if (request.includes('/slow')) return; // never answers
    if (request.includes('/reset')) socket.destroy();
    else socket.write('HTTP/1.1 2xx Nope\r\n\r\n');
  });
  const wire = wireSender()!;
  try {
    await assert.rejects(wire.send(get(server.url, '/slow'), 150), (error: Error & { code?: string }) => error.code === 'ETIMEDOUT');
    await assert.rejects(wire.send(get(server.url, '/reset'), 2000), (error: Error & { code?: string; stale?: boolean }) => error.code === 'ECONNRESET' && error.stale === false);
    await assert.rejects(wire.send(get(server.url, '/bad'), 2000), /Parse Error/);
    await assert.rejects(wire.send({ method: 'GET', url: `${server.url}/x`, headers: { 'x-bad': 'a\r\nx-injected: 1' } }, 2000), (error: Error & { code?: string }) => error.code === 'ERR_INVALID_CHAR');
  } finally {
    wire.destroy();
    await server.close();
  }
  await assert.rejects(wire.send(get(server.url), 2000), (error: Error & { code?: string }) => error.code === 'ECONNREFUSED');
});
