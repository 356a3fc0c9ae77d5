/**
 * What the command hands to Playwright, checked before Playwright starts: the reporter names,
 * the grep pattern, and the arguments after `--`, against the options Playwright's own
 * `test` command declares. Playwright reports such mistakes with a stack trace and exit code 1
 * (the code of non-conformance), or not at all; here each is a UsageError: one line, exit 2.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { UsageError } from './args.ts';
import { regExpPattern, reporterNames, shard } from '../settings/selection-values.ts';
import { shown } from '../settings/setting-values.ts';

const require = createRequire(import.meta.url);
/** Playwright as @playwright/test loads it (the same copy, wherever npm put it). */
const playwrightRequire = createRequire(require.resolve('@playwright/test/package.json'));

/** What this module reads of a commander Option. */
interface DeclaredOption {
  long?: string;
  short?: string;
  /** Takes a value that must be there (<value>). */
  required: boolean;
  /** Takes a value that may be absent ([value]). */
  optional: boolean;
  variadic: boolean;
  argChoices?: string[];
}

interface CommandLike {
  name(): string;
  options: readonly DeclaredOption[];
}

let declaredOptions: readonly DeclaredOption[] | undefined;

/** The options of `playwright test`, read from Playwright's own command definition (loaded only when needed). */
function testOptions(): readonly DeclaredOption[] {
  if (declaredOptions === undefined) {
    const { program } = playwrightRequire('playwright/lib/program') as {
      program: { commands: readonly CommandLike[] };
    };
    const command = program.commands.find((candidate) => candidate.name() === 'test');
    if (!command) throw new Error('Playwright declares no "test" command');
    declaredOptions = command.options;
  }
  return declaredOptions;
}

/** Playwright's reporters that need no module (playwright/lib/common's builtInReporters). */
function builtInReporters(): readonly string[] {
  return (playwrightRequire('playwright/lib/common') as { builtInReporters: readonly string[] }).builtInReporters;
}

export function checkRegExp(pattern: string, what: string): void {
  const parsed = regExpPattern(pattern);
  if (!parsed.ok) throw new UsageError(`${what}: ${parsed.problem}`);
}

/**
 * A reporter list as Playwright's --reporter takes it (comma-separated): each name is built in,
 * a file relative to the working directory, or a module resolvable from it.
 */
export function reporterProblem(value: string, cwd: string = process.cwd()): string | undefined {
  const names = reporterNames(value);
  if (!names.ok) return names.problem;
  for (const name of value.split(',')) {
    if (builtInReporters().includes(name) || existsSync(resolve(cwd, name))) continue;
    try {
      createRequire(join(cwd, 'package.json')).resolve(name);
    } catch {
      return (
        `${shown(name, 60)} is neither a Playwright reporter ` +
        `(${builtInReporters().join(', ')}) nor a module found from ${cwd}`
      );
    }
  }
  return undefined;
}

export function checkReporters(value: string, cwd: string = process.cwd(), what = '--reporter'): void {
  const problem = reporterProblem(value, cwd);
  if (problem !== undefined) throw new UsageError(`${what}: ${problem}`);
}

const wholeNumber = /^\d{1,9}$/;

/** A shard as --shard takes it (i/n, 1 <= i <= n); Playwright answers a wrong one with an 11-line error. */
export function shardProblem(value: string): string | undefined {
  const parsed = shard(value);
  return parsed.ok ? undefined : parsed.problem;
}

/** Values Playwright would refuse with a stack trace, or misread. */
function checkValue(option: DeclaredOption, name: string, value: string, cwd: string): void {
  if (option.argChoices && !option.argChoices.includes(value)) {
    throw new UsageError(
      `${name} after --: must be one of ${option.argChoices.join(', ')}, got "${value.slice(0, 40)}"`,
    );
  }
  switch (option.long) {
    case '--grep':
    case '--grep-invert':
      checkRegExp(value, `${name} after --`);
      break;
    case '--reporter':
      checkReporters(value, cwd, `${name} after --`);
      break;
    case '--workers':
      if (!/^\d{1,3}%?$/.test(value) || Number.parseInt(value, 10) < 1)
        throw new UsageError(
          `${name} after --: must be a positive number of workers or a percentage, got "${value.slice(0, 40)}"`,
        );
      break;
    case '--shard': {
      const problem = shardProblem(value);
      if (problem) throw new UsageError(`${name} after --: ${problem}`);
      break;
    }
    case '--retries':
    case '--repeat-each':
    case '--max-failures':
    case '--timeout':
    case '--global-timeout':
      if (!wholeNumber.test(value))
        throw new UsageError(`${name} after --: must be a whole number, got "${value.slice(0, 40)}"`);
      break;
    default:
      break;
  }
}

function findOption(name: string): DeclaredOption | undefined {
  return testOptions().find(
    (option) =>
      option.long === name ||
      option.short === name ||
      (option.long !== undefined && `--no-${option.long.slice(2)}` === name),
  );
}

/** Options the command sets itself: given again after `--`, they would replace the suite's own configuration. */
const ownedByTheCommand = new Set(['--config']);

/**
 * Checks the arguments after `--` as Playwright's `test` command would parse them (commander):
 * known options only, their values present and valid, test filters valid regular expressions.
 */
export function checkPassThrough(args: readonly string[], cwd: string = process.cwd()): void {
  let index = 0;
  let positionalOnly = false;
  while (index < args.length) {
    const arg = args[index]!;
    index += 1;
    if (positionalOnly || !arg.startsWith('-') || arg === '-') {
      checkRegExp(arg, `test filter "${arg.slice(0, 40)}" after --`);
      continue;
    }
    if (arg === '--') {
      positionalOnly = true;
      continue;
    }
    const long = arg.startsWith('--');
    const equals = long ? arg.indexOf('=') : -1;
    const name = long ? (equals === -1 ? arg : arg.slice(0, equals)) : arg.slice(0, 2);
    const option = findOption(name);
    if (!option)
      throw new UsageError(`unknown Playwright option ${name.slice(0, 40)} after -- (see npx playwright test --help)`);
    if (option.long !== undefined && ownedByTheCommand.has(option.long)) {
      throw new UsageError(
        `${name} after --: the command runs the suite with its own Playwright configuration; ` +
          `use its flags instead (see --help)`,
      );
    }
    let attached: string | undefined;
    if (long && equals !== -1) attached = arg.slice(equals + 1);
    else if (!long && arg.length > 2) attached = arg.slice(2);
    if (!option.required && !option.optional) {
      if (long && attached !== undefined) throw new UsageError(`${name} after --: takes no value`);
      // Grouped short switches (-xq): each must be a known switch too.
      if (attached !== undefined) {
        for (const letter of attached) {
          const grouped = findOption(`-${letter}`);
          if (!grouped || grouped.required || grouped.optional)
            throw new UsageError(`unknown Playwright option -${letter} after -- (see npx playwright test --help)`);
        }
      }
      continue;
    }
    const values: string[] = [];
    if (attached !== undefined) values.push(attached);
    else if (option.required && index < args.length) {
      values.push(args[index]!);
      index += 1;
    } else if (option.optional && index < args.length && !args[index]!.startsWith('-')) {
      values.push(args[index]!);
      index += 1;
    }
    if (option.required && values.length === 0)
      throw new UsageError(`${name} after -- needs a value (see npx playwright test --help)`);
    if (option.variadic) {
      while (index < args.length && !args[index]!.startsWith('-')) {
        values.push(args[index]!);
        index += 1;
      }
    }
    for (const value of values) checkValue(option, name, value, cwd);
  }
}
