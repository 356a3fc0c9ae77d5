/**
 * What the tests of `proxy` and `judge` share: HAR files written from exchanges (recorded against the
 * reference mock, or written by hand for what no conforming server answers), a client script a proxy
 * command runs, and a front server before the reference mock that answers as an Express-like stack does
 * (an ETag on 2xx reads, 304 to a matching If-None-Match), with defects that only traffic shows planted
 * on demand.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunningMock } from '../../mock/server.ts';

export interface HarExchange {
  method: string;
  url: string;
  requestHeaders: Array<[string, string]>;
  requestBody?: string;
  status: number;
  responseHeaders: Array<[string, string]>;
  responseBody: string;
}

export function harEntry(exchange: HarExchange, started = new Date()): object {
  const headers = (list: Array<[string, string]>) => list.map(([name, value]) => ({ name, value }));
  return {
    startedDateTime: started.toISOString(),
    time: 3,
    request: {
      method: exchange.method,
      url: exchange.url,
      httpVersion: 'HTTP/1.1',
      headers: headers(exchange.requestHeaders),
      queryString: [],
      cookies: [],
      headersSize: -1,
      bodySize: exchange.requestBody?.length ?? 0,
      ...(exchange.requestBody === undefined
        ? {}
        : { postData: { mimeType: 'application/json', text: exchange.requestBody } }),
    },
    response: {
      status: exchange.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: headers(exchange.responseHeaders),
      cookies: [],
      content: { size: exchange.responseBody.length, mimeType: 'application/json', text: exchange.responseBody },
      redirectURL: '',
      headersSize: -1,
      bodySize: exchange.responseBody.length,
    },
    cache: {},
    timings: { send: 0, wait: 3, receive: 0 },
  };
}

export function harText(entries: readonly object[]): string {
  return JSON.stringify({ log: { version: '1.2', creator: { name: 'tests', version: '1' }, entries } });
}

/** One request to a running server, recorded as a HAR exchange. */
export async function recorded(
  base: string,
  method: string,
  path: string,
  options: { key?: string | null; body?: unknown } = {},
): Promise<HarExchange> {
  const requestHeaders: Array<[string, string]> = [['Accept', 'application/json']];
  if (options.key) requestHeaders.push(['Authorization', `Bearer ${options.key}`]);
  const requestBody = options.body === undefined ? undefined : JSON.stringify(options.body);
  if (requestBody !== undefined) requestHeaders.push(['Content-Type', 'application/json']);
  const response = await fetch(`${base}${path}`, { method, headers: requestHeaders, body: requestBody });
  return {
    method,
    url: `${base}${path}`,
    requestHeaders,
    ...(requestBody === undefined ? {} : { requestBody }),
    status: response.status,
    responseHeaders: [...response.headers],
    responseBody: await response.text(),
  };
}

/**
 * A client written from the reference, for a proxy's command (node -e): two transactions and their links, reads of
 * the configured balance and currency, each read again with the ETag it got (If-None-Match, as caching clients
 * send), a read with a wrong key, and a link asked for an id with characters after it.
 */
export const clientScript = `
const base = process.env.COLLECT_CONFORMANCE_PROXY_URL;
const key = process.env.PCS_SECRET_KEY;
const call = async (method, path, body, headers = {}) => {
  const response = await fetch(base + path, {
    method,
    headers: { authorization: 'Bearer ' + key, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, etag: response.headers.get('etag'), json: text ? JSON.parse(text) : undefined };
};
(async () => {
  const first = await call('POST', '/transactions', { description: 'first', amount: 1500, currency: { iso: 'XOF' } });
  const second = await call('POST', '/transactions', { description: 'second', amount: 2500, currency: { iso: 'XOF' } });
  await call('POST', '/transactions/' + first.json.id + '/token');
  await call('POST', '/transactions/' + second.json.id + '/token');
  for (const path of ['/balances/' + process.env.PCS_BALANCE_ID, '/currencies/' + process.env.PCS_CURRENCY_ID]) {
    const read = await call('GET', path);
    if (read.etag) await call('GET', path, undefined, { 'if-none-match': read.etag });
  }
  const wrong = { authorization: 'Bearer sk_sandbox_not_a_key_0000' };
  await call('GET', '/balances/' + process.env.PCS_BALANCE_ID, undefined, wrong);
  await call('POST', '/transactions/' + first.json.id + 'xyz/token');
})().catch((error) => { console.error(error); process.exit(9); });
`;

/** The defects only traffic shows, planted in the front server. */
export type TrafficDefect =
  /** A read refused for a wrong key answers 401 with the balance or currency asked for in its body. */
  | 'refusal-discloses'
  /** A path id read as parseInt reads it: /transactions/1001xyz/token is the link of transaction 1001. */
  | 'id-read-leniently'
  /** A link's url carries the token of the transaction linked before, while its token is right. */
  | 'url-of-another-token';

export interface FrontServer {
  base: string;
  close(): Promise<void>;
}

/**
 * A server before the reference mock that answers as an Express-like stack does where the reference is silent (an
 * ETag on each 2xx GET, 304 to a matching If-None-Match: RFC 9110 13.1.2), with the given defects planted.
 */
export async function startFrontServer(
  mock: RunningMock,
  defects: readonly TrafficDefect[] = [],
): Promise<FrontServer> {
  let lastToken: string | undefined;
  const forward = async (req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> => {
    let path = (req.url ?? '/').replace(/^\/v1/, '');
    if (defects.includes('id-read-leniently'))
      path = path.replace(/^\/transactions\/(\d+)[^\d/][^/]*\/token$/, '/transactions/$1/token');
    const authorization = req.headers.authorization ?? '';
    const read = req.method === 'GET' && /^\/(balances|currencies)\/\d+$/.test(path);
    if (defects.includes('refusal-discloses') && read && authorization !== `Bearer ${mock.sandboxKey}`) {
      const resource = await fetch(`${mock.sandboxBaseUrl}${path}`, {
        headers: { authorization: `Bearer ${mock.sandboxKey}` },
      });
      res.writeHead(401, { 'Content-Type': 'application/json' });
      res.end(await resource.text());
      return;
    }
    const answer = await fetch(`${mock.sandboxBaseUrl}${path}`, {
      method: req.method,
      headers: Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'if-none-match'].includes(name)),
      ) as Record<string, string>,
      body: body.length > 0 ? new Uint8Array(body) : undefined,
    });
    let text = await answer.text();
    if (defects.includes('url-of-another-token') && /\/token$/.test(path) && answer.ok) {
      const link = JSON.parse(text) as { token: string; url: string };
      if (lastToken !== undefined && lastToken !== link.token) link.url = link.url.replace(link.token, lastToken);
      lastToken = link.token;
      text = JSON.stringify(link);
    }
    const headers: Record<string, string> = {
      'Content-Type': answer.headers.get('content-type') ?? 'application/json',
    };
    if (req.method === 'GET' && answer.ok) {
      const etag = `W/"${createHash('sha1').update(text).digest('hex').slice(0, 16)}"`;
      headers.ETag = etag;
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, { ETag: etag });
        res.end();
        return;
      }
    }
    res.writeHead(answer.status, headers);
    res.end(text);
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      forward(req, res, Buffer.concat(chunks)).catch(() => {
        res.writeHead(500);
        res.end();
      });
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
