/**
 * What the mutant catalogue is derived from: the documented responses of specs/openapi.json
 * (operation, success status, body schema with its fields). Reading the generated document, not
 * the schema files, keeps the mutants on the contract that users and peer tools see. The rules
 * the mutants break are named in their declarations or taken from the roles of the operations
 * table (contract/operations.ts), never looked up by their wording.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { OperationId } from '../../contract/operations.ts';
import { rule } from '../../contract/rules.ts';

export const openapiFile = fileURLToPath(new URL('../../specs/openapi.json', import.meta.url));

/** The JSON types a documented field can have (nullable fields list "null" too). */
export type FieldType = 'integer' | 'string' | 'date-time' | 'array' | 'boolean' | 'object' | 'number';

export interface DocumentedField {
  name: string;
  type: FieldType;
  nullable: boolean;
  required: boolean;
}

export interface DocumentedResponse {
  operation: OperationId;
  method: string;
  /** OpenAPI path template, relative to the base address. */
  path: string;
  /** '204', '2XX', ...: the documented success response. */
  status: string;
  /** Name of the component schema of the body; undefined when no body is described. */
  schemaName?: string;
  /** The body is an array of objects (the fields below are those of each element). */
  array: boolean;
  fields: DocumentedField[];
  /** The operation's rules (x-pcs-rules), in catalogue order. */
  rules: string[];
  undocumented: boolean;
}

interface SchemaObject {
  type?: string | string[];
  format?: string;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  items?: SchemaObject;
  $ref?: string;
}

interface OpenApiOperation {
  operationId: OperationId;
  'x-pcs-rules'?: string[];
  'x-pcs-undocumented'?: boolean;
  responses: Record<string, { content?: Record<string, { schema?: SchemaObject }> }>;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, SchemaObject> };
}

function loadDocument(): OpenApiDocument {
  return JSON.parse(readFileSync(openapiFile, 'utf8')) as OpenApiDocument;
}

function resolve(document: OpenApiDocument, schema: SchemaObject): { name?: string; schema: SchemaObject } {
  if (schema.$ref === undefined) return { schema };
  const name = schema.$ref.replace('#/components/schemas/', '');
  const target = document.components.schemas[name];
  if (!target) throw new Error(`specs/openapi.json: unresolved $ref ${schema.$ref}`);
  return { name, schema: target };
}

function fieldType(schema: SchemaObject): { type: FieldType; nullable: boolean } {
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  const nullable = types.includes('null');
  const main = types.find((type) => type !== 'null');
  if (main === 'string' && schema.format === 'date-time') return { type: 'date-time', nullable };
  if (
    main === 'integer' ||
    main === 'string' ||
    main === 'array' ||
    main === 'boolean' ||
    main === 'object' ||
    main === 'number'
  ) {
    return { type: main, nullable };
  }
  throw new Error(`specs/openapi.json: a documented field has no usable type (${JSON.stringify(schema.type)})`);
}

let cached: DocumentedResponse[] | undefined;

/** Every operation of specs/openapi.json with its documented success response. */
export function documentedResponses(): DocumentedResponse[] {
  if (cached) return cached;
  const document = loadDocument();
  const result: DocumentedResponse[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const successKey = Object.keys(op.responses).find((status) => status.startsWith('2'));
      if (successKey === undefined)
        throw new Error(`specs/openapi.json: ${op.operationId} documents no success response`);
      const media = op.responses[successKey]?.content?.['application/json']?.schema;
      let schemaName: string | undefined;
      let array = false;
      let fields: DocumentedField[] = [];
      if (media) {
        const body = resolve(document, media);
        schemaName = body.name;
        let objectSchema = body.schema;
        if (body.schema.type === 'array' && body.schema.items) {
          array = true;
          objectSchema = resolve(document, body.schema.items).schema;
        }
        const required = new Set(objectSchema.required ?? []);
        fields = Object.entries(objectSchema.properties ?? {}).map(([name, property]) => ({
          name,
          ...fieldType(property),
          required: required.has(name),
        }));
      }
      const rules = op['x-pcs-rules'] ?? [];
      for (const id of rules) rule(id); // an unknown id throws: the document and the catalogue disagree
      result.push({
        operation: op.operationId,
        method: method.toUpperCase(),
        path,
        status: successKey,
        schemaName,
        array,
        fields,
        rules,
        undocumented: op['x-pcs-undocumented'] === true,
      });
    }
  }
  cached = result;
  return result;
}

export function documentedResponse(operation: OperationId): DocumentedResponse {
  const found = documentedResponses().find((response) => response.operation === operation);
  if (!found) throw new Error(`specs/openapi.json has no operation ${operation}`);
  return found;
}
