/**
 * What `collect-conformance judge` and `collect-conformance proxy` share: the options of the judge,
 * made from the settings that judge traffic (the keys that name the accounts, the configured ids, the
 * target's own values, --strict, --documented-only, the output directory). Their flags are the rows
 * of the settings table that name the proxy or the judge (cli/run-flags.ts, commandFlags).
 */
import { randomBytes } from 'node:crypto';
import { registerSecret } from '../settings/secrets.ts';
import { pinnedValues } from '../generation/arbitraries.ts';
import { readSetting } from '../settings/read-setting.ts';
import { settings } from '../settings/settings.ts';
import { allureResultsDirOf, prepareOutputDirectory } from '../output/output-directory.ts';
import { applyLiveGuard, keyVariableName } from '../settings/config.ts';
import { shareOfExchanges, type Validator } from '../settings/setting-values.ts';
import type { JudgeOptions } from '../judge/traffic-judge.ts';

/** A flag-only row's value, read with the validator that already checked it when the flags were parsed. */
export function flagValue<T>(flags: Map<string, string | true>, name: string, parse: Validator<T>): T | undefined {
  const given = flags.get(name);
  if (typeof given !== 'string') return undefined;
  const parsed = parse(given);
  return parsed.ok ? parsed.value : undefined;
}

export interface TrafficSettings {
  judge: Omit<JudgeOptions, 'credentialsRecorded' | 'basePath'>;
  outputDir: string;
  allureResultsDir: string;
  runId: string;
  failOnClient: boolean;
  /** --sample: the share of exchanges judged (the others are learnt from, and counted as skipped); 1 judges all. */
  sample: number;
  /** How long the upstream has to begin an answer (PCS_TIMEOUT_MS): past it the proxy answers 504. */
  answerTimeoutMs: number;
}

/**
 * The settings of a traffic command from its environment (flags already applied); a ConfigError when one is wrong,
 * the live guard's among them. `target`: where the traffic goes (the proxy's upstream, the judge's base address),
 * or null (the embedded mock, or a recording whose base address was not given).
 */
export function trafficSettingsOf(
  env: NodeJS.ProcessEnv,
  flags: Map<string, string | true>,
  target: string | null,
): TrafficSettings {
  const first = readSetting(env, settings.secretKey);
  const second = readSetting(env, settings.secondSecretKey);
  registerSecret(first ?? undefined);
  registerSecret(second ?? undefined);
  applyLiveGuard({
    environment: readSetting(env, settings.environment),
    allowLive: readSetting(env, settings.allowLive),
    target,
    keys: [
      [settings.secretKey, first],
      [settings.secondSecretKey, second],
    ],
  });
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
    sample: flagValue(flags, settings.sample.flag.name, shareOfExchanges) ?? 1,
    answerTimeoutMs: readSetting(env, settings.timeoutMs),
  };
}
