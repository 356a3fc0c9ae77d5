/**
 * The values of the settings that choose what the command hands to Playwright: the tests to run
 * (a grep pattern, operations, a shard) and the reporters. Checked before Playwright starts, which
 * answers a wrong one with a stack trace, many lines, or silence.
 */
import { operations } from '../contract/operations.ts';
import { nearestName } from './nearest-name.ts';
import { ok, shown, wrong, type Validator } from './setting-values.ts';

/** Playwright turns --grep, --grep-invert and test filters into regular expressions this way (forceRegExp). */
export function playwrightRegExp(pattern: string): RegExp {
  const literal = /^\/(.*)\/([gi]*)$/.exec(pattern);
  return literal ? new RegExp(literal[1]!, literal[2]) : new RegExp(pattern, 'gi');
}

export const regExpPattern: Validator<string> = (text) => {
  try {
    playwrightRegExp(text);
    return ok(text);
  } catch (error) {
    return wrong(
      `${shown(text, 60)} is not a valid regular expression ` +
        `(${(error as Error).message.replace(/^Invalid regular expression: /, '')})`,
    );
  }
};

/** The documented operations (the undocumented helpers are not the reference's). */
export function operationIds(): string[] {
  return operations.filter((candidate) => !candidate.undocumented).map((candidate) => candidate.id);
}

/** Operation ids, comma-separated (a repeated --operation joins its values so); each one known. */
export const operationList: Validator<string[]> = (text) => {
  const known = operationIds();
  const ids = text.split(',').map((value) => value.trim());
  for (const id of ids) {
    if (known.includes(id)) continue;
    const nearest = nearestName(id, known, (name) => name.toLowerCase());
    return wrong(
      `unknown operation ${shown(id)}${nearest ? `; did you mean ${nearest}?` : ''} (operations: ${known.join(', ')})`,
    );
  }
  return ok([...new Set(ids)]);
};

/** A shard as --shard takes it (i/n, 1 <= i <= n); Playwright answers a wrong one with an 11-line error. */
export const shard: Validator<string> = (text) => {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (!match) return wrong(`must be i/n, e.g. 1/3, got ${shown(text)}`);
  const index = Number(match[1]);
  const total = Number(match[2]);
  return index >= 1 && total >= 1 && index <= total
    ? ok(text)
    : wrong(`must satisfy 1 <= i <= n, got ${text.slice(0, 40)}`);
};

/**
 * Reporter names as Playwright's --reporter takes them (comma-separated). Whether each is a reporter
 * Playwright can load depends on the working directory: the command checks that before it starts
 * Playwright (cli/playwright-options.ts, checkReporters).
 */
export const reporterNames: Validator<string> = (text) =>
  text.split(',').some((name) => name.trim() === '') ? wrong(`an empty reporter name in ${shown(text, 60)}`) : ok(text);

/** The reporters that only swap the console output: the report files are still written. */
export const consoleReporters = ['list', 'line', 'dot'] as const;
export type ConsoleReporter = (typeof consoleReporters)[number];

export function isConsoleReporter(name: string): name is ConsoleReporter {
  return (consoleReporters as readonly string[]).includes(name);
}
