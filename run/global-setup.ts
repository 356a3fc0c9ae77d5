/**
 * Playwright global setup: validates the configuration before the first request (one line
 * and exit code 2 on a wrong value) and, when PCS_BASE_URL is unset, starts the embedded
 * reference mock on a free loopback port and points the workers at it through the
 * environment they inherit. It carries over the customers an earlier run in the same output
 * directory left in its ledger (output/ledger.ts), probes the target
 * (run/preflight.ts: unreachable → one line, exit 3 at once) and returns the
 * teardown that deletes the customers left on the target (run/cleanup.ts;
 * Playwright runs it after the tests, also on SIGINT, and run/termination.ts
 * turns SIGTERM, SIGHUP and a vanished parent into SIGINT).
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { FullConfig } from '@playwright/test';
import { noteTiming, runTimingFile } from '../reporters/run-timing.ts';
import {
  ConfigError,
  configErrorLine,
  keyVariableName,
  loadConfig,
  loadDotEnv,
  orExitOnConfigError,
} from '../settings/config.ts';
import { startMockServer } from '../mock/server.ts';
import { carriedOverSummary, continueLedger, cleanupSummary, deleteLeftoverCustomers, ledgerPath } from './cleanup.ts';
import { runStillGoing } from '../output/ledger.ts';
import { cleanupVerdictsPath, recordCleanupVerdicts } from '../judgment/cleanup-verdicts.ts';
import { refuseLeakingDiagnostics } from '../settings/debug-guard.ts';
import { checkVariableNames, printVariableWarnings, variablesCheckedVariable } from '../settings/variable-names.ts';
import { validateSettings } from '../settings/read-setting.ts';
import { markTeardownStarted } from './termination.ts';
import { probeTarget, targetUnavailableExitCode } from './preflight.ts';
import { suspectConfiguredIds } from './configured-ids.ts';
import { suspectWarning, writeSuspects } from '../output/configured-id-suspects.ts';
import { allureResultsDirOf, outputRootOf } from '../output/output-directory.ts';
import { noteProxiedRun } from '../output/proxied-runs.ts';
import { registerSecret } from '../settings/secrets.ts';
import { propertySettings } from '../generation/property-settings.ts';
import { shrinkLedgerPath } from '../generation/shrink-budget.ts';
import { knownBrokenPath } from '../judgment/known-broken.ts';
import { markerFilePath, transportSettings, transportVariables, unreachableFilePath } from '../http/transport.ts';
import { coordinatorVariable, startRateCoordinator, type RateCoordinator } from '../http/rate-coordinator.ts';

export const configErrorExitCode = 2;

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  const setupStarted = Date.now();
  loadDotEnv();
  // The runner's environment: read here, filled in for the workers (the embedded mock's address, the run id), and
  // handed to every room below; nothing below reads process.env itself.
  const env = process.env;
  const suite = orExitOnConfigError(() => {
    refuseLeakingDiagnostics();
    const warnings = checkVariableNames();
    // The command said them already; a direct `npx playwright test` or a shard's run hears them here.
    if (env[variablesCheckedVariable] !== '1') printVariableWarnings(warnings);
    const loaded = loadConfig(env);
    validateSettings();
    propertySettings(env);
    return loaded;
  });
  const ledgerFile = ledgerPath(env);
  // Two runs writing one output directory would overwrite each other's reports, and this one's
  // cleanup would delete customers the other is still testing with.
  const concurrent = runStillGoing(ledgerFile);
  if (concurrent !== null) {
    orExitOnConfigError(() => {
      throw new ConfigError(
        'PCS_OUTPUT_DIR',
        `another run (pid ${concurrent.pid}, run id ${concurrent.runId}) ` +
          `is still writing to ${dirname(ledgerFile)}; give this run its own output directory (--output)`,
      );
    });
  }
  env.PCS_RUN_ID = suite.runId;
  // PCS_MAX_RPS is a budget for the whole run: each worker takes its share.
  env.COLLECT_CONFORMANCE_WORKER_COUNT = String(config.workers);
  // One request-rate budget for the workers of this machine, learned from the target's 429s and rate-limit
  // headers (http/rate-coordinator.ts). Workers connect only once they see a limit; without the
  // coordinator each would learn on its own, and with a burst each would get its own 429s.
  let coordinator: RateCoordinator | null = null;
  try {
    coordinator = await startRateCoordinator({ ceilingRps: transportVariables(env).maxRps, workers: config.workers });
    env[coordinatorVariable] = coordinator.address;
  } catch {
    // No loopback port: each worker learns the rate on its own, with its share of PCS_MAX_RPS.
    delete env[coordinatorVariable];
  }
  // A marker left by an earlier run in the same output directory must not count for this one.
  rmSync(markerFilePath(env), { force: true });
  rmSync(unreachableFilePath(env), { force: true });
  // So are the shrinks an earlier run recorded (generation/shrink-budget.ts).
  rmSync(shrinkLedgerPath(env), { force: true });
  rmSync(knownBrokenPath(env), { force: true });
  rmSync(cleanupVerdictsPath(env), { force: true });

  let closeMock: (() => Promise<void>) | null = null;
  if (suite.baseUrl === null) {
    const mock = await startMockServer({ port: 0, host: '127.0.0.1' });
    closeMock = () => mock.close();
    env.PCS_BASE_URL = mock.sandboxBaseUrl;
    env.PCS_SECRET_KEY = mock.sandboxKey;
    env.PCS_ENVIRONMENT = 'sandbox';
    env.PCS_BALANCE_ID ??= '1';
    env.PCS_CURRENCY_ID ??= '1';
    // The mock's second sandbox account: the cross-account checks run against the embedded default too.
    env.PCS_SECOND_SECRET_KEY = mock.secondSandboxKey;
    env.PCS_SECOND_BALANCE_ID = '11';
    env.COLLECT_CONFORMANCE_EMBEDDED_MOCK = '1';
    env.COLLECT_CONFORMANCE_EMBEDDED_LIVE_BASE_URL = mock.liveBaseUrl;
    env.COLLECT_CONFORMANCE_EMBEDDED_LIVE_KEY = mock.liveKey;
    process.stdout.write(
      `collect-conformance: PCS_BASE_URL is unset: testing the embedded reference mock at ${mock.sandboxBaseUrl}\n`,
    );
  } else {
    // The normalised address (no trailing slash): the ledger matches an earlier run's customers by it.
    env.PCS_BASE_URL = suite.baseUrl;
  }
  const baseUrl = env.PCS_BASE_URL ?? '';
  // Run through `collect-conformance proxy`: tell it where this run's reports go, so that its own replace none.
  noteProxiedRun(env, baseUrl, { outputDir: outputRootOf(env), allureResultsDir: allureResultsDirOf(env) });
  const secretKey = env.PCS_SECRET_KEY ?? '';
  registerSecret(secretKey);
  registerSecret(env.PCS_SECOND_SECRET_KEY);
  const settings = transportSettings(suite.timeoutMs, env);

  // An earlier run killed before its teardown left its ledger: carry its customers over, do not forget them.
  const carried = continueLedger(ledgerFile, suite.runId, { baseUrl, embedded: closeMock !== null });
  for (const line of carriedOverSummary(carried, ledgerFile)) process.stdout.write(`collect-conformance: ${line}\n`);

  const probe = await probeTarget(
    {
      baseUrl,
      secretKey,
      currencyId: suite.currencyId ?? (Number(env.PCS_CURRENCY_ID) || null),
      balanceId: suite.balanceId ?? (Number(env.PCS_BALANCE_ID) || null),
      keyVariable: keyVariableName(),
    },
    settings,
  );
  if (!probe.ok) {
    await closeMock?.();
    await coordinator?.close();
    if ('variable' in probe) {
      process.stderr.write(`${configErrorLine(new ConfigError(probe.variable, probe.problem))}\n`);
      process.exit(configErrorExitCode);
    }
    process.stderr.write(`collect-conformance: ${probe.message}\n`);
    process.exit(targetUnavailableExitCode);
  }
  // Configured ids the target does not know: said now, and first in the summary (run/configured-ids.ts).
  const suspects =
    closeMock === null
      ? await suspectConfiguredIds(
          {
            baseUrl,
            reads: [
              { variable: 'PCS_CURRENCY_ID', id: suite.currencyId, operation: 'getCurrency', key: secretKey },
              { variable: 'PCS_BALANCE_ID', id: suite.balanceId, operation: 'getBalance', key: secretKey },
              {
                variable: 'PCS_SECOND_BALANCE_ID',
                id: suite.secondBalanceId,
                operation: 'getBalance',
                key: suite.secondSecretKey,
              },
            ],
          },
          // A read that fails here says nothing of the target's availability: the preflight above decided that.
          { ...settings, markerFile: null, unreachableFile: null },
        )
      : [];
  writeSuspects(outputRootOf(env), suite.runId, suspects);
  for (const suspect of suspects) process.stderr.write(`collect-conformance: warning: ${suspectWarning(suspect)}\n`);
  if (probe.ok && probe.warning !== null && suspects.length === 0)
    process.stderr.write(`collect-conformance: warning: ${probe.warning}\n`);
  if (!env.PCS_SECOND_SECRET_KEY?.trim())
    process.stdout.write(
      'collect-conformance: note: PCS_SECOND_SECRET_KEY is not set: the cross-account rules ' +
        '(ACCOUNT-ISOLATION-4XX, ACCOUNT-ISOLATION-UNCHANGED, ACCOUNT-DATA-OWN) are not checked (skipped)\n',
    );
  // A fresh timeline for this run (npm run bench reads it).
  rmSync(runTimingFile(env), { force: true });
  noteTiming({ setupStarted, setupEnded: Date.now() }, runTimingFile(env));

  return async () => {
    // A termination signal from now on must let the deletions finish (run/termination.ts).
    markTeardownStarted();
    // Teardown is the only sender now: it has the whole PCS_MAX_RPS budget, not a worker's share.
    const result = await deleteLeftoverCustomers(
      { baseUrl, secretKey, runId: suite.runId },
      { ...settings, maxRps: transportVariables(env).maxRps },
      ledgerFile,
    );
    // Judged like a test's requests: the conformance reporter, which runs after teardown, reads the records.
    recordCleanupVerdicts(result.deletions, env);
    const summary = cleanupSummary(result, carried.sameTarget.length);
    if (summary !== null) process.stdout.write(`collect-conformance: ${summary}\n`);
    await closeMock?.();
    await coordinator?.close();
  };
}
