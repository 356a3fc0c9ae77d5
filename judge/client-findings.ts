/**
 * What a client sent outside the reference's request shapes: no `Authorization: Bearer <key>`, a
 * body that is not the documented shape (the creation body's types, the send's token as a string
 * or an integer, the send's phone number as an international-style string and an upper-case
 * two-letter country), a JSON body not declared as application/json, a body that is not JSON.
 * Such a request tells an SDK maintainer that the SDK, not the server, is off the reference: it is
 * reported under its own heading, and never counts as the server's non-conformance (unless
 * --fail-on-client).
 */
import { parseJson } from '../contract/big-integers.ts';
import type { OperationId } from '../contract/operations.ts';
import { validateFieldInLayer, validateInLayer, type SchemaName } from '../contract/schemas.ts';
import type { Violation } from '../judgment/checks.ts';
import type { ExchangeRef } from '../judgment/verdict-record.ts';
import { headerValue, type TrafficExchange } from './traffic-exchange.ts';

export interface ClientFinding {
  exchange: ExchangeRef;
  /** The part of the request that is off the reference, with what the reference shows and what was sent. */
  violation: Violation;
  source: TrafficExchange['source'];
}

const bodies: Partial<Record<OperationId, SchemaName>> = {
  createTransaction: 'create-transaction-body',
  sendTransaction: 'send-transaction-body',
};

/** The request's departures from the reference, as violations (location, what it shows, what was sent). */
export function requestViolations(traffic: TrafficExchange, operation: OperationId): Violation[] {
  const found: Violation[] = [];
  const authorization = headerValue(traffic.requestHeaders, 'authorization');
  if (authorization === undefined)
    found.push({ location: 'header authorization', expected: 'Bearer <secret key>', actual: 'absent' });
  else if (!/^bearer\s+\S+$/i.test(authorization.trim())) {
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
