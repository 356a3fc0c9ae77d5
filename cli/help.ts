/**
 * The --help texts: the main one (every command, the run's flags and variables, the exit codes: a
 * public interface) and each command's own (`collect-conformance proxy --help`, `npm run
 * conformance:shard -- --help`...). Every flag line, with its variable and default, and every usage
 * line are printed from the settings table (settings/settings.ts); what a command does is
 * written here, once.
 */
import {
  commands,
  commandsOf,
  isSetting,
  rowsOf,
  sections,
  summaryOf,
  valueFlagName,
  type CommandName,
  type TableRow,
} from '../settings/settings.ts';
import { commandDefault, flagUsage, flagVariable, plainText, wrapWords } from '../settings/setting-texts.ts';

const width = 118;

/** What each command takes besides its flags, and what it does. */
const commandTexts: Record<CommandName, { operands?: string; title: string; about: string }> = {
  run: {
    operands: '[-- <playwright test arguments>]',
    title: 'the conformance run',
    about:
      'Runs the conformance suite against the base address of PCS_BASE_URL (--base-url), or, without one, ' +
      'against the embedded reference mock. Arguments after -- go to `playwright test` and are checked against ' +
      'its options first.',
  },
  proxy: {
    operands: '[-- COMMAND ARGS...]',
    title: 'traffic through a proxy',
    about:
      "A client's own traffic, judged by the suite's rules: proxy forwards http://127.0.0.1:PORT/v1 to --upstream " +
      '(else PCS_BASE_URL, else the embedded mock, whose keys and ids the command then gets) byte for byte, and ' +
      'reports when COMMAND ends (it finds the proxy’s base address in COLLECT_CONFORMANCE_PROXY_URL and ' +
      'PCS_BASE_URL) or, without one, on SIGINT or SIGTERM. A Node SDK’s own requests (fetch, undici, axios) are ' +
      "recorded this way: Playwright's recordHar sees only a browser page's traffic.",
  },
  judge: {
    operands: 'FILE.har [FILE.har ...]',
    title: 'recorded traffic',
    about:
      "A client's recorded traffic, judged by the suite's rules: judge reads HAR 1.2 files (browsers, " +
      "Playwright's recordHar, mitmproxy, Charles) in their recorded order.",
  },
  mock: {
    title: 'the standalone mock',
    about:
      'Starts the reference mock alone and prints its base URLs, keys, seeded ids and payment modes; it stops on ' +
      'SIGINT, SIGTERM or SIGHUP, and when the process that started it is gone.',
  },
  report: {
    title: 'the Allure report',
    about:
      "Builds the Allure report, offline, from the last run's results (<output dir>/allure-results) into one " +
      'self-contained file, <output dir>/allure-report/index.html (also: npm run report).',
  },
  rules: {
    title: 'the rules catalogue',
    about: 'Lists the rules catalogue, or, with --show, one rule and everything that names it.',
  },
  shard: {
    operands: '[<playwright test arguments>]',
    title: 'one shard of a CI run',
    about:
      'Runs shard I of N (--shard, or PCS_SHARD) with every configured reporter plus a blob report (--blob-dir, ' +
      'or PCS_BLOB_DIR; by default <output dir>/blob-report), for npm run report:merge; exits like a run. Every ' +
      'other argument goes to `playwright test`.',
  },
  merge: {
    title: "merging the shards' reports",
    about:
      "Merges the shards' blob reports into one HTML report, one JUnit file, the conformance matrix and the rule " +
      "coverage under the output directory, and the shards' Allure results into one <output dir>/allure-results, " +
      'then builds the Allure report.',
  },
};

/** The flag's line: the flag as typed, its variable (or that it has none), what it does and its default. */
function flagLine(row: TableRow, command: CommandName, flagWidth: number, variableWidth: number): string[] {
  const fallback = commandDefault(row, command);
  const summary =
    plainText(summaryOf(row, command)) + (fallback !== undefined ? ` (default: ${plainText(fallback)})` : '');
  const left = `  ${flagUsage(row).padEnd(flagWidth)}  ${(flagVariable(row) ?? '(flag only)').padEnd(variableWidth)}  `;
  const [first = '', ...more] = wrapWords(summary, width - left.length);
  return [`${left}${first}`, ...more.map((line) => `${' '.repeat(left.length)}${line}`)];
}

/** The refused flags that would carry a key, for a command that takes keys. */
function refusedKeyFlags(command: CommandName): string[] {
  const refused = rowsOf(command)
    .filter(isSetting)
    .filter((row) => row.secret === true);
  if (refused.length === 0) return [];
  return wrapWords(
    `${refused.map((row) => `--${valueFlagName(row)}`).join(' and ')} are refused: keys are read from ` +
      'variables (the flags above name them), never typed on a command line, where shell history and process ' +
      'lists keep them.',
    width - 2,
  ).map((line) => `  ${line}`);
}

/**
 * A command's flags, by section for the run, each with its variable and default. `ownOnly`: the flags it does
 * not share with the run in full, the others named in one line (the main --help, which lists the run's above).
 */
