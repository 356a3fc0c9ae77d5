/**
 * The JSON Schemas of schemas/, compiled with ajv (draft 2020-12, strict mode) and
 * ajv-formats. Validation returns violations as data (JSON pointer, expected, actual) so
 * that failure messages can name them precisely.
 *
 * Each schema is read in three layers (contract/json-schema.ts): 'reference' (the validation
 * keywords: what the reference makes valid; every response is judged by it), 'strict' (plus
 * x-pcs-strict: what --strict reads into the reference's prose) and 'safe' (plus x-pcs-safe:
 * the comfortable values the suite sends where an input must be accepted). A view is the
 * schema with its layers' keywords merged in (`required` lists are joined) and the
 * annotations removed, so ajv never sees them. Each layer has its own ajv instance, compiled
 * on first use: a test run only ever needs the reference one and, for open inputs, the strict one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { layerKeywords, type JSONSchema, type SchemaLayer } from './json-schema.ts';
import { describeValue, jsonType, valueAtPointer } from './json-pointer.ts';

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
  /** The JSON type of the value found there ('absent' where a value is missing). */
  actualType: string;
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

/** The files as written, annotations included (the arbitraries read the layers from them). */
export const schemaDocuments: ReadonlyMap<string, JSONSchema> = loadSchemas();

/** The layers merged into a (sub)schema for a view: reference keeps none, strict adds x-pcs-strict, safe adds both. */
const layersOf: Record<SchemaLayer, Array<'strict' | 'safe'>> = {
  reference: [],
  strict: ['strict'],
  safe: ['strict', 'safe'],
};

const nested = ['properties', 'items', 'additionalProperties', 'propertyNames', 'anyOf', 'oneOf'] as const;

/**
 * One node of a schema as a layer reads it (not its children): the layers' keywords merged in, the annotations removed.
 */
export function mergeLayers(schema: JSONSchema, layer: SchemaLayer): JSONSchema {
  const { [layerKeywords.strict]: strictPart, [layerKeywords.safe]: safePart, ...own } = schema;
  let view: JSONSchema = { ...own };
  for (const part of layersOf[layer].map((name) => (name === 'strict' ? strictPart : safePart))) {
    if (part === undefined) continue;
    const required = [...new Set([...(view.required ?? []), ...(part.required ?? [])])];
    view = { ...view, ...part, ...(required.length > 0 ? { required } : {}) };
  }
  return view;
}

