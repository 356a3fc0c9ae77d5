/**
 * Command-line flags of collect-conformance, parsed strictly: an unknown flag, a missing
 * value or a malformed one is a UsageError with a one-line message (exit code 2).
 */

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
}

export interface ParsedArgs {
  flags: Map<string, string | true>;
  /** Arguments after `--`, passed through untouched. */
  rest: string[];
}

export function parseArgs(argv: string[], specs: FlagSpec[]): ParsedArgs {
  const byName = new Map(specs.map((spec) => [spec.name, spec]));
  const flags = new Map<string, string | true>();
  let index = 0;
  while (index < argv.length) {
    const arg = argv[index]!;
    index += 1;
    if (arg === '--') return { flags, rest: argv.slice(index) };
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument "${arg.slice(0, 60)}" (see --help)`);
    const equals = arg.indexOf('=');
    const name = equals === -1 ? arg.slice(2) : arg.slice(2, equals);
    const spec = byName.get(name);
    if (!spec) throw new UsageError(`unknown flag --${name.slice(0, 40)} (see --help)`);
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
  return { flags, rest: [] };
}

export const positiveIntegerCheck = (value: string): string | undefined =>
  /^\d{1,15}$/.test(value) && Number(value) >= 1
    ? undefined
    : `must be a positive integer, got "${value.slice(0, 40)}"`;
