/**
 * How the suite's clients (suite/api-client.ts for example tests, http/fast-client.ts for
 * generated ones) turn an operation call into a request: the path filled in, the
 * Authorization header as asked, and the body serialised or sent raw.
 */
import { operation, operationPath, type Operation, type OperationId } from '../contract/operations.ts';
import { exactText, stringifyJson } from '../contract/big-integers.ts';
import { parseJsonBody, type Exchange } from './exchange.ts';
import { redact, redactHeaders } from '../settings/secrets.ts';
import type { IncomingResponse } from './transport.ts';
import { timed } from './request-costs.ts';

/**
 * How the request authenticates: with the target's key (default), without a header, or with a given header value
 * (`replayAs`: the variable a replay reads that credential from, when it is a configured key such as the second
 * account's; otherwise a replay shows the header masked, never the valid key in its place).
 */
export type Auth = { kind: 'key' } | { kind: 'none' } | { kind: 'header'; value: string; replayAs?: string };

export interface RequestOptions {
  params?: Record<string, string | number>;
  /** A JSON value to send, serialised by the client. */
  body?: unknown;
  /** A body sent exactly as given (malformed JSON). */
  rawBody?: string;
  /** Content-Type of rawBody, or of body to declare a wrong one; JSON bodies default to application/json. */
  contentType?: string;
  auth?: Auth;
  /** The Accept header: application/json when not given; null sends none (requests in other common forms). */
  accept?: string | null;
  /** Appended to the path as sent: a query string, a trailing slash (requests in other common forms). */
  pathSuffix?: string;
  /** Path parameters written into the path as given, not percent-encoded (an id followed by `;` or `%00`). */
  rawParams?: boolean;
}

export interface BuiltRequest {
  op: Operation;
  /** Path relative to the base address, e.g. /transactions/12/token. */
  path: string;
  url: string;
  headers: Record<string, string>;
  data: string | undefined;
  /**
   * The variable a replay reads the credential from: undefined for the configured key (the user's variable),
   * another name for another configured key, null for a credential that is no configured key.
   */
  keyVariable?: string | null;
}

export function buildRequest(
  operationId: OperationId,
  options: RequestOptions,
  baseUrl: string,
  secretKey: string,
): BuiltRequest {
  const op = operation(operationId);
  // Ids beyond 2^53 travel as stand-ins inside the suite (contract/big-integers.ts): back to their digits on the wire.
  const params =
    options.params &&
    Object.fromEntries(Object.entries(options.params).map(([name, value]) => [name, exactText(value)]));
  const path = operationPath(operationId, params, options.rawParams !== true) + (options.pathSuffix ?? '');
  const headers: Record<string, string> = {};
  if (options.accept !== null) headers.accept = options.accept ?? 'application/json';
  const auth = options.auth ?? { kind: 'key' };
  if (auth.kind === 'key') headers.authorization = `Bearer ${secretKey}`;
  if (auth.kind === 'header') headers.authorization = auth.value;
  const keyVariable =
    auth.kind !== 'header' || auth.value === `Bearer ${secretKey}` ? undefined : (auth.replayAs ?? null);
  let data: string | undefined;
  if (options.rawBody !== undefined) {
    data = options.rawBody;
    if (options.contentType !== undefined) headers['content-type'] = options.contentType;
  } else if (options.body !== undefined) {
    data = stringifyJson(options.body);
    headers['content-type'] = options.contentType ?? 'application/json';
  }
  return { op, path, url: baseUrl + path, headers, data, ...(keyVariable === undefined ? {} : { keyVariable }) };
}

/** The exchange as the suite records it: secrets masked, the body parsed as JSON when it is JSON. */
export function exchangeOf(
  operationId: OperationId,
  request: BuiltRequest,
  response: IncomingResponse,
  startedMs: number,
): Exchange {
  const durationMs = Math.round(performance.now() - startedMs);
  const bodyText = response.body.toString('utf8');
  const parsed = timed('parse', () => parseJsonBody(bodyText));
  return timed('mask', () => ({
    operation: operationId,
    method: request.op.method,
    path: request.path,
    url: request.url,
    requestHeaders: redactHeaders(request.headers),
    requestBody: request.data === undefined ? undefined : redact(request.data),
    status: response.status,
    responseHeaders: redactHeaders(response.headers),
    bodyText: redact(bodyText),
    ...parsed,
    durationMs,
    receivedAt: Date.now(),
    ...(request.keyVariable === undefined ? {} : { keyVariable: request.keyVariable }),
  }));
}
