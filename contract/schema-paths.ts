/**
 * Walking the schemas of schemas/ by JSON pointer: the sub-schema of a property (through
 * $ref to sibling files), whether the reference requires it, every property's pointer, and
 * a copy of a document with one value replaced.
 */
import { schemaDocument, type SchemaName } from './schemas.ts';
import type { JSONSchema } from './json-schema.ts';
import { escapePointerToken } from './json-pointer.ts';

/** "customer.schema.json" → the document of schemas/customer.schema.json. */
export function resolveRef(ref: string): JSONSchema {
  const match = /^([a-z0-9-]+)\.schema\.json$/.exec(ref);
  if (!match) throw new Error(`schemas: unsupported $ref "${ref}" (only sibling schema files)`);
  return schemaDocument(match[1] as SchemaName);
}

function unref(schema: JSONSchema): JSONSchema {
  let resolved = schema;
  while (resolved.$ref !== undefined) resolved = resolveRef(resolved.$ref);
  return resolved;
}

const unescapeToken = (raw: string): string => raw.replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * The sub-schema at a pointer of a document, following $ref (e.g.
 * '/phone_number/number'), as written (annotations included).
 */
export function schemaAt(name: SchemaName, pointer: string): JSONSchema {
  let schema = schemaDocument(name);
  for (const raw of pointer === '' ? [] : pointer.slice(1).split('/')) {
    schema = unref(schema);
    const next = schema.properties?.[unescapeToken(raw)];
    if (!next) throw new Error(`schemas: no property ${pointer} in schema ${name}`);
    schema = next;
  }
  return unref(schema);
}

/**
 * True when the reference requires the property at the pointer
 * (the `required` of its parent, not the suite's x-pcs-safe list).
 */
export function isRequiredAt(name: SchemaName, pointer: string): boolean {
  const cut = pointer.lastIndexOf('/');
  const parent = schemaAt(name, pointer.slice(0, cut));
  return (parent.required ?? []).includes(unescapeToken(pointer.slice(cut + 1)));
}

/** The pointers of the properties a schema declares, recursively (objects only, through $ref). */
export function propertyPointers(name: SchemaName): string[] {
  const pointers: string[] = [];
  const walk = (schema: JSONSchema, pointer: string): void => {
    for (const [key, child] of Object.entries(unref(schema).properties ?? {})) {
      const childPointer = `${pointer}/${escapePointerToken(key)}`;
      pointers.push(childPointer);
      walk(child, childPointer);
    }
  };
  walk(schemaDocument(name), '');
  return pointers;
}

/**
 * A copy of a JSON document with the value at a pointer replaced
 * (parents are created when missing; undefined removes it).
 */
export function replaceAt(document: unknown, pointer: string, value: unknown): unknown {
  if (pointer === '') return value;
  const copy = structuredClone(document) as Record<string, unknown>;
  const keys = pointer.slice(1).split('/').map(unescapeToken);
  let current = copy;
  for (const key of keys.slice(0, -1)) {
    const next = current[key];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) current[key] = {};
    current = current[key] as Record<string, unknown>;
  }
  const last = keys[keys.length - 1]!;
  if (value === undefined) delete current[last];
  else current[last] = value;
  return copy;
}
