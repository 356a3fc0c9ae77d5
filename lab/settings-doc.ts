/**
 * Writes what the settings table (settings/settings.ts) says to people: the tables of
 * docs/reference/configuration.md (the run flags, and the variables of each section, between the
 * markers <!-- settings:begin NAME ... --> and <!-- settings:end NAME -->; the prose around them is
 * written by hand) and the whole .env.example.
 *
 *   npm run settings:generate                 rewrite both (npm run docs:generate: every generated doc)
 *   npx tsx lab/settings-doc.ts --check       exit 1 when either is stale
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  commands,
  isSetting,
  rowsOf,
  sections,
  valueFlagName,
  variableSettings,
  type AnySetting,
  type CommandName,
  type Section,
} from '../settings/settings.ts';
import { usageLine } from '../cli/help.ts';
import {
  commandDefault,
  defaultMarkdown,
  exampleValue,
  flagUsage,
  flagVariable,
  plainText,
  wrapWords,
} from '../settings/setting-texts.ts';

export const configurationDocFile = fileURLToPath(new URL('../docs/reference/configuration.md', import.meta.url));
export const envExampleFile = fileURLToPath(new URL('../.env.example', import.meta.url));

const generatedBy = 'generated from settings/settings.ts by npm run settings:generate';
const beginMarker = (name: string): string => `<!-- settings:begin ${name} (${generatedBy}) -->`;
const endMarker = (name: string): string => `<!-- settings:end ${name} -->`;

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (text: string): string => `\`${text}\``;
// A text that opens with a value (`no` reports ...) keeps the value's case.
const sentence = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** Every flag of the run command, with its variable and what it does. */
export function renderFlagsTable(): string {
  const lines = ['| Flag | Variable | Meaning |', '|---|---|---|'];
  for (const row of rowsOf('run')) {
    const variableCell = isSetting(row) ? code(flagVariable(row) ?? row.variable) : `none: ${row.whyNoVariable}`;
    lines.push(`| ${cell(code(flagUsage(row)))} | ${cell(variableCell)} | ${cell(sentence(row.summary))} |`);
  }
  const secrets = variableSettings.filter((row) => row.secret === true);
  lines.push(
    `| ${secrets.map((row) => code(`--${valueFlagName(row)}`)).join(', ')} | — | Refused, with one line and exit ` +
      'code 2, whatever follows them: a key on a command line ends up in shell history and process lists. The ' +
      `key is read from ${secrets.map((row) => code(row.variable)).join(' or ')}, or from the variable named by ` +
      `${secrets.map((row) => code(flagUsage(row))).join(' or ')} |`,
  );
  return lines.join('\n');
}

/** The variables of one section, with their flag, default, meaning and accepted values. */
export function renderVariablesTable(section: Section): string {
  const lines = ['| Variable | Flag | Default | Meaning | Accepted values |', '|---|---|---|---|---|'];
  for (const row of variableSettings.filter((candidate) => candidate.section === section)) {
    const cells = [
      code(row.variable),
      code(flagUsage(row)),
      defaultMarkdown(row) ?? '—',
      sentence(row.meaning ?? row.summary),
      row.accepted,
    ];
    lines.push(`| ${cells.map(cell).join(' | ')} |`);
  }
  return lines.join('\n');
}

/** The flags of a command other than the run: the flag, its variable or none, its default, what it does. */
export function renderCommandFlagsTable(command: CommandName): string {
  const lines = ['| Flag | Variable | Default | Meaning |', '|---|---|---|---|'];
  for (const row of rowsOf(command)) {
    const fallback = commandDefault(row, command);
    // A flag of the command's own with its documentation's words; a flag shared with the run, as its flag line.
    const meaning = row.summaryFor?.[command] ?? (isSetting(row) ? row.summary : (row.meaning ?? row.summary));
    const cells = [
      code(flagUsage(row)),
      isSetting(row) ? code(flagVariable(row) ?? row.variable) : 'none',
      fallback ?? '—',
      sentence(meaning),
    ];
    lines.push(`| ${cells.map(cell).join(' | ')} |`);
  }
  lines.push("| `--help` | none | — | This command's flags, and nothing run |");
  return lines.join('\n');
}

/** Every command's usage line, as --help prints it. */
export function renderUsage(): string {
  const usage = (Object.keys(commands) as CommandName[]).map(usageLine);
  return ['```', ...usage, 'collect-conformance COMMAND --help', 'collect-conformance --help | --version', '```'].join(
    '\n',
  );
}

