/**
 * The subset of JSON Schema (draft 2020-12) that schemas/ uses, as a type. openapi-types
 * describes OpenAPI's schema object; this one describes the hand-written files themselves.
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
  examples?: unknown[];
  anyOf?: JSONSchema[];
  oneOf?: JSONSchema[];
}
