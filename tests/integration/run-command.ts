/**
 * The collect-conformance command started as a user starts it (bin/collect-conformance.mjs),
 * asynchronously, so that a mock served by the test's own process keeps answering.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
export const commandBin = fileURLToPath(new URL('../../bin/collect-conformance.mjs', import.meta.url));

export interface CommandResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface StartedCommand {
  child: ChildProcess;
  /** Everything printed so far. */
  output(): { stdout: string; stderr: string };
  done: Promise<CommandResult>;
}

export function startCommand(args: string[], env: Record<string, string> = {}, cwd = projectRoot): StartedCommand {
  const child = spawn(process.execPath, [commandBin, ...args], {
    cwd,
    env: { ...process.env, CI: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<CommandResult>((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, output: () => ({ stdout, stderr }), done };
}

export function runCommand(args: string[], env: Record<string, string> = {}, cwd = projectRoot) {
  return startCommand(args, env, cwd).done;
}
