/**
 * The reference mock as a Fastify application: the sandbox environment under /v1 and the
 * live environment under /live/v1, each with its own key and its own in-memory data.
 * Every error is JSON with a 4xx status and one clear message; a 5xx would be a bug.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { jsonDepthExceeds } from './http/json-depth.ts';
import { EnvironmentStore, defaultStoreBytes, defaultStoreCap, type MockStores } from './store.ts';
import { environmentRoutes } from './routes.ts';
import { BadRequest } from './validation.ts';
import { mockVersion, mockVersionHeader } from './version.ts';
import { installFaults } from './faults.ts';
import { installMutant } from './mutants/index.ts';

export const sandboxPrefix = '/v1';
export const livePrefix = '/live/v1';
export const defaultSandboxKey = 'sk_sandbox_collect_conformance_mock_0001';
export const defaultLiveKey = 'sk_live_collect_conformance_mock_0001';
/** The key of the sandbox's second account (cross-account checks: PCS_SECOND_SECRET_KEY). */
export const defaultSecondSandboxKey = 'sk_sandbox_collect_conformance_mock_0002';
/** Bodies above this size are refused with 413. */
export const defaultBodyLimit = 64 * 1024;
/** JSON nested deeper than this is refused with 400, before it is parsed or stored. */
export const maxJsonDepth = 64;
/** A request (headers and body) must arrive within this time, or its connection is closed (408). */
export const defaultRequestTimeoutMs = 10_000;
/** Open connections at once; further ones are closed by the server at once. */
export const defaultMaxConnections = 1_000;

export interface MockOptions {
  sandboxKey?: string;
  liveKey?: string;
  secondSandboxKey?: string;
  /** Records kept per collection and environment before the oldest is evicted. */
  storeCap?: number;
  /** Bytes of records kept per environment before the oldest are evicted (mock/store.ts). */
  storeBytes?: number;
  bodyLimit?: number;
  /** Time for a whole request to arrive (slow or incomplete bodies are cut off with 408). */
  requestTimeoutMs?: number;
  /** Bound on open connections. */
  maxConnections?: number;
  /** Log requests to stdout (pino); off by default. */
  logger?: boolean;
  /**
   * Name of a contract mutant to serve instead of the reference behaviour (mock/mutants/;
   * used by npm run mutation to measure what the suite catches). Unset: the reference.
   */
  mutant?: string;
  /** Transport faults to inject (mock/faults.ts; used to test the suite's transport handling). */
  faults?: string;
}

export interface MockApp {
  app: FastifyInstance;
  sandboxKey: string;
  liveKey: string;
  /** The sandbox's second account: its key, and its store in `stores.sandboxSecond`. */
  secondSandboxKey: string;
  stores: MockStores;
  /** Set once the listening address is known; payment links are built on it. */
  setOrigin(origin: string): void;
}

function errorBody(status: number, code: string, message: string) {
  return { error: { status, code, message } };
}

