/**
 * Command-line flags of collect-conformance, parsed strictly: an unknown flag, a missing
 * value or a malformed one is a UsageError with a one-line message (exit code 2). An unknown
 * flag gets the nearest known one suggested. What was typed is repeated in a message only
 * when it cannot be a key: a key typed where a flag or a value belongs must not be printed.
 *
 * The one parser of every command (the flags of each come from the settings table, cli/run-flags.ts);
 * `--help` (or `-h`) is a flag of every command: the command prints its help once the rest parsed.
 */
import { nearestName } from '../settings/nearest-name.ts';
import { looksLikeKey } from '../settings/setting-values.ts';

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface FlagSpec {
  name: string;
  /** Takes a value (--name VALUE or --name=VALUE); otherwise a switch. */
  value: boolean;
  /** Checks the value; returns a problem sentence, or undefined when fine. */
  check?: (value: string) => string | undefined;
  /** May be given more than once (--operation a --operation b): the values are joined with commas. */
  repeatable?: boolean;
  /**
   * Recognised only to be refused with this reason (a flag that would carry a key): its value, given
   * or not, is never read.
   */
  refused?: string;
}

export interface ParsedArgs {
  flags: Map<string, string | true>;
  /** Arguments after `--`, passed through untouched (with `passThrough`, every argument that is not a flag here). */
  rest: string[];
  /** Arguments that are not flags (files to read), for a command that takes them. */
  positionals: string[];
  /** `--help` or `-h` was given: the command prints its help instead of running. */
  help: boolean;
}

export interface ParseOptions {
  /** Arguments that are not flags are files to read (positionals), not mistakes. */
  positionals?: boolean;
  /**
   * The command hands what is not its own to another program (the shards' run to Playwright): an argument
   * that is none of its flags, nor a flag's value, goes to `rest` in its order, wherever it stands.
   */
  passThrough?: boolean;
}

const helpFlags = ['--help', '-h'];

/** A stray argument, quoted only when it is plainly a word, a number or a path. */
function strayArgument(arg: string): string {
  return /^[A-Za-z0-9._/:@-]{1,60}$/.test(arg) && !looksLikeKey(arg)
    ? `unexpected argument "${arg}" (see --help)`
    : 'unexpected argument (not shown: it may be a secret; see --help)';
}

/** A flag that is not one, with the nearest that is. */
function unknownFlag(name: string, specs: readonly FlagSpec[]): string {
  const known = [...specs.filter((spec) => spec.refused === undefined).map((spec) => spec.name), 'help'];
  const nearest = nearestName(name, known, (text) => text.toLowerCase());
  const shownName = looksLikeKey(name) ? '(not shown: it looks like a key)' : `--${name.slice(0, 40)}`;
  return `unknown flag ${shownName}${nearest ? `; did you mean --${nearest}?` : ''} (see --help)`;
}

export function parseArgs(argv: string[], specs: FlagSpec[], options: ParseOptions = {}): ParsedArgs {
  const byName = new Map(specs.map((spec) => [spec.name, spec]));
  const flags = new Map<string, string | true>();
  const positionals: string[] = [];
  const rest: string[] = [];
  let help = false;
  let index = 0;
  while (index < argv.length) {
    const arg = argv[index]!;
    index += 1;
    if (arg === '--') return { flags, rest: [...rest, ...argv.slice(index)], positionals, help };
    if (helpFlags.includes(arg)) {
      help = true;
      continue;
    }
    if (!arg.startsWith('--') && options.positionals) {
      positionals.push(arg);
      continue;
    }
    const equals = arg.indexOf('=');
    const name = equals === -1 ? arg.slice(2) : arg.slice(2, equals);
    const spec = arg.startsWith('--') ? byName.get(name) : undefined;
    if (!spec && options.passThrough) {
      rest.push(arg);
      continue;
    }
    if (!arg.startsWith('--')) throw new UsageError(strayArgument(arg));
    if (!spec) throw new UsageError(unknownFlag(name, specs));
    if (spec.refused !== undefined) throw new UsageError(`--${name}: ${spec.refused}`);
    if (flags.has(name) && !spec.repeatable) throw new UsageError(`--${name} is given twice`);
    if (!spec.value) {
      if (equals !== -1) throw new UsageError(`--${name} takes no value`);
      flags.set(name, true);
      continue;
    }
    let value: string | undefined;
    if (equals !== -1) value = arg.slice(equals + 1);
    else if (index < argv.length && !argv[index]!.startsWith('--')) {
      value = argv[index];
      index += 1;
    }
    if (value === undefined || value === '') throw new UsageError(`--${name} needs a value (see --help)`);
    const problem = spec.check?.(value);
    if (problem) throw new UsageError(`--${name}: ${problem}`);
    const earlier = flags.get(name);
    flags.set(name, typeof earlier === 'string' ? `${earlier},${value}` : value);
  }
  return { flags, rest, positionals, help };
}
