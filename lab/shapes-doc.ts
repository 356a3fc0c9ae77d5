/**
 * Writes docs/reference/shapes.md, the page an SDK maintainer writes requests from: every
 * operation's request and answer shapes with an example of each, the reference mock's keys, seeded
 * ids and payment modes, and the input classes a request falls into (what must be accepted, what
 * must be refused, what a server may do either way). Everything in it comes from the suite's own
 * sources: the shapes from schemas/ (with their strict and safe layers), the operations from
 * contract/operations.ts, the input classes from specs/input-cases/, the seeded ids and payment
 * modes from mock/seed.ts, and the examples from the reference mock itself, called through
 * Fastify's inject (no socket), with the values that change from one run to the next (timestamps,
 * random references, tokens) fixed so that the page does not.
 *
 *   npm run shapes:generate                 rewrite it (npm run docs:generate: every generated doc)
 *   npx tsx lab/shapes-doc.ts --check       exit 1 when it is stale
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { inputCaseFiles, type InputCase } from '../contract/input-cases.ts';
import type { JSONSchema } from '../contract/json-schema.ts';
import { operations, type Operation } from '../contract/operations.ts';
import { resolveRef } from '../contract/schema-paths.ts';
import { schemaDocument, type SchemaName } from '../contract/schemas.ts';
import { buildMockApp, defaultLiveKey, livePrefix, sandboxPrefix } from '../mock/app.ts';
import { seedFor } from '../mock/seed.ts';
import { settings } from '../settings/settings.ts';

export const shapesDocFile = fileURLToPath(new URL('../docs/reference/shapes.md', import.meta.url));

/** A request the page shows, and the answer the reference mock gave it. */
export interface Example {
  operation: Operation['id'];
  method: string;
  path: string;
  body?: unknown;
  status: number;
  answer?: unknown;
}

/** The bodies of the examples: a body the input cases call valid, the configured send values, a plain customer. */
export const exampleBodies = {
  createTransaction: (): Record<string, unknown> => {
    const text = inputCaseFiles().find((file) => file.valid !== undefined);
    if (text === undefined) throw new Error('specs/input-cases/: no file gives a valid body');
    return text.valid as Record<string, unknown>;
  },
  sendTransaction: (token: unknown): Record<string, unknown> => ({
    token,
    phone_number: { number: settings.phoneNumber.default, country: settings.phoneCountry.default },
  }),
  createCustomer: (): Record<string, unknown> => ({
    email: 'ada.lovelace@example.com',
    firstname: 'Ada',
    lastname: 'Lovelace',
  }),
};

/** Values that change from run to run, each replaced by a fixed one of the same form. */
function stableValues(examples: readonly Example[]): Map<string, string> {
  const replacements = new Map<string, string>();
  const hex = (length: number): string => '3f9a1c0b2d4e5f60718293a4b5c6d7e8'.repeat(4).slice(0, length);
  const visit = (value: unknown, key: string | undefined): void => {
    if (Array.isArray(value)) for (const item of value) visit(item, key);
    else if (value !== null && typeof value === 'object')
      for (const [name, member] of Object.entries(value)) visit(member, name);
    else if (typeof value === 'string' && !replacements.has(value)) {
      if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(value) && !value.startsWith('2024-01-15'))
        replacements.set(value, '2026-01-15T10:00:00.000Z');
      else if ((key === 'reference' || key === 'transaction_key') && /^([a-z]+_)?[0-9a-f]+$/.test(value)) {
        const prefix = /^[a-z]+_/.exec(value)?.[0] ?? '';
        replacements.set(value, `${prefix}${hex(value.length - prefix.length)}`);
      } else if (key === 'token' && /^\d+$/.test(value))
        // One fixed token whatever the length the mock drew (its tokens have no fixed number of digits).
        replacements.set(value, '4821097365104');
    }
  };
  for (const example of examples) visit(example.answer, undefined);
  return replacements;
}

function stabilised<T>(value: T, replacements: ReadonlyMap<string, string>): T {
  let text = JSON.stringify(value);
  if (text === undefined) return value;
  for (const [from, to] of replacements) text = text.split(from).join(to);
  return JSON.parse(text) as T;
}

