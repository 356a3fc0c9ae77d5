/**
 * Runs Playwright's runner as a child of the command and stops it cleanly when the command is
 * told to stop, so that global teardown (the deletion of the customers the run created) always
 * runs before the command exits:
 *
 * - SIGINT (Ctrl-C) is forwarded: Playwright stops its workers and runs global teardown.
 * - SIGTERM (timeout, docker stop, Kubernetes) and SIGHUP (a closed terminal) are passed on as
 *   SIGTERM, once; the runner turns the first one into SIGINT (run/termination.ts),
 *   so that a copy of the signal sent to the whole process group does not make a second SIGINT,
 *   which would interrupt the teardown itself. The command waits for the runner, then exits
 *   128 + the signal's number (143 for SIGTERM), as a process killed by it would.
 * - When the process that started the command disappears (`kill` of npm alone), the command
 *   stops the run the same way instead of leaving it running in the background.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

export interface ChildOutcome {
  /** The runner's exit code; 128 + the signal's number when a signal killed it. */
  code: number;
  /** The signal that killed the runner (kill -9 of the runner: SIGKILL), when one did. */
  killedBy: NodeJS.Signals | null;
  /** The signal that stopped the command, when one did. */
  stoppedBy: NodeJS.Signals | null;
  /** The runner's process id. */
  pid: number | undefined;
  /** The runner could not be started (the spawn itself failed). */
  notStarted: boolean;
}

const parentCheckMs = 500;

export function exitCodeForSignal(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

export async function runPlaywright(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<ChildOutcome> {
  const child = spawn(command, args, { env, stdio: 'inherit' });
  let stoppedBy: NodeJS.Signals | null = null;
  let terminationSent = false;

  const quietConsole = () => {
    // The console may be gone with the parent: failing to print must not stop the command while the runner cleans up.
    process.stdout.on('error', () => {});
    process.stderr.on('error', () => {});
  };
  const onInterrupt = () => {
    stoppedBy ??= 'SIGINT';
    child.kill('SIGINT');
  };
  const terminate = (signal: NodeJS.Signals) => {
    stoppedBy ??= signal;
    quietConsole();
    if (terminationSent) return;
    terminationSent = true;
    child.kill('SIGTERM');
  };
  const onTerminate = () => terminate('SIGTERM');
  const onHangUp = () => terminate('SIGHUP');
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onTerminate);
  process.on('SIGHUP', onHangUp);
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) terminate('SIGTERM');
  }, parentCheckMs);

  let killedBy: NodeJS.Signals | null = null;
  let notStarted = false;
  const code = await new Promise<number>((done) => {
    child.on('error', () => {
      // Emitted when the spawn failed (no 'exit' follows) or a signal could not be sent (the runner goes on).
      if (child.pid !== undefined) return;
      notStarted = true;
      done(1);
    });
    child.on('exit', (exitCode, signal) => {
      killedBy = signal;
      done(signal ? exitCodeForSignal(signal) : (exitCode ?? 1));
    });
  });
  clearInterval(watch);
  process.off('SIGINT', onInterrupt);
  process.off('SIGTERM', onTerminate);
  process.off('SIGHUP', onHangUp);
  return { code, killedBy, stoppedBy, pid: child.pid, notStarted };
}
