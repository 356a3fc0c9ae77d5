/** Configuration: PCS_* variables validated with one-line messages naming the variable. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ConfigError, loadConfig, looksLive } from '../../settings/config.ts';
import { checkVariableNames, knownVariables, nearestVariable } from '../../settings/variable-names.ts';

const base = { PCS_BASE_URL: 'http://127.0.0.1:4010/v1', PCS_SECRET_KEY: 'sk_sandbox_abc' };

test('defaults: no variables means the embedded mock, sandbox, XOF, mtn', () => {
  const config = loadConfig({});
  assert.equal(config.baseUrl, null);
  assert.equal(config.environment, 'sandbox');
  assert.equal(config.currencyIso, 'XOF');
  assert.equal(config.paymentMode, 'mtn');
  assert.equal(config.balanceId, null);
  assert.match(config.runId, /^cc-\d{8}-[0-9a-f]{6}$/);
});

test('a full configuration is read and normalised', () => {
  const config = loadConfig({
    ...base,
    PCS_BASE_URL: 'https://sandbox.example.com/api/v1/',
    PCS_BALANCE_ID: '7',
    PCS_CURRENCY_ID: '3',
    PCS_CURRENCY_ISO: 'GNF',
    PCS_PAYMENT_MODE: 'orange_gn',
    PCS_TIMEOUT_MS: '5000',
  });
  assert.equal(config.baseUrl, 'https://sandbox.example.com/api/v1');
  assert.equal(config.balanceId, 7);
  assert.equal(config.currencyId, 3);
  assert.equal(config.currencyIso, 'GNF');
  assert.equal(config.timeoutMs, 5000);
});

const wrong: Array<[string, Record<string, string>, RegExp]> = [
  [
    'base URL without /v1',
    { ...base, PCS_BASE_URL: 'http://127.0.0.1:4010' },
    /^PCS_BASE_URL: must be the base address including \/v1/,
  ],
  ['base URL not a URL', { ...base, PCS_BASE_URL: 'localhost:4010/v1' }, /^PCS_BASE_URL: /],
  [
    'base URL with credentials',
    { ...base, PCS_BASE_URL: 'http://u:p@127.0.0.1/v1' },
    /^PCS_BASE_URL: must not carry credentials/,
  ],
  ['key missing with a base URL', { PCS_BASE_URL: base.PCS_BASE_URL }, /^PCS_SECRET_KEY: is required/],
  [
    'key without a base URL',
    { PCS_SECRET_KEY: base.PCS_SECRET_KEY },
    /^PCS_SECRET_KEY: is set but PCS_BASE_URL is not: the run would test the embedded mock/,
  ],
  ['key with a space', { ...base, PCS_SECRET_KEY: 'sk bad' }, /^PCS_SECRET_KEY: must be one token/],
  ['unknown environment', { ...base, PCS_ENVIRONMENT: 'prod' }, /^PCS_ENVIRONMENT: must be "sandbox" or "live"/],
  ['balance id not an integer', { ...base, PCS_BALANCE_ID: 'abc' }, /^PCS_BALANCE_ID: must be a positive integer/],
  ['currency id zero', { ...base, PCS_CURRENCY_ID: '0' }, /^PCS_CURRENCY_ID: must be a positive integer/],
  ['currency iso lower case', { ...base, PCS_CURRENCY_ISO: 'xof' }, /^PCS_CURRENCY_ISO: /],
  ['payment mode with a slash', { ...base, PCS_PAYMENT_MODE: 'mtn/x' }, /^PCS_PAYMENT_MODE: /],
  ['phone country lower case', { ...base, PCS_PHONE_COUNTRY: 'bj' }, /^PCS_PHONE_COUNTRY: /],
  ['timeout not a number', { ...base, PCS_TIMEOUT_MS: 'soon' }, /^PCS_TIMEOUT_MS: /],
  ['allow-live not yes/no', { ...base, PCS_ALLOW_LIVE: 'true' }, /^PCS_ALLOW_LIVE: must be "yes" or "no"/],
];

for (const [name, env, message] of wrong) {
  test(`refused with one line: ${name}`, () => {
    assert.throws(
      () => loadConfig(env),
      (error: unknown) => error instanceof ConfigError && message.test(error.message) && !error.message.includes('\n'),
    );
  });
}

test('live guard: live needs PCS_ALLOW_LIVE=yes, contradictions are refused', () => {
  assert.throws(
    () => loadConfig({ ...base, PCS_ENVIRONMENT: 'live', PCS_SECRET_KEY: 'sk_live_x' }),
    /PCS_ALLOW_LIVE: the target is live/,
  );
  assert.throws(
    () => loadConfig({ ...base, PCS_SECRET_KEY: 'sk_live_x' }),
    /PCS_SECRET_KEY: looks like a live key but PCS_ENVIRONMENT is sandbox/,
  );
  assert.throws(
    () => loadConfig({ ...base, PCS_ENVIRONMENT: 'live', PCS_SECRET_KEY: 'sk_sandbox_x', PCS_ALLOW_LIVE: 'yes' }),
    /looks like a sandbox key but PCS_ENVIRONMENT is live/,
  );
  assert.throws(() => loadConfig({ ...base, PCS_BASE_URL: 'https://live.example.com/v1' }), /PCS_ALLOW_LIVE/);
  const live = loadConfig({ ...base, PCS_ENVIRONMENT: 'live', PCS_SECRET_KEY: 'sk_live_x', PCS_ALLOW_LIVE: 'yes' });
  assert.equal(live.environment, 'live');
  assert.equal(live.allowLiveWrites, false);
});

test('looksLive reads the words of host and path, not substrings of other words', () => {
  assert.equal(looksLive('https://api-live.example.com/v1'), true);
  assert.equal(looksLive('http://127.0.0.1:4010/live/v1'), true);
  assert.equal(looksLive('https://delivery.example.com/v1'), false);
  assert.equal(looksLive('http://127.0.0.1:4010/v1'), false);
});

describe('PCS_* names: empty, or unknown in .env, is refused; unknown in the environment, a warning', () => {
  const refused = (env: Record<string, string>, message: RegExp, fromDotEnv: ReadonlySet<string> = new Set()) =>
    assert.throws(
      () => checkVariableNames(env, fromDotEnv),
      (error: unknown) => error instanceof ConfigError && message.test(error.message) && !error.message.includes('\n'),
      JSON.stringify(env),
    );

  test('a variable set but empty (a missing CI variable) is refused, naming it', () => {
    refused({ PCS_BASE_URL: '', PCS_SECRET_KEY: 'sk_sandbox_x' }, /^PCS_BASE_URL: is set but empty/);
    refused({ PCS_OUTPUT_DIR: '' }, /^PCS_OUTPUT_DIR: is set but empty/);
    refused({ PCS_BALANCE_ID: '  ' }, /^PCS_BALANCE_ID: is set but empty/);
  });

  test('an unknown name in .env is refused with the nearest known name', () => {
    const inDotEnv = (name: string) => new Set([name]);
    refused(
      { PCS_BASEURL: 'http://127.0.0.1:4010/v1' },
      /^PCS_BASEURL: in \.env is not a variable .*did you mean PCS_BASE_URL\?/,
      inDotEnv('PCS_BASEURL'),
    );
    refused({ PCS_SECRETKEY: 'x' }, /did you mean PCS_SECRET_KEY\?/, inDotEnv('PCS_SECRETKEY'));
    refused({ PCS_BALANCE: '1' }, /did you mean PCS_BALANCE_ID\?/, inDotEnv('PCS_BALANCE'));
    assert.equal(nearestVariable('PCS_SOMETHING_ELSE_ENTIRELY'), undefined);
  });

  test('an unknown name in the environment is a warning with the nearest known name, and nothing is refused', () => {
    const warnings = checkVariableNames(
      { PCS_BASEURL: 'x', PCS_BUILD: '', PCS_BASE_URL: 'http://127.0.0.1/v1' },
      new Set(),
    );
    assert.deepEqual(warnings, [
      'collect-conformance: warning: PCS_BASEURL is not a variable of collect-conformance; did you mean ' +
        'PCS_BASE_URL? (collect-conformance --help lists them); ignored, the run goes on',
      'collect-conformance: warning: PCS_BUILD is not a variable of collect-conformance (collect-conformance ' +
        '--help lists them); ignored, the run goes on',
    ]);
  });

  test('known names with values, and other variables, pass', () => {
    assert.deepEqual(checkVariableNames({ PCS_BASE_URL: 'http://127.0.0.1:4010/v1', HOME: '', NODE_ENV: '' }), []);
  });

  test('the known names are the ones docs/reference/configuration.md documents', () => {
    const doc = readFileSync(new URL('../../docs/reference/configuration.md', import.meta.url), 'utf8');
    const documented = new Set(doc.match(/\bPCS_[A-Z0-9_]*[A-Z0-9]\b/g));
    const typo = 'PCS_BASEURL'; // the example of a mistyped name
    assert.deepEqual([...documented].filter((name) => name !== typo && !knownVariables.includes(name)).sort(), []);
    assert.deepEqual(
      knownVariables.filter((name) => !documented.has(name)),
      [],
    );
  });
});

test('--help names every known variable, so that the error pointing to it is true', async () => {
  const { helpText } = await import('../../cli/help.ts');
  assert.deepEqual(
    knownVariables.filter((name) => !helpText.includes(name)),
    [],
  );
});
