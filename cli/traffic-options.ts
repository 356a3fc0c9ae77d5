/**
 * What `collect-conformance judge` and `collect-conformance proxy` share: the settings that judge
 * traffic (the keys that name the accounts, the configured ids, the target's own values, --strict,
 * --documented-only, the output directory), taken from the settings table with their flags and
 * validators, and the options of the judge made from them. A setting the traffic commands do not
 * use is not one of their flags.
 */
import { randomBytes } from 'node:crypto';
import { registerSecret } from '../support/http/redact.ts';
import { pinnedValues } from '../support/generation/arbitraries.ts';
import { readSetting } from '../support/lifecycle/read-setting.ts';
import { settings } from '../support/lifecycle/settings.ts';
import { allureResultsDirOf, prepareOutputDirectory } from '../support/lifecycle/output-directory.ts';
import { applyLiveGuard, keyVariableName } from '../support/lifecycle/config.ts';
import type { JudgeOptions } from '../support/traffic/judge.ts';
import type { FlagSpec } from './args.ts';
import { runFlags } from './run-flags.ts';

/** The settings traffic is judged by, and so the run flags the traffic commands take. */
const trafficSettings = [
  settings.secretKey,
  settings.secondSecretKey,
  settings.balanceId,
  settings.currencyId,
  settings.secondBalanceId,
  settings.currencyIso,
  settings.paymentMode,
  settings.phoneNumber,
  settings.phoneCountry,
  settings.clockToleranceSeconds,
  settings.strict,
  settings.documentedOnly,
  settings.outputDir,
  settings.runId,
  // The live guard, as a run applies it, and the time an upstream has to answer the proxy.
  settings.environment,
  settings.allowLive,
  settings.timeoutMs,
];

const trafficFlagNames = new Set(trafficSettings.map((row) => row.flag.name));

/** --sample: the share of exchanges judged, from 0 (excluded) to 1, or a percentage (10%). */
export function sampleRate(value: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?|\.\d+)(%?)$/.exec(value.trim());
  if (match === null) return undefined;
  const rate = Number(match[1]) / (match[2] === '%' ? 100 : 1);
  return rate > 0 && rate <= 1 ? rate : undefined;
}

const sampleCheck = (value: string): string | undefined =>
  sampleRate(value) === undefined
    ? 'must be the share of exchanges to judge, above 0 and at most 1 (0.1) or a percentage (10%), ' +
      `got "${value.slice(0, 20)}"`
    : undefined;

/** The run flags of those settings (and the refused flags that would carry a key), with the command's own. */
export function trafficFlags(own: readonly FlagSpec[]): FlagSpec[] {
  return [
    ...runFlags.filter((spec) => trafficFlagNames.has(spec.name) || spec.refused !== undefined),
    { name: 'fail-on-client', value: false },
    { name: 'sample', value: true, check: sampleCheck },
    ...own,
  ];
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
    sample: sampleRate(String(flags.get('sample') ?? '1')) ?? 1,
    answerTimeoutMs: readSetting(env, settings.timeoutMs),
  };
}
