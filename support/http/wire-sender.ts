/**
 * A Sender for plain-HTTP targets that writes requests on keep-alive sockets itself and reads
 * answers with Node's own HTTP parser (llhttp, the one node:http uses). Why not node:http: its
 * client machinery (agent pool, ClientRequest, IncomingMessage streams) costs more per request
 * than the round trip to a local server; measured with scratch-free `npm run bench`, generated
 * requests went from about 3,300 to about 5,600 per second and connection on loopback. Parsing
 * stays node's: chunked bodies, bodies delimited by the connection's end, 1xx answers and
 * malformed answers are read exactly as node:http reads them.
 *
 * Only for http: targets (the embedded mock, a mock on the developer's machine, CI services).
 * https: targets keep node:https. Where Node's parser is not reachable (a future Node that
 * hides it), wireSender() returns undefined and the caller falls back to node:http.
 */
import net from 'node:net';
import { createRequire } from 'node:module';
import type { IncomingResponse, OutgoingRequest, Sender } from './transport.ts';

/** The parts of node's internal HTTPParser (from the documented-legacy module _http_common) used here. */
interface Parser {
  initialize(type: number, resource: object, maxHeaderSize?: number, lenient?: number): void;
  execute(data: Buffer): number | Error;
  finish(): number | Error | undefined;
  close(): void;
  [slot: number]: unknown;
}
interface ParserClass {
  new (): Parser;
  RESPONSE: number;
  kOnHeaders: number;
  kOnHeadersComplete: number;
  kOnBody: number;
  kOnMessageComplete: number;
}
interface HttpCommon {
  HTTPParser?: ParserClass;
  _checkInvalidHeaderChar?: (value: string) => boolean;
}

function nodeParser(): { Parser: ParserClass; invalidHeaderChar: (value: string) => boolean } | undefined {
  try {
    const common = createRequire(import.meta.url)('_http_common') as HttpCommon;
    const Parser = common.HTTPParser;
    if (typeof Parser !== 'function' || typeof Parser.RESPONSE !== 'number' || typeof Parser.kOnHeadersComplete !== 'number') return undefined;
    const invalidHeaderChar = common._checkInvalidHeaderChar ?? ((value: string) => /[^\t\x20-\x7e\x80-\xff]/.test(value));
    return { Parser, invalidHeaderChar };
  } catch {
    return undefined;
  }
}

/** Errors shaped like node:http's ("CODE: message" is what the transport policy classifies). */
function coded(code: string, message: string): Error & { code: string } {
  return Object.assign(new Error(message), { code });
}

interface Pending {
  resolve(response: IncomingResponse): void;
  reject(error: Error & { code?: string; stale?: boolean }): void;
  /** The socket had served an earlier request: a reset before any answer byte means it was closed idle. */
  reused: boolean;
  gotBytes: boolean;
  timer: NodeJS.Timeout;
}

/** One keep-alive connection: one request at a time, answers read by one parser. */
class Connection {
  private readonly parser: Parser;
  private pending: Pending | undefined;
  private status = 0;
  private headerList: string[] = [];
  private headers: Record<string, string> = {};
  private chunks: Buffer[] = [];
  private keepAlive = false;
  private served = 0;
  closed = false;

  constructor(
    readonly socket: net.Socket,
    Parser: ParserClass,
    private readonly release: (connection: Connection) => void,
  ) {
    this.parser = new Parser();
    this.parser.initialize(Parser.RESPONSE, {}, 0, 0);
    this.parser[Parser.kOnHeaders] = (headers: string[]) => {
      this.headerList.push(...headers);
    };
    this.parser[Parser.kOnHeadersComplete] = (
      _major: number,
      _minor: number,
      headers: string[] | undefined,
      _method: unknown,
      _url: unknown,
      statusCode: number,
      _statusMessage: unknown,
      _upgrade: boolean,
      shouldKeepAlive: boolean,
    ) => {
      const list = headers === undefined ? this.headerList : [...this.headerList, ...headers];
      this.headerList = [];
      this.status = statusCode;
      this.keepAlive = shouldKeepAlive;
      const record: Record<string, string> = {};
      for (let i = 0; i + 1 < list.length; i += 2) {
        const name = list[i]!.toLowerCase();
        record[name] = record[name] === undefined ? list[i + 1]! : `${record[name]}, ${list[i + 1]!}`;
      }
      this.headers = record;
      return 0;
    };
    this.parser[Parser.kOnBody] = (buffer: Buffer, start?: number, length?: number) => {
      // Node 20 passes the body slice; older parsers passed (buffer, start, length).
      this.chunks.push(start === undefined ? Buffer.from(buffer) : Buffer.from(buffer.subarray(start, start + (length ?? 0))));
    };
    this.parser[Parser.kOnMessageComplete] = () => this.complete();

    socket.setNoDelay(true);
    socket.on('data', (data: Buffer) => {
      if (this.closed) return;
      if (this.pending) this.pending.gotBytes = true;
      const result = this.parser.execute(data);
      if (result instanceof Error) this.fail(coded((result as Error & { code?: string }).code ?? 'HPE_INVALID', `Parse Error: ${result.message}`));
    });
    socket.on('end', () => {
      // An answer delimited by the end of the connection ends here.
      if (this.pending && !this.closed) {
        const result = this.parser.finish();
        if (result instanceof Error) this.fail(coded('HPE_INVALID', `Parse Error: ${result.message}`));
      }
      this.destroy(coded('ECONNRESET', 'socket hang up'));
    });
    socket.on('error', (error: Error & { code?: string }) => this.destroy(coded(error.code ?? 'ECONNRESET', error.message)));
    socket.on('close', () => this.destroy(coded('ECONNRESET', 'socket hang up')));
  }

