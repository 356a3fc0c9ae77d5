/**
 * The live guard of settings/config.ts (checked before any request): a live target needs
 * PCS_ALLOW_LIVE=yes, a key that contradicts the environment is refused, and writes on a
 * live target need PCS_ALLOW_LIVE_WRITES=yes (Target.writesAllowed, used by requireWrites).
 *
 *   node --import tsx --test tests/unit/live-guard.test.ts
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ConfigError, loadConfig, looksLive } from '../../settings/config.ts';

const run = promisify(execFile);

const sandboxUrl = 'https://api.sandbox.example.com/v1';
const sandboxKey = 'sk_sandbox_0123456789abcdef';
const liveKey = 'sk_live_0123456789abcdef';

function refused(env: Record<string, string>, variable: string): void {
  assert.throws(
    () => loadConfig(env),
    (error: unknown) => error instanceof ConfigError && error.variable === variable && !error.message.includes('\n'),
    `expected a one-line ConfigError on ${variable} for ${JSON.stringify(env)}`,
  );
}

describe('live guard', () => {
  test('a sandbox target with a sandbox key runs without any live permission', () => {
    const config = loadConfig({ PCS_BASE_URL: sandboxUrl, PCS_SECRET_KEY: sandboxKey });
    assert.equal(config.environment, 'sandbox');
    assert.equal(config.allowLive, false);
  });

  test('PCS_ENVIRONMENT=live requires PCS_ALLOW_LIVE=yes', () => {
    refused(
      { PCS_BASE_URL: 'https://api.example.com/v1', PCS_SECRET_KEY: 'opaque-key-0001', PCS_ENVIRONMENT: 'live' },
      'PCS_ALLOW_LIVE',
    );
    refused(
      {
        PCS_BASE_URL: 'https://api.example.com/v1',
        PCS_SECRET_KEY: 'opaque-key-0001',
        PCS_ENVIRONMENT: 'live',
        PCS_ALLOW_LIVE: 'no',
      },
      'PCS_ALLOW_LIVE',
    );
    const config = loadConfig({
      PCS_BASE_URL: 'https://api.example.com/v1',
      PCS_SECRET_KEY: 'opaque-key-0001',
      PCS_ENVIRONMENT: 'live',
      PCS_ALLOW_LIVE: 'yes',
    });
    assert.equal(config.environment, 'live');
    assert.equal(config.allowLiveWrites, false);
  });

  test('a live-looking base URL requires PCS_ALLOW_LIVE=yes even when the environment says sandbox', () => {
    for (const url of [
      'https://live.example.com/v1',
      'https://api.example.com/live/v1',
      'https://api-live.example.com/v1',
    ]) {
      assert.equal(looksLive(url), true, url);
      refused({ PCS_BASE_URL: url, PCS_SECRET_KEY: 'opaque-key-0001' }, 'PCS_ALLOW_LIVE');
    }
    for (const url of [sandboxUrl, 'https://delivery.example.com/v1', 'https://olive.example.com/v1'])
      assert.equal(looksLive(url), false, url);
  });

  test('a live-looking key contradicting PCS_ENVIRONMENT=sandbox is refused, even with PCS_ALLOW_LIVE=yes', () => {
    refused({ PCS_BASE_URL: sandboxUrl, PCS_SECRET_KEY: liveKey }, 'PCS_SECRET_KEY');
    refused(
      { PCS_BASE_URL: sandboxUrl, PCS_SECRET_KEY: liveKey, PCS_ENVIRONMENT: 'sandbox', PCS_ALLOW_LIVE: 'yes' },
      'PCS_SECRET_KEY',
    );
  });

  test('a sandbox-looking key with PCS_ENVIRONMENT=live is refused', () => {
    refused(
      {
        PCS_BASE_URL: 'https://api.example.com/v1',
        PCS_SECRET_KEY: sandboxKey,
        PCS_ENVIRONMENT: 'live',
        PCS_ALLOW_LIVE: 'yes',
      },
      'PCS_SECRET_KEY',
    );
    refused(
      {
        PCS_BASE_URL: 'https://api.example.com/v1',
        PCS_SECRET_KEY: 'pk_test_0123456789',
        PCS_ENVIRONMENT: 'live',
        PCS_ALLOW_LIVE: 'yes',
      },
      'PCS_SECRET_KEY',
    );
  });

  test('the guard message never repeats the key', () => {
    try {
      loadConfig({ PCS_BASE_URL: sandboxUrl, PCS_SECRET_KEY: liveKey });
      assert.fail('expected a refusal');
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      assert.ok(!error.message.includes(liveKey));
    }
  });

  test('PCS_ALLOW_LIVE and PCS_ALLOW_LIVE_WRITES accept only yes or no', () => {
    refused({ PCS_BASE_URL: sandboxUrl, PCS_SECRET_KEY: sandboxKey, PCS_ALLOW_LIVE: 'true' }, 'PCS_ALLOW_LIVE');
    refused(
      { PCS_BASE_URL: sandboxUrl, PCS_SECRET_KEY: sandboxKey, PCS_ALLOW_LIVE_WRITES: '1' },
      'PCS_ALLOW_LIVE_WRITES',
    );
  });

  const liveWritesTitle =
    'writes on a live target need PCS_ALLOW_LIVE_WRITES=yes (Target.writesAllowed, read by requireWrites)';
  test(liveWritesTitle, async () => {
    const base = {
      PCS_BASE_URL: 'https://api.example.com/live/v1',
      PCS_SECRET_KEY: liveKey,
      PCS_ENVIRONMENT: 'live',
      PCS_ALLOW_LIVE: 'yes',
    };
    assert.equal(await writesAllowedIn(base), false);
    assert.equal(await writesAllowedIn({ ...base, PCS_ALLOW_LIVE_WRITES: 'yes' }), true);
    assert.equal(await writesAllowedIn({ PCS_BASE_URL: sandboxUrl, PCS_SECRET_KEY: sandboxKey }), true);
  });
});

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** settings/target.ts caches the target of its process: ask a fresh process with only these PCS_ variables. */
async function writesAllowedIn(pcs: Record<string, string>): Promise<boolean> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env))
    if (!name.startsWith('PCS_') && !name.startsWith('COLLECT_CONFORMANCE_') && value !== undefined) env[name] = value;
  const script =
    "import { currentTarget } from './settings/target.ts'; " +
    'process.stdout.write(String(currentTarget().writesAllowed));';
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: projectRoot,
    env: { ...env, ...pcs },
  });
  return stdout.trim() === 'true';
}
