/**
 * Every flag every --help prints, given to the command itself: each command (run, proxy, judge,
 * mock, report, rules, the shards' run and merge) is started as a user starts it with every flag
 * its --help lists (a value its row of the settings table suggests for each) and --help, and must
 * print its help and exit 0; where a dry step proves more, the command runs it with every flag
 * too: the run lists its tests (--list), the shard's run lists its own, the mock starts and
 * answers, the proxy starts and ends with its command, the judge reads an empty HAR. And a PCS_*
 * name the suite does not know in the environment is a warning: the run goes on.
 *
 *   node --import tsx --test tests/integration/every-flag.test.ts
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandHelp } from '../../cli/help.ts';
import type { CommandName } from '../../settings/settings.ts';
import { commandNames, flagArguments, keyVariables, printedFlags } from '../unit/help-flags.ts';
import { commandBin, projectRoot } from './run-command.ts';

const scratch = mkdtempSync(join(tmpdir(), 'pcs-every-flag-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** The environment of a user with no configuration of the suite, and the variables the key flags name. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (!name.startsWith('PCS_') && !name.startsWith('COLLECT_CONFORMANCE_') && !name.startsWith('ALLURE_'))
      env[name] = value;
  return { ...env, CI: '', ...keyVariables(), ...extra };
}

/** How a person starts the command: the bin, or the shards' script (npm run conformance:shard / report:merge). */
function commandLine(command: CommandName, args: string[]): string[] {
  if (command === 'shard' || command === 'merge')
    return [
      '--import',
      join(projectRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs'),
      join(projectRoot, 'cli', 'shards.ts'),
      command === 'shard' ? 'run' : 'merge',
      ...args,
    ];
  return [commandBin, ...(command === 'run' ? ['run'] : [command]), ...args];
}

/** Every flag the command's --help prints, each with a value. */
function everyFlag(command: CommandName, replace: Record<string, string> = {}): string[] {
  return printedFlags(commandHelp(command)).flatMap(({ name, placeholder }) => {
    const args = flagArguments(command, name, placeholder);
    return replace[name] !== undefined ? [args[0]!, replace[name]] : args;
  });
}

function start(command: CommandName, args: string[], cwd: string, env: NodeJS.ProcessEnv = cleanEnv()) {
  return spawnSync(process.execPath, commandLine(command, args), { cwd, env, encoding: 'utf8', timeout: 120_000 });
}

describe('every flag of every --help, given to its command', () => {
  for (const command of commandNames) {
    test(`${command}: every flag and --help: its help, exit 0`, () => {
      const cwd = mkdtempSync(join(scratch, `${command}-`));
      const result = start(command, [...everyFlag(command), '--help'], cwd);
      assert.equal(result.status, 0, result.stderr);
      assert.equal(result.stdout, commandHelp(command));
      assert.equal(result.stderr, '');
    });
  }

  test('run: every flag, listing its tests (--list)', () => {
    const cwd = mkdtempSync(join(scratch, 'run-list-'));
    // The examples select tests that need not meet (a rule, two operations, documented only, one shard).
    const result = start('run', [...everyFlag('run'), '--', '--pass-with-no-tests'], cwd);
    assert.equal(result.status, 0, `${result.stdout.slice(-2000)}\n${result.stderr}`);
  });

  test("shard: every flag, listing its shard's tests", () => {
    const cwd = mkdtempSync(join(scratch, 'shard-list-'));
    const result = start('shard', [...everyFlag('shard'), '--list'], cwd);
    assert.equal(result.status, 0, `${result.stdout.slice(-2000)}\n${result.stderr}`);
    assert.match(result.stdout, /Total: \d+ tests? in \d+ files?/);
  });

  // Nothing to judge is inconclusive (exit 3, saying so), never a pass: what matters here is that no flag is refused.
  test('judge: every flag, an empty HAR judged', () => {
    const cwd = mkdtempSync(join(scratch, 'judge-run-'));
    const har = join(cwd, 'empty.har');
    writeFileSync(har, JSON.stringify({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries: [] } }));
    const result = start('judge', [har, ...everyFlag('judge')], cwd);
    assert.equal(result.status, 3, `${result.stdout.slice(-2000)}\n${result.stderr}`);
    assert.match(result.stderr, /nothing was judged/);
  });

  test('proxy: every flag, started and ended with its command', () => {
    const output = mkdtempSync(join(scratch, 'proxy-run-'));
    // From the checkout: its judging worker loads the sources through tsx, which resolves from there.
    const args = [...everyFlag('proxy', { output }), '--', process.execPath, '-e', ''];
    const result = start('proxy', args, projectRoot);
    assert.equal(result.status, 3, `${result.stdout.slice(-2000)}\n${result.stderr}`);
    assert.match(result.stdout, /collect-conformance proxy: http:\/\/127\.0\.0\.1:\d+\/v1 → /);
    assert.match(result.stderr, /nothing was judged/);
  });

  test('mock: every flag, started and answering', { timeout: 60_000 }, async () => {
    const cwd = mkdtempSync(join(scratch, 'mock-run-'));
    const child = spawn(process.execPath, commandLine('mock', everyFlag('mock')), {
      cwd,
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const baseUrl = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const found = /PCS_BASE_URL=(\S+)/.exec(stdout);
        if (found) resolve(found[1]!);
      });
      child.once('exit', () => reject(new Error(`the mock exited: ${stderr}`)));
    });
    try {
      const answer = await fetch(`${baseUrl}/currencies/1`);
      assert.ok(answer.status > 0);
      assert.match(stdout, /serving mutant: /);
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal(await exited, 0, stderr);
  });
});

test('a PCS_* name unknown to the suite, in the environment: a warning with the nearest name; the run goes on', () => {
  const cwd = mkdtempSync(join(scratch, 'unknown-'));
  mkdirSync(join(cwd, 'out'));
  const result = start('run', ['--list', '--grep', 'CURRENCY-2XX', '--output', join(cwd, 'out')], cwd, {
    ...cleanEnv({ PCS_BUILD: '1234', PCS_BALANCEID: '1' }),
  });
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /Total: \d+ tests? in/);
  const warnings = result.stderr.trim().split('\n');
  assert.deepEqual(warnings, [
    'collect-conformance: warning: PCS_BALANCEID is not a variable of collect-conformance; did you mean ' +
      'PCS_BALANCE_ID? (collect-conformance --help lists them); ignored, the run goes on',
    'collect-conformance: warning: PCS_BUILD is not a variable of collect-conformance (collect-conformance --help ' +
      'lists them); ignored, the run goes on',
  ]);
});