  send(head: string, data: string | undefined, pending: Pending): void {
    pending.reused = this.served > 0;
    this.pending = pending;
    this.chunks = [];
    this.socket.write(data === undefined ? head : head + data);
  }

  /** Stops waiting for the current answer (time-out): the connection cannot be reused. */
  abort(error: Error): void {
    this.fail(error);
  }

  private complete(): void {
    const pending = this.pending;
    if (!pending) return;
    // 1xx answers are interim: the final answer follows on the same connection.
    if (this.status >= 100 && this.status < 200 && this.status !== 101) {
      this.chunks = [];
      return;
    }
    this.pending = undefined;
    clearTimeout(pending.timer);
    this.served += 1;
    pending.resolve({ status: this.status, headers: this.headers, body: this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks) });
    if (this.keepAlive && !this.closed) this.release(this);
    else this.destroy(undefined);
  }

  private fail(error: Error & { code?: string }): void {
    const pending = this.pending;
    this.pending = undefined;
    if (pending) {
      clearTimeout(pending.timer);
      pending.reject(Object.assign(error, { stale: pending.reused && !pending.gotBytes && (error.code === 'ECONNRESET' || error.code === 'EPIPE') }));
    }
    this.destroy(undefined);
  }

  destroy(error: (Error & { code?: string }) | undefined): void {
    if (error && this.pending) {
      this.fail(error);
      return;
    }
    if (this.closed) return;
    this.closed = true;
    this.socket.destroy();
    // Never inside a parser callback: freeing llhttp while it executes crashes the process.
    setImmediate(() => {
      try {
        this.parser.close();
      } catch {
        // already closed
      }
    });
  }
}

export interface WireSender {
  send: Sender;
  /** Closes every idle and busy connection. */
  destroy(): void;
}

/** A pooled keep-alive sender for http: URLs, or undefined where Node's parser is not reachable. */
export function wireSender(): WireSender | undefined {
  const node = nodeParser();
  if (!node) return undefined;
  const idle = new Map<string, Connection[]>();
  const all = new Set<Connection>();

  const release = (origin: string) => (connection: Connection) => {
    const list = idle.get(origin) ?? [];
    list.push(connection);
    idle.set(origin, list);
  };

  const connectionFor = (url: URL): Connection => {
    const origin = url.host;
    const list = idle.get(origin);
    while (list && list.length > 0) {
      const connection = list.pop()!;
      if (!connection.closed) return connection;
    }
    const socket = net.connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 80) });
    const connection = new Connection(socket, node.Parser, release(origin));
    all.add(connection);
    socket.on('close', () => all.delete(connection));
    return connection;
  };

  const send: Sender = (request: OutgoingRequest, timeoutMs: number) =>
    new Promise<IncomingResponse>((resolve, reject) => {
      const url = new URL(request.url);
      let head = `${request.method.toUpperCase()} ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n`;
      let hasLength = false;
      for (const [name, value] of Object.entries(request.headers)) {
        // What node:http refuses to write, refused the same way (no header injection through a value).
        if (node.invalidHeaderChar(value) || /[\r\n]/.test(name)) {
          reject(coded('ERR_INVALID_CHAR', `Invalid character in header content ["${name}"]`));
          return;
        }
        if (name.toLowerCase() === 'content-length') hasLength = true;
        head += `${name}: ${value}\r\n`;
      }
      if (!hasLength && request.data !== undefined) head += `content-length: ${Buffer.byteLength(request.data)}\r\n`;
      else if (!hasLength && request.method.toUpperCase() === 'POST') head += 'content-length: 0\r\n';
      head += '\r\n';
      const connection = connectionFor(url);
      const pending: Pending = {
        resolve,
        reject,
        reused: false,
        gotBytes: false,
        timer: setTimeout(() => connection.abort(coded('ETIMEDOUT', `Timeout ${timeoutMs}ms exceeded`)), timeoutMs),
      };
      connection.send(head, request.data, pending);
    });

  return {
    send,
    destroy() {
      for (const connection of all) connection.destroy(coded('ECONNRESET', 'socket hang up'));
      all.clear();
      idle.clear();
    },
  };
}
