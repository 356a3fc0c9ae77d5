/**
 * What `collect-conformance judge` and `collect-conformance proxy` share: the options of the judge,
 * made from the settings that judge traffic (the keys that name the accounts, the configured ids, the
 * target's own values, --strict, --documented-only, the output directory). Their flags are the rows
 * of the settings table that name the proxy or the judge (cli/run-flags.ts, commandFlags).
 */
import { randomBytes } from 'node:crypto';
import { registerSecret } from '../support/http/redact.ts';
import { pinnedValues } from '../support/generation/arbitraries.ts';
import { readSetting } from '../support/lifecycle/read-setting.ts';
import { settings } from '../support/lifecycle/settings.ts';
import { allureResultsDirOf, prepareOutputDirectory } from '../support/lifecycle/output-directory.ts';
import { keyVariableName } from '../support/lifecycle/config.ts';
import type { JudgeOptions } from '../support/traffic/judge.ts';

export interface TrafficSettings {
  judge: Omit<JudgeOptions, 'credentialsRecorded' | 'basePath'>;
  outputDir: string;
  allureResultsDir: string;
  runId: string;
  failOnClient: boolean;
}

/** The settings of a traffic command from its environment (flags already applied); a ConfigError when one is wrong. */
export function trafficSettingsOf(env: NodeJS.ProcessEnv, flags: Map<string, string | true>): TrafficSettings {
  const first = readSetting(env, settings.secretKey);
  const second = readSetting(env, settings.secondSecretKey);
  registerSecret(first ?? undefined);
  registerSecret(second ?? undefined);
  const outputDir = prepareOutputDirectory(readSetting(env, settings.outputDir), '--output');
  const allureResultsDir = prepareOutputDirectory(
    allureResultsDirOf({ ...env, PCS_OUTPUT_DIR: outputDir }),
    'ALLURE_RESULTS_DIR',
  );
  const runId =
    readSetting(env, settings.runId) ??
    `cc-${new Date().toISOString().slice(0, 10).replace(/-/g, '')}-${randomBytes(3).toString('hex')}`;
  return {
    judge: {
      keys: { first, second },
      keyVariables: { first: keyVariableName(env), second: 'PCS_SECOND_SECRET_KEY' },
      settings: {
        strict: readSetting(env, settings.strict),
        clockToleranceSeconds: readSetting(env, settings.clockToleranceSeconds),
      },
      documentedOnly: readSetting(env, settings.documentedOnly),
      paymentMode: readSetting(env, settings.paymentMode),
      balanceIds: { first: readSetting(env, settings.balanceId), second: readSetting(env, settings.secondBalanceId) },
      currencyId: readSetting(env, settings.currencyId),
      pinned: pinnedValues({
        currencyIso: readSetting(env, settings.currencyIso),
        paymentMode: readSetting(env, settings.paymentMode),
        phoneNumber: readSetting(env, settings.phoneNumber),
        phoneCountry: readSetting(env, settings.phoneCountry),
      }),
    },
    outputDir,
    allureResultsDir,
    runId,
    failOnClient: flags.get('fail-on-client') === true,
  };
}