export function buildMockApp(options: MockOptions = {}): MockApp {
  const sandboxKey = options.sandboxKey ?? defaultSandboxKey;
  const liveKey = options.liveKey ?? defaultLiveKey;
  const secondSandboxKey = options.secondSandboxKey ?? defaultSecondSandboxKey;
  const cap = options.storeCap ?? defaultStoreCap;
  const bytes = options.storeBytes ?? defaultStoreBytes;
  const stores: MockStores = {
    sandbox: new EnvironmentStore('sandbox', cap, bytes),
    sandboxSecond: new EnvironmentStore('sandbox', cap, bytes, 'second'),
    live: new EnvironmentStore('live', cap, bytes),
  };
  let origin = 'http://127.0.0.1';

  const requestTimeout = options.requestTimeoutMs ?? defaultRequestTimeoutMs;
  const app = Fastify({
    logger: options.logger ?? false,
    // A slow client (a body shorter than its Content-Length, chunks without an end) is cut off:
    // node checks the timeouts every connectionsCheckingInterval, so it is a fraction of the timeout.
    serverFactory: (handler) => {
      const server = http.createServer(
        {
          requestTimeout,
          headersTimeout: requestTimeout,
          connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(requestTimeout / 4))),
        },
        handler,
      );
      server.maxConnections = options.maxConnections ?? defaultMaxConnections;
      return server;
    },
    // Node's own answers to malformed HTTP (bad request line, headers too large, time-outs) in the mock's shape.
    clientErrorHandler: (error: Error & { code?: string }, socket: Socket) => {
      const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      const code = status === 431 ? 'headers_too_large' : status === 408 ? 'request_timeout' : 'malformed_request';
      const message =
        status === 431
          ? 'request headers too large'
          : status === 408
            ? 'the request did not arrive in time'
            : 'malformed HTTP request';
      const body = JSON.stringify(errorBody(status, code, message));
      // A request whose body never completes (shorter than its Content-Length, a bad chunk size) already has its
      // response object, which has written nothing yet: the error is still the first answer on the connection.
      const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
      if (socket.writable && (!pending || pending.headersSent === false)) {
        socket.end(
          `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
            `content-type: application/json; charset=utf-8\r\n${mockVersionHeader}: ${mockVersion}\r\n` +
            `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
        );
      } else socket.destroy();
    },
    // Fastify's own refusals before routing (a URL it cannot decode) in the mock's shape too.
    frameworkErrors: (error, _request, reply) => {
      // Fastify types this reply without routes; it is the plain reply of a 400.
      const plain = reply as unknown as {
        code(status: number): typeof plain;
        header(name: string, value: string): typeof plain;
        send(body: unknown): unknown;
      };
      void plain
        .code(400)
        .header(mockVersionHeader, mockVersion)
        .send(errorBody(400, 'malformed_request', error.message));
    },
    bodyLimit: options.bodyLimit ?? defaultBodyLimit,
    // Never trust routing on odd input: unknown characters in paths are 404s, not 500s.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  });
  // On the raw response, first of all hooks: every answer carries it, errors and
  // the answers of injected faults and mutants included.
  // A synchronous hook: an async onSend hook cost a promise per request (npm run bench).
  app.addHook('onRequest', (_request, reply, done) => {
    reply.raw.setHeader(mockVersionHeader, mockVersion);
    done();
  });

  // Injected transport faults (tests of the suite's transport); before the routes, so before authentication.
  if (options.faults) installFaults(app, options.faults);
  // Contract mutants and conforming variants (npm run mutation); before the routes, so their hooks run first.
  if (options.mutant)
    installMutant(app, options.mutant, {
      keys: { sandbox: sandboxKey, live: liveKey, sandboxSecond: secondSandboxKey },
      stores,
    });

  // JSON bodies: an empty body is "no body" (the token operation has none, and some clients
  // still send Content-Type: application/json); anything else goes to Fastify's safe parser.
  const defaultJsonParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  // Only JSON is read: a body declared as text/plain (or anything else) gets 415, as docs/reference/mock.md says.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    // Refused before parsing: nothing deeper than maxJsonDepth is parsed, validated or stored.
    if (jsonDepthExceeds(text, maxJsonDepth)) {
      done(
        new BadRequest(`the request body nests JSON deeper than ${maxJsonDepth} levels`, 400, 'too_deep'),
        undefined,
      );
      return;
    }
    defaultJsonParser(request, text, done);
  });

  app.setErrorHandler((error: FastifyError | BadRequest, request, reply) => {
    if (error instanceof BadRequest) {
      return reply.code(error.status).send(errorBody(error.status, error.code, error.message));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.name === 'SyntaxError'
          ? `the request body is not valid JSON: ${error.message}`
          : error.message;
      return reply.code(status).send(errorBody(status, error.code ?? 'invalid_request', message));
    }
    request.log.error(error);
    return reply.code(500).send(errorBody(500, 'internal_error', 'internal error in the reference mock'));
  });

  app.setNotFoundHandler(async (_request, reply) =>
    reply
      .code(404)
      .send(
        errorBody(404, 'not_found', `no base address here: use ${sandboxPrefix} (sandbox) or ${livePrefix} (live)`),
      ),
  );

  const foreign = { sandbox: sandboxKey, live: liveKey };
  app.register(
    environmentRoutes({
      store: stores.sandbox,
      key: sandboxKey,
      otherAccounts: [{ key: secondSandboxKey, store: stores.sandboxSecond }],
      foreignKeys: { live: foreign.live },
      origin: () => origin,
    }),
    { prefix: sandboxPrefix },
  );
  app.register(
    environmentRoutes({
      store: stores.live,
      key: liveKey,
      foreignKeys: { sandbox: foreign.sandbox, 'sandbox (second account)': secondSandboxKey },
      origin: () => origin,
    }),
    { prefix: livePrefix },
  );

  return {
    app,
    sandboxKey,
    liveKey,
    secondSandboxKey,
    stores,
    setOrigin(value: string) {
      origin = value;
    },
  };
}
