/**
 * `collect-conformance judge FILE.har [FILE.har ...]`: the suite's rules over recorded traffic.
 * Each entry, in its recorded order, is matched to its operation and judged by the registered
 * rules (judge/traffic-judge.ts); the reports are a run's (matrix, rule coverage, JUnit, Allure
 * results, summary), with the traffic's coverage and the client's own findings. The files are read
 * as streams, twice (first for when the recording began and whether it carries credentials, then to
 * judge), so that a recording of any size is judged in bounded memory.
 *
 * The exit code is a run's (cli/traffic-exit-code.ts): 0 conforming, every entry judged; 1
 * non-conformance (a client finding too with --fail-on-client); 2 a usage or configuration error
 * (a missing, unreadable or malformed HAR among them, said before anything is judged); 3
 * inconclusive: entries that could not be read, a 429 or a gateway's 502/503/504, or nothing judged
 * at all; 4 the tool's own failure; 130, 143, 129 when SIGINT, SIGTERM or SIGHUP stopped it (the
 * reports of what was judged are written first).
 */
import { basename } from 'node:path';
import { loadDotEnv } from '../settings/config.ts';
import { ConfigError } from '../settings/config-error.ts';
import { readSetting } from '../settings/read-setting.ts';
import { settings } from '../settings/settings.ts';
import { checkVariableNames, printVariableWarnings } from '../settings/variable-names.ts';
import { checkHarFile, HarError, harItems, surveyHarFiles, type SkippedEntry } from '../judge/har.ts';
import { JudgingSession } from '../reporters/judging-session.ts';
import { parseArgs, UsageError } from './args.ts';
import { ExitCode, internalErrorLine } from './exit-codes.ts';
import { commandHelp } from './help.ts';
import { forgetEarlierVerdicts } from './run-exit-code.ts';
import { commandFlags, environmentFromFlags } from './run-flags.ts';
import { SignalWatch } from './signals.ts';
import { trafficExitCode } from './traffic-exit-code.ts';
import { trafficSettingsOf } from './traffic-options.ts';

/** The judge's flags: rows of the settings table (settings/settings.ts) that name the judge. */
const judgeFlags = commandFlags('judge');

/** Entries that are no exchange listed by file and index in the summary (all are counted). */
const listedEntries = 5;

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
  const signals = new SignalWatch();
  try {
    return await judgeFiles(positionals, env, flags, signals);
  } finally {
    signals.stop();
  }
}

async function judgeFiles(
  files: string[],
  env: NodeJS.ProcessEnv,
  flags: Map<string, string | true>,
  signals: SignalWatch,
): Promise<number> {
  let options;
  let basePath: string | undefined;
  let survey;
  try {
    printVariableWarnings(checkVariableNames(env));
    const base = readSetting(env, settings.baseUrl);
    options = trafficSettingsOf(env, flags, base);
    basePath = base === null ? undefined : new URL(base).pathname.replace(/\/+$/, '');
    for (const file of files) checkHarFile(file);
    // An earlier run's reports go at once: a judging stopped before its own never leaves them to be read as its.
    await forgetEarlierVerdicts(options.outputDir);
    survey = await surveyHarFiles(files, () => signals.received !== undefined);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof HarError) {
      process.stderr.write(
        `collect-conformance: ${error instanceof ConfigError ? 'configuration error: ' : ''}${error.message}\n`,
      );
      return ExitCode.usage;
    }
    throw error;
  }
  const session = new JudgingSession({
    ...options.judge,
    settings: { ...options.judge.settings, earliestMs: survey.earliest },
    credentialsRecorded: survey.credentialsRecorded,
    ...(basePath === undefined ? {} : { basePath }),
  });
  const listed: SkippedEntry[] = [];
  let read = 0;
  let exchanges = 0;
  let failure: string | null = null;
  try {
    for await (const item of harItems(files)) {
      if (signals.received !== undefined) break;
      read++;
      if (item.kind === 'not-an-exchange') {
        const { entry } = item;
        (entry.unanswered ? session.collected.unanswered : session.collected.notJudged).add(entry.why);
        if (listed.length < listedEntries) listed.push(entry);
        continue;
      }
      exchanges++;
      const sampledOut =
        options.sample < 1 && Math.floor(exchanges * options.sample) === Math.floor((exchanges - 1) * options.sample);
      session.take(item.exchange, sampledOut ? 'sampled' : undefined);
    }
  } catch (error) {
    // The files changed since the first pass (or a disk failed): what was judged is still reported.
    failure = error instanceof Error ? error.message : String(error);
  }
  const stoppedBy = signals.received;
  const left = survey.entries - read;
  if (left > 0) session.collected.notJudged.add(stoppedBy ? `not read: stopped by ${stoppedBy}` : 'not read', left);
  const origin = files.map((file) => basename(file)).join(', ');
  const verdict = session.report({
    outputDir: options.outputDir,
    allureResultsDir: options.allureResultsDir,
    header: {
      target: `recorded traffic (${origin})`,
      environment: 'recorded',
      runId: options.runId,
      finishedAt: new Date().toISOString(),
      traffic: true,
      ...(stoppedBy === undefined ? {} : { incomplete: `stopped by ${stoppedBy}` }),
    },
    origin,
    skipped: listed,
    credentialsRecorded: survey.credentialsRecorded,
    failOnClient: options.failOnClient,
    notes: [
      `${survey.entries} entr${survey.entries === 1 ? 'y' : 'ies'} in ${files.length} HAR file(s): ` +
        `${session.collected.judgedExchanges} exchange(s) judged` +
        `${stoppedBy === undefined ? '' : ` (stopped by ${stoppedBy})`}`,
      ...(failure === null ? [] : [`reading stopped: ${failure}`]),
    ],
  });
  if (verdict.warning !== null) process.stdout.write(`${verdict.warning}\n`);
  process.stdout.write(`${verdict.summary.join('\n')}\n`);
  if (verdict.judgedOperations === 0 && stoppedBy === undefined)
    process.stderr.write(
      'collect-conformance: judge: no exchange of the recording is an operation of the reference: nothing was judged\n',
    );
  const internalError = verdict.internalError ?? (failure === null ? null : `reading the recording: ${failure}`);
  const code = trafficExitCode({
    stoppedBy,
    findings: verdict.serverFindings > 0 || (options.failOnClient && verdict.clientFindings > 0),
    internalError,
    unavailable: verdict.undecided,
    notJudged: verdict.notJudged,
    judgedNothing: verdict.judgedOperations === 0,
  });
  if (code === ExitCode.internal && internalError !== null)
    process.stderr.write(`${internalErrorLine('collect-conformance judge', new Error(internalError))}\n`);
  return code;
}
