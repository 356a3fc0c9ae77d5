/**
 * Playwright global setup: validates the configuration before the first request (one line
 * and exit code 2 on a wrong value) and, when PCS_BASE_URL is unset, starts the embedded
 * reference mock on a free loopback port and points the workers at it through the
 * environment they inherit.
 */
import type { FullConfig } from '@playwright/test';
import { ConfigError, loadConfig, loadDotEnv } from './config.ts';
import { startMockServer } from '../mock/server.ts';

export const configErrorExitCode = 2;

export default async function globalSetup(_config: FullConfig): Promise<(() => Promise<void>) | undefined> {
  loadDotEnv();
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`collect-conformance: configuration error: ${error.message}\n`);
      process.exit(configErrorExitCode);
    }
    throw error;
  }
  process.env.PCS_RUN_ID = config.runId;
  if (config.baseUrl !== null) return undefined;

  const mock = await startMockServer({ port: 0, host: '127.0.0.1' });
  process.env.PCS_BASE_URL = mock.sandboxBaseUrl;
  process.env.PCS_SECRET_KEY = mock.sandboxKey;
  process.env.PCS_ENVIRONMENT = 'sandbox';
  process.env.PCS_BALANCE_ID ??= '1';
  process.env.PCS_CURRENCY_ID ??= '1';
  process.env.PCS_EMBEDDED_MOCK = '1';
  process.env.PCS_EMBEDDED_LIVE_BASE_URL = mock.liveBaseUrl;
  process.env.PCS_EMBEDDED_LIVE_KEY = mock.liveKey;
  process.stdout.write(`collect-conformance: PCS_BASE_URL is unset: testing the embedded reference mock at ${mock.sandboxBaseUrl}\n`);
  return async () => {
    await mock.close();
  };
}
