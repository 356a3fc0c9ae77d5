/**
 * specs/openapi.json: up to date with its inputs, a valid OpenAPI 3.1 document, complete with respect to the
 * operations table, with every referenced schema defined, and clean under Redocly's recommended rules.
 *
 *   node --import tsx --test tests/unit/openapi.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { operations, type HttpMethod } from '../../contract/operations.ts';
import { buildOpenApiDocument, openApiFile, renderOpenApiDocument } from '../../lab/generate-openapi.ts';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const STALE = 'specs/openapi.json is stale: run npm run openapi:generate';
const COMPONENT_PREFIX = '#/components/schemas/';

const lowerMethods = { GET: 'get', POST: 'post', DELETE: 'delete' } as const satisfies Record<HttpMethod, string>;

function readCheckedIn(): string {
  assert.ok(existsSync(openApiFile), `specs/openapi.json is missing: run npm run openapi:generate`);
  return readFileSync(openApiFile, 'utf8');
}

/** Every $ref string found anywhere under value, with where it was found. */
function collectRefs(value: unknown, where: string, out: Array<{ ref: string; where: string }>): void {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) collectRefs(item, `${where}/${index}`, out);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, child] of Object.entries(value)) {
    if (key === '$ref' && typeof child === 'string') out.push({ ref: child, where });
    else collectRefs(child, `${where}/${key}`, out);
  }
}

test('specs/openapi.json is up to date with schemas/, contract/operations.ts and specs/rules.json', () => {
  const checkedIn = readCheckedIn();
  const built = buildOpenApiDocument();
  assert.deepEqual(JSON.parse(checkedIn) as unknown, built, STALE);
  // Same content is not enough: the file must also be byte for byte what the generator writes.
  assert.equal(checkedIn, renderOpenApiDocument(built), STALE);
});

test('the document is a valid OpenAPI 3.1 description (swagger-parser)', async () => {
  const document = structuredClone(buildOpenApiDocument());
  const validated = await SwaggerParser.validate(document);
  assert.ok('openapi' in validated && validated.openapi === '3.1.0', 'expected an OpenAPI 3.1.0 document');
});

test('every operation of contract/operations.ts is in the document with its method and path', () => {
  const document = buildOpenApiDocument();
  let count = 0;
  for (const op of operations) {
    const item = document.paths?.[op.path];
    assert.ok(item !== undefined, `${op.id}: path ${op.path} is missing`);
    const method = lowerMethods[op.method];
    const built = item[method];
    assert.ok(built !== undefined, `${op.id}: ${op.method} ${op.path} is missing`);
    assert.equal(built.operationId, op.id, `${op.method} ${op.path}: operationId`);
    assert.deepEqual(built.tags, [op.tag], `${op.id}: tags`);
    assert.deepEqual(
      Object.keys(built.responses ?? {}).sort(),
      op.responses.map((response) => response.status).sort(),
      `${op.id}: response statuses`,
    );
    assert.equal(built.requestBody !== undefined, op.requestBody !== undefined, `${op.id}: request body`);
    count += 1;
  }
  const inDocument = Object.values(document.paths ?? {}).flatMap((item) =>
    item === undefined ? [] : Object.values(lowerMethods).filter((method) => item[method] !== undefined),
  );
  assert.equal(inDocument.length, count, 'the document has operations that contract/operations.ts does not list');
});

test('every schema referenced by a response, a request body or another schema is a defined component', () => {
  const document: OpenAPIV3_1.Document = buildOpenApiDocument();
  const schemas = document.components?.schemas ?? {};
  const refs: Array<{ ref: string; where: string }> = [];
  collectRefs(document.paths, '#/paths', refs);
  const fromPaths = refs.length;
  assert.ok(fromPaths > 0, 'expected responses and bodies to reference component schemas');
  collectRefs(document.components, '#/components', refs);
  for (const { ref, where } of refs) {
    assert.ok(ref.startsWith(COMPONENT_PREFIX), `${where}: $ref ${ref} is not a components reference`);
    const name = ref.slice(COMPONENT_PREFIX.length).split('/')[0] ?? '';
    assert.ok(Object.hasOwn(schemas, name), `${where}: $ref ${ref} names no component schema`);
  }
  for (const [name, schema] of Object.entries(schemas)) {
    assert.ok(!('$id' in schema) && !('$schema' in schema), `components.schemas.${name} still carries $id or $schema`);
  }
});

test('redocly lint reports no errors and no warnings', { timeout: 180_000 }, async () => {
  const redocly = join(projectRoot, 'node_modules', '.bin', 'redocly');
  const { stdout } = await promisify(execFile)(
    redocly,
    ['lint', 'specs/openapi.json', '--config', 'specs/redocly.yaml', '--format=json'],
    {
      cwd: projectRoot,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      timeout: 170_000,
      maxBuffer: 16 * 1024 * 1024,
    },
  ); // rejects, failing the test, when redocly exits non-zero (any error)
  const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: unknown[] };
  assert.equal(report.totals.errors, 0, `redocly errors:\n${JSON.stringify(report.problems, null, 2)}`);
  assert.equal(report.totals.warnings, 0, `redocly warnings:\n${JSON.stringify(report.problems, null, 2)}`);
});