/** The generated blocks of configuration.md by name: the flags, and each section that has variables. */
export function generatedBlocks(): Map<string, string> {
  const blocks = new Map<string, string>([
    ['usage', renderUsage()],
    ['flags', renderFlagsTable()],
  ]);
  for (const command of Object.keys(commands) as CommandName[])
    if (command !== 'run') blocks.set(`flags:${command}`, renderCommandFlagsTable(command));
  for (const section of Object.keys(sections) as Section[]) {
    if (variableSettings.some((row) => row.section === section))
      blocks.set(`variables:${section}`, renderVariablesTable(section));
  }
  return blocks;
}

/** The page with every generated block replaced; a block missing from the page is an error. */
export function renderConfigurationDoc(page: string = readFileSync(configurationDocFile, 'utf8')): string {
  let result = page;
  for (const [name, block] of generatedBlocks()) {
    const begin = beginMarker(name);
    const end = endMarker(name);
    const from = result.indexOf(begin);
    const to = result.indexOf(end);
    if (from === -1 || to === -1 || to < from)
      throw new Error(`docs/reference/configuration.md: the markers ${begin} and ${end} are missing`);
    result = `${result.slice(0, from + begin.length)}\n${block}\n${result.slice(to)}`;
  }
  const unknown = [...result.matchAll(/<!-- settings:begin (\S+)/g)]
    .map((match) => match[1]!)
    .filter((name) => !generatedBlocks().has(name));
  if (unknown.length > 0)
    throw new Error(`docs/reference/configuration.md: markers of no generated block: ${unknown.join(', ')}`);
  return result;
}

const commentWidth = 100;
const comment = (text: string): string[] => wrapWords(text, commentWidth - 2).map((line) => `# ${line}`);

function envEntry(row: AnySetting): string[] {
  const fallback = defaultMarkdown(row);
  const details = [
    `Flag: ${flagUsage(row)}.`,
    fallback !== undefined ? `Default: ${plainText(fallback)}.` : '',
    `Accepted: ${plainText(row.accepted)}.`,
  ].filter((part) => part !== '');
  const secret = row.secret
    ? ['A secret: in CI, take it from the secret store; never write a real key in a file you commit.']
    : [];
  return [
    ...comment(`${plainText(sentence(row.meaning ?? row.summary))}.`),
    ...comment([...secret, ...details].join(' ')),
    `# ${row.variable}=${exampleValue(row)}`,
  ];
}

/** The whole of .env.example: every variable, commented out, with what it does. */
export function renderEnvExample(): string {
  const lines = [
    ...comment(
      `collect-conformance configuration (${generatedBy}). Copy it to .env (never commit .env) or export the ` +
        'variables; flags of the collect-conformance command win over both (collect-conformance --help lists ' +
        'them). Every line is commented out: a variable left unset takes its default, and one set but empty is ' +
        'refused. Leave PCS_BASE_URL unset to test the embedded reference mock: the suite starts it on a free ' +
        'loopback port and uses its keys and seeded ids.',
    ),
  ];
  for (const [section, title] of Object.entries(sections)) {
    const rows = variableSettings.filter((row) => row.section === section);
    if (rows.length === 0) continue;
    lines.push('', `# --- ${title} ---`);
    for (const row of rows) lines.push('', ...envEntry(row));
  }
  return `${lines.join('\n')}\n`;
}

function main(args: readonly string[]): number {
  const outputs = [
    { file: configurationDocFile, name: 'docs/reference/configuration.md', render: renderConfigurationDoc },
    { file: envExampleFile, name: '.env.example', render: renderEnvExample },
  ];
  let stale = 0;
  for (const output of outputs) {
    const current = readFileSync(output.file, 'utf8');
    const rendered = output.render(current);
    if (current === rendered) continue;
    if (args.includes('--check')) {
      console.error(`${output.name} is stale: run npm run settings:generate`);
      stale += 1;
    } else {
      writeFileSync(output.file, rendered);
      console.log(`${output.name}: written from settings/settings.ts`);
    }
  }
  return stale === 0 ? 0 : 1;
}

const entry = process.argv[1];
const isEntry = entry !== undefined && import.meta.url === pathToFileURL(entry).href;
if (isEntry) process.exitCode = main(process.argv.slice(2));
