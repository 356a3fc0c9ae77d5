/**
 * The suite's configuration: PCS_* variables from the environment or a .env file,
 * validated before the first request. A wrong value is a ConfigError whose message is
 * one line naming the variable and what is wrong with it.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import dotenv from 'dotenv';
import { isUnsafeIntegerText, standInFor } from '../../contract/big-integers.ts';

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
   * be refused. Off: they may be refused or accepted (support/judgment/input-class.ts).
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
  /** How far the target's timestamps may be from its own clock (PCS_CLOCK_TOLERANCE_S, seconds; default 120). */
  clockToleranceSeconds: number;
}

export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.variable = variable;
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Loads .env from the working directory into process.env; variables already set win. */
export function loadDotEnv(directory: string = process.cwd()): void {
  const file = resolve(directory, '.env');
  if (existsSync(file)) dotenv.config({ path: file, quiet: true });
}

function text(env: Env, name: string): string | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function positiveInteger(env: Env, name: string): number | null {
  const value = text(env, name);
  if (value === undefined) return null;
  if (!/^\d{1,20}$/.test(value) || /^0+$/.test(value)) {
    throw new ConfigError(name, `must be a positive integer, got "${value.slice(0, 40)}"`);
  }
  // An id beyond 2^53 is kept exact through its stand-in (contract/big-integers.ts).
  return isUnsafeIntegerText(value) ? standInFor(value) : Number(value);
}

function yes(env: Env, name: string): boolean {
  const value = text(env, name);
  if (value === undefined || value === 'no') return false;
  if (value === 'yes') return true;
  throw new ConfigError(name, `must be "yes" or "no", got "${value.slice(0, 40)}"`);
}

function baseUrl(env: Env): string | null {
  const value = text(env, 'PCS_BASE_URL');
  if (value === undefined) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('PCS_BASE_URL', `is not a URL: "${value.slice(0, 80)}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError('PCS_BASE_URL', `must be an http or https URL, got ${url.protocol}`);
  }
  if (url.username || url.password)
    throw new ConfigError('PCS_BASE_URL', 'must not carry credentials; use PCS_SECRET_KEY');
  if (url.search || url.hash) throw new ConfigError('PCS_BASE_URL', 'must not carry a query or fragment');
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/v1')) {
    throw new ConfigError(
      'PCS_BASE_URL',
      `must be the base address including /v1 (e.g. http://127.0.0.1:4010/v1), got "${value.slice(0, 80)}"`,
    );
  }
  return `${url.origin}${path}`;
}

const liveKeyPattern = /^[a-z]{2}_live_/i;
const sandboxKeyPattern = /^[a-z]{2}_(sandbox|test)_/i;

/** True when a base URL names a live environment by its looks (a "live" word in host or path). */
export function looksLive(url: string): boolean {
  return /(^|[^a-z])live([^a-z]|$)/i.test(new URL(url).host + new URL(url).pathname);
}

export const defaultWorkers = 2;

/**
 * PCS_WORKERS, read by playwright.config.ts and the command: a whole number from 1 to 999.
 * Playwright itself hangs on a value that is not a number and throws a stack trace on 0.
 */
