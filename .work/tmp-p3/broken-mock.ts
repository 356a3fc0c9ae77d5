// Temporary experiment: the reference mock with two bugs: a deleted customer can be deleted again with 204,
// and created transactions from amount 5000 up report amount + 1.
import type { AddressInfo } from 'node:net';
import { buildMockApp } from '../../mock/app.ts';
const mock = buildMockApp({});
const deleted = new Set<string>();
mock.app.addHook('onRequest', async (request, reply) => {
  const m = /^\/v1\/customers\/(\d+)$/.exec(request.url);
  if (request.method === 'DELETE' && m) {
    if (deleted.has(m[1]!)) { reply.code(204).send(); return reply; }
    deleted.add(m[1]!);
  }
});
mock.app.addHook('onSend', async (request, _reply, payload) => {
  if (request.method === 'POST' && request.url === '/v1/transactions' && typeof payload === 'string' && payload.startsWith('{"id"')) {
    const json = JSON.parse(payload) as { amount: number };
    if (json.amount >= 5000) json.amount += 1;
    return JSON.stringify(json);
  }
  return payload;
});
await mock.app.listen({ port: Number(process.argv[2] ?? 0), host: '127.0.0.1' });
const port = (mock.app.server.address() as AddressInfo).port;
mock.setOrigin(`http://127.0.0.1:${port}`);
console.log(`http://127.0.0.1:${port}/v1 ${mock.sandboxKey}`);
