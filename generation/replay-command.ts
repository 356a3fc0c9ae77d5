/**
 * The replay line of a failed property: the command the user ran, as they ran it, with the
 * seed, the path and the failing test's title added. A line that names another command (`npm
 * run conformance` in a project that has no such script) or drops the user's --base-url and
 * --secret-key-env does not work where it is printed.
 *
 * The command passes its invocation to the runner and the workers in
 * COLLECT_CONFORMANCE_INVOCATION (JSON: the words that start it and its arguments); a run
 * started otherwise (`playwright test` directly) gets the checkout's form.
 */

export interface Invocation {
  /** How the command was started: `npx collect-conformance`, `npm run conformance --`, ... */
  prefix: string;
  /** The arguments the user gave it. */
  args: string[];
}

export const invocationVariable = 'COLLECT_CONFORMANCE_INVOCATION';

/** How the user started the command, from what npm tells its children (npm_lifecycle_event, npm_command). */
export function invocationPrefix(env: NodeJS.ProcessEnv, installed: boolean): string {
  if (env.npm_lifecycle_event === 'conformance') return 'npm run conformance --';
  if (env.npm_command === 'exec' || installed) return 'npx collect-conformance';
  return 'npm run conformance --';
}

function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Flags replaced by the replay (they take a value), and switches it drops. */
const replacedWithValue = new Set(['--seed', '--path', '--grep', '--shard', '-g']);
const dropped = new Set(['--list']);

/** The user's arguments without the ones the replay sets itself (both --name value and --name=value). */
function keptArguments(args: readonly string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    const name = arg.startsWith('--') ? arg.split('=')[0]! : arg;
    if (dropped.has(name)) continue;
    if (replacedWithValue.has(name)) {
      if (!arg.includes('=')) index += 1;
      continue;
    }
    kept.push(arg);
  }
  return kept;
}

export function replayLine(invocation: Invocation, seed: number, path: string, grep: string): string {
  const args = keptArguments(invocation.args);
  const separator = args.indexOf('--');
  const own = separator === -1 ? args : args.slice(0, separator);
  const passed = separator === -1 ? [] : args.slice(separator);
  const words = [...own, '--seed', String(seed), '--path', path, '--grep', grep, ...passed];
  return `${invocation.prefix} ${words.map(shellWord).join(' ')}`;
}

/** The invocation the command recorded, or undefined (not started by the command, or unreadable). */
export function recordedInvocation(env: NodeJS.ProcessEnv): Invocation | undefined {
  const text = env[invocationVariable];
  if (!text) return undefined;
  try {
    const parsed = JSON.parse(text) as Partial<Invocation>;
    if (typeof parsed.prefix !== 'string' || !Array.isArray(parsed.args)) return undefined;
    if (!parsed.args.every((arg) => typeof arg === 'string')) return undefined;
    return { prefix: parsed.prefix, args: parsed.args };
  } catch {
    return undefined;
  }
}
