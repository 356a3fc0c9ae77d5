/**
 * What a client sent outside the reference: a method and path it does not define (POST /v1/mtn where
 * it defines POST /transactions/{mode}; customer creation, which it does not show), no
 * `Authorization: Bearer <key>`, a body that is not the documented shape (the creation body's types,
 * the send's token as a string or an integer, the send's phone number as an international-style
 * string and an upper-case two-letter country), a JSON body not declared as application/json, a body
 * that is not JSON. Such a request tells an SDK maintainer that the SDK, not the server, is off the
 * reference: it is reported under its own heading, and never counts as the server's non-conformance
 * (unless --fail-on-client).
 *
 * One request off the reference is one finding, with every departure it shows (a departure two
 * layers of the schemas both see is said once), whichever path (the proxy, a HAR) brought it.
 */
import { parseJson } from '../contract/big-integers.ts';
import { operations, type OperationId } from '../contract/operations.ts';
import { validateFieldInLayer, validateInLayer, type SchemaName } from '../contract/schemas.ts';
import type { Violation } from '../judgment/checks.ts';
import type { ExchangeRef } from '../judgment/verdict-record.ts';
import { headerValue, type TrafficExchange } from './traffic-exchange.ts';
import { basePathOf, relativePath } from './traffic-routes.ts';

export interface ClientFinding {
  exchange: ExchangeRef;
  /** Every part of the request that is off the reference, each with what the reference shows and what was sent. */
  violations: Violation[];
  source: TrafficExchange['source'];
  /** Set when the request is to a method and path the reference does not define: the whole request is off it. */
  outside?: true;
}

/** The operation name an exchange outside the reference is listed under. */
export const outsideOperation = 'outside the reference';

/** The operations the reference defines, as a client reads them. */
const definedRequests = operations
  .filter((operation) => !operation.undocumented)
  .map((operation) => `${operation.method} ${operation.path}`)
  .join(', ');

const bodies: Partial<Record<OperationId, SchemaName>> = {
  createTransaction: 'create-transaction-body',
  sendTransaction: 'send-transaction-body',
};

/**
 * The request's departures from the reference, as violations (location, what it shows, what was sent), each place
 * once. `credentialsRecorded` false: the traffic was recorded without its Authorization headers (a browser's
 * sanitized HAR), so their absence says nothing of the client.
 */
export function requestViolations(
  traffic: TrafficExchange,
  operation: OperationId,
  credentialsRecorded = true,
): Violation[] {
  const found: Violation[] = [];
  // The reference layer and the strict one may both see a value of another type: one place, one departure.
  for (const violation of departures(traffic, operation, credentialsRecorded))
    if (!found.some((kept) => kept.location === violation.location)) found.push(violation);
  return found;
}

/**
 * The client finding of a request of an operation of the reference, if it departs from it: one for the request,
 * with all its departures. A request body not kept whole is judged by its headers only.
 */
export function clientFindingsOf(
  traffic: TrafficExchange,
  operation: OperationId,
  exchange: ExchangeRef,
  credentialsRecorded: boolean,
): ClientFinding[] {
  const violations = requestViolations(traffic, operation, credentialsRecorded).filter(
    (violation) => traffic.requestIncomplete === undefined || violation.location.startsWith('header '),
  );
  return violations.length === 0 ? [] : [{ exchange, violations, source: traffic.source }];
}

/**
 * The client finding of a request addressed to the API (under its base path) with a method and path the reference
 * does not define, or of an operation it does not show (customer creation): none for a request that is not to the
 * API at all (a page, a script, another service in a browser's recording).
 */
export function outsideFindings(traffic: TrafficExchange, basePath: string | undefined, why: string): ClientFinding[] {
  const base = basePath ?? basePathOf(traffic.url);
  const relative = base === undefined ? undefined : relativePath(traffic.url, base);
  if (relative === undefined) return [];
  const path = new URL(traffic.url).pathname;
  return [
    {
      exchange: { operation: outsideOperation, method: traffic.method, path, status: traffic.status },
      violations: [
        {
          location: 'method and path',
          expected: `an operation the reference defines (${definedRequests})`,
          actual: `${traffic.method} ${relative.path}: ${why}`,
        },
      ],
      source: traffic.source,
      outside: true,
    },
  ];
}

function departures(traffic: TrafficExchange, operation: OperationId, credentialsRecorded: boolean): Violation[] {
  const found: Violation[] = [];
  const authorization = headerValue(traffic.requestHeaders, 'authorization');
  if (authorization === undefined) {
    if (credentialsRecorded)
      found.push({ location: 'header authorization', expected: 'Bearer <secret key>', actual: 'absent' });
  } else if (!/^bearer\s+\S+$/i.test(authorization.trim())) {
    const [scheme = '', ...rest] = authorization.trim().split(/\s+/);
    found.push({
      location: 'header authorization',
      expected: 'Bearer <secret key>',
      actual: rest.length === 0 ? 'a credential without a scheme' : `the scheme ${JSON.stringify(scheme)}`,
    });
  }
  const schema = bodies[operation];
  if (schema === undefined || traffic.requestBody === undefined || traffic.requestBody.trim() === '') {
    if (schema !== undefined)
      found.push({ location: 'body', expected: 'a JSON object (the documented body)', actual: 'no body' });
    return found;
  }
  const contentType = headerValue(traffic.requestHeaders, 'content-type');
  if (contentType?.split(';')[0]?.trim().toLowerCase() !== 'application/json')
    found.push({
      location: 'header content-type',
      expected: 'application/json (JSON bodies use Content-Type application/json)',
      actual: contentType === undefined ? 'absent' : JSON.stringify(contentType),
    });
  let body: unknown;
  try {
    body = parseJson(traffic.requestBody);
  } catch (error) {
    found.push({ location: 'body', expected: 'JSON', actual: `not JSON (${(error as Error).message})` });
    return found;
  }
  for (const violation of validateInLayer('reference', schema, body))
    found.push({
      location: `body ${violation.pointer || '/'}`,
      expected: violation.expected,
      actual: violation.actual,
      actualType: violation.actualType,
    });
  // The send's phone number: the reference describes its forms (an international-style string, an upper-case
  // two-letter country); a client that follows the reference sends them so.
  const phone = (body as { phone_number?: unknown } | null)?.phone_number;
  if (operation === 'sendTransaction' && phone !== undefined && phone !== null && typeof phone === 'object') {
    for (const violation of validateFieldInLayer('strict', schema, '/phone_number', phone))
      found.push({
        location: `body /phone_number${violation.pointer}`,
        expected: violation.expected,
        actual: violation.actual,
      });
  }
  return found;
}
