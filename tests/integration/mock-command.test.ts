/**
 * `collect-conformance mock` stops when told to: on SIGTERM, and when the
 * process that started it disappears without passing the signal on (npx exits on SIGTERM
 * and left the mock serving under init).
 *
 *   node --import tsx --test tests/integration/mock-command.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { commandBin } from './run-command.ts';

/** Waits for the mock's banner and returns its sandbox base URL. */
function baseUrlOf(output: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 30_000;
    const poll = setInterval(() => {
      const match = /PCS_BASE_URL=(\S+)/.exec(output());
      if (match) {
        clearInterval(poll);
        resolve(match[1]!);
      } else if (Date.now() > deadline) {
        clearInterval(poll);
        reject(new Error(`no banner:\n${output()}`));
      }
    }, 50);
  });
}

async function answers(baseUrl: string): Promise<boolean> {
  try {
    await fetch(`${baseUrl}/currencies/1`, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

/** The process still runs: it exists and, where /proc tells, is not a zombie its new parent has yet to reap. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

async function until(condition: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return condition();
}

test('SIGTERM stops the mock: it exits and the port no longer answers', { timeout: 60_000 }, async () => {
  const child = spawn(process.execPath, [commandBin, 'mock', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const baseUrl = await baseUrlOf(() => output);
  assert.ok(await answers(baseUrl));
  child.kill('SIGTERM');
  assert.equal(await exited, 0);
  assert.equal(await answers(baseUrl), false, 'the port still answers');
});

test('the mock stops when the process that started it is gone (npx does not pass SIGTERM on)', {
  timeout: 60_000,
}, async () => {
  // A shell that starts the mock in the background and is then killed: as npx is, the mock is left to init.
  const starter = spawn(
    'sh',
    ['-c', `"${process.execPath}" "${commandBin}" mock --port 0 & echo "mock pid $!"; wait`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  starter.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const baseUrl = await baseUrlOf(() => output);
  const pid = Number(/mock pid (\d+)/.exec(output)?.[1]);
  assert.ok(pid > 0, output);
  try {
    starter.kill('SIGTERM');
    // A limit, not a speed: on a machine busy with other checks the mock may take seconds to notice and close.
    assert.ok(await until(() => !isRunning(pid), 30_000), 'the mock went on serving after its starter was gone');
    assert.equal(await answers(baseUrl), false, 'the port still answers');
  } finally {
    if (isRunning(pid)) process.kill(pid, 'SIGKILL');
  }
});
