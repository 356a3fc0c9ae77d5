/**
 * Renders docs/reference/rules.md from specs/rules.json: every rule with its id, kind,
 * operations, sentence, the reference's words and the class of the inputs it judges.
 * The whole file is generated; the prose around the catalogue lives here.
 *
 *   npm run docs:generate                 rewrite docs/reference/rules.md (and the gap table)
 *   npx tsx lab/rules-doc.ts --check      exit 1 when docs/reference/rules.md is stale
 *
 * The catalogue is read as plain JSON and only the fields below are used: a field added to
 * specs/rules.json changes nothing here until this file is taught to show it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { operations } from '../contract/operations.ts';

export const rulesJsonFile = fileURLToPath(new URL('../specs/rules.json', import.meta.url));
export const rulesDocFile = fileURLToPath(new URL('../docs/reference/rules.md', import.meta.url));

interface RuleEntry {
  id: string;
  kind: string;
  section: string;
  operations: string[];
  text: string;
  reference: string;
  quirk: boolean;
  input?: { class: string; strict: string };
}

const asText = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The fields the page shows, read defensively: unknown fields are ignored. */
export function readRules(json = readFileSync(rulesJsonFile, 'utf8')): { reference: string; rules: RuleEntry[] } {
  const catalogue = JSON.parse(json) as { reference?: unknown; rules?: unknown };
  if (!Array.isArray(catalogue.rules)) throw new Error('specs/rules.json: no "rules" array');
  const rules = catalogue.rules.map((raw: Record<string, unknown>): RuleEntry => {
    const input = raw.input as Record<string, unknown> | undefined;
    const known = input !== null && typeof input === 'object';
    const inputClass = known ? { class: asText(input.class), strict: asText(input.strict) } : undefined;
    return {
      id: asText(raw.id),
      kind: asText(raw.kind),
      section: asText(raw.section),
      operations: Array.isArray(raw.operations) ? raw.operations.map(asText) : [],
      text: asText(raw.text),
      reference: asText(raw.reference),
      quirk: raw.quirk === true,
      ...(inputClass ? { input: inputClass } : {}),
    };
  });
  return { reference: asText(catalogue.reference), rules };
}

/** GitHub's anchor of a heading that is a rule id. */
export const ruleAnchor = (id: string): string => id.toLowerCase();

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
/** A class in words, also inside a sentence (what --strict does, by kind of input). */
const className = (value: string): string =>
  value.replace(/\b(must-accept|must-refuse|accept-or-refuse)\b/g, (name) => name.replace(/-/g, ' '));

function operationLabel(id: string): string {
  const found = operations.find((operation) => operation.id === id);
  return found ? `\`${id}\` (${found.method} ${found.path})` : `\`${id}\``;
}

