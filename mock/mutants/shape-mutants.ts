/**
 * Mutants of response shapes, generated from the documented responses of specs/openapi.json:
 * each documented field dropped, each field's type changed (by its documented type), and the
 * whole body reshaped. Nothing here names a field: adding one to a schema adds its mutants.
 * They break the operation's shape rule (the `shape` role of contract/operations.ts) unless a
 * table below names another rule for the field or the reshape.
 */
import { operationRules, type OperationId } from '../../contract/operations.ts';
import { rule } from '../../contract/rules.ts';
import {
  documentedResponses,
  type DocumentedField,
  type DocumentedResponse,
  type FieldType,
} from './documented-responses.ts';
import { bodyObjects, isSuccess, type Mutant } from './behaviour-hooks.ts';

interface TypeChange {
  /** Name suffix of the mutant. */
  name: string;
  description: string;
  change(value: unknown): unknown;
}

const otherDateFormat = (value: unknown): string => {
  const date = typeof value === 'string' ? new Date(value) : new Date();
  const pad = (n: number): string => String(n).padStart(2, '0');
  // Day first, slashes, no zone: a common non-ISO rendering of the same instant.
  return (
    `${pad(date.getUTCDate())}/${pad(date.getUTCMonth() + 1)}/${date.getUTCFullYear()} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}`
  );
};

/** The type changes that apply to a field of a documented type. */
const typeChanges: Record<FieldType, TypeChange[]> = {
  integer: [
    { name: 'integer-to-string', description: 'integer sent as a string of digits', change: (v) => String(v ?? 1) },
  ],
  number: [{ name: 'number-to-string', description: 'number sent as a string', change: (v) => String(v ?? 1) }],
  string: [
    {
      name: 'string-to-integer',
      description: 'string sent as an integer',
      change: (v) => (typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : 12345),
    },
  ],
  'date-time': [
    { name: 'date-time-to-other-format', description: 'date-time sent as "DD/MM/YYYY hh:mm"', change: otherDateFormat },
    {
      name: 'date-time-to-number',
      description: 'date-time sent as a Unix timestamp (a number)',
      change: (v) => Math.floor((typeof v === 'string' ? Date.parse(v) : Date.now()) / 1000),
    },
  ],
  array: [
    {
      name: 'array-to-object',
      description: 'array sent as an object keyed by index',
      change: (v) => Object.fromEntries((Array.isArray(v) ? v : []).map((item, index) => [String(index), item])),
    },
    {
      name: 'array-to-joined-string',
      description: 'array sent as a comma-joined string',
      change: (v) => (Array.isArray(v) ? v.join(',') : ''),
    },
  ],
  boolean: [
    {
      name: 'boolean-to-string',
      description: 'boolean sent as the string "true"/"false"',
      change: (v) => String(v ?? false),
    },
  ],
  object: [
    { name: 'object-to-string', description: 'object sent as a JSON string', change: (v) => JSON.stringify(v ?? {}) },
  ],
};

/**
 * Field-level quirks the catalogue names by a rule of their own: for these fields a type change
 * breaks the quirk rule rather than the response's shape rule.
 */
const fieldQuirkRules: Partial<Record<OperationId, Record<string, string>>> = {
  getPaymentLink: { token: 'LINK-TOKEN-STRING' },
};

/**
 * Optional fields whose absence is observable all the same: an intent's event timestamps are
 * optional until the event, and required (SEND-INTENT-EVENT-TIMESTAMPS) once its status says it
 * happened, which the reference mock's intents do (sent, failed). Dropping one breaks that rule.
 */
const eventFieldRules: Partial<Record<OperationId, Record<string, string>>> = {
  sendTransaction: { approved_at: 'SEND-INTENT-EVENT-TIMESTAMPS', canceled_at: 'SEND-INTENT-EVENT-TIMESTAMPS' },
};

/**
 * Array answers that must contain the requested element: an empty array still matches the list
 * schema, so emptying it breaks this rule rather than the shape rule.
 */
const emptyArrayRules: Partial<Record<OperationId, string>> = {
  getBalance: 'BALANCE-CONTAINS-ID',
  getCurrency: 'CURRENCY-CONTAINS-ID',
};

/**
 * Fields the reference mock sends beyond the documented ones. The reference allows extra
 * fields, so removing one is unobservable: these give the equivalent mutants. A unit test
 * checks this list against what the mock really sends.
 */
