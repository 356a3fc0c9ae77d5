/**
 * Contract mutants of the reference mock (the `mutant` mock option), and conforming variants.
 *
 * The catalogue is derived from specs/openapi.json and specs/rules.json (the other modules of this folder):
 * each mutant breaks one rule, each variant conforms while choosing differently where the
 * reference is silent. Each names its rule ids literally (or through a role of the operations
 * table), so that a search for a rule id finds every behaviour that uses it. One mechanism
 * serves them all: root-level Fastify hooks installed by installMutant, which rewrite requests
 * before authentication, before the handler, and answers before they are sent.
 *
 * `mutant: '<name>'` serves one behaviour for every request. `mutant: '@header'` lets each
 * request choose with the x-pcs-mutant header (no header: the reference): npm run mutation
 * uses it to run many mutants against one mock process.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OperationId } from '../../contract/operations.ts';
import type { MockStores } from '../store.ts';
import { documentedResponses } from './documented-responses.ts';
import type { Behaviour, Hooks, Mutant, RequestContext, Rewrite, Variant } from './behaviour-hooks.ts';
import { shapeMutants } from './shape-mutants.ts';
import { behaviourMutants } from './behaviour-mutants.ts';
import { conformingVariants } from './variants/index.ts';
import { boundaryMutants } from './boundary-mutants.ts';
import { securityMutants } from './security-mutants.ts';
import { clockMutants } from './clock-mutants.ts';
import { sendIntentMutants } from './send-intent-mutants.ts';
import { exactMoneyMutants } from './exact-money-mutants.ts';
import { deletionMutants } from './deletion-5xx-mutants.ts';

export type { Behaviour, LenientVariant, Mutant, Variant } from './behaviour-hooks.ts';
export { isLenient } from './behaviour-hooks.ts';

/** The mutant option value that selects the behaviour per request. */
export const perRequestMutant = '@header';
export const mutantHeader = 'x-pcs-mutant';

let catalogue: Behaviour[] | undefined;

/** Every mutant (equivalent ones included, marked) and every conforming variant. */
export function behaviours(): Behaviour[] {
  if (catalogue) return catalogue;
  const all = [
    ...shapeMutants(),
    ...behaviourMutants(),
    ...boundaryMutants(),
    ...securityMutants(),
    ...clockMutants(),
    ...sendIntentMutants(),
    ...exactMoneyMutants(),
    ...deletionMutants(),
    ...conformingVariants(),
  ];
  const seen = new Set<string>();
  for (const behaviour of all) {
    if (seen.has(behaviour.name)) throw new Error(`mock/mutants: duplicate behaviour name ${behaviour.name}`);
    seen.add(behaviour.name);
  }
  catalogue = all;
  return all;
}

export function mutants(): Mutant[] {
  return behaviours().filter((behaviour): behaviour is Mutant => behaviour.kind === 'mutant');
}

export function variants(): Variant[] {
  return behaviours().filter((behaviour): behaviour is Variant => behaviour.kind === 'variant');
}

export function findBehaviour(name: string): Behaviour | undefined {
  return behaviours().find((behaviour) => behaviour.name === name);
}

export class UnknownMutantError extends Error {
  override name = 'UnknownMutantError';
}

export interface MutantInstallOptions {
  keys: { sandbox: string; live: string; sandboxSecond: string };
  stores: MockStores;
}

interface Resolved {
  operation: OperationId;
  environment: 'sandbox' | 'live';
  hooks: Hooks;
}

/** Operations by "METHOD /route/:param" (Fastify's route syntax), from specs/openapi.json. */
function routeTable(): Map<string, OperationId> {
  return new Map(
    documentedResponses().map((response) => [
      `${response.method} ${response.path.replace(/\{(\w+)\}/g, ':$1')}`,
      response.operation,
    ]),
  );
}

function applies(behaviour: Behaviour, operation: OperationId): boolean {
  return behaviour.operations === 'all' || behaviour.operations.includes(operation);
}

function send(reply: FastifyReply, rewrite: Rewrite): FastifyReply {
  reply.code(rewrite.status ?? 200);
  if (rewrite.headers) reply.headers(rewrite.headers);
  if (rewrite.text !== undefined) {
    reply.header('content-type', rewrite.contentType ?? 'text/plain; charset=utf-8');
    return reply.send(rewrite.text);
  }
  reply.header('content-type', rewrite.contentType ?? 'application/json; charset=utf-8');
  return reply.send(JSON.stringify(rewrite.json ?? null));
}

/**
 * Installs the mutant switch on the mock's root (before the routes are registered, so that its
 * hooks run before the routes' authentication). Throws UnknownMutantError for an unknown name.
 */
