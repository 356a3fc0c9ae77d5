/**
 * Entry point of the collect-conformance command (npm run conformance, npx collect-conformance).
 * User mistakes end in one line on stderr and exit code 2, never a stack trace; a failure of the
 * command itself in one line and exit code 4, so that a gate does not read it as a broken server.
 */
import { pathToFileURL } from 'node:url';
import { UsageError } from './args.ts';
import { helpText } from './help.ts';
import { ExitCode, internalErrorLine } from './exit-codes.ts';
// Subcommands are loaded when asked for: the mock's server and the rules catalogue are not the run's start-up cost.
import { run } from './run.ts';
import { mockVersion } from '../mock/version.ts';

export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(helpText);
    return ExitCode.pass;
  }
  if (first === '--version') {
    process.stdout.write(`${mockVersion}\n`);
    return ExitCode.pass;
  }
  try {
    if (first === 'mock') return await (await import('./mock.ts')).mock(rest);
    if (first === 'rules') return (await import('./rules-command.ts')).listRules(rest);
    if (first === 'proxy') return await (await import('./proxy.ts')).proxy(rest);
    if (first === 'judge') return await (await import('./judge-command.ts')).judge(rest);
    if (first === 'report') return (await import('./report.ts')).report(rest);
    if (first === 'run') return await run(rest);
    return await run(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`collect-conformance: ${error.message}\n`);
      return ExitCode.usage;
    }
    throw error;
  }
}

/** main, with any error it did not expect turned into one line and ExitCode.internal (bin/ and npm run mock). */
export async function command(argv: string[]): Promise<number> {
  try {
    return await main(argv);
  } catch (error) {
    process.stderr.write(`${internalErrorLine('collect-conformance', error)}\n`);
    return ExitCode.internal;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exit(await command(process.argv.slice(2)));
}
