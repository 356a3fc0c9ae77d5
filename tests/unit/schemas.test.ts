/**
 * The schemas against the reference's shapes: every case file in tests/schema-cases/
 * lists values a schema must accept and values it must reject (with the JSON pointer
 * the rejection must name, and the layer that rejects it: a 'strict' case is valid for the
 * reference and invalid for --strict's reading; a 'safe' one is valid for both and outside the
 * suite's safe values). Cases are data; this runner is thin.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { schemaDocuments, validateAgainst, validateInLayer, type SchemaName } from '../../contract/schemas.ts';
import type { SchemaLayer } from '../../contract/json-schema.ts';

interface SchemaCases {
  schema: SchemaName;
  valid: Array<{ name: string; value: unknown }>;
  invalid: Array<{ name: string; value: unknown; pointer: string; layer?: SchemaLayer }>;
}

const wider: Record<SchemaLayer, SchemaLayer[]> = {
  reference: [],
  strict: ['reference'],
  safe: ['reference', 'strict'],
};

const casesDir = fileURLToPath(new URL('../schema-cases/', import.meta.url));
const caseFiles = readdirSync(casesDir)
  .filter((file) => file.endsWith('.json'))
  .sort();
const allCases = caseFiles.map((file) => JSON.parse(readFileSync(casesDir + file, 'utf8')) as SchemaCases);

test('every schema has $id, title and a description citing the reference', () => {
  assert.ok(schemaDocuments.size >= 15, `expected the 15 schemas, found ${schemaDocuments.size}`);
  for (const [name, schema] of schemaDocuments) {
    assert.match(String(schema.$id), /^https:\/\/collect-conformance\.dev\/schemas\/.+\.schema\.json$/, `${name}: $id`);
    assert.ok(schema.title, `${name}: title`);
    assert.match(String(schema.description), /Reference: /, `${name}: description must cite the reference`);
    assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema', `${name}: draft 2020-12`);
  }
});

test('every schema has a case file, and every case file names a schema', () => {
  const covered = new Set(allCases.map((cases) => cases.schema));
  for (const name of schemaDocuments.keys())
    assert.ok(covered.has(name as SchemaName), `no tests/schema-cases/${name}.json`);
  for (const cases of allCases)
    assert.ok(schemaDocuments.has(cases.schema), `case file for unknown schema ${cases.schema}`);
});

for (const cases of allCases) {
  for (const { name, value } of cases.valid) {
    test(`${cases.schema} accepts: ${name}`, () => {
      assert.deepEqual(validateAgainst(cases.schema, value), []);
    });
  }
  for (const { name, value, pointer, layer = 'reference' } of cases.invalid) {
    const inLayer = layer === 'reference' ? '' : `, ${layer} layer`;
    test(`${cases.schema} rejects: ${name} (at ${pointer || '/'}${inLayer})`, () => {
      for (const below of wider[layer])
        assert.deepEqual(validateInLayer(below, cases.schema, value), [], `valid in the ${below} layer`);
      const violations = validateInLayer(layer, cases.schema, value);
      assert.ok(violations.length > 0, 'expected a violation');
      assert.ok(
        violations.some((violation) => violation.pointer === pointer),
        `expected a violation at "${pointer}", got ${JSON.stringify(violations)}`,
      );
      for (const violation of violations) {
        assert.ok(violation.expected.length > 0 && violation.actual.length > 0, 'violations name expected and actual');
      }
    });
  }
}

test('response schemas accept fields beyond the documented ones (the reference says more exist)', () => {
  for (const [name, schema] of schemaDocuments) {
    assert.notEqual(schema.additionalProperties, false, `${name} must not forbid extra fields`);
  }
});

/** Every node of a schema document, with its path (for messages). */
function nodesOf(node: unknown, path: string): Array<{ path: string; node: Record<string, unknown> }> {
  if (typeof node !== 'object' || node === null) return [];
  const entries = Object.entries(node as Record<string, unknown>);
  return [
    { path, node: node as Record<string, unknown> },
    ...entries.flatMap(([key, child]) => nodesOf(child, `${path}/${key}`)),
  ];
}

test('the strict layer only narrows the reference one: what --strict accepts, the reference accepts', () => {
  // judgment/registry.ts validates an answer in the strict layer first and skips the reference layer when
  // it passes: that holds because x-pcs-strict narrows a type, adds required fields or adds a keyword, never widens.
  const widening: string[] = [];
  for (const [name, document] of schemaDocuments) {
    for (const { path, node } of nodesOf(document, name)) {
      const strict = node['x-pcs-strict'] as Record<string, unknown> | undefined;
      if (strict === undefined) continue;
      for (const [keyword, value] of Object.entries(strict)) {
        if (keyword === 'required' || keyword === 'description') continue;
        if (keyword === 'type') {
          const reference: unknown[] = [node.type ?? []].flat();
          const narrowed = [value].flat().every((type) => reference.length === 0 || reference.includes(type));
          if (!narrowed) widening.push(`${path}: type ${JSON.stringify(value)} beyond ${JSON.stringify(node.type)}`);
        } else if (keyword in node) widening.push(`${path}: ${keyword} replaces the reference's`);
      }
    }
  }
  assert.deepEqual(widening, []);
});
