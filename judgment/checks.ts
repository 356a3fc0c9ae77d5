/**
 * Checks as data: each returns the violations it finds in an exchange (an empty list
 * means the check passes). Tests pair them with a rule id through expectRule, which
 * turns violations into a message naming the rule, the operation, the request, the
 * location (status, header or JSON pointer), the expected and the actual value.
 */
import { validateInLayer, type SchemaName } from '../contract/schemas.ts';
import type { SchemaLayer } from '../contract/json-schema.ts';
import { describeValue, jsonType, valueAtPointer } from '../contract/json-pointer.ts';
import type { Exchange } from '../http/exchange.ts';
import { timed } from '../http/request-costs.ts';

export interface Violation {
  /** 'status', 'header <name>', or 'body <JSON pointer>'. */
  location: string;
  expected: string;
  actual: string;
  /**
   * What kind of failure it is, when the location alone does not say: 'schema' for a body that does not
   * have the documented shape (the check that found it sets it). Read through violationType.
   */
  type?: 'schema';
  /** The JSON type of the value found at the location, when the check knows it (the causes of reports group by it). */
  actualType?: string;
  /** The rule whose check found the violation, when the record is another rule's (an input's accepted answer). */
  by?: string;
  /** The field of the request a status violation answered (an input of a known class sets it). */
  subject?: string;
}

/** The kinds of failure a violation can be (the failure categories of the reports are made from them). */
export type ViolationType = 'status' | 'schema' | 'value' | 'content-type' | 'header';

/** The kind of a violation: the one its check set, else the part of the answer its location names. */
export function violationType(violation: Violation): ViolationType {
  if (violation.type !== undefined) return violation.type;
  if (violation.location === 'status') return 'status';
  if (violation.location === 'header content-type') return 'content-type';
  return violation.location.startsWith('header ') ? 'header' : 'value';
}

export const isSuccess = (status: number): boolean => status >= 200 && status < 300;
export const isClientError = (status: number): boolean => status >= 400 && status < 500;

export function statusIs(exchange: Exchange, expected: number): Violation[] {
  return exchange.status === expected
    ? []
    : [{ location: 'status', expected: String(expected), actual: String(exchange.status) }];
}

export function statusIsSuccess(exchange: Exchange): Violation[] {
  return isSuccess(exchange.status)
    ? []
    : [{ location: 'status', expected: 'a 2xx status', actual: String(exchange.status) }];
}

export function statusIsClientError(exchange: Exchange): Violation[] {
  return isClientError(exchange.status)
    ? []
    : [{ location: 'status', expected: 'a 4xx status', actual: String(exchange.status) }];
}

export function statusIsNotServerError(exchange: Exchange): Violation[] {
  return exchange.status < 500
    ? []
    : [{ location: 'status', expected: 'a status below 500', actual: String(exchange.status) }];
}

export function statusIsNotSuccess(exchange: Exchange): Violation[] {
  return isSuccess(exchange.status)
    ? [
        {
          location: 'status',
          expected: 'a status that is not 2xx (the request is invalid)',
          actual: String(exchange.status),
        },
      ]
    : [];
}

/** application/json, with or without parameters (charset); media types are case-insensitive. */
export function contentTypeIsJson(exchange: Exchange): Violation[] {
  const value = exchange.responseHeaders['content-type'];
  const media = value?.split(';')[0]?.trim().toLowerCase();
  return media === 'application/json'
    ? []
    : [
        {
          location: 'header content-type',
          expected: 'application/json',
          actual: value === undefined ? 'absent' : JSON.stringify(value),
        },
      ];
}

export function bodyIsJson(exchange: Exchange): Violation[] {
  return exchange.jsonError === undefined
    ? []
    : [{ location: 'body', expected: 'a JSON body', actual: exchange.jsonError, type: 'schema' }];
}

export function bodyIsEmpty(exchange: Exchange): Violation[] {
  return exchange.bodyText === ''
    ? []
    : [
        {
          location: 'body',
          expected: 'no body',
          actual: describeValue(exchange.bodyText.slice(0, 200)),
          type: 'schema',
        },
      ];
}

/**
 * The JSON body validates against a schema of schemas/ (the body must be JSON first), as the
 * reference makes it valid or, with layer 'strict', as --strict reads it.
 */
export function bodyMatchesSchema(
  exchange: Exchange,
  schema: SchemaName,
  layer: Extract<SchemaLayer, 'reference' | 'strict'> = 'reference',
): Violation[] {
  const notJson = bodyIsJson(exchange);
  if (notJson.length > 0) return notJson;
  return timed('validation', () => validateInLayer(layer, schema, exchange.json)).map((violation) => ({
    location: `body ${violation.pointer === '' ? '/' : violation.pointer}`,
    expected: `${violation.expected} (schema ${schema})`,
    actual: violation.actual,
    actualType: violation.actualType,
    type: 'schema' as const,
  }));
}

/** The value at a JSON pointer of the body equals the expected value (strictly, same JSON type). */
export function bodyValueEquals(exchange: Pick<Exchange, 'json'>, pointer: string, expected: unknown): Violation[] {
  const actual = valueAtPointer(exchange.json, pointer);
  return Object.is(actual, expected) || JSON.stringify(actual) === JSON.stringify(expected)
    ? []
    : [
        {
          location: `body ${pointer}`,
          expected: describeValue(expected),
          actual: describeValue(actual),
          actualType: jsonType(actual),
        },
      ];
}
