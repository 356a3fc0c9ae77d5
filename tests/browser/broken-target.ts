/**
 * A deliberately broken target for the report checks: the reference mock behind a tiny
 * loopback proxy that breaks two things, so that a run has known failures of known kinds:
 *   - GET /currencies/{id} answers currencies whose "default" is the string "yes" (schema);
 *   - DELETE /customers/{id} answers 200 where the mock says 404 (status).
 * Everything else passes through unchanged.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMockServer } from '../../mock/server.ts';

export interface BrokenTarget {
  baseUrl: string;
  secretKey: string;
  close(): Promise<void>;
}

/** The rules the breakage violates (what the report must show as failing). */
export const brokenRules = ['CURRENCY-ARRAY', 'CUSTOMER-DELETE-404'] as const;

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function breakCurrencies(text: string): string {
  const json = JSON.parse(text) as unknown;
  if (!Array.isArray(json)) return text;
  return JSON.stringify(
    json.map((item: unknown) => (item && typeof item === 'object' ? { ...item, default: 'yes' } : item)),
  );
}

export async function startBrokenTarget(): Promise<BrokenTarget> {
  const mock = await startMockServer({ port: 0, host: '127.0.0.1' });
  const proxy = createServer((request: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      const body = await readBody(request);
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers.set(name, value);
      }
      const upstream = await fetch(mock.origin + (request.url ?? '/'), {
        method: request.method,
        headers,
        body: body.length > 0 ? new Uint8Array(body) : undefined,
        redirect: 'manual',
      });
      let status = upstream.status;
      let text = await upstream.text();
      const path = new URL(request.url ?? '/', mock.origin).pathname;
      if (request.method === 'GET' && /^\/v1\/currencies\/\d+$/.test(path) && status === 200)
        text = breakCurrencies(text);
      if (request.method === 'DELETE' && /^\/v1\/customers\/[^/]+$/.test(path) && status === 404) {
        status = 200;
        text = JSON.stringify({ deleted: true });
      }
      response.writeHead(status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
      response.end(text);
    })().catch((error: unknown) => {
      response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`broken-target proxy error: ${(error as Error).message}`);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    secretKey: mock.sandboxKey,
    async close() {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await mock.close();
    },
  };
}