export function flagsHelp(command: CommandName, ownOnly = false): string {
  const all = rowsOf(command);
  const shared = ownOnly && command !== 'run' ? all.filter((row) => commandsOf(row).includes('run')) : [];
  const rows = all.filter((row) => !shared.includes(row));
  const flagWidth = Math.max(...rows.map((row) => flagUsage(row).length), '--help'.length);
  const variableWidth = Math.max(...rows.map((row) => (flagVariable(row) ?? '(flag only)').length));
  const lines: string[] = [];
  // The run's flags by section; another command's in its own order (its own flags first).
  const groups: Array<[string | undefined, readonly TableRow[]]> =
    command === 'run'
      ? Object.entries(sections).map(([section, title]) => [title, rows.filter((row) => row.section === section)])
      : [[undefined, rows]];
  for (const [title, inGroup] of groups) {
    if (inGroup.length === 0) continue;
    if (title !== undefined) lines.push(` ${title}:`);
    for (const row of inGroup) lines.push(...flagLine(row, command, flagWidth, variableWidth));
  }
  if (shared.length > 0)
    lines.push(
      ...wrapWords(`and the run flags ${shared.map((row) => `--${row.flag.name}`).join(', ')}`, width - 2).map(
        (line) => `  ${line}`,
      ),
    );
  if (!ownOnly) lines.push(`  ${'--help'.padEnd(flagWidth)}  ${''.padEnd(variableWidth)}  this help`);
  if (!ownOnly || command === 'run') lines.push(...refusedKeyFlags(command));
  return lines.join('\n');
}

/** The run flags, by section, each with its variable and default. */
export const runFlagsHelp = (): string => flagsHelp('run');

/** A command's usage line: its flags listed when they are few, its operands. */
export function usageLine(command: CommandName): string {
  const rows = rowsOf(command);
  const flags = rows.length <= 6 ? rows.map((row) => `[${flagUsage(row)}]`).join(' ') : '[flags]';
  const { operands } = commandTexts[command];
  const parts = command === 'judge' ? [commands[command], operands, flags] : [commands[command], flags, operands];
  return parts.filter((part): part is string => part !== undefined).join(' ');
}

const exitCodes = `Exit codes:
  0  every selected check passed
  1  non-conformance found (wins over 3: a broken rule is 1 even when the target was also unavailable)
  2  usage or configuration error
  3  target unavailable (unreachable, DNS, TLS, persistent rate limiting); for proxy and judge, also traffic
     not judged (counted with why) or nothing judged: inconclusive
  4  internal error: collect-conformance itself failed (one line says what); nothing was decided about the target
  130, 143, 129  stopped by SIGINT, SIGTERM or SIGHUP (after the run's cleanup)
  137  the test runner was killed outright (kill -9; 128 + the signal's number): its cleanup did not run`;

const wrapped = (text: string, indent = ''): string =>
  wrapWords(plainText(text), width - indent.length)
    .map((line) => `${indent}${line}`)
    .join('\n');

/** The --help of one command. */
export function commandHelp(command: CommandName): string {
  const text = commandTexts[command];
  return `${commands[command].replace(/ --$/, '')}: ${text.title}

Usage:
  ${usageLine(command)}

${wrapped(text.about)}

${
  rowsOf(command).some(isSetting)
    ? 'Flags (each sets the variable beside it; flags win over the environment, which wins over .env):'
    : 'Flags:'
}
${flagsHelp(command)}

${exitCodes}
`;
}

const sentenceCase = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

const otherCommands = (Object.keys(commands) as CommandName[]).filter((command) => command !== 'run');

export const helpText = `collect-conformance: conformance suite for the Payment Collection Service API

Usage:
${(Object.keys(commands) as CommandName[]).map((command) => `  ${usageLine(command)}`).join('\n')}
  collect-conformance COMMAND --help   (one command's flags)
  collect-conformance --help | --version

${wrapped(commandTexts.run.about)}

Run flags: each sets the variable beside it (a switch, to the value shown); flags win over the environment,
which wins over .env. Every variable can be set in the environment or .env instead of its flag.
${runFlagsHelp()}

A PCS_* variable set but empty, a PCS_* name in .env not listed above, or PCS_SECRET_KEY without PCS_BASE_URL is
a configuration error (exit 2): unset a variable for its default. A PCS_* name in the environment not listed
above gets a warning, with the nearest known name, and the run goes on (the environment is shared: a CI job's own
PCS_* variables are not the suite's). An unknown flag gets the nearest known one suggested.
NODE_DEBUG, NODE_DEBUG_NATIVE and NODE_OPTIONS flags that would print or write the key
(--report-on-signal, --heapsnapshot-signal, --trace-tls, --inspect, ...) are refused.
${otherCommands
  .map(
    (command) =>
      `\n${sentenceCase(commandTexts[command].title)} (${commands[command].replace(/ --$/, '')}):\n` +
      `${wrapped(commandTexts[command].about, '  ')}\n${flagsHelp(command, true)}`,
  )
  .join('\n')}

Exit codes of proxy and judge are a run's: 3 when the upstream was unreachable or answered 429/502/503/504 and no
rule broke.

${exitCodes}
`;
