/**
 * The reference mock as a Fastify application: the sandbox environment under /v1 and the
 * live environment under /live/v1, each with its own key and its own in-memory data.
 * Every error is JSON with a 4xx status and one clear message; a 5xx would be a bug.
 */
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { EnvironmentStore, defaultStoreCap } from './store.ts';
import { environmentRoutes } from './routes.ts';
import { BadRequest } from './validation.ts';
import { mockVersion, mockVersionHeader } from './version.ts';
import { installFaults } from './faults.ts';
import { installMutant } from './mutants.ts';

export const sandboxPrefix = '/v1';
export const livePrefix = '/live/v1';
export const defaultSandboxKey = 'sk_sandbox_collect_conformance_mock_0001';
export const defaultLiveKey = 'sk_live_collect_conformance_mock_0001';
/** Bodies above this size are refused with 413. */
export const defaultBodyLimit = 64 * 1024;

export interface MockOptions {
  sandboxKey?: string;
  liveKey?: string;
  /** Records kept per collection and environment before the oldest is evicted. */
  storeCap?: number;
  bodyLimit?: number;
  /** Log requests to stdout (pino); off by default. */
  logger?: boolean;
  /**
   * Name of a contract mutant to serve instead of the reference behaviour (mock/mutants.ts;
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
  stores: { sandbox: EnvironmentStore; live: EnvironmentStore };
  /** Set once the listening address is known; payment links are built on it. */
  setOrigin(origin: string): void;
}

function errorBody(status: number, code: string, message: string) {
  return { error: { status, code, message } };
}

export function buildMockApp(options: MockOptions = {}): MockApp {
  const sandboxKey = options.sandboxKey ?? defaultSandboxKey;
  const liveKey = options.liveKey ?? defaultLiveKey;
  const cap = options.storeCap ?? defaultStoreCap;
  const stores = { sandbox: new EnvironmentStore('sandbox', cap), live: new EnvironmentStore('live', cap) };
  let origin = 'http://127.0.0.1';

  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: options.bodyLimit ?? defaultBodyLimit,
    // Never trust routing on odd input: unknown characters in paths are 404s, not 500s.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  });
  // Injected transport faults (tests of the suite's transport); before the routes, so before authentication.
  if (options.faults) installFaults(app, options.faults);
  // Contract mutants and conforming variants (npm run mutation); before the routes, so their hooks run first.
  if (options.mutant) installMutant(app, options.mutant, { keys: { sandbox: sandboxKey, live: liveKey }, stores });

  // JSON bodies: an empty body is "no body" (the token operation has none, and some clients
  // still send Content-Type: application/json); anything else goes to Fastify's safe parser.
  const defaultJsonParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    defaultJsonParser(request, text, done);
  });

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header(mockVersionHeader, mockVersion);
    return payload;
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

  app.setNotFoundHandler(async (request, reply) =>
    reply
      .code(404)
      .send(errorBody(404, 'not_found', `no base address here: use ${sandboxPrefix} (sandbox) or ${livePrefix} (live)`)),
  );

  const foreign = { sandbox: sandboxKey, live: liveKey };
  app.register(
    environmentRoutes({ store: stores.sandbox, key: sandboxKey, foreignKeys: { live: foreign.live }, origin: () => origin }),
    { prefix: sandboxPrefix },
  );
  app.register(
    environmentRoutes({ store: stores.live, key: liveKey, foreignKeys: { sandbox: foreign.sandbox }, origin: () => origin }),
    { prefix: livePrefix },
  );

  return {
    app,
    sandboxKey,
    liveKey,
    stores,
    setOrigin(value: string) {
      origin = value;
    },
  };
}
