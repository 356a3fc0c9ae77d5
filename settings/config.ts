/**
 * The suite's configuration: PCS_* variables from the environment or a .env file,
 * validated before the first request. Each variable is read through its row of the
 * settings table (settings/settings.ts); the rules that tie several together
 * (a key needs a base URL, the live guard) are here. A wrong value is a ConfigError whose
 * message is one line naming the variable and what is wrong with it.
 */
import { randomBytes } from 'node:crypto';
import { ConfigError } from './config-error.ts';
import { parseSetting, readSetting, settingText } from './read-setting.ts';
import { settings } from './settings.ts';

export { ConfigError } from './config-error.ts';
export { loadDotEnv } from './dot-env.ts';

export type Environment = 'sandbox' | 'live';

export interface SuiteConfig {
  /** Target base address ending in /v1, or null: start the embedded reference mock. */
  baseUrl: string | null;
  secretKey: string | null;
  environment: Environment;
  balanceId: number | null;
  currencyId: number | null;
  currencyIso: string;
  paymentMode: string;
  phoneNumber: string;
  phoneCountry: string;
  /** Per-request timeout in milliseconds. */
  timeoutMs: number;
  allowLive: boolean;
  allowLiveWrites: boolean;
  /**
   * PCS_STRICT=yes (--strict): inputs the reference leaves open only through a lenient reading
   * (null as "not given", a coercion, another Content-Type, its prose read as a constraint) must
   * be refused. Off: they may be refused or accepted (judgment/input-class.ts).
   */
  strict: boolean;
  /** Labels what this run creates (description, custom_metadata) so it can be found. */
  runId: string;
  /**
   * A key of another account on the same environment (PCS_SECOND_SECRET_KEY), and a balance of that
   * account (PCS_SECOND_BALANCE_ID): the cross-account checks need them, and are skipped without.
   */
  secondSecretKey: string | null;
  secondBalanceId: number | null;
  /** How far the target's timestamps may be from its own clock (PCS_CLOCK_TOLERANCE_S, seconds). */
  clockToleranceSeconds: number;
}

type Env = Record<string, string | undefined>;

const liveKeyPattern = /^[a-z]{2}_live_/i;
const sandboxKeyPattern = /^[a-z]{2}_(sandbox|test)_/i;

/** True when a base URL names a live environment by its looks (a "live" word in host or path). */
export function looksLive(url: string): boolean {
  return /(^|[^a-z])live([^a-z]|$)/i.test(new URL(url).host + new URL(url).pathname);
}

export const defaultWorkers = settings.workers.default;

/**
 * PCS_WORKERS, read by playwright.config.ts and the command: a whole number from 1 to 999.
 * Playwright itself hangs on a value that is not a number and throws a stack trace on 0.
 */
export function workersSetting(env: Env = process.env): number {
  if (settingText(env, settings.workers) === undefined) {
    // Chosen by the command from the target's round trip (settings/round-trip-probe.ts).
    const chosen = Number(env.COLLECT_CONFORMANCE_AUTO_WORKERS);
    return Number.isInteger(chosen) && chosen >= 1 && chosen <= 16 ? chosen : defaultWorkers;
  }
  return readSetting(env, settings.workers);
}

/**
 * The variable the key was read from, for messages about the key: PCS_SECRET_KEY, or the one the
 * user named with --secret-key-env (the command passes it on in COLLECT_CONFORMANCE_KEY_VARIABLE).
 */
export function keyVariableName(env: Env = process.env): string {
  const named = env.COLLECT_CONFORMANCE_KEY_VARIABLE?.trim();
  return named && /^[A-Za-z_][A-Za-z0-9_]*$/.test(named) ? named : 'PCS_SECRET_KEY';
}

/** The one line a configuration error ends in (exit code 2), for code that runs before the command's own handling. */
export function configErrorLine(error: ConfigError): string {
  return `collect-conformance: configuration error: ${error.message}`;
}

/**
 * Runs a validation; a ConfigError ends the process with its one
 * line and exit code 2 (playwright.config.ts, global setup).
 */
