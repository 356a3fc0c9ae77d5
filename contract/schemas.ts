/**
 * The JSON Schemas of schemas/, compiled once with ajv (draft 2020-12, strict mode)
 * and ajv-formats. Validation returns violations as data (JSON pointer, expected,
 * actual) so that failure messages can name them precisely.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { JSONSchema } from './json-schema.ts';
import { describeValue, valueAtPointer } from './json-pointer.ts';

export const schemasDir = fileURLToPath(new URL('../schemas/', import.meta.url));

export type SchemaName =
  | 'balance'
  | 'balance-list'
  | 'create-customer-body'
  | 'create-transaction-body'
  | 'currency'
  | 'currency-list'
  | 'customer'
  | 'customer-record'
  | 'payment-intent'
  | 'payment-intent-list'
  | 'payment-link'
  | 'phone-number-create'
  | 'phone-number-send'
  | 'send-transaction-body'
  | 'transaction';

export interface SchemaViolation {
  /** JSON pointer into the validated value ('' is the whole value). */
  pointer: string;
  expected: string;
  actual: string;
}

function loadSchemas(): Map<string, JSONSchema> {
  const loaded = new Map<string, JSONSchema>();
  for (const file of readdirSync(schemasDir).sort()) {
    if (!file.endsWith('.schema.json')) continue;
    const name = file.slice(0, -'.schema.json'.length);
    loaded.set(name, JSON.parse(readFileSync(schemasDir + file, 'utf8')) as JSONSchema);
  }
  return loaded;
}

export const schemaDocuments: ReadonlyMap<string, JSONSchema> = loadSchemas();

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped in the module object.
type AddFormats = (ajv: Ajv2020) => Ajv2020;
const addFormats: AddFormats =
  (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
addFormats(ajv);
for (const document of schemaDocuments.values()) ajv.addSchema(document);

const compiled = new Map<string, ValidateFunction>();

export function schemaDocument(name: SchemaName): JSONSchema {
  const document = schemaDocuments.get(name);
  if (!document) throw new Error(`no schema ${name} in schemas/`);
  return document;
}

function validator(name: SchemaName): ValidateFunction {
  let validate = compiled.get(name);
  if (!validate) {
    const id = schemaDocument(name).$id;
    if (typeof id !== 'string') throw new Error(`schema ${name} has no $id`);
    validate = ajv.getSchema(id);
    if (!validate) throw new Error(`schema ${name} did not compile`);
    compiled.set(name, validate);
  }
  return validate;
}

function expectation(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return `type ${String(params.type)}`;
    case 'required':
      return `property "${String(params.missingProperty)}" present`;
    case 'format':
      return `format ${String(params.format)}`;
    case 'minLength':
      return `string of at least ${String(params.limit)} character(s)`;
    case 'pattern':
      return `string matching ${String(params.pattern)}`;
    default:
      return `${error.keyword} ${error.message ?? ''}`.trim();
  }
}

/** Validates a value against a schema of schemas/; an empty list means it conforms. */
export function validateAgainst(name: SchemaName, value: unknown): SchemaViolation[] {
  const validate = validator(name);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => {
    const params = error.params as Record<string, unknown>;
    const pointer =
      error.keyword === 'required' ? `${error.instancePath}/${String(params.missingProperty)}` : error.instancePath;
    const actual = error.keyword === 'required' ? 'absent' : describeValue(valueAtPointer(value, error.instancePath));
    return { pointer, expected: expectation(error), actual };
  });
}
