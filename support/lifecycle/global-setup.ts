/**
 * Playwright global setup: validates the configuration before the first request (one line
 * and exit code 2 on a wrong value) and, when PCS_BASE_URL is unset, starts the embedded
 * reference mock on a free loopback port and points the workers at it through the
 * environment they inherit. Then it probes the target (support/lifecycle/preflight.ts: unreachable →
 * one line, exit 3 at once) and returns the teardown that deletes the customers the run
 * left (support/lifecycle/cleanup.ts; Playwright runs it after the tests, also on SIGINT).
 */
import { rmSync } from 'node:fs';
import type { FullConfig } from '@playwright/test';
import { ConfigError, loadConfig, loadDotEnv } from './config.ts';
import { startMockServer } from '../../mock/server.ts';
import { cleanupSummary, deleteLeftoverCustomers, ledgerPath, startLedger } from './cleanup.ts';
import { probeTarget, targetUnavailableExitCode } from './preflight.ts';
import { registerSecret } from '../http/redact.ts';
import { propertySettings } from '../generation/properties.ts';
import { markerFilePath, transportSettings, transportVariables } from '../http/transport.ts';

export const configErrorExitCode = 2;

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  loadDotEnv();
  let suite;
  try {
    suite = loadConfig();
    transportVariables();
    propertySettings();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`collect-conformance: configuration error: ${error.message}\n`);
      process.exit(configErrorExitCode);
    }
    throw error;
  }
  process.env.PCS_RUN_ID = suite.runId;
  // PCS_MAX_RPS is a budget for the whole run: each worker takes its share.
  process.env.PCS_WORKER_COUNT = String(config.workers);
  // A marker or a ledger left by an earlier run in the same output directory must not count for this one.
  rmSync(markerFilePath(), { force: true });
  startLedger();

  let closeMock: (() => Promise<void>) | null = null;
  if (suite.baseUrl === null) {
    const mock = await startMockServer({ port: 0, host: '127.0.0.1' });
    closeMock = () => mock.close();
    process.env.PCS_BASE_URL = mock.sandboxBaseUrl;
    process.env.PCS_SECRET_KEY = mock.sandboxKey;
    process.env.PCS_ENVIRONMENT = 'sandbox';
    process.env.PCS_BALANCE_ID ??= '1';
    process.env.PCS_CURRENCY_ID ??= '1';
    process.env.PCS_EMBEDDED_MOCK = '1';
    process.env.PCS_EMBEDDED_LIVE_BASE_URL = mock.liveBaseUrl;
    process.env.PCS_EMBEDDED_LIVE_KEY = mock.liveKey;
    process.stdout.write(`collect-conformance: PCS_BASE_URL is unset: testing the embedded reference mock at ${mock.sandboxBaseUrl}\n`);
  }
  const baseUrl = process.env.PCS_BASE_URL ?? '';
  const secretKey = process.env.PCS_SECRET_KEY ?? '';
  registerSecret(secretKey);
  const settings = transportSettings(suite.timeoutMs);

  const probe = await probeTarget(baseUrl, secretKey, suite.currencyId ?? (Number(process.env.PCS_CURRENCY_ID) || null), settings);
  if (!probe.ok) {
    process.stderr.write(`collect-conformance: ${probe.message}\n`);
    await closeMock?.();
    process.exit(targetUnavailableExitCode);
  }
  if (probe.warning !== null) process.stderr.write(`collect-conformance: warning: ${probe.warning}\n`);

  return async () => {
    // Teardown is the only sender now: it has the whole PCS_MAX_RPS budget, not a worker's share.
    const result = await deleteLeftoverCustomers({ baseUrl, secretKey, runId: suite.runId }, { ...settings, maxRps: transportVariables().maxRps }, ledgerPath());
    const summary = cleanupSummary(result);
    if (summary !== null) process.stdout.write(`collect-conformance: ${summary}\n`);
    await closeMock?.();
  };
}