export function installMutant(app: FastifyInstance, spec: string, options: MutantInstallOptions): void {
  const fixed = spec === perRequestMutant ? undefined : findBehaviour(spec);
  if (spec !== perRequestMutant && !fixed) {
    throw new UnknownMutantError(
      `unknown mutant "${spec.slice(0, 80)}" (list them with: npx tsx lab/mutation.ts --list)`,
    );
  }
  const routes = routeTable();
  // One instance of hooks per behaviour and mock: behaviours keep state (kept records, token aliases).
  const instances = new Map<string, Hooks>();
  const resolved = new WeakMap<FastifyRequest, Resolved>();

  const hooksFor = (behaviour: Behaviour): Hooks => {
    let hooks = instances.get(behaviour.name);
    if (!hooks) {
      hooks = behaviour.create();
      instances.set(behaviour.name, hooks);
    }
    return hooks;
  };

  // A request of the sandbox's second account (its key in the header) is seen with that account's store and key;
  // hooks that cross accounts (a server that ignores who owns what) find both in `accounts`.
  const secondAccount = (request: FastifyRequest): boolean =>
    request.headers.authorization?.includes(options.keys.sandboxSecond) === true;
  const accounts = {
    primary: { key: options.keys.sandbox, store: options.stores.sandbox },
    second: { key: options.keys.sandboxSecond, store: options.stores.sandboxSecond },
  };
  const context = (request: FastifyRequest, state: Resolved): RequestContext => {
    const own = state.environment === 'live' ? undefined : secondAccount(request) ? accounts.second : accounts.primary;
    return {
      operation: state.operation,
      environment: state.environment,
      request,
      store: own?.store ?? options.stores.live,
      keys: own
        ? { own: own.key, foreign: options.keys.live }
        : { own: options.keys.live, foreign: options.keys.sandbox },
      accounts,
    };
  };

  app.addHook('onRequest', async (request, reply) => {
    let behaviour = fixed;
    if (!behaviour) {
      const header = request.headers[mutantHeader];
      const name = Array.isArray(header) ? header[0] : header;
      if (name === undefined || name === '') return;
      behaviour = findBehaviour(name);
      if (!behaviour) {
        return reply
          .code(400)
          .send({ error: { status: 400, code: 'unknown_mutant', message: `unknown mutant "${name.slice(0, 80)}"` } });
      }
    }
    const url = request.routeOptions.url;
    if (url === undefined) return;
    const environment = url.startsWith('/live/') ? 'live' : 'sandbox';
    const operation = routes.get(`${request.method} ${url.replace(/^(\/live)?\/v1/, '')}`);
    if (operation === undefined || !applies(behaviour, operation)) return;
    const state: Resolved = { operation, environment, hooks: hooksFor(behaviour) };
    resolved.set(request, state);
    const rewrite = state.hooks.onRequest?.(context(request, state));
    if (rewrite) return send(reply, rewrite);
  });

  // A behaviour with a JSON parser of its own reads the body's text before the mock does: what it read goes on as JSON.
  app.addHook('preParsing', async (request, _reply, payload) => {
    const state = resolved.get(request);
    const read = state?.hooks.readBody;
    if (state === undefined || read === undefined) return payload;
    const chunks: Buffer[] = [];
    for await (const chunk of payload) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
    const raw = Buffer.concat(chunks);
    if (raw.length === 0) return Readable.from([raw]);
    const value = read(raw.toString('utf8'), context(request, state));
    const stream = Readable.from([value === undefined ? raw : Buffer.from(JSON.stringify(value) ?? 'null')]);
    // Fastify compares the bytes received with Content-Length: the original body's.
    return Object.assign(stream, { receivedEncodedLength: raw.length });
  });

  app.addHook('preHandler', async (request, reply) => {
    const state = resolved.get(request);
    const rewrite = await state?.hooks.preHandler?.(context(request, state));
    if (rewrite) return send(reply, rewrite);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const state = resolved.get(request);
    if (!state?.hooks.onSend) return payload;
    const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
    const header = reply.getHeader('content-type');
    const contentType = typeof header === 'string' ? header : undefined;
    let json: unknown;
    if (contentType?.includes('json') && text !== '') {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    const rewrite = state.hooks.onSend({
      ...context(request, state),
      status: reply.statusCode,
      contentType,
      text,
      json,
    });
    if (!rewrite) return payload;
    if (rewrite.headers) reply.headers(rewrite.headers);
    if (rewrite.status !== undefined) reply.code(rewrite.status);
    if (rewrite.contentType === null) reply.removeHeader('content-type');
    else if (rewrite.contentType !== undefined) reply.header('content-type', rewrite.contentType);
    if (rewrite.text !== undefined) return rewrite.text;
    if (rewrite.json !== undefined) {
      if (contentType === undefined && rewrite.contentType === undefined)
        reply.header('content-type', 'application/json; charset=utf-8');
      return JSON.stringify(rewrite.json);
    }
    return payload;
  });
}
