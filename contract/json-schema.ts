/**
 * The subset of JSON Schema (draft 2020-12) that schemas/ uses, as a type. openapi-types
 * describes OpenAPI's schema object; this one describes the hand-written files themselves.
 *
 * Two annotation keywords of the suite's own add layers to what the validation keywords say
 * (what the reference makes valid): `x-pcs-strict`, the reference's prose read as constraints
 * (what --strict requires a server to refuse), and `x-pcs-safe`, the comfortable values the
 * suite sends where an input must be accepted. contract/schemas.ts merges them into views.
 */
export type JSONSchemaType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

export interface JSONSchema {
  $schema?: string;
  $id?: string;
  $ref?: string;
  $comment?: string;
  title?: string;
  description?: string;
  type?: JSONSchemaType | JSONSchemaType[];
  properties?: Record<string, JSONSchema>;
  required?: string[];
  additionalProperties?: boolean | JSONSchema;
  items?: JSONSchema;
  minItems?: number;
  maxItems?: number;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxProperties?: number;
  propertyNames?: JSONSchema;
  examples?: unknown[];
  anyOf?: JSONSchema[];
  oneOf?: JSONSchema[];
  'x-pcs-strict'?: JSONSchema;
  'x-pcs-safe'?: JSONSchema;
}

/**
 * The layers of a schema, from the widest: what the reference makes valid, its strict reading, the suite's safe values.
 */
export type SchemaLayer = 'reference' | 'strict' | 'safe';

export const layerKeywords = { strict: 'x-pcs-strict', safe: 'x-pcs-safe' } as const;
