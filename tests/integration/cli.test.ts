/** The collect-conformance command: flags, their mapping onto PCS_* variables, exit codes. */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, UsageError } from '../../cli/args.ts';
import { checkPassThrough, checkReporters } from '../../cli/playwright-options.ts';
import { parseOperations } from '../../cli/operation-selection.ts';
import { environmentFromFlags, grepPattern, playwrightArguments, profilerArguments, runFlags } from '../../cli/run.ts';
import { rules } from '../../contract/rules.ts';
import { ConfigError } from '../../settings/config.ts';
import { prepareOutputDirectory } from '../../output/output-directory.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = fileURLToPath(new URL('../../bin/collect-conformance.mjs', import.meta.url));
const playwrightCli = createRequire(import.meta.url).resolve('@playwright/test/cli');

function cli(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

test('flags parse in both --name value and --name=value forms; -- passes the rest through', () => {
  const { flags, rest } = parseArgs(
    ['--base-url', 'http://h/v1', '--balance-id=3', '--documented-only', '--', '--headed'],
    runFlags,
  );
  assert.equal(flags.get('base-url'), 'http://h/v1');
  assert.equal(flags.get('balance-id'), '3');
  assert.equal(flags.get('documented-only'), true);
  assert.deepEqual(rest, ['--headed']);
});

test('bad flags are usage errors with one line', () => {
  for (const args of [
    ['--nope'],
    ['--balance-id', 'x'],
    ['--shard', '3/2'],
    ['--environment', 'prod'],
    ['--base-url'],
    ['--documented-only=yes'],
    ['stray'],
    ['--runs', '1', '--runs', '2'],
  ]) {
    assert.throws(
      () => parseArgs(args, runFlags),
      (error: unknown) => error instanceof UsageError && !error.message.includes('\n'),
      args.join(' '),
    );
  }
});

test('flags win over the environment; the key comes from the named variable only', () => {
  const { flags } = parseArgs(
    ['--base-url', 'http://flag/v1', '--secret-key-env', 'MY_KEY', '--currency-id', '9'],
    runFlags,
  );
  const env = environmentFromFlags(flags, {
    PCS_BASE_URL: 'http://env/v1',
    MY_KEY: 'sk_sandbox_from_env',
    PCS_CURRENCY_ID: '1',
  });
  assert.equal(env.PCS_BASE_URL, 'http://flag/v1');
  assert.equal(env.PCS_SECRET_KEY, 'sk_sandbox_from_env');
  assert.equal(env.PCS_CURRENCY_ID, '9');
  assert.throws(() => environmentFromFlags(flags, {}), /--secret-key-env MY_KEY: that environment variable is not set/);
});

test('every variable has its flag: the new flags set their variables, and flags win', () => {
  const { flags } = parseArgs(
    ['--second-balance-id', '11', '--currency-iso', 'GNF', '--allow-live', '--shrink', 'no', '--timeout-ms=900'],
    runFlags,
  );
  const env = environmentFromFlags(flags, { PCS_CURRENCY_ISO: 'XOF', PCS_RETRIES: '2' });
  assert.equal(env.PCS_SECOND_BALANCE_ID, '11');
  assert.equal(env.PCS_CURRENCY_ISO, 'GNF');
  assert.equal(env.PCS_ALLOW_LIVE, 'yes');
  assert.equal(env.PCS_SHRINK, 'no');
  assert.equal(env.PCS_TIMEOUT_MS, '900');
  assert.equal(env.PCS_RETRIES, '2');
});

test('and every flag its variable: PCS_GREP, PCS_DOCUMENTED_ONLY, PCS_OPERATION, PCS_SHARD, PCS_REPORTER', () => {
  const none = parseArgs([], runFlags).flags;
  const fromVariables = playwrightArguments(none, [], {
    PCS_DOCUMENTED_ONLY: 'yes',
    PCS_SHARD: '2/3',
    PCS_REPORTER: 'json',
  });
  assert.deepEqual(fromVariables.slice(3), ['--grep', '@documented', '--shard', '2/3', '--reporter', 'json']);
  const selected = playwrightArguments(none, [], { PCS_GREP: 'Content-Type', PCS_OPERATION: 'getBalance' });
  assert.equal(selected[4], grepPattern('Content-Type', false, ['getBalance']));
  const flagWins = playwrightArguments(parseArgs(['--shard', '1/3', '--reporter', 'dot'], runFlags).flags, [], {
    PCS_SHARD: '2/3',
    PCS_REPORTER: 'json',
  });
  assert.deepEqual(flagWins.slice(3), ['--shard', '1/3']);
  assert.equal(environmentFromFlags(none, { PCS_REPORTER: 'line' }).COLLECT_CONFORMANCE_CONSOLE_REPORTER, 'line');

  const byVariable = cli(['--list', '--reporter', 'list'], { PCS_OPERATION: 'getBalance', PCS_DOCUMENTED_ONLY: 'yes' });
  const byFlags = cli(['--list', '--reporter', 'list', '--operation', 'getBalance', '--documented-only']);
  assert.equal(byVariable.code, 0, byVariable.stderr);
  assert.match(byVariable.stdout, /Total: \d+ tests?/);
  assert.equal(byVariable.stdout, byFlags.stdout);
});

test('a mistyped flag: one line, exit 2, the nearest flag suggested', () => {
  const result = cli(['--curency-id', '1']);
  assert.equal(result.code, 2);
  assert.equal(
    result.stderr,
    'collect-conformance: unknown flag --curency-id; did you mean --currency-id? (see --help)\n',
  );
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

test('--operation selects every test that calls the operation, property tests included', () => {
  const pattern = new RegExp(grepPattern(undefined, false, parseOperations(['getBalance']))!);
  const file = 'conformance balances-and-currencies.spec.ts ';
  // An operation's own rules select its stateful and property tests, whatever their titles say.
  assert.ok(pattern.test(`${file}stateful: random sequences (documented rules) @documented @BALANCE-ARRAY`));
  assert.ok(pattern.test(`${file}property: random balance ids never give a 5xx @inferred @UNKNOWN-ID-NOT-5XX`));
  assert.ok(pattern.test(`${file}getBalance: GET /balances/{id} an existing balance @inferred @BALANCE-2XX`));
  // A rule shared with other operations selects only the tests that name this one or its resource.
  assert.ok(!pattern.test(`${file}getCurrency: GET /currencies/{id} Content-Type @documented @JSON-CONTENT-TYPE`));
  assert.ok(!pattern.test(`${file}deleteCustomer an existing customer is deleted @documented @CUSTOMER-DELETE-204`));
  const combined = new RegExp(grepPattern('Content-Type', true, parseOperations(['getBalance,getCurrency']))!);
  assert.ok(combined.test('getCurrency: GET /currencies/{id} declares Content-Type @documented @JSON-CONTENT-TYPE'));
  assert.ok(!combined.test('getCurrency: GET /currencies/{id} an existing currency @inferred @CURRENCY-2XX'));
  assert.throws(() => parseOperations(['getBalanse']), /did you mean getBalance\?/);
  const { flags } = parseArgs(['--operation', 'getBalance', '--operation=getCurrency'], runFlags);
  assert.equal(flags.get('operation'), 'getBalance,getCurrency');

  const listed = cli(['--operation', 'getBalance', '--list', '--reporter', 'list']);
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, /properties\/positive\.spec\.ts.*the configured balance id always gives/);
  assert.match(listed.stdout, /properties\/negative\.spec\.ts.*random balance ids never give a 5xx/);
  assert.match(listed.stdout, /properties\/stateful\.spec\.ts/);
  assert.doesNotMatch(listed.stdout, /delete-customer\.spec\.ts|getCurrency: GET/);
  assert.match(cli(['--help']).stdout, /--operation ID/);
});

test('--reporter dot swaps the console output only: the report files are still written', () => {
  const { flags } = parseArgs(['--reporter', 'dot'], runFlags);
  assert.ok(!playwrightArguments(flags, []).includes('--reporter'));
  assert.equal(environmentFromFlags(flags, {}).COLLECT_CONFORMANCE_CONSOLE_REPORTER, 'dot');
});

test('exit code 2 and one line for a bad flag and for a bad variable', () => {
  const flag = cli(['--balance-id', 'abc']);
  assert.equal(flag.code, 2);
  assert.equal(flag.stderr.trim().split('\n').length, 1);
  assert.match(flag.stderr, /--balance-id: must be a positive integer/);
  const variable = cli([], { PCS_BASE_URL: 'http://127.0.0.1:9/api', PCS_SECRET_KEY: 'k' });
  assert.equal(variable.code, 2);
  assert.match(
    variable.stderr,
    /^collect-conformance: configuration error: PCS_BASE_URL: must be the base address including \/v1/,
  );
  assert.equal(variable.stderr.trim().split('\n').length, 1);
});

test('--help documents flags, variables and exit codes', () => {
  const help = cli(['--help']);
  assert.equal(help.code, 0);
  for (const word of [
    '--base-url',
    '--secret-key-env',
    '--documented-only',
    '--shard',
    'PCS_BASE_URL',
    'PCS_SECRET_KEY',
    'target unavailable',
  ]) {
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

/** The environment without the caller's PCS_* variables. */
function withoutPcsVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('PCS_')));
}

/** One line on stderr (npm's own warnings aside), no stack trace. */
function oneLine(stderr: string): string {
  const lines = stderr.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('npm warn'));
  assert.equal(lines.length, 1, `one line, got:\n${stderr}`);
  assert.doesNotMatch(stderr, /^\s+at /m, 'no stack trace');
  return lines[0]!;
}

describe('bad configuration: one line and exit 2, before Playwright starts', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'pcs-cli-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));
  // Nothing must run: a target that does not exist makes any attempt to run visible (exit 3), not a pass.
  const noTarget = {
    PCS_BASE_URL: 'http://127.0.0.1:9/v1',
    PCS_SECRET_KEY: 'sk_sandbox_cli_test_0001',
    PCS_OUTPUT_DIR: join(scratch, 'reports'),
    ALLURE_RESULTS_DIR: join(scratch, 'allure-results'),
  };
  const cases: Array<[string, string[], Record<string, string>, RegExp]> = [
    [
      'PCS_WORKERS=abc (Playwright hangs on it)',
      [],
      { PCS_WORKERS: 'abc' },
      /^collect-conformance: configuration error: PCS_WORKERS: must be a whole number/,
    ],
    [
      'PCS_WORKERS=0 (Playwright throws a stack trace)',
      [],
      { PCS_WORKERS: '0' },
      /^collect-conformance: configuration error: PCS_WORKERS: /,
    ],
    ['--workers 0', ['--workers', '0'], {}, /^collect-conformance: --workers: must be a whole number/],
    [
      '--reporter no-such-reporter',
      ['--reporter', 'no-such-reporter'],
      {},
      /^collect-conformance: --reporter: "no-such-reporter" is neither a Playwright reporter/,
    ],
    [
      '-- --frobnicate',
      ['--', '--frobnicate'],
      {},
      /^collect-conformance: unknown Playwright option --frobnicate after --/,
    ],
    ["--grep '('", ['--grep', '('], {}, /^collect-conformance: --grep: "\(" is not a valid regular expression/],
    [
      "PCS_GREP='('",
      [],
      { PCS_GREP: '(' },
      /^collect-conformance: configuration error: PCS_GREP: "\(" is not a valid regular expression/,
    ],
    [
      'PCS_REPORTER=no-such-reporter',
      [],
      { PCS_REPORTER: 'no-such-reporter' },
      /^collect-conformance: configuration error: PCS_REPORTER: "no-such-reporter" is neither a Playwright reporter/,
    ],
    [
      '--second-balance-id 0',
      ['--second-balance-id', '0'],
      {},
      /^collect-conformance: --second-balance-id: must be a positive integer, got "0"$/,
    ],
    [
      '-- --shard 3/2 (Playwright alone prints 11 lines and exits 1)',
      ['--', '--shard', '3/2'],
      {},
      /^collect-conformance: --shard after --: must satisfy 1 <= i <= n, got 3\/2$/,
    ],
    ['-- -g "["', ['--', '-g', '['], {}, /^collect-conformance: -g after --: "\[" is not a valid regular expression/],
    [
      '-- --trace sometimes',
      ['--', '--trace', 'sometimes'],
      {},
      /^collect-conformance: --trace after --: must be one of on, off/,
    ],
    [
      'PCS_OUTPUT_DIR=/dev/null',
      [],
      { PCS_OUTPUT_DIR: '/dev/null' },
      /^collect-conformance: configuration error: PCS_OUTPUT_DIR: \/dev\/null is not a directory/,
    ],
    [
      '--output under a file',
      ['--output', '/dev/null/reports'],
      {},
      /^collect-conformance: configuration error: --output: \/dev\/null is not a directory/,
    ],
  ];
  if (existsSync('/proc/1')) {
    // Node's recursive mkdir never returns on this path: the command spun at full CPU forever.
    cases.push([
      '--output /proc/1/forbidden',
      ['--output', '/proc/1/forbidden'],
      {},
      /^collect-conformance: configuration error: --output: cannot create the output directory \/proc\/1\/forbidden/,
    ]);
  }
  for (const [name, args, env, expected] of cases) {
    test(name, () => {
      const result = cli(args, { ...noTarget, ...env });
      assert.equal(result.code, 2, `${result.stdout.slice(-1000)}\n${result.stderr.slice(-1000)}`);
      assert.match(oneLine(result.stderr), expected);
    });
  }

  test('a missing target is not a pass: empty variables, a key alone, a mistyped name', () => {
    const fresh = mkdtempSync(join(scratch, 'fresh-'));
    const inFresh = (env: Record<string, string>, dotEnv?: string) => {
      if (dotEnv !== undefined) writeFileSync(join(fresh, '.env'), dotEnv);
      const result = spawnSync(process.execPath, [bin], {
        cwd: fresh,
        encoding: 'utf8',
        env: { ...withoutPcsVariables(process.env), ...env },
        timeout: 60_000,
      });
      rmSync(join(fresh, '.env'), { force: true });
      assert.equal(result.status, 2, `${JSON.stringify(env)} ${dotEnv}: ${result.stdout.slice(-800)}${result.stderr}`);
      return oneLine(result.stderr);
    };
    assert.match(
      inFresh({ PCS_BASE_URL: '', PCS_SECRET_KEY: 'sk_sandbox_x' }),
      /^collect-conformance: configuration error: PCS_BASE_URL: is set but empty/,
    );
    assert.match(
      inFresh({ PCS_SECRET_KEY: 'sk_sandbox_x' }),
      /^collect-conformance: configuration error: PCS_SECRET_KEY: is set but PCS_BASE_URL is not/,
    );
    assert.match(
      inFresh({}, 'PCS_BASEURL=http://127.0.0.1:9/v1\nPCS_SECRET_KEY=sk_sandbox_x\n'),
      /^collect-conformance: configuration error: PCS_BASEURL: in \.env is not a variable .*mean PCS_BASE_URL\?/,
    );
    assert.match(
      inFresh({ PCS_OUTPUT_DIR: '' }),
      /^collect-conformance: configuration error: PCS_OUTPUT_DIR: is set but empty/,
    );
    assert.deepEqual(readdirSync(fresh), [], 'nothing written into the working directory');
  });

  test('a direct `playwright test` with PCS_WORKERS=abc or a bad output directory: one line, exit 2', () => {
    for (const env of [{ PCS_WORKERS: 'abc' }, { PCS_WORKERS: '0' }, { PCS_OUTPUT_DIR: '/dev/null' }]) {
      const result = spawnSync(
        process.execPath,
        [playwrightCli, 'test', '--config', join(root, 'playwright.config.ts'), '--list'],
        {
          cwd: scratch,
          encoding: 'utf8',
          env: { ...process.env, ...noTarget, ...env },
          timeout: 60_000,
        },
      );
      assert.equal(result.status, 2, `${JSON.stringify(env)}: ${result.stderr}`);
      assert.match(oneLine(result.stderr), /^collect-conformance: configuration error: PCS_(WORKERS|OUTPUT_DIR): /);
    }
  });

  test('valid arguments after -- pass: filters, values attached or apart, switches, choices', () => {
    checkPassThrough([
      'tests/conformance/delete-customer.spec.ts',
      '--workers',
      '1',
      '-j2',
      '--project=conformance',
      '-x',
      '--shuffle',
      '--trace',
      'off',
      '-g',
      'a|b',
      '--retries=1',
      '--',
      '--not-an-option',
    ]);
    checkPassThrough(['--project', 'a', 'b', '--list', '--reporter', 'dot,json']);
  });

  test('bad arguments after -- are usage errors with one line', () => {
    for (const args of [
      ['--frobnicate'],
      ['-q'],
      ['--workers'],
      ['--workers', 'none'],
      ['--retries', 'x'],
      ['-xz'],
      ['--list=yes'],
      ['--config', 'other.config.ts'],
      ['(unclosed'],
      ['--reporter', 'nope-reporter'],
      ['--shard', '3/2'],
      ['--shard=0/2'],
      ['--shard', 'half'],
    ]) {
      assert.throws(
        () => checkPassThrough(args),
        (error: unknown) => error instanceof UsageError && !error.message.includes('\n'),
        args.join(' '),
      );
    }
  });

  test('reporters: built-in names, a file, or a module found from the working directory', () => {
    checkReporters('list,junit,html,blob');
    checkReporters('./reporters/conformance-reporter.ts', root);
    checkReporters('allure-playwright', root);
    assert.throws(() => checkReporters('no-such-reporter', root), UsageError);
    assert.throws(() => checkReporters('list,', root), UsageError);
  });

  test('the output directory is created component by component and proved writable', () => {
    const nested = join(scratch, 'a', 'b', 'c');
    assert.equal(prepareOutputDirectory(nested, 'PCS_OUTPUT_DIR'), nested);
    assert.ok(existsSync(nested));
    assert.deepEqual(readdirSync(nested), [], 'the write probe is removed');
    assert.throws(
      () => prepareOutputDirectory('/dev/null/x', 'PCS_OUTPUT_DIR'),
      (error: unknown) => error instanceof ConfigError && /\/dev\/null is not a directory/.test(error.message),
    );
  });
});

test('PCS_CPU_PROFILE gives the runner (and so every worker) a CPU profile directory; unset, nothing', () => {
  assert.deepEqual(profilerArguments({}), []);
  assert.deepEqual(profilerArguments({ PCS_CPU_PROFILE: ' ' }), []);
  assert.deepEqual(profilerArguments({ PCS_CPU_PROFILE: '/tmp/p' }), ['--cpu-prof', '--cpu-prof-dir=/tmp/p']);
});