export function workersSetting(env: Env = process.env): number {
  const value = text(env, 'PCS_WORKERS');
  if (value === undefined) {
    // Chosen by the command from the target's round trip (support/lifecycle/round-trip-probe.ts).
    const chosen = Number(env.COLLECT_CONFORMANCE_AUTO_WORKERS);
    return Number.isInteger(chosen) && chosen >= 1 && chosen <= 16 ? chosen : defaultWorkers;
  }
  if (!/^\d{1,3}$/.test(value) || Number(value) < 1) {
    throw new ConfigError(
      'PCS_WORKERS',
      `must be a whole number of parallel workers from 1 to 999, got "${value.slice(0, 40)}"`,
    );
  }
  return Number(value);
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

export function loadConfig(env: Env = process.env): SuiteConfig {
  const target = baseUrl(env);
  const secretKey = text(env, 'PCS_SECRET_KEY') ?? null;
  if (target !== null && secretKey === null) {
    throw new ConfigError(
      'PCS_SECRET_KEY',
      'is required when PCS_BASE_URL is set (the key is sent as Authorization: Bearer <key>)',
    );
  }
  const secondSecretKey = text(env, 'PCS_SECOND_SECRET_KEY') ?? null;
  const keys = [
    ['PCS_SECRET_KEY', secretKey],
    ['PCS_SECOND_SECRET_KEY', secondSecretKey],
  ] as const;
  for (const [variable, key] of keys) {
    // Without a base URL the run tests the embedded mock with the mock's own keys: a key given for a
    // target whose address is missing (a CI variable not set) would pass without testing anything.
    if (target === null && key !== null) {
      throw new ConfigError(
        variable,
        'is set but PCS_BASE_URL is not: the run would test the embedded mock, not your target; ' +
          `set PCS_BASE_URL (or unset ${variable} to test the mock)`,
      );
    }
    if (key !== null && (/[\s\x00-\x1f\x7f]/.test(key) || key.length > 1024)) {
      throw new ConfigError(
        variable,
        'must be one token without spaces or control characters, at most 1024 characters',
      );
    }
  }
  if (secondSecretKey !== null && secondSecretKey === secretKey) {
    throw new ConfigError('PCS_SECOND_SECRET_KEY', 'is the same key as PCS_SECRET_KEY; give a key of another account');
  }
  const environmentText = text(env, 'PCS_ENVIRONMENT') ?? 'sandbox';
  if (environmentText !== 'sandbox' && environmentText !== 'live') {
    throw new ConfigError('PCS_ENVIRONMENT', `must be "sandbox" or "live", got "${environmentText.slice(0, 40)}"`);
  }
  const environment: Environment = environmentText;
  const currencyIso = text(env, 'PCS_CURRENCY_ISO') ?? 'XOF';
  if (!/^[A-Z]{3}$/.test(currencyIso)) {
    throw new ConfigError(
      'PCS_CURRENCY_ISO',
      `must be a three-letter upper-case currency code, got "${currencyIso.slice(0, 40)}"`,
    );
  }
  const paymentMode = text(env, 'PCS_PAYMENT_MODE') ?? 'mtn';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(paymentMode)) {
    throw new ConfigError(
      'PCS_PAYMENT_MODE',
      `must be a mode name of letters, digits, _ or -, got "${paymentMode.slice(0, 40)}"`,
    );
  }
  const phoneNumber = text(env, 'PCS_PHONE_NUMBER') ?? '+22997000001';
  if (!/^\+?\d{6,15}$/.test(phoneNumber)) {
    throw new ConfigError(
      'PCS_PHONE_NUMBER',
      `must be an international-style number such as +22997000001, got "${phoneNumber.slice(0, 40)}"`,
    );
  }
  const phoneCountry = text(env, 'PCS_PHONE_COUNTRY') ?? 'BJ';
  if (!/^[A-Z]{2}$/.test(phoneCountry)) {
    throw new ConfigError(
      'PCS_PHONE_COUNTRY',
      `must be an upper-case two-letter country code, got "${phoneCountry.slice(0, 40)}"`,
    );
  }
  const timeoutMs = positiveInteger(env, 'PCS_TIMEOUT_MS') ?? 15_000;
  if (timeoutMs > 3_600_000)
    throw new ConfigError(
      'PCS_TIMEOUT_MS',
      `must be at most 3600000 (one hour), got ${env.PCS_TIMEOUT_MS?.trim().slice(0, 40)}`,
    );
  const allowLive = yes(env, 'PCS_ALLOW_LIVE');
  const allowLiveWrites = yes(env, 'PCS_ALLOW_LIVE_WRITES');
  const strict = yes(env, 'PCS_STRICT');
  workersSetting(env);
  const runId =
    text(env, 'PCS_RUN_ID') ??
    `cc-${new Date().toISOString().slice(0, 10).replace(/-/g, '')}-${randomBytes(3).toString('hex')}`;
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(runId)) {
    throw new ConfigError('PCS_RUN_ID', 'must be 1 to 64 letters, digits, dots, dashes or underscores');
  }

  // Live guard: checked here, before any request is made; the second key is held to it like the first.
  for (const [variable, key] of keys) {
    if (key === null) continue;
    if (environment === 'sandbox' && liveKeyPattern.test(key)) {
      throw new ConfigError(variable, 'looks like a live key but PCS_ENVIRONMENT is sandbox; refusing to run');
    }
    if (environment === 'live' && sandboxKeyPattern.test(key)) {
      throw new ConfigError(variable, 'looks like a sandbox key but PCS_ENVIRONMENT is live; refusing to run');
    }
  }
  const clockToleranceSeconds = positiveInteger(env, 'PCS_CLOCK_TOLERANCE_S') ?? 120;
  const live =
    environment === 'live' ||
    (secretKey !== null && liveKeyPattern.test(secretKey)) ||
    (secondSecretKey !== null && liveKeyPattern.test(secondSecretKey)) ||
    (target !== null && looksLive(target));
  if (live && !allowLive) {
    throw new ConfigError(
      'PCS_ALLOW_LIVE',
      'the target is live (PCS_ENVIRONMENT, key or base URL); set PCS_ALLOW_LIVE=yes to run against it',
    );
  }

  return {
    baseUrl: target,
    secretKey,
    environment,
    balanceId: positiveInteger(env, 'PCS_BALANCE_ID'),
    currencyId: positiveInteger(env, 'PCS_CURRENCY_ID'),
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
    secondBalanceId: positiveInteger(env, 'PCS_SECOND_BALANCE_ID'),
    clockToleranceSeconds,
  };
}
