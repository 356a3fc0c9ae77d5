/**
 * Checks as data: each returns the violations it finds in an exchange (an empty list
 * means the check passes). Tests pair them with a rule id through expectRule, which
 * turns violations into a message naming the rule, the operation, the request, the
 * location (status, header or JSON pointer), the expected and the actual value.
 */
import { isDateTime, validateInLayer, type SchemaName } from '../../contract/schemas.ts';
import type { SchemaLayer } from '../../contract/json-schema.ts';
import { describeValue, escapePointerToken, valueAtPointer } from '../../contract/json-pointer.ts';
import type { Exchange } from '../http/exchange.ts';
import { timed } from '../reporting/request-costs.ts';

export interface Violation {
  /** 'status', 'header <name>', or 'body <JSON pointer>'. */
  location: string;
  expected: string;
  actual: string;
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
    : [{ location: 'body', expected: 'a JSON body', actual: exchange.jsonError }];
}

export function bodyIsEmpty(exchange: Exchange): Violation[] {
  return exchange.bodyText === ''
    ? []
    : [{ location: 'body', expected: 'no body', actual: describeValue(exchange.bodyText.slice(0, 200)) }];
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
  }));
}

/** The value at a JSON pointer of the body equals the expected value (strictly, same JSON type). */
export function bodyValueEquals(exchange: Exchange, pointer: string, expected: unknown): Violation[] {
  const actual = valueAtPointer(exchange.json, pointer);
  return Object.is(actual, expected) || JSON.stringify(actual) === JSON.stringify(expected)
    ? []
    : [{ location: `body ${pointer}`, expected: describeValue(expected), actual: describeValue(actual) }];
}

/**
 * The value at a JSON pointer is an absolute URL: a scheme followed by what a URL parser
 * accepts. Any scheme passes (https, http, or an app's deep link such as momo://): the
 * reference says only that it is the payment link; a relative path is not a link.
 */
export function bodyValueIsAbsoluteUrl(exchange: Exchange, pointer: string): Violation[] {
  const value = valueAtPointer(exchange.json, pointer);
  let absolute = false;
  if (typeof value === 'string' && /^[A-Za-z][A-Za-z0-9+.-]*:/.test(value)) {
    try {
      absolute = new URL(value).href.length > 0;
    } catch {
      absolute = false;
    }
  }
  return absolute
    ? []
    : [{ location: `body ${pointer}`, expected: 'an absolute URL (scheme and address)', actual: describeValue(value) }];
}

/** The value at a JSON pointer is a JSON string (the link operation's token, whatever the send shape says). */
export function bodyValueIsString(exchange: Exchange, pointer: string): Violation[] {
  const value = valueAtPointer(exchange.json, pointer);
  return typeof value === 'string'
    ? []
    : [{ location: `body ${pointer}`, expected: 'a JSON string', actual: describeValue(value) }];
}

/** Every element of a JSON array body holds `expected` at its member `key` (e.g. every intent's amount). */
export function eachElementValueEquals(exchange: Exchange, key: string, expected: unknown): Violation[] {
  const elements = Array.isArray(exchange.json) ? exchange.json : [];
  return elements.flatMap((_element, index) =>
    bodyValueEquals(exchange, `/${index}/${escapePointerToken(key)}`, expected),
  );
}

/**
 * The timestamp each intent status says is set (reference: States
 * and transitions). Status names compare case-insensitively.
 */
export const eventTimestamps: Readonly<Record<string, string>> = {
  sent: 'approved_at',
  failed: 'canceled_at',
  deleted: 'deleted_at',
};

/**
 * Every payment intent of an array body whose status says its event happened carries that
 * event's timestamp as a date-time (SEND-INTENT-EVENT-TIMESTAMPS). Intents in other statuses
 * (pending, scheduled, ...) are not constrained: their event fields may be absent or null.
 */