const preamble = (reference: string): string[] => [
  '# Rules',
  '',
  '<!-- Generated from specs/rules.json by npm run docs:generate (lab/rules-doc.ts). Do not edit by hand:',
  '     a unit test fails while this file is stale. -->',
  '',
  'The rules catalogue, `specs/rules.json`, holds every rule the reference',
  `(${reference || 'the API reference'}) states: a stable id, its kind, the reference section, the`,
  "operations it concerns, the rule in one sentence and the reference's own words. Rules about request",
  'inputs also carry the class of the inputs they judge ([outcome classes](../explanations/outcome-classes.md)).',
  '',
  '- **documented** rules are what the reference says (204/404/401 on delete, the documented fields and types',
  '  of every response, the type quirks, bearer authentication, ...).',
  "- **inferred** rules are the suite's reading where the reference is silent (401 on operations other than",
  '  delete, 4xx rather than 5xx for a malformed body, the array returned for an id contains that id, ...).',
  "  Each one comes from a row of [how the suite reads the reference's gaps](../explanations/gaps.md).",
  '',
  'From the command line:',
  '',
  '```sh',
  'npx collect-conformance rules                   # the catalogue (npm run rules in a checkout)',
  'npx collect-conformance rules --json            # the same, as JSON',
  'npx collect-conformance rules --kind inferred   # one kind',
  'npx collect-conformance rules --show ID         # one rule with its tests, mutants and variants',
  '```',
  '',
  '## Selecting tests by rule',
  '',
  'Every test names the rules it checks as Playwright tags (`@CUSTOMER-DELETE-204`), plus its kind',
  '(`@documented` or `@inferred`) and `@quirk` for the type quirks, so runs can be selected:',
  '',
  '```sh',
  'npm run conformance -- --documented-only          # documented rules only (a release gate)',
  'npm run conformance -- --grep @quirk              # the type quirks',
  'npm run conformance -- --grep @SEND-TOKEN-INTEGER # one rule',
  '```',
  '',
  'A test of the project (`tests/integration/rule-coverage.test.ts`) fails when a rule of the catalogue has no',
  'test, when a test names no rule, or when a test mixes kinds.',
  '',
  '## The type quirks',
  '',
  'The type quirks the reference documents are rules of their own:',
  '',
  '| Quirk | Rules |',
  '|---|---|',
  '| The link operation returns the token as a string; the send payload shape types it as an integer | ' +
    '`LINK-TOKEN-STRING`, `SEND-TOKEN-AS-RETURNED`, `SEND-TOKEN-INTEGER` |',
  '| `phone_number.number` is a number in the creation shape, a string in the send shape | ' +
    '`TXN-CREATE-PHONE-NUMBER-NUMERIC`, `SEND-PHONE-NUMBER-STRING` |',
  '| `mode` is accepted on creation although absent from the body shape | `TXN-CREATE-MODE-ACCEPTED` |',
  '| GET balance and GET currency return arrays | `BALANCE-ARRAY`, `CURRENCY-ARRAY` |',
  '',
];

export function renderRulesDoc(json?: string): string {
  const { reference, rules } = readRules(json);
  const documented = rules.filter((rule) => rule.kind === 'documented').length;
  const lines = [
    ...preamble(reference),
    '## The catalogue',
    '',
    `${rules.length} rules: ${documented} documented, ${rules.length - documented} inferred.`,
    '',
    '| Rule | Kind | Operations | Input class (default; `--strict`) |',
    '|---|---|---|---|',
  ];
  for (const rule of rules) {
    const input = rule.input ? `${className(rule.input.class)}; ${className(rule.input.strict)}` : '—';
    const kind = `${rule.kind}${rule.quirk ? ', quirk' : ''}`;
    const operationIds = rule.operations.map((id) => `\`${id}\``).join(', ');
    lines.push(`| [${rule.id}](#${ruleAnchor(rule.id)}) | ${kind} | ${operationIds} | ${cell(input)} |`);
  }
  for (const rule of rules) {
    lines.push('', `### ${rule.id}`, '', rule.text, '');
    lines.push(`- Kind: ${rule.kind}${rule.quirk ? ' (a type quirk: tag `@quirk`)' : ''}; tag \`@${rule.id}\``);
    lines.push(`- Operations: ${rule.operations.map(operationLabel).join(', ') || '—'}`);
    lines.push(`- Reference section: ${rule.section || '—'}`);
    lines.push(`- The reference's words: "${rule.reference}"`);
    if (rule.input) {
      const strict = rule.input.strict === rule.input.class ? 'the same' : className(rule.input.strict);
      lines.push(`- Input class: ${className(rule.input.class)}; with \`--strict\`: ${strict}`);
    }
  }
  lines.push('');
  return lines.join('\n');
}

function main(args: readonly string[]): number {
  const rendered = renderRulesDoc();
  let current = '';
  try {
    current = readFileSync(rulesDocFile, 'utf8');
  } catch {
    // not written yet
  }
  if (args.includes('--check')) {
    if (current !== rendered) {
      console.error('docs/reference/rules.md is stale: run npm run docs:generate');
      return 1;
    }
    return 0;
  }
  if (current !== rendered) writeFileSync(rulesDocFile, rendered);
  console.log('docs/reference/rules.md: written from specs/rules.json');
  return 0;
}

const entry = process.argv[1];
const isEntry = entry !== undefined && import.meta.url === pathToFileURL(entry).href;
if (isEntry) process.exitCode = main(process.argv.slice(2));
