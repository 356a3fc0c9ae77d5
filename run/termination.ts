/**
 * How Playwright's runner ends when it is told to stop by something other than Ctrl-C.
 *
 * Playwright stops its workers and runs global teardown (which deletes the customers the run
 * created, run/cleanup.ts) on SIGINT only. SIGTERM (timeout, docker stop,
 * Kubernetes, `kill`) and SIGHUP (a closed terminal) would kill the runner on the spot and
 * leave those customers behind; so would the death of the process that started the runner,
 * which leaves it running in the background. Here each of them becomes one SIGINT, sent by
 * the runner to itself, and the run ends as Ctrl-C ends it. Later signals of the same kind
 * are absorbed: a second SIGINT would interrupt the teardown itself.
 *
 * Workers need nothing: Playwright's workers ignore SIGINT and SIGTERM and stop when the
 * runner tells them to (or when it is gone); SIGHUP, which they do not handle, is ignored.
 */
import { constants } from 'node:os';

type TerminationSignal = 'SIGTERM' | 'SIGHUP';
const terminationSignals: readonly TerminationSignal[] = ['SIGTERM', 'SIGHUP'];

/** How often the runner checks that the process that started it is still there. */
const parentCheckMs = 500;

let installed = false;
let stopping = false;
let tearingDown = false;

/** Global teardown has begun: a termination from now on must let it finish, not interrupt it. */
export function markTeardownStarted(): void {
  tearingDown = true;
}

/**
 * The runner ends as Ctrl-C ends it, with Playwright's own exit code 130; a run stopped by SIGTERM or
 * SIGHUP must exit 143 or 129 instead (README, exit codes), also when the signal reached the runner
 * alone. process.exit() reads process.exitCode again after its 'exit' listeners have run.
 */
function exitAs(code: number): void {
  process.once('exit', () => {
    process.exitCode = code;
  });
}

function stopLikeCtrlC(reason: string, exitCode?: number): void {
  if (stopping) return;
  stopping = true;
  if (exitCode !== undefined) exitAs(exitCode);
  // The console may be gone (a closed terminal, a dead pipe reader): failing to print must not end the teardown.
  process.stdout.on('error', () => {});
  process.stderr.on('error', () => {});
  process.stderr.write(`collect-conformance: ${reason}: stopping the run; global teardown cleans up before it ends\n`);
  if (!tearingDown) process.kill(process.pid, 'SIGINT');
}

/** Installs the runner's handling (playwright.config.ts, once per process); in a worker, only SIGHUP is ignored. */
export function handleTerminationGracefully(isWorker: boolean): void {
  if (installed) return;
  installed = true;
  if (isWorker) {
    process.on('SIGHUP', () => {});
    return;
  }
  for (const signal of terminationSignals)
    process.on(signal, () => stopLikeCtrlC(`${signal} received`, 128 + (constants.signals[signal] ?? 15)));
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) stopLikeCtrlC(`the process that started the run (pid ${parent}) is gone`);
  }, parentCheckMs);
  watch.unref();
}