/** A schema as one layer reads it: the layers' keywords merged in, the annotations removed, recursively. */
export function layerView(schema: JSONSchema, layer: SchemaLayer): JSONSchema {
  const view = mergeLayers(schema, layer);
  for (const key of nested) {
    const child = view[key];
    if (child === undefined || typeof child === 'boolean') continue;
    if (key === 'properties') {
      view.properties = Object.fromEntries(
        Object.entries(child as Record<string, JSONSchema>).map(([name, sub]) => [name, layerView(sub, layer)]),
      );
    } else if (Array.isArray(child)) {
      (view as Record<string, unknown>)[key] = child.map((sub: JSONSchema) => layerView(sub, layer));
    } else {
      (view as Record<string, unknown>)[key] = layerView(child as JSONSchema, layer);
    }
  }
  return view;
}

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped in the module object.
type AddFormats = (ajv: Ajv2020) => Ajv2020;
const addFormats: AddFormats =
  (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

const instances = new Map<SchemaLayer, Ajv2020>();

function ajvFor(layer: SchemaLayer): Ajv2020 {
  let ajv = instances.get(layer);
  if (!ajv) {
    ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
    addFormats(ajv);
    for (const document of schemaDocuments.values()) ajv.addSchema(layerView(document, layer));
    instances.set(layer, ajv);
  }
  return ajv;
}

const compiled = new Map<string, ValidateFunction>();

export function schemaDocument(name: SchemaName): JSONSchema {
  const document = schemaDocuments.get(name);
  if (!document) throw new Error(`no schema ${name} in schemas/`);
  return document;
}

function validator(name: SchemaName, layer: SchemaLayer): ValidateFunction {
  const key = `${layer} ${name}`;
  let validate = compiled.get(key);
  if (!validate) {
    const id = schemaDocument(name).$id;
    if (typeof id !== 'string') throw new Error(`schema ${name} has no $id`);
    validate = ajvFor(layer).getSchema(id);
    if (!validate) throw new Error(`schema ${name} did not compile`);
    compiled.set(key, validate);
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

/** Validates a value against a schema of schemas/ in one layer; an empty list means it conforms. */
export function validateInLayer(layer: SchemaLayer, name: SchemaName, value: unknown): SchemaViolation[] {
  const validate = validator(name, layer);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => {
    const params = error.params as Record<string, unknown>;
    const pointer =
      error.keyword === 'required' ? `${error.instancePath}/${String(params.missingProperty)}` : error.instancePath;
    const found = error.keyword === 'required' ? undefined : valueAtPointer(value, error.instancePath);
    return { pointer, expected: expectation(error), actual: describeValue(found), actualType: jsonType(found) };
  });
}

/** Validates a value against what the reference makes valid (the 'reference' layer): how every response is judged. */
export function validateAgainst(name: SchemaName, value: unknown): SchemaViolation[] {
  return validateInLayer('reference', name, value);
}

/**
 * True for an RFC 3339 date-time (what "ISO 8601 date-time (string<date-time>)" is read as; ajv-formats' full check).
 */
export function isDateTime(value: unknown): boolean {
  return typeof value === 'string' && dateTimeFormat(value);
}

const dateTimeFormat = (() => {
  const formats = (addFormatsModule as unknown as { get?: (name: string) => unknown }).get ?? undefined;
  const format = formats?.('date-time');
  if (typeof format === 'function') return format as (value: string) => boolean;
  if (format && typeof format === 'object' && typeof (format as { validate?: unknown }).validate === 'function') {
    return (format as { validate: (value: string) => boolean }).validate;
  }
  // Fallback: ask a compiled schema (never expected; ajv-formats exposes get()).
  const probe = new Ajv2020({ strict: true });
  addFormats(probe);
  const validate = probe.compile({ type: 'string', format: 'date-time' });
  return (value: string) => validate(value) as boolean;
})();

/**
 * Where the schema of the property at a JSON pointer of a document lives, following $ref into
 * sibling files: the ajv key `$id#/properties/...` of that sub-schema.
 */
function subschemaKey(name: SchemaName, pointer: string): string {
  let document = schemaDocument(name);
  let node: JSONSchema = document;
  let path = '';
  const follow = (): void => {
    while (node.$ref !== undefined) {
      const target = /^([a-z0-9-]+)\.schema\.json$/.exec(node.$ref)?.[1];
      if (target === undefined) throw new Error(`schemas: unsupported $ref ${node.$ref}`);
      document = schemaDocument(target as SchemaName);
      node = document;
      path = '';
    }
  };
  for (const raw of pointer === '' ? [] : pointer.slice(1).split('/')) {
    follow();
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const next = node.properties?.[key];
    if (next === undefined) throw new Error(`schemas: no property ${pointer} in ${name}`);
    node = next;
    path += `/properties/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  }
  follow();
  return `${String(document.$id)}#${path}`;
}

/**
 * Validates the value of one property (at a pointer of a document)
 * in one layer; pointers of violations are relative to it.
 */
export function validateFieldInLayer(
  layer: SchemaLayer,
  name: SchemaName,
  pointer: string,
  value: unknown,
): SchemaViolation[] {
  const key = `${layer} ${name} ${pointer}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajvFor(layer).getSchema(subschemaKey(name, pointer));
    if (!validate) throw new Error(`schema ${name} has no sub-schema at ${pointer}`);
    compiled.set(key, validate);
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => {
    const found = valueAtPointer(value, error.instancePath);
    return {
      pointer: error.instancePath,
      expected: expectation(error),
      actual: describeValue(found),
      actualType: jsonType(found),
    };
  });
}
