/**
 * `collect-conformance judge FILE.har [FILE.har ...]`: the suite's rules over recorded traffic.
 * Each entry, in its recorded order, is matched to its operation and judged by the registered
 * rules (support/traffic/judge.ts); the reports are a run's (matrix, rule coverage, JUnit, Allure
 * results, summary), with the traffic's coverage and the client's own findings. The exit code is
 * the traffic's verdict: 0 conforming, 1 non-conformance (a client finding too with
 * --fail-on-client), 2 a usage or configuration error (a missing or malformed HAR among them).
 */
import { basename } from 'node:path';
import { loadDotEnv } from '../support/lifecycle/config.ts';
import { ConfigError } from '../support/lifecycle/config-error.ts';
import { readSetting } from '../support/lifecycle/read-setting.ts';
import { settings } from '../support/lifecycle/settings.ts';
import { checkVariableNames, printVariableWarnings } from '../support/lifecycle/variable-names.ts';
import { HarError, readHarFiles } from '../support/traffic/har.ts';
import { TrafficJudge } from '../support/traffic/judge.ts';
import { reportTraffic } from '../support/traffic/traffic-report.ts';
import { TrafficCollector } from '../support/traffic/traffic-collector.ts';
import type { TrafficExchange } from '../support/traffic/traffic-exchange.ts';
import { parseArgs, UsageError } from './args.ts';
import { ExitCode } from './exit-codes.ts';
import { commandHelp } from './help.ts';
import { commandFlags, environmentFromFlags } from './run-flags.ts';
import { trafficSettingsOf } from './traffic-options.ts';

/** The judge's flags: rows of the settings table (support/lifecycle/settings.ts) that name the judge. */
const judgeFlags = commandFlags('judge');

export async function judge(argv: string[]): Promise<number> {
  const { flags, positionals, rest, help } = parseArgs(argv, judgeFlags, { positionals: true });
  if (help) {
    process.stdout.write(commandHelp('judge'));
    return ExitCode.pass;
  }
  if (rest.length > 0) throw new UsageError('judge takes HAR files and flags, nothing after --');
  if (positionals.length === 0)
    throw new UsageError('judge: name at least one HAR file (collect-conformance judge FILE.har)');
  loadDotEnv();
  const env = environmentFromFlags(flags, process.env);
  const baseUrl = flags.get('base-url');
  if (typeof baseUrl === 'string') env[settings.baseUrl.variable] = baseUrl;
  let traffic;
  let options;
  try {
    printVariableWarnings(checkVariableNames(env));
    options = trafficSettingsOf(env, flags);
    traffic = readHarFiles(positionals);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof HarError) {
      process.stderr.write(
        `collect-conformance: ${error instanceof ConfigError ? 'configuration error: ' : ''}${error.message}\n`,
      );
      return ExitCode.usage;
    }
    throw error;
  }
  let basePath: string | undefined;
  try {
    const base = readSetting(env, settings.baseUrl);
    basePath = base === null ? undefined : new URL(base).pathname.replace(/\/+$/, '');
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`collect-conformance: configuration error: ${error.message}\n`);
    return ExitCode.usage;
  }
  const earliest = Math.min(...traffic.exchanges.map((exchange) => exchange.startedAt), Date.now());
  const judgeOptions = {
    ...options.judge,
    settings: { ...options.judge.settings, earliestMs: earliest },
    credentialsRecorded: traffic.credentialsRecorded,
    ...(basePath === undefined ? {} : { basePath }),
  };
  const trafficJudge = new TrafficJudge(judgeOptions);
  const collected = new TrafficCollector();
  // Each exchange is let go once judged: a large recording is never held twice over.
  const pending: Array<TrafficExchange | undefined> = traffic.exchanges;
  for (let index = 0; index < pending.length; index++) {
    collected.add(trafficJudge.judge(pending[index]!));
    pending[index] = undefined;
  }
  const origin = positionals.map((file) => basename(file)).join(', ');
  const report = reportTraffic(collected, {
    outputDir: options.outputDir,
    allureResultsDir: options.allureResultsDir,
    header: {
      target: `recorded traffic (${origin})`,
      environment: 'recorded',
      runId: options.runId,
      finishedAt: new Date().toISOString(),
      traffic: true,
    },
    origin,
    skipped: traffic.skipped,
    credentialsRecorded: traffic.credentialsRecorded,
    notes: [`${collected.exchanges} exchange(s) judged from ${positionals.length} HAR file(s)`],
  });
  if (report.reports.warning !== null) process.stdout.write(`${report.reports.warning}\n`);
  process.stdout.write(`${report.summary.join('\n')}\n`);
  if (report.serverFindings > 0) return ExitCode.nonConformance;
  if (options.failOnClient && report.clientFindings > 0) return ExitCode.nonConformance;
  return ExitCode.pass;
}