export function orExitOnConfigError<T>(validate: () => T): T {
  try {
    return validate();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${configErrorLine(error)}\n`);
      process.exit(2);
    }
    throw error;
  }
}

export interface LiveGuardInput {
  environment: Environment;
  allowLive: boolean;
  /** The address requests go to (a run's target, the proxy's upstream), or null: the embedded mock. */
  target: string | null;
  /** Each key with the setting it came from. */
  keys: ReadonlyArray<readonly [{ variable: string }, string | null]>;
}

/**
 * The live guard, one rule for every command that sends or judges requests: a key that contradicts
 * PCS_ENVIRONMENT is refused; a live environment, a live-looking key or a target with the word "live"
 * needs PCS_ALLOW_LIVE=yes. A ConfigError (exit 2) before anything is sent.
 */
export function applyLiveGuard({ environment, allowLive, target, keys }: LiveGuardInput): void {
  for (const [row, key] of keys) {
    if (key === null) continue;
    if (environment === 'sandbox' && liveKeyPattern.test(key)) {
      throw new ConfigError(row.variable, 'looks like a live key but PCS_ENVIRONMENT is sandbox; refusing to run');
    }
    if (environment === 'live' && sandboxKeyPattern.test(key)) {
      throw new ConfigError(row.variable, 'looks like a sandbox key but PCS_ENVIRONMENT is live; refusing to run');
    }
  }
  const live =
    environment === 'live' ||
    keys.some(([, key]) => key !== null && liveKeyPattern.test(key)) ||
    (target !== null && looksLive(target));
  if (live && !allowLive) {
    throw new ConfigError(
      'PCS_ALLOW_LIVE',
      'the target is live (PCS_ENVIRONMENT, key or base URL); set PCS_ALLOW_LIVE=yes to run against it',
    );
  }
}

export function loadConfig(env: Env = process.env): SuiteConfig {
  const target = readSetting(env, settings.baseUrl);
  // The keys' own checks come after the checks of their pairing with a base URL, which say more.
  const secretKey = settingText(env, settings.secretKey) ?? null;
  if (target !== null && secretKey === null) {
    throw new ConfigError(
      'PCS_SECRET_KEY',
      'is required when PCS_BASE_URL is set (the key is sent as Authorization: Bearer <key>)',
    );
  }
  const secondSecretKey = settingText(env, settings.secondSecretKey) ?? null;
  const keys = [
    [settings.secretKey, secretKey],
    [settings.secondSecretKey, secondSecretKey],
  ] as const;
  for (const [row, key] of keys) {
    // Without a base URL the run tests the embedded mock with the mock's own keys: a key given for a
    // target whose address is missing (a CI variable not set) would pass without testing anything.
    if (target === null && key !== null) {
      throw new ConfigError(
        row.variable,
        'is set but PCS_BASE_URL is not: the run would test the embedded mock, not your target; ' +
          `set PCS_BASE_URL (or unset ${row.variable} to test the mock)`,
      );
    }
    if (key !== null) parseSetting(row, key);
  }
  if (secondSecretKey !== null && secondSecretKey === secretKey) {
    throw new ConfigError('PCS_SECOND_SECRET_KEY', 'is the same key as PCS_SECRET_KEY; give a key of another account');
  }
  const environment: Environment = readSetting(env, settings.environment);
  const currencyIso = readSetting(env, settings.currencyIso);
  const paymentMode = readSetting(env, settings.paymentMode);
  const phoneNumber = readSetting(env, settings.phoneNumber);
  const phoneCountry = readSetting(env, settings.phoneCountry);
  const timeoutMs = readSetting(env, settings.timeoutMs);
  const allowLive = readSetting(env, settings.allowLive);
  const allowLiveWrites = readSetting(env, settings.allowLiveWrites);
  const strict = readSetting(env, settings.strict);
  workersSetting(env);
  const runId =
    readSetting(env, settings.runId) ??
    `cc-${new Date().toISOString().slice(0, 10).replace(/-/g, '')}-${randomBytes(3).toString('hex')}`;

  // Live guard: checked here, before any request is made; the second key is held to it like the first.
  applyLiveGuard({ environment, allowLive, target, keys });
  const clockToleranceSeconds = readSetting(env, settings.clockToleranceSeconds);

  return {
    baseUrl: target,
    secretKey,
    environment,
    balanceId: readSetting(env, settings.balanceId),
    currencyId: readSetting(env, settings.currencyId),
    currencyIso,
    paymentMode,
    phoneNumber,
    phoneCountry,
    timeoutMs,
    allowLive,
    allowLiveWrites,
    strict,
    runId,
    secondSecretKey,
    secondBalanceId: readSetting(env, settings.secondBalanceId),
    clockToleranceSeconds,
  };
}