export function intentEventTimestamps(exchange: Exchange): Violation[] {
  const elements = Array.isArray(exchange.json) ? exchange.json : [];
  const violations: Violation[] = [];
  elements.forEach((element, index) => {
    if (element === null || typeof element !== 'object') return;
    const intent = element as Record<string, unknown>;
    const status = typeof intent.status === 'string' ? intent.status.trim().toLowerCase() : undefined;
    const field = status === undefined ? undefined : eventTimestamps[status];
    if (field === undefined || isDateTime(intent[field])) return;
    violations.push({
      location: `body /${index}/${field}`,
      expected: `a date-time (the intent's status is "${String(intent.status)}": the reference sets ${field} then)`,
      actual: describeValue(intent[field]),
    });
  });
  return violations;
}

/** How many intents of an array body are in a status whose event the reference ties to a timestamp. */
export function intentsWithEvents(exchange: Exchange): number {
  const elements = Array.isArray(exchange.json) ? exchange.json : [];
  return elements.filter((element) => {
    const status = (element as { status?: unknown } | null)?.status;
    return typeof status === 'string' && eventTimestamps[status.trim().toLowerCase()] !== undefined;
  }).length;
}

/**
 * Visits every object of a JSON value, depth first, with its JSON pointer; when `visit` returns false, the
 * object's members are not visited.
 */
function visitObjects(
  value: unknown,
  visit: (object: Record<string, unknown>, pointer: string) => boolean | undefined,
  pointer = '',
): void {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) visitObjects(item, visit, `${pointer}/${index}`);
  } else if (typeof value === 'object' && value !== null) {
    const object = value as Record<string, unknown>;
    if (visit(object, pointer) === false) return;
    for (const [key, item] of Object.entries(object))
      visitObjects(item, visit, `${pointer}/${escapePointerToken(key)}`);
  }
}

/** ACCOUNT-DATA-OWN: no `account_id` anywhere in the body is another account's. */
export function accountIdIsNot(exchange: Pick<Exchange, 'json'>, otherAccountId: unknown): Violation[] {
  const violations: Violation[] = [];
  visitObjects(exchange.json, (object, pointer) => {
    if ('account_id' in object && JSON.stringify(object.account_id) === JSON.stringify(otherAccountId))
      violations.push({
        location: `body ${pointer}/account_id`,
        expected: "the caller's account_id (not another account's)",
        actual: `${describeValue(object.account_id)}, the other account's`,
      });
    return undefined;
  });
  return violations;
}

/**
 * AUTH-REFUSED-NO-EFFECT: a refused answer holds none of the resource's data: no object in it
 * carries two or more of the resource's fields with the resource's values (`resource`, as its
 * owner reads it).
 */
export function disclosesNothingOf(exchange: Pick<Exchange, 'json'>, resource: Record<string, unknown>): Violation[] {
  const fields = Object.entries(resource).filter(([, value]) => value !== null && value !== '' && value !== undefined);
  const violations: Violation[] = [];
  visitObjects(exchange.json, (object, pointer) => {
    const same = fields.filter(([key, item]) => key in object && JSON.stringify(object[key]) === JSON.stringify(item));
    if (same.length < 2) return undefined;
    violations.push({
      location: `body ${pointer || '/'}`,
      expected: "none of the resource's data in a refused answer",
      actual: `its ${same.map(([key]) => key).join(', ')}`,
    });
    return false;
  });
  return violations;
}

/**
 * SEND-INTENT-MODE: every payment intent of a send carries the mode of the path it was sent through
 * (compared without regard to letter case: a server may store mode names in one case).
 */
export function intentModeIsPathMode(exchange: Pick<Exchange, 'json' | 'path'>): Violation[] {
  const segment = exchange.path.split('?')[0]!.split('/').filter(Boolean).pop() ?? '';
  let mode: string;
  try {
    mode = decodeURIComponent(segment);
  } catch {
    return [];
  }
  const elements = Array.isArray(exchange.json) ? exchange.json : [];
  return elements.flatMap((element, index): Violation[] => {
    const actual = (element as Record<string, unknown> | null)?.mode;
    return typeof actual === 'string' && actual.toLowerCase() === mode.toLowerCase()
      ? []
      : [
          {
            location: `body /${index}/mode`,
            expected: `${describeValue(mode)}, the mode of the path`,
            actual: describeValue(actual),
          },
        ];
  });
}
