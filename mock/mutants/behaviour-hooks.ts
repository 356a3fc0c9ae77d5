/**
 * The one mechanism behind every mutant and conforming variant: three hook points of the
 * mock (before authentication, before the handler, before sending) at which a behaviour may
 * rewrite the request or the answer. Behaviours are data plus a factory of hooks, so each
 * mock gets fresh per-behaviour state (remembered ids, token maps).
 */
import type { FastifyRequest } from 'fastify';
import type { OperationId } from '../../contract/operations.ts';
import { rule } from '../../contract/rules.ts';
import type { EnvironmentStore } from '../store.ts';

export interface RequestContext {
  operation: OperationId;
  environment: 'sandbox' | 'live';
  request: FastifyRequest;
  store: EnvironmentStore;
  /** The key of this environment and the key of the other one. */
  keys: { own: string; foreign: string };
  /** The sandbox's two accounts, for behaviours that cross them (a server that ignores who owns what). */
  accounts: Record<'primary' | 'second', { key: string; store: EnvironmentStore }>;
}

export interface ResponseContext extends RequestContext {
  status: number;
  /** The Content-Type about to be sent, if any. */
  contentType: string | undefined;
  /** The body about to be sent, as text ('' for none). */
  text: string;
  /** The body parsed as JSON when it is JSON; undefined otherwise. */
  json: unknown;
}

/** A replacement answer, or parts of one; fields left out keep the original. */
export interface Rewrite {
  status?: number;
  /** null removes the header. */
  contentType?: string | null;
  /** A JSON value to send (serialised here). */
  json?: unknown;
  /** A body sent as is (takes precedence over json). */
  text?: string;
  /** Extra response headers (Connection: close, Retry-After). */
  headers?: Record<string, string>;
}

export interface Hooks {
  /**
   * The request body's text as this behaviour's JSON parser reads it (a parser that reads more than JSON, or less):
   * the value it reads, handed on to the mock as JSON; undefined, the mock's own parser reads the text. A thrown
   * error with a status (mock/validation.ts BadRequest) refuses the request.
   */
  readBody?(text: string, context: RequestContext): unknown;
  /**
   * Before authentication and body parsing: may change request headers, or answer at once
   * (a server that looks a resource up before it checks the key).
   */
  onRequest?(context: RequestContext): Rewrite | void;
  /**
   * After parsing, before the handler: may change request.body / request.params, or answer at
   * once. A promise pauses the request (as a real server's storage call would), so that requests
   * sent together overlap.
   */
  preHandler?(context: RequestContext): Rewrite | void | Promise<Rewrite | void>;
  /** The answer about to be sent (success or error): may replace status, content type or body. */
  onSend?(context: ResponseContext): Rewrite | void;
}

export type BehaviourKind = 'mutant' | 'variant';

/** What every mutant and variant has: a name, the operations it touches and the hooks it installs. */
interface BehaviourBase {
  /** Stable name: passed as the mock's mutant option or in the x-pcs-mutant header. */
  name: string;
  /** The operator family it comes from (drop-field, type-change, reshape, status, auth, ...). */
  operator: string;
  /** Operations whose requests it touches; 'all' for every one. */
  operations: OperationId[] | 'all';
  description: string;
  create(): Hooks;
}

/** A behaviour that breaks one rule. */
export interface Mutant extends BehaviourBase {
  kind: 'mutant';
  /**
   * The rule of specs/rules.json it breaks, named literally in its declaration (or taken from a
   * role of the operations table, contract/operations.ts), never found by the rule's wording.
   */
  rule: string;
  /** Mutants no request can observe: why (such mutants are listed and not counted). */
  equivalent?: string;
}

/** A behaviour that conforms while choosing differently where the reference is silent. */
export interface Variant extends BehaviourBase {
  kind: 'variant';
  /** The rules of specs/rules.json whose verdict its choice tests, named literally in its declaration. */
  rules: string[];
  /** The rows of specs/gaps.json where it chooses differently from the reference mock. */
  gaps: string[];
  /**
   * Lenient variants: they conform in the default mode (the reference leaves the input open),
   * and --strict must fail them, naming this rule of specs/rules.json (one of `rules`).
   */
  strictKills?: string;
}

export type Behaviour = Mutant | Variant;

/** A lenient variant: --strict must fail it under its strictKills rule. */
export type LenientVariant = Variant & { strictKills: string };

export const isLenient = (variant: Variant): variant is LenientVariant => variant.strictKills !== undefined;

export function errorJson(
  status: number,
  code: string,
  message: string,
): { error: { status: number; code: string; message: string } } {
  return { error: { status, code, message } };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The objects of a documented body: the body itself, or each element of an array body. */
export function bodyObjects(json: unknown): Record<string, unknown>[] {
  if (Array.isArray(json)) return json.filter(isObject);
  return isObject(json) ? [json] : [];
}

export const isSuccess = (status: number): boolean => status >= 200 && status < 300;

/** A plausible payment intent, for mutants that answer a send they should have refused. */
export function syntheticIntent(amount: number, mode: string): Record<string, unknown> {
  const stamp = new Date().toISOString();
  return {
    reference: 'pi_mutant000000',
    amount,
    status: 'pending',
    currency_id: 1,
    mode,
    last_error_code: null,
    created_at: stamp,
    updated_at: stamp,
    approved_at: null,
    canceled_at: null,
    deleted_at: null,
    payment_method_id: 1,
    transaction_key: '0'.repeat(32),
    account_id: 1,
  };
}

/** A mutant that breaks one rule, named literally (an unknown id throws when the catalogue is built). */
export function mutant(
  name: string,
  operator: string,
  operations: OperationId[] | 'all',
  ruleId: string,
  description: string,
  create: () => Hooks,
): Mutant {
  rule(ruleId);
  return { name, kind: 'mutant', operator, operations, rule: ruleId, description, create };
}

/** The sandbox account that is not the caller's (its store), or undefined for the live environment. */
export function otherAccountStore(c: RequestContext): EnvironmentStore | undefined {
  if (c.environment !== 'sandbox') return undefined;
  return c.store === c.accounts.primary.store ? c.accounts.second.store : c.accounts.primary.store;
}
