/**
 * `collect-conformance mock [--port N] [--host H] [--mutant NAME] [--faults SPEC]`:
 * starts the reference mock standalone, prints its base URLs and keys, and runs until
 * interrupted.
 */
import { startMockServer } from '../mock/server.ts';
import { FaultSpecError } from '../mock/faults.ts';
import { UnknownMutantError } from '../mock/mutants/index.ts';
import { mockVersion, mockVersionHeader } from '../mock/version.ts';
import { parseArgs, UsageError, type FlagSpec } from './args.ts';
import { ExitCode } from './exit-codes.ts';
import { commandHelp } from './help.ts';
import { commandFlags } from './run-flags.ts';

/** How often the mock checks that the process that started it is still there. */
const parentCheckMs = 500;

/** The mock's flags: rows of the settings table (settings/settings.ts) that name the mock. */
export const mockFlags: FlagSpec[] = commandFlags('mock');

export async function mock(argv: string[]): Promise<number> {
  const { flags, rest, help } = parseArgs(argv, mockFlags);
  if (help) {
    process.stdout.write(commandHelp('mock'));
    return ExitCode.pass;
  }
  if (rest.length > 0) throw new UsageError('mock takes no arguments after --');
  const port = Number(flags.get('port') ?? 4010);
  const host = (flags.get('host') as string | undefined) ?? '127.0.0.1';
  const mutant = flags.get('mutant') as string | undefined;
  const faults = flags.get('faults') as string | undefined;
  const storeCap = flags.has('store-cap') ? Number(flags.get('store-cap')) : undefined;
  let running;
  try {
    running = await startMockServer({ port, host, mutant, faults, storeCap });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`port ${port} on ${host} is in use; choose another with --port`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      throw new UsageError(`cannot listen on ${host}; use --host 127.0.0.1`);
    if (error instanceof UnknownMutantError || error instanceof FaultSpecError) throw new UsageError(error.message);
    throw error;
  }
  const lines = [
    `reference mock ${mockVersion} listening (header ${mockVersionHeader} on every response)`,
    `  sandbox  PCS_BASE_URL=${running.sandboxBaseUrl}  PCS_SECRET_KEY=${running.sandboxKey}`,
    `  second sandbox account  PCS_SECOND_SECRET_KEY=${running.secondSandboxKey}  PCS_SECOND_BALANCE_ID=11`,
    `  live     base URL ${running.liveBaseUrl}  key ${running.liveKey}`,
    '  seeded ids: PCS_BALANCE_ID=1 (also 2, 3), PCS_CURRENCY_ID=1 (XOF; also 2, GNF); ' +
      'payment modes: mtn, moov, mtn_ci, moov_tg, orange_ci, wave_ci',
  ];
  if (mutant) lines.push(`  serving mutant: ${mutant}`);
  if (faults) lines.push(`  injecting faults: ${faults}`);
  lines.push('Press Ctrl+C to stop.');
  process.stdout.write(`${lines.join('\n')}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    process.once('SIGHUP', stop);
    // npx passes SIGTERM on to nobody: it exits and leaves the mock serving under init. A mock whose
    // starter is gone stops, as the run does (run/termination.ts).
    const parent = process.ppid;
    const watch = setInterval(() => {
      if (process.ppid !== parent) resolve();
    }, parentCheckMs);
    watch.unref();
  });
  await running.close();
  return 0;
}