export const referenceExtras: Partial<Record<OperationId, string[]>> = {
  createTransaction: ['currency_id', 'customer_id', 'mode', 'custom_metadata'],
  sendTransaction: ['id', 'transaction_id', 'phone_number'],
  getCurrency: ['iso', 'code', 'div'],
};

function mapObjects(json: unknown, update: (object: Record<string, unknown>) => void): unknown {
  for (const object of bodyObjects(json)) update(object);
  return json;
}

function fieldMutants(response: DocumentedResponse, field: DocumentedField): Mutant[] {
  const op = response.operation;
  const where = `${op} response${response.array ? ' elements' : ''}`;
  const shape = operationRules(op).shape;
  const quirk = fieldQuirkRules[op]?.[field.name];
  const mutants: Mutant[] = [
    {
      name: `${op}.${field.name}.drop`,
      kind: 'mutant',
      operator: 'drop-field',
      operations: [op],
      description: `${where}: documented field ${field.name} left out`,
      rule: eventFieldRules[op]?.[field.name] ?? shape,
      ...(field.required || eventFieldRules[op]?.[field.name] !== undefined
        ? {}
        : {
            equivalent:
              `${field.name} is optional in ${response.schemaName}: ` +
              `absent until its event (or never documented as required), its absence conforms`,
          }),
      create: () => ({
        onSend: (context) =>
          isSuccess(context.status) && context.json !== undefined
            ? { json: mapObjects(context.json, (object) => delete object[field.name]) }
            : undefined,
      }),
    },
  ];
  for (const change of typeChanges[field.type]) {
    mutants.push({
      name: `${op}.${field.name}.${change.name}`,
      kind: 'mutant',
      operator: 'type-change',
      operations: [op],
      description: `${where}: ${field.name} ${change.description}`,
      rule: quirk ?? shape,
      create: () => ({
        onSend: (context) =>
          isSuccess(context.status) && context.json !== undefined
            ? { json: mapObjects(context.json, (object) => (object[field.name] = change.change(object[field.name]))) }
            : undefined,
      }),
    });
  }
  return mutants;
}

function reshapeMutants(response: DocumentedResponse): Mutant[] {
  const op = response.operation;
  const shape = operationRules(op).shape;
  const reshape = (name: string, description: string, change: (json: unknown) => unknown, ruleId = shape): Mutant => ({
    name: `${op}.body.${name}`,
    kind: 'mutant',
    operator: 'reshape',
    operations: [op],
    description: `${op} response: ${description}`,
    rule: ruleId,
    create: () => ({
      onSend: (context) =>
        isSuccess(context.status) && context.json !== undefined ? { json: change(context.json) } : undefined,
    }),
  });
  if (!response.array) {
    return [
      reshape('object-to-array', 'the object sent inside a one-element array', (json) => [json]),
      reshape('object-in-envelope', 'the object wrapped in an envelope {"data": ...}', (json) => ({ data: json })),
    ];
  }
  return [
    reshape('array-to-object', 'the array replaced by its first element', (json) =>
      Array.isArray(json) ? json[0] : json,
    ),
    reshape('array-in-envelope', 'the array wrapped in an envelope {"data": [...]}', (json) => ({ data: json })),
    reshape('array-empty', 'an empty array', () => [], emptyArrayRules[op] ?? shape),
  ];
}

function extraFieldMutants(response: DocumentedResponse): Mutant[] {
  const op = response.operation;
  return (referenceExtras[op] ?? []).map(
    (field): Mutant => ({
      name: `${op}.${field}.drop-undocumented`,
      kind: 'mutant',
      operator: 'drop-field',
      operations: [op],
      description: `${op} response: undocumented field ${field} left out`,
      rule: operationRules(op).shape,
      equivalent:
        `${field} is not a documented field of ${response.schemaName}; ` +
        `the reference only describes the documented ones, so no request can tell it is missing`,
      create: () => ({
        onSend: (context) =>
          isSuccess(context.status) && context.json !== undefined
            ? { json: mapObjects(context.json, (object) => delete object[field]) }
            : undefined,
      }),
    }),
  );
}

export function shapeMutants(): Mutant[] {
  const mutants: Mutant[] = [];
  for (const response of documentedResponses()) {
    // The customer helper is not part of the reference: its answer is not a contract to break.
    if (response.undocumented || response.fields.length === 0) continue;
    for (const field of response.fields) mutants.push(...fieldMutants(response, field));
    mutants.push(...reshapeMutants(response), ...extraFieldMutants(response));
  }
  for (const mutant of mutants) rule(mutant.rule);
  return mutants;
}
