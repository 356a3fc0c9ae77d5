/**
 * The settings table (settings/settings.ts) is the one place a setting is declared: the
 * documentation's tables and .env.example are what the table renders, --help prints every flag and
 * variable of it, the known PCS_* names and the command's flags are its own, every variable has a
 * flag and every flag a variable (or says why not), and what the table suggests is what it accepts.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseArgs, UsageError } from '../../cli/args.ts';
import { helpText } from '../../cli/help.ts';
import { commandFlags, environmentFromFlags, runFlags, variablesFromFlags } from '../../cli/run-flags.ts';
import {
  configurationDocFile,
  envExampleFile,
  renderConfigurationDoc,
  renderEnvExample,
} from '../../lab/settings-doc.ts';
import { loadConfig } from '../../settings/config.ts';
import { embeddedLiveKeyVariable, registerConfiguredSecrets } from '../../settings/configured-secrets.ts';
import { redact } from '../../settings/secrets.ts';
import { readSetting, validateSettings } from '../../settings/read-setting.ts';
import { exampleValue, flagUsage } from '../../settings/setting-texts.ts';
import {
  commands,
  defaultClockToleranceSeconds,
  isSetting,
  rowsOf,
  type CommandName,
  settings,
  tableRows,
  valueFlagName,
  variableSettings,
} from '../../settings/settings.ts';
import { knownVariables } from '../../settings/variable-names.ts';

describe('generated from the table: a change of the table without npm run settings:generate fails here', () => {
  test("docs/reference/configuration.md's flag and variable tables", () => {
    const page = readFileSync(configurationDocFile, 'utf8');
    assert.equal(renderConfigurationDoc(page), page, 'configuration.md is stale: run npm run settings:generate');
  });

  test('.env.example, whole', () => {
    assert.equal(
      renderEnvExample(),
      readFileSync(envExampleFile, 'utf8'),
      '.env.example is stale: run npm run settings:generate',
    );
  });

  test('a generated block whose markers are gone is an error, not a silent skip', () => {
    const page = readFileSync(configurationDocFile, 'utf8');
    const withoutTarget = page.replace(
      /<!-- settings:begin variables:target[\s\S]*?<!-- settings:end variables:target -->/,
      '',
    );
    assert.throws(() => renderConfigurationDoc(withoutTarget), /variables:target/);
  });

  test('--help prints every flag with its variable, and every row of the table is documented', () => {
    const doc = readFileSync(configurationDocFile, 'utf8');
    for (const row of tableRows) {
      assert.ok(helpText.includes(flagUsage(row)), `--help lacks ${flagUsage(row)}`);
      assert.ok(
        doc.includes(`\`${flagUsage(row).replace(/\|/g, '\\|')}\``),
        `configuration.md lacks ${flagUsage(row)}`,
      );
      if (isSetting(row)) {
        assert.ok(helpText.includes(row.variable), `--help lacks ${row.variable}`);
        assert.ok(
          readFileSync(envExampleFile, 'utf8').includes(`# ${row.variable}=`),
          `.env.example lacks ${row.variable}`,
        );
      }
    }
  });
});

describe('every variable has a flag, every flag a variable', () => {
  test('variables are unique, flags unique within each command, and a flag without a variable says why', () => {
    const variables = variableSettings.map((row) => row.variable);
    assert.equal(new Set(variables).size, variables.length, 'a variable declared twice');
    for (const command of Object.keys(commands) as CommandName[]) {
      const flags = rowsOf(command).map((row) => row.flag.name);
      assert.equal(new Set(flags).size, flags.length, `a flag of ${command} declared twice`);
    }
    // Of the run, only --list has no variable; the other commands' own flags are a session's choices.
    assert.deepEqual(
      rowsOf('run')
        .filter((row) => !isSetting(row))
        .map((row) => row.flag.name),
      ['list'],
    );
    for (const row of tableRows.filter((candidate) => !isSetting(candidate)))
      assert.ok('whyNoVariable' in row && row.whyNoVariable.length > 20, row.flag.name);
  });

  test("the proxy's, the judge's, the mock's, the report's, the catalogue's and the shards' flags are rows", () => {
    const expected: Record<string, string[]> = {
      proxy: ['upstream', 'port', 'violations-header', 'fail-on-command', 'fail-on-client', 'secret-key-env'],
      judge: ['fail-on-client', 'base-url', 'clock-tolerance-s', 'output', 'strict', 'documented-only'],
      mock: ['port', 'host', 'mutant', 'faults', 'store-cap'],
      report: ['output'],
      rules: ['json', 'kind', 'show'],
      shard: ['output', 'shard', 'blob-dir'],
      merge: ['blobs', 'allure', 'allure-report', 'output'],
    };
    for (const [command, flags] of Object.entries(expected)) {
      const names = rowsOf(command as CommandName).map((row) => row.flag.name);
      for (const flag of flags) assert.ok(names.includes(flag), `${command} --${flag}`);
    }
  });

  test('the flags asked for exist and set their variables', () => {
    for (const [flag, variable] of [
      ['second-balance-id', 'PCS_SECOND_BALANCE_ID'],
      ['currency-iso', 'PCS_CURRENCY_ISO'],
      ['payment-mode', 'PCS_PAYMENT_MODE'],
      ['phone-number', 'PCS_PHONE_NUMBER'],
      ['phone-country', 'PCS_PHONE_COUNTRY'],
      ['timeout-ms', 'PCS_TIMEOUT_MS'],
      ['run-id', 'PCS_RUN_ID'],
      ['retries', 'PCS_RETRIES'],
      ['max-rps', 'PCS_MAX_RPS'],
      ['property-budget-ms', 'PCS_PROPERTY_BUDGET_MS'],
      ['shrink', 'PCS_SHRINK'],
      ['in-flight', 'PCS_IN_FLIGHT'],
      ['clock-tolerance-s', 'PCS_CLOCK_TOLERANCE_S'],
      ['allow-live', 'PCS_ALLOW_LIVE'],
      ['allow-live-writes', 'PCS_ALLOW_LIVE_WRITES'],
      ['grep', 'PCS_GREP'],
      ['operation', 'PCS_OPERATION'],
      ['documented-only', 'PCS_DOCUMENTED_ONLY'],
      ['reporter', 'PCS_REPORTER'],
      ['shard', 'PCS_SHARD'],
    ] as const) {
      const row = tableRows.find((candidate) => candidate.flag.name === flag);
      assert.equal(row?.variable, variable, `--${flag}`);
    }
  });

  test('the existing flags keep their names and variables', () => {
    const before: Array<[string, string | undefined]> = [
      ['base-url', 'PCS_BASE_URL'],
      ['secret-key-env', 'PCS_SECRET_KEY'],
      ['second-secret-key-env', 'PCS_SECOND_SECRET_KEY'],
      ['environment', 'PCS_ENVIRONMENT'],
      ['balance-id', 'PCS_BALANCE_ID'],
      ['currency-id', 'PCS_CURRENCY_ID'],
      ['runs', 'PCS_RUNS'],
      ['seed', 'PCS_SEED'],
      ['path', 'PCS_PATH'],
      ['workers', 'PCS_WORKERS'],
      ['output', 'PCS_OUTPUT_DIR'],
      ['strict', 'PCS_STRICT'],
      ['list', undefined],
    ];
    for (const [flag, variable] of before) {
      assert.equal(tableRows.find((row) => row.flag.name === flag)?.variable, variable, `--${flag}`);
    }
  });

  test("the command's flags are the table's, plus the refused flags that would carry a key", () => {
    const refused = variableSettings.filter((row) => row.secret === true).map(valueFlagName);
    assert.deepEqual(refused, ['secret-key', 'second-secret-key']);
    assert.deepEqual(
      runFlags.map((spec) => spec.name),
      [...rowsOf('run').map((row) => row.flag.name), ...refused],
    );
    for (const command of ['proxy', 'judge'] as const)
      assert.deepEqual(
        commandFlags(command)
          .filter((spec) => spec.refused !== undefined)
          .map((spec) => spec.name),
        refused,
        `${command} refuses them too`,
      );
    for (const spec of runFlags) assert.equal(spec.refused !== undefined, refused.includes(spec.name), spec.name);
  });

  test('the known PCS_* names are the variables of the table', () => {
    assert.deepEqual(
      [...knownVariables],
      variableSettings.map((row) => row.variable),
    );
  });

  test('each flag sets its variable (a switch to the value shown); a flag naming a variable reads it', () => {
    const argv = rowsOf('run')
      .filter((row) => !row.flag.namesVariable)
      .flatMap((row) => {
        if (row.flag.placeholder === undefined) return [`--${row.flag.name}`];
        return [`--${row.flag.name}`, isSetting(row) && exampleValue(row) !== '' ? exampleValue(row) : '7'];
      })
      .filter((arg) => arg !== '--list');
    const { flags } = parseArgs(
      [...argv, '--secret-key-env', 'MY_KEY', '--second-secret-key-env', 'OTHER_KEY'],
      runFlags,
    );
    const variables = variablesFromFlags(flags);
    for (const row of variableSettings.filter((candidate) => !candidate.flag.namesVariable)) {
      assert.ok(variables[row.variable] !== undefined, `--${row.flag.name} sets ${row.variable}`);
      if (row.flag.sets !== undefined) assert.equal(variables[row.variable], row.flag.sets);
    }
    const env = environmentFromFlags(flags, { MY_KEY: 'sk_sandbox_one', OTHER_KEY: 'sk_sandbox_two' });
    assert.equal(env.PCS_SECRET_KEY, 'sk_sandbox_one');
    assert.equal(env.PCS_SECOND_SECRET_KEY, 'sk_sandbox_two');
    assert.equal(env.COLLECT_CONFORMANCE_KEY_VARIABLE, 'MY_KEY');
  });
});

describe('what the table says is what it accepts', () => {
  test('every value .env.example suggests passes its validator', () => {
    for (const row of variableSettings) {
      const example = exampleValue(row);
      if (example === '') continue;
      const parsed = row.parse(example);
      assert.ok(parsed.ok, `${row.variable}=${example}: ${parsed.ok ? '' : parsed.problem}`);
    }
  });

  test('unset, a setting reads as its default; the defaults are those loadConfig gives', () => {
    for (const row of variableSettings) assert.deepEqual(readSetting({}, row), row.default, row.variable);
    validateSettings({});
    const config = loadConfig({});
    assert.equal(config.clockToleranceSeconds, defaultClockToleranceSeconds);
    assert.equal(config.timeoutMs, settings.timeoutMs.default);
    assert.equal(config.currencyIso, settings.currencyIso.default);
    assert.equal(config.phoneNumber, settings.phoneNumber.default);
    assert.ok(
      helpText.includes(`PCS_CLOCK_TOLERANCE_S`) && helpText.includes(`(default: ${defaultClockToleranceSeconds})`),
    );
  });

  test('a wrong value is refused naming the variable, or the flag, with the same words', () => {
    assert.throws(
      () => readSetting({ PCS_SHRINK: 'maybe' }, settings.shrink),
      /^ConfigError: PCS_SHRINK: must be "yes" or "no", got "maybe"$/,
    );
    assert.throws(
      () => parseArgs(['--shrink', 'maybe'], runFlags),
      (error: unknown) =>
        error instanceof UsageError && error.message === '--shrink: must be "yes" or "no", got "maybe"',
    );
    assert.throws(
      () => validateSettings({ PCS_GREP: '(' }),
      /^ConfigError: PCS_GREP: "\(" is not a valid regular expression/,
    );
    assert.throws(
      () => validateSettings({ PCS_OPERATION: 'getBalanse' }),
      /PCS_OPERATION: unknown operation "getBalanse"; did you mean getBalance\?/,
    );
    assert.throws(
      () => validateSettings({ PCS_DOCUMENTED_ONLY: 'true' }),
      /PCS_DOCUMENTED_ONLY: must be "yes" or "no"/,
    );
  });
});

describe('flags: the nearest known flag, and nothing secret repeated', () => {
  const usageError = (argv: string[]): string => {
    try {
      parseArgs(argv, runFlags);
    } catch (error) {
      if (error instanceof UsageError) return error.message;
      throw error;
    }
    assert.fail(`${argv.join(' ')} was accepted`);
  };

  test('an unknown flag gets the nearest known one', () => {
    assert.equal(
      usageError(['--curency-id', '1']),
      'unknown flag --curency-id; did you mean --currency-id? (see --help)',
    );
    assert.match(usageError(['--second-balance', '3']), /did you mean --second-balance-id\?/);
    assert.match(usageError(['--documented_only']), /did you mean --documented-only\?/);
    assert.match(usageError(['--max-rsp', '3']), /did you mean --max-rps\?/);
    assert.equal(usageError(['--frobnicate-everything']), 'unknown flag --frobnicate-everything (see --help)');
  });

  test('--secret-key and --second-secret-key explain where keys come from, without reading what follows', () => {
    const canary = 'sk_sandbox_flagcanary_7d1e';
    for (const argv of [
      ['--secret-key', canary],
      [`--secret-key=${canary}`],
      ['--second-secret-key', canary],
      ['--secret-key'],
    ]) {
      const message = usageError(argv);
      assert.ok(!message.includes(canary), message);
      assert.match(
        message,
        /^--(second-)?secret-key: keys are never passed as flags .*--(second-)?secret-key-env NAME$/,
      );
    }
  });

  test('a key where a variable name belongs is described, never printed', () => {
    for (const value of ['sk_sandbox_a_111', 'sk_live+x/y=', 'not a name']) {
      for (const flag of ['--secret-key-env', '--second-secret-key-env']) {
        const message = usageError([flag, value]);
        assert.ok(!message.includes(value), message);
        assert.match(
          message,
          /expects the NAME of an environment variable holding the key; the value given .*not shown/,
        );
      }
    }
    assert.throws(
      () => environmentFromFlags(parseArgs(['--secret-key-env', 'mIxEdCaseToken123'], runFlags).flags, {}),
      (error: unknown) =>
        error instanceof UsageError &&
        !error.message.includes('mIxEdCaseToken123') &&
        /--secret-key-env: the environment variable it names is not set or empty/.test(error.message),
    );
    assert.throws(
      () => environmentFromFlags(parseArgs(['--secret-key-env', 'MY_KEY'], runFlags).flags, {}),
      /^UsageError: --secret-key-env MY_KEY: that environment variable is not set or empty$/,
    );
  });

  test('a key typed as a value or a stray argument is not quoted back', () => {
    const key = 'sk_live_strayvalue_91';
    for (const argv of [['--balance-id', key], ['--strict', key], [key], ['--environment', key]]) {
      const message = usageError(argv);
      assert.ok(!message.includes(key), message);
    }
    assert.equal(usageError(['stray']), 'unexpected argument "stray" (see --help)');
  });
});

test('every credential the settings table marks secret is masked once registered from the environment', () => {
  const env: Record<string, string> = {};
  for (const row of variableSettings.filter((candidate) => candidate.secret === true))
    env[row.variable] = `opaque-${row.variable.toLowerCase()}-9d1f`;
  // Not shaped like this API's keys (those are masked registered or not): only registration masks these.
  env[embeddedLiveKeyVariable] = 'opaque-live-embedded-7c2e';
  assert.ok(Object.keys(env).length >= 3, 'the first key, the second key and the live key at least');
  registerConfiguredSecrets(env);
  for (const value of Object.values(env)) assert.equal(redact(`a message naming ${value}`).includes(value), false);
});
