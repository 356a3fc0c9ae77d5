/** The collect-conformance command: flags, their mapping onto PCS_* variables, exit codes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs, UsageError } from '../../cli/args.ts';
import { environmentFromFlags, grepPattern, playwrightArguments, runFlags } from '../../cli/run.ts';
import { rules } from '../../contract/rules.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = fileURLToPath(new URL('../../bin/collect-conformance.mjs', import.meta.url));

function cli(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

test('flags parse in both --name value and --name=value forms; -- passes the rest through', () => {
  const { flags, rest } = parseArgs(['--base-url', 'http://h/v1', '--balance-id=3', '--documented-only', '--', '--headed'], runFlags);
  assert.equal(flags.get('base-url'), 'http://h/v1');
  assert.equal(flags.get('balance-id'), '3');
  assert.equal(flags.get('documented-only'), true);
  assert.deepEqual(rest, ['--headed']);
});

test('bad flags are usage errors with one line', () => {
  for (const args of [['--nope'], ['--balance-id', 'x'], ['--shard', '3/2'], ['--environment', 'prod'], ['--base-url'], ['--documented-only=yes'], ['stray'], ['--runs', '1', '--runs', '2']]) {
    assert.throws(() => parseArgs(args, runFlags), (error: unknown) => error instanceof UsageError && !error.message.includes('\n'), args.join(' '));
  }
});

test('flags win over the environment; the key comes from the named variable only', () => {
  const { flags } = parseArgs(['--base-url', 'http://flag/v1', '--secret-key-env', 'MY_KEY', '--currency-id', '9'], runFlags);
  const env = environmentFromFlags(flags, { PCS_BASE_URL: 'http://env/v1', MY_KEY: 'sk_sandbox_from_env', PCS_CURRENCY_ID: '1' });
  assert.equal(env.PCS_BASE_URL, 'http://flag/v1');
  assert.equal(env.PCS_SECRET_KEY, 'sk_sandbox_from_env');
  assert.equal(env.PCS_CURRENCY_ID, '9');
  assert.throws(() => environmentFromFlags(flags, {}), /--secret-key-env MY_KEY: that environment variable is not set/);
});

test('--documented-only selects @documented, combined with --grep by lookahead', () => {
  assert.equal(grepPattern(undefined, true), '@documented');
  assert.equal(grepPattern('send', false), 'send');
  const combined = new RegExp(grepPattern('LINK', true)!);
  assert.ok(combined.test('getPaymentLink quirk @documented @LINK-TOKEN-STRING'));
  assert.ok(!combined.test('getPaymentLink @inferred @LINK-2XX'));
  assert.ok(!combined.test('deleteCustomer @documented @CUSTOMER-DELETE-204'));
  const { flags } = parseArgs(['--shard', '2/3', '--reporter', 'json', '--documented-only'], runFlags);
  const args = playwrightArguments(flags, []);
  assert.deepEqual(args.slice(3), ['--grep', '@documented', '--shard', '2/3', '--reporter', 'json']);
});

test('--reporter dot swaps the console output only: the report files are still written', () => {
  const { flags } = parseArgs(['--reporter', 'dot'], runFlags);
  assert.ok(!playwrightArguments(flags, []).includes('--reporter'));
  assert.equal(environmentFromFlags(flags, {}).PCS_CONSOLE_REPORTER, 'dot');
});

test('exit code 2 and one line for a bad flag and for a bad variable', () => {
  const flag = cli(['--balance-id', 'abc']);
  assert.equal(flag.code, 2);
  assert.equal(flag.stderr.trim().split('\n').length, 1);
  assert.match(flag.stderr, /--balance-id: must be a positive integer/);
  const variable = cli([], { PCS_BASE_URL: 'http://127.0.0.1:9/api', PCS_SECRET_KEY: 'k' });
  assert.equal(variable.code, 2);
  assert.match(variable.stderr, /^collect-conformance: configuration error: PCS_BASE_URL: must be the base address including \/v1/);
  assert.equal(variable.stderr.trim().split('\n').length, 1);
});

test('--help documents flags, variables and exit codes', () => {
  const help = cli(['--help']);
  assert.equal(help.code, 0);
  for (const word of ['--base-url', '--secret-key-env', '--documented-only', '--shard', 'PCS_BASE_URL', 'PCS_SECRET_KEY', 'target unavailable']) {
    assert.ok(help.stdout.includes(word), word);
  }
});

test('rules lists the catalogue, as text and as JSON', () => {
  const json = cli(['rules', '--json']);
  assert.equal(json.code, 0);
  assert.equal((JSON.parse(json.stdout) as unknown[]).length, rules.length);
  const text = cli(['rules', '--kind', 'documented']);
  assert.match(text.stdout, /CUSTOMER-DELETE-204 +documented/);
  assert.ok(!text.stdout.includes(' inferred '));
});