/** Every operation once, in the reference's order of a session: the reference mock's answers, made stable. */
export async function mockExamples(): Promise<Example[]> {
  const mock = buildMockApp();
  const origin = 'http://127.0.0.1:4010';
  mock.setOrigin(origin);
  const examples: Example[] = [];
  const call = async (operation: Operation['id'], method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) => {
    const answer = await mock.app.inject({
      method,
      url: `${sandboxPrefix}${path}`,
      headers: {
        authorization: `Bearer ${mock.sandboxKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    const json = answer.body === '' ? undefined : (JSON.parse(answer.body) as unknown);
    const example: Example = {
      operation,
      method,
      path,
      ...(body === undefined ? {} : { body }),
      status: answer.statusCode,
      ...(json === undefined ? {} : { answer: json }),
    };
    examples.push(example);
    return json as Record<string, unknown>;
  };
  try {
    const customer = await call('createCustomer', 'POST', '/customers', exampleBodies.createCustomer());
    await call('deleteCustomer', 'DELETE', `/customers/${String(customer.id)}`);
    const created = await call('createTransaction', 'POST', '/transactions', exampleBodies.createTransaction());
    const link = await call('getPaymentLink', 'POST', `/transactions/${String(created.id)}/token`);
    await call('sendTransaction', 'POST', `/transactions/${settings.paymentMode.default}`, {
      ...exampleBodies.sendTransaction(link.token),
    });
    await call('getBalance', 'GET', '/balances/1');
    await call('getCurrency', 'GET', '/currencies/1');
  } finally {
    await mock.app.close();
  }
  const replacements = stableValues(examples);
  return examples.map((example) => stabilised(example, replacements));
}

// --- Markdown ---

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (text: string): string => `\`${text.replace(/`/g, "'")}\``;

function unref(schema: JSONSchema): JSONSchema {
  let resolved = schema;
  while (resolved.$ref !== undefined) resolved = resolveRef(resolved.$ref);
  return resolved;
}

function typeOf(schema: JSONSchema): string {
  const resolved = unref(schema);
  const types = Array.isArray(resolved.type) ? resolved.type : resolved.type === undefined ? [] : [resolved.type];
  const named = types.join(' or ') || (resolved.title ?? 'any');
  if (resolved.type === 'array' && resolved.items !== undefined)
    return `array of ${unref(resolved.items).title ?? typeOf(resolved.items)}`;
  return resolved.format === undefined ? named : `${named} (${resolved.format})`;
}

/** What the suite's safe layer (x-pcs-safe) asks of a value, in a few words. */
function safeText(safe: JSONSchema | undefined): string {
  if (safe === undefined) return '';
  const parts: string[] = [];
  if (safe.minimum !== undefined && safe.maximum !== undefined) parts.push(`${safe.minimum} to ${safe.maximum}`);
  else if (safe.minimum !== undefined) parts.push(`at least ${safe.minimum}`);
  else if (safe.maximum !== undefined) parts.push(`at most ${safe.maximum}`);
  if (safe.minLength !== undefined && safe.maxLength !== undefined)
    parts.push(`${safe.minLength} to ${safe.maxLength} characters`);
  else if (safe.maxLength !== undefined) parts.push(`at most ${safe.maxLength} characters`);
  else if (safe.minLength !== undefined) parts.push(`at least ${safe.minLength} characters`);
  if (safe.format !== undefined) parts.push(`format ${safe.format}`);
  if (safe.pattern !== undefined) parts.push(`matching ${code(safe.pattern)}`);
  if (safe.maxProperties !== undefined) parts.push(`at most ${safe.maxProperties} entries`);
  if (safe.propertyNames?.pattern !== undefined) parts.push(`keys matching ${code(safe.propertyNames.pattern)}`);
  return parts.join(', ');
}

interface FieldRow {
  pointer: string;
  type: string;
  required: string;
  safe: string;
  description: string;
}

/** The fields of a shape, depth first: an array's items under `/*`. */
function fieldRows(schema: JSONSchema, request: boolean, pointer = ''): FieldRow[] {
  const resolved = unref(schema);
  if (resolved.type === 'array' && resolved.items !== undefined)
    return fieldRows(resolved.items, request, `${pointer}/*`);
  const rows: FieldRow[] = [];
  const strictRequired = resolved['x-pcs-strict']?.required ?? [];
  const safeRequired = resolved['x-pcs-safe']?.required ?? [];
  for (const [name, child] of Object.entries(resolved.properties ?? {})) {
    const target = unref(child);
    const required = (resolved.required ?? []).includes(name)
      ? 'yes'
      : strictRequired.includes(name)
        ? 'with `--strict`'
        : request && safeRequired.includes(name)
          ? 'no (the suite sends it)'
          : 'no';
    const safe = safeText(child['x-pcs-safe'] ?? target['x-pcs-safe']);
    const strict = child['x-pcs-strict'] ?? target['x-pcs-strict'];
    const strictWords = strict?.pattern !== undefined ? `; with \`--strict\`: matching ${code(strict.pattern)}` : '';
    rows.push({
      pointer: `${pointer}/${name}`,
      type: typeOf(child),
      required,
      safe: request ? `${safe || 'any value of the type'}${strictWords}` : '',
      description: (child.description ?? target.description ?? '').split(/(?<=\.) /)[0] ?? '',
    });
    if (target.type === 'object' || (Array.isArray(target.type) && target.type.includes('object')))
      if (target.properties !== undefined) rows.push(...fieldRows(target, request, `${pointer}/${name}`));
  }
  return rows;
}

function fieldTable(name: SchemaName, request: boolean): string[] {
  const rows = fieldRows(schemaDocument(name), request);
  const head = request
    ? ['| Field | Type | Required | Must be accepted within (safe values) | Meaning |', '|---|---|---|---|---|']
    : ['| Field | Type | Required | Meaning |', '|---|---|---|---|'];
  return [
    ...head,
    ...rows.map((row) =>
      request
        ? `| ${code(row.pointer)} | ${cell(row.type)} | ${cell(row.required)} | ${cell(row.safe)} | ` +
          `${cell(row.description)} |`
        : `| ${code(row.pointer)} | ${cell(row.type)} | ${cell(row.required)} | ${cell(row.description)} |`,
    ),
  ];
}

const classWords: Record<InputCase['class'], string> = {
  'must-accept': 'must accept',
  'must-refuse': 'must refuse',
  'accept-or-refuse': 'accept or refuse',
};

function caseValue(input: InputCase): string {
  if (input.absent) return 'left out';
  if (input.text !== undefined) return code(input.text.length > 80 ? `${input.text.slice(0, 80)}…` : input.text);
  const json = JSON.stringify(input.value) ?? 'undefined';
  return code(json.length > 80 ? `${json.slice(0, 80)}…` : json);
}

function caseTable(schema: SchemaName): string[] {
  const cases = inputCaseFiles()
    .filter((file) => file.schema === schema)
    .flatMap((file) => file.cases);
  if (cases.length === 0) return [];
  return [
    '| Field | Value sent | Class | With `--strict` | Rule | What it is |',
    '|---|---|---|---|---|---|',
    ...cases.map(
      (input) =>
        `| ${code(input.pointer === '' ? '(the body)' : input.pointer)} | ${cell(caseValue(input))} | ` +
        `${classWords[input.class]} | ${input.strictRefuses ? 'must refuse' : classWords[input.class]} | ` +
        `${input.rule} | ${cell(input.name)} |`,
    ),
  ];
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

function exampleBlock(example: Example): string[] {
  return [
    '```http',
    `${example.method} ${sandboxPrefix}${example.path}`,
    'Authorization: Bearer <key>',
    ...(example.body === undefined ? [] : ['Content-Type: application/json', '', json(example.body)]),
    '```',
    '',
    'The reference mock answers:',
    '',
    '```http',
    `HTTP/1.1 ${example.status}`,
    ...(example.answer === undefined ? [] : ['Content-Type: application/json', '', json(example.answer)]),
    '```',
  ];
}

function operationSection(op: Operation, example: Example | undefined): string[] {
  const lines = [
    `### ${code(op.id)}: ${op.method} ${op.path}`,
    '',
    op.undocumented
      ? `${op.summary}.`
      : `${op.summary} (the reference's *${op.section}*).` +
        (op.rules === undefined
          ? ''
          : ` Rules: success ${op.rules.success}, shape ${op.rules.shape}, without a valid key ` +
            `${op.rules.unauthorised}, invalid input ${op.rules.invalidInput}` +
            `${op.rules.contentType === undefined ? '' : `, Content-Type ${op.rules.contentType}`}.`),
    '',
  ];
  if (op.parameters.length > 0)
    lines.push(
      '| Path parameter | Type | Meaning |',
      '|---|---|---|',
      ...op.parameters.map((parameter) =>
        [`| ${code(parameter.name)}`, parameter.schema.type, `${cell(parameter.description)} |`].join(' | '),
      ),
      '',
    );
  if (op.requestBody !== undefined)
    lines.push(
      `Request body (\`schemas/${op.requestBody}.schema.json\`):`,
      '',
      ...fieldTable(op.requestBody as SchemaName, true),
      '',
    );
  else lines.push('Request body: none.', '');
  lines.push(
    '| Answer | Shown by | Meaning | Shape |',
    '|---|---|---|---|',
    ...op.responses.map(
      (response) =>
        `| ${response.status} | ${response.kind === 'documented' ? 'the reference' : 'the suite (inferred)'} | ` +
        `${cell(response.description)} | ${response.schema === undefined ? '—' : code(`${response.schema}`)} |`,
    ),
    '',
  );
  const shape = op.responses.find((response) => response.schema !== undefined)?.schema;
  if (shape !== undefined)
    lines.push(
      `Answer shape (\`schemas/${shape}.schema.json\`, ${typeOf(schemaDocument(shape as SchemaName))}):`,
      '',
      ...fieldTable(shape as SchemaName, false),
      '',
    );
  if (example !== undefined) lines.push('Example:', '', ...exampleBlock(example), '');
  if (op.requestBody !== undefined) {
    const cases = caseTable(op.requestBody as SchemaName);
    if (cases.length > 0)
      lines.push(
        `Input classes of this body's fields (\`specs/input-cases/\`; every other field safe):`,
        '',
        ...cases,
        '',
      );
  }
  return lines;
}

function mockSection(): string[] {
  const accounts = [
    { name: 'the first sandbox account', seed: seedFor('sandbox', 'primary') },
    { name: 'the second sandbox account', seed: seedFor('sandbox', 'second') },
  ];
  const modes = [...new Set(seedFor('sandbox').currencies.flatMap((currency) => currency.modes))];
  return [
    '## The reference mock: keys, ids and payment modes',
    '',
    `\`collect-conformance mock\` serves the sandbox at \`${sandboxPrefix}\` and the live environment at ` +
      `\`${livePrefix}\` of its address, and prints both keys (the live one looks live: \`${defaultLiveKey}\`). ` +
      'The default run starts it on a free port and uses its keys and ids ([the mock](mock.md)).',
    '',
    `Payment modes a send accepts (\`POST /transactions/{mode}\`): ${modes.map(code).join(', ')}. Any other mode ` +
      'is answered 404 with the error code `unknown_mode`.',
    '',
    '| Account | Currencies (id: iso, modes) | Balances (id: mode, amount) |',
    '|---|---|---|',
    ...accounts.map(
      ({ name, seed }) =>
        `| ${name} (account ${seed.accountId}) | ` +
        `${seed.currencies.map((c) => `${c.id}: ${c.iso}, ${c.modes.join(' ')}`).join('; ')} | ` +
        `${seed.balances.map((balance) => `${balance.id}: ${balance.mode}, ${balance.amount}`).join('; ')} |`,
    ),
    '',
    '`PCS_BALANCE_ID=1`, `PCS_CURRENCY_ID=1` and `PCS_SECOND_BALANCE_ID=11` name these; against a server of ' +
      'yours, give ids it has.',
    '',
  ];
}

function classesSection(): string[] {
  const success = operations.flatMap((op) => (op.rules === undefined ? [] : [op.rules.success]));
  return [
    '## Input classes: what a request is owed',
    '',
    'Every request is judged by the class of its input ([outcome classes](../explanations/outcome-classes.md)):',
    '',
    '- **must accept**: every field has its documented type, meets what `--strict` reads into the reference, ' +
      'and lies within the safe values of the tables below: a 2xx and a conforming answer are owed. Only such a ' +
      `request exercises the success rules (${[...new Set(success)].join(', ')}).`,
    '- **must refuse**: a field has another JSON type that no reading makes valid, or a field the reference ' +
      'requires is null or left out: a 4xx is owed, never a 2xx or a 5xx.',
    '- **accept or refuse**: the reference leaves the value open (a value outside the safe values, a reading ' +
      'such as `"1500"` for 1500, null for "not given"): a 4xx, or a 2xx whose answer conforms and carries the ' +
      'value as read; never a 5xx. `--strict` turns the lenient readings into must refuse.',
    '',
    'So a request of your SDK that is valid but outside the safe values (another form of phone number, an ' +
      'amount past 100000, a description with characters beyond printable ASCII) is accept or refuse: the ' +
      "traffic's coverage counts the success rules of its operation as not exercised by it. Each operation below " +
      'lists the safe values of its body and the input classes of the cases the suite sends.',
    '',
  ];
}

/** The whole page. */
export async function renderShapesDoc(): Promise<string> {
  const examples = await mockExamples();
  const documented = operations.filter((op) => !op.undocumented);
  const helpers = operations.filter((op) => op.undocumented);
  const lines = [
    '# Request and answer shapes',
    '',
    '<!-- Generated from schemas/, specs/input-cases/, contract/operations.ts and mock/seed.ts by',
    '     npm run shapes:generate, with examples from the reference mock: do not edit by hand;',
    '     a unit test fails while this file is stale. -->',
    '',
    'Every operation of the Payment Collection Service API as the suite checks it: the request, the answers and ' +
      "their shapes, with an example of each from the reference mock; the mock's keys, ids and payment modes; and " +
      'the input classes a request falls into. Paths are relative to the base address, which ends in `/v1`; every ' +
      'request carries `Authorization: Bearer <key>`, and a JSON body `Content-Type: application/json`. The ' +
      "reference is the authority; the shapes are the suite's reading of it (`schemas/`, with what `--strict` " +
      'reads into the reference and the safe values the suite sends), and the [rules](rules.md) say what each ' +
      'answer owes. In the examples, the values that change from one run to the next (timestamps, references, ' +
      'tokens) are fixed.',
    '',
    ...classesSection(),
    ...mockSection(),
    '## Operations',
    '',
    ...documented.flatMap((op) =>
      operationSection(
        op,
        examples.find((example) => example.operation === op.id),
      ),
    ),
    "## The suite's helper",
    '',
    'The reference says these exist but does not show them; the suite uses them to get what it needs (a customer ' +
      'it can delete), and judges them only as far as it relies on them.',
    '',
    ...helpers.flatMap((op) =>
      operationSection(
        op,
        examples.find((example) => example.operation === op.id),
      ),
    ),
  ];
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

async function main(args: readonly string[]): Promise<number> {
  const rendered = await renderShapesDoc();
  const current = (() => {
    try {
      return readFileSync(shapesDocFile, 'utf8');
    } catch {
      return '';
    }
  })();
  if (current === rendered) return 0;
  if (args.includes('--check')) {
    console.error('docs/reference/shapes.md is stale: run npm run shapes:generate');
    return 1;
  }
  writeFileSync(shapesDocFile, rendered);
  console.log('docs/reference/shapes.md: written from schemas/, specs/, contract/operations.ts and the mock');
  return 0;
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href)
  process.exitCode = await main(process.argv.slice(2));
