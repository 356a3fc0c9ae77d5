/**
 * `collect-conformance proxy [--upstream URL] [--port N] [--violations-header] [-- COMMAND ARGS...]`:
 * a transparent reverse proxy whose traffic the suite's rules judge (judge/traffic-judge.ts), as
 * `judge` does a recorded HAR. The forwarding never waits for the judging, and never changes or
 * refuses anything because of a verdict; only --violations-header adds a header to an answer.
 *
 * With a command, the command runs with the proxy's base address in COLLECT_CONFORMANCE_PROXY_URL
 * (and PCS_BASE_URL, so that this suite's own run goes through it), and the traffic is reported when
 * it ends; without one, the proxy runs until SIGINT or SIGTERM. Without --upstream or PCS_BASE_URL,
 * the upstream is the embedded reference mock, and the command gets its keys and ids as a run does.
 *
 * The exit code is a run's (cli/traffic-exit-code.ts): 0 conforming, every exchange judged; 1
 * non-conformance (a client finding too with --fail-on-client, the command's failure with
 * --fail-on-command); 2 a usage or configuration error (an upstream that is no /v1 base address, a
 * port in use, a command that cannot start, the live guard); 3 inconclusive: the upstream
 * unavailable (unreachable, no answer within PCS_TIMEOUT_MS, 429/502/503/504), traffic not judged, or
 * nothing judged at all; 4 the tool's own failure; 128 + the signal's number when a signal stopped
 * the command (the proxy passes SIGINT, SIGTERM and SIGHUP on, waits for it, and writes the reports
 * first), or killed it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockServer } from '../mock/server.ts';
import { loadDotEnv, looksLive } from '../settings/config.ts';
import { ConfigError } from '../settings/config-error.ts';
import { readSetting } from '../settings/read-setting.ts';
import { settings } from '../settings/settings.ts';
import { checkVariableNames, printVariableWarnings } from '../settings/variable-names.ts';
import { redact } from '../settings/secrets.ts';
import {
  startForwardingProxy,
  type CapturedExchange,
  type EventOf,
  type ForwardingStats,
  type RunningForwardingProxy,
} from '../proxy/forwarding-proxy.ts';
import { unansweredText, unavailableReasons, type UnansweredReason } from '../proxy/proxy-events.ts';
import { prepareOutputDirectory } from '../output/output-directory.ts';
import {
  proxiedRuns,
  proxiedRunsVariable,
  proxyReportPlaces,
  proxyUrlVariable,
  type ProxiedRun,
} from '../output/proxied-runs.ts';
import { parseUpstream } from '../proxy/upstream-address.ts';
import { WorkerJudge } from '../proxy/worker-judge.ts';
import { parseArgs } from './args.ts';
import { ExitCode, internalErrorLine } from './exit-codes.ts';
import { commandHelp } from './help.ts';
import { exitCodeForSignal } from './playwright-child.ts';
import { forgetEarlierVerdicts } from './run-exit-code.ts';
import { commandFlags, environmentFromFlags } from './run-flags.ts';
import { commandLineShown, SignalWatch, type StopSignal } from './signals.ts';
import { trafficExitCode } from './traffic-exit-code.ts';
import { flagValue, trafficSettingsOf } from './traffic-options.ts';
import { lagSeconds } from '../settings/setting-values.ts';

export { proxyUrlVariable };
/** The answer header --violations-header adds: the rule ids the exchange broke, comma-separated. */
export const violationsHeader = 'Collect-Conformance-Violations';

/** The proxy's flags: rows of the settings table (settings/settings.ts) that name the proxy. */
const proxyFlags = commandFlags('proxy');

interface Upstream {
  baseUrl: string;
  embedded?: true;
  /** Variables the command gets besides the proxy's address: the embedded mock's keys and ids. */
  commandEnv: Record<string, string>;
  close(): Promise<void>;
}

/** The upstream: --upstream, else PCS_BASE_URL, else the embedded reference mock, started here. */
async function upstreamOf(flag: string | undefined, env: NodeJS.ProcessEnv): Promise<Upstream> {
  const configured = flag ?? readSetting(env, settings.baseUrl) ?? undefined;
  if (configured !== undefined) {
    parseUpstream(configured);
    // The command reaches the upstream through 127.0.0.1: a live upstream must still read as live to a run.
    const commandEnv: Record<string, string> =
      looksLive(configured) && env.PCS_ENVIRONMENT === undefined ? { PCS_ENVIRONMENT: 'live' } : {};
    return { baseUrl: configured, commandEnv, close: async () => {} };
  }
  for (const row of [settings.secretKey, settings.secondSecretKey])
    if (env[row.variable] !== undefined)
      throw new ConfigError(
        row.variable,
        'is set but there is no upstream: the proxy would forward to the embedded mock, not your server; ' +
          `give --upstream (or PCS_BASE_URL), or unset ${row.variable}`,
      );
  const mock = await startMockServer({ port: 0, host: '127.0.0.1' });
  const commandEnv = {
    PCS_SECRET_KEY: mock.sandboxKey,
    PCS_SECOND_SECRET_KEY: mock.secondSandboxKey,
    PCS_ENVIRONMENT: 'sandbox',
    PCS_BALANCE_ID: env.PCS_BALANCE_ID ?? '1',
    PCS_CURRENCY_ID: env.PCS_CURRENCY_ID ?? '1',
    PCS_SECOND_BALANCE_ID: '11',
  };
  // The judge reads the same keys and ids the command is given.
  Object.assign(env, commandEnv);
  return { baseUrl: mock.sandboxBaseUrl, embedded: true, commandEnv, close: () => mock.close() };
}

/** What the command did: its exit status or signal, or why it could not start. */
type CommandOutcome = { code: number | null; signal: NodeJS.Signals | null } | { error: string };

/** Runs the command; each signal the proxy gets is passed on to it (the proxy then waits for it to end). */
function runCommand(command: string[], env: NodeJS.ProcessEnv, signals: SignalWatch): Promise<CommandOutcome> {
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: 'inherit', env });
    const pass = (signal: StopSignal): void => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    };
    signals.onSignal(pass);
    child.once('error', (error: NodeJS.ErrnoException) => {
      signals.offSignal(pass);
      resolve({ error: `${command[0]} could not be started (${error.code ?? error.message})` });
    });
    child.once('exit', (code, signal) => {
      signals.offSignal(pass);
      resolve({ code, signal });
    });
  });
}

function commandLine(outcome: CommandOutcome, command: string[]): string {
  const shown = commandLineShown(command);
  if ('error' in outcome) return `command: ${outcome.error}`;
  return outcome.signal !== null
    ? `command: ${shown} ended by ${outcome.signal}`
    : `command: ${shown} exited ${outcome.code}`;
}

const commandFailed = (outcome: CommandOutcome): boolean =>
  'error' in outcome || outcome.signal !== null || outcome.code !== 0;

/** The one line the first request without an answer gets on stderr (the rest are counted in the reports). */
function unansweredLine(event: EventOf<'unanswered'>, upstream: string): string {
  const what = unansweredText[event.reason];
  const request = `${event.method} ${event.url.slice(0, 200)}`;
  return `collect-conformance proxy: ${request} to ${upstream}: ${what} (${event.code ?? event.message})`;
}

/** The requests the proxy handed nothing over for, by reason: those not judged, and those with no answer to judge. */
function proxyGaps(
  stats: ForwardingStats,
  lost: number,
): { notJudged: Array<[string, number]>; unanswered: Array<[string, number]> } {
  const notJudged: Array<[string, number]> = [];
  const unanswered: Array<[string, number]> = [];
  for (const [reason, count] of Object.entries(stats.unanswered) as Array<[UnansweredReason, number]>) {
    if (count === 0) continue;
    // The proxy answered in the upstream's place: traffic was changed, and is not judged.
    const changed = reason === 'refused' || reason === 'answer-unreadable' || reason === 'not-sent';
    (changed ? notJudged : unanswered).push([unansweredText[reason], count]);
  }
  if (stats.queue.failed > 0) notJudged.push(['the hook failed on it', stats.queue.failed]);
  if (lost > 0) notJudged.push(['handed over after the judging worker failed', lost]);
  return { notJudged, unanswered };
}

export async function proxy(argv: string[]): Promise<number> {
  const { flags, rest, help } = parseArgs(argv, proxyFlags);
  if (help) {
    process.stdout.write(commandHelp('proxy'));
    return ExitCode.pass;
  }
  const command = rest;
  loadDotEnv();
  const env = environmentFromFlags(flags, process.env);
  const signals = new SignalWatch();
  let upstream: Upstream;
  let running: RunningForwardingProxy;
  let judge: WorkerJudge | undefined;
  let options;
  let firstUnanswered: EventOf<'unanswered'> | undefined;
  try {
    printVariableWarnings(checkVariableNames(env));
    upstream = await upstreamOf(flags.get('upstream') as string | undefined, env);
    options = trafficSettingsOf(env, flags, upstream.embedded ? null : upstream.baseUrl);
    // An earlier run's reports go at once: a proxy stopped before its own never leaves them to be read as its.
    await forgetEarlierVerdicts(options.outputDir);
    const basePath = new URL(upstream.baseUrl).pathname.replace(/\/+$/, '');
    // Judged in a worker thread: the forwarding keeps the CPU time the traffic needs.
    const judging = new WorkerJudge({
      ...options.judge,
      settings: { ...options.judge.settings, earliestMs: Date.now() },
      credentialsRecorded: true,
      basePath,
    });
    judge = judging;
    const withHeader = flags.get('violations-header') === true;
    const sample = options.sample;
    const maxLag = flagValue(flags, settings.maxJudgeLag.flag.name, lagSeconds);
    let handed = 0;
    running = await startForwardingProxy({
      upstream: upstream.baseUrl,
      port: Number(flags.get('port') ?? 0),
      answerTimeoutMs: options.answerTimeoutMs,
      ...(withHeader
        ? {
            inspect: async (captured: CapturedExchange) => {
              const broken = await judging.inspect(captured);
              return broken.length === 0 ? undefined : [[violationsHeader, broken.join(', ')] as const];
            },
          }
        : {}),
      onExchange: (captured: CapturedExchange) => {
        // Inspected exchanges were judged before their answer went out.
        if (captured.inspected) return undefined;
        handed++;
        const sampledOut = sample < 1 && Math.floor(handed * sample) === Math.floor((handed - 1) * sample);
        const late = maxLag !== undefined && Date.now() - captured.timings.ended > maxLag * 1000;
        return judging.judge(captured, sampledOut ? 'sampled' : late ? 'lag' : undefined);
      },
      onEvent: (event) => {
        if (event.kind !== 'unanswered' || firstUnanswered !== undefined) return;
        firstUnanswered = event;
        process.stderr.write(`${redact(unansweredLine(event, upstream.baseUrl))}\n`);
      },
    });
  } catch (error) {
    await judge?.close();
    signals.stop();
    if (error instanceof ConfigError) {
      process.stderr.write(`collect-conformance: configuration error: ${error.message}\n`);
      return ExitCode.usage;
    }
    throw error;
  }

  const shownUpstream = new URL(upstream.baseUrl).origin + new URL(upstream.baseUrl).pathname;
  process.stdout.write(
    `collect-conformance proxy: ${running.url} → ${shownUpstream}` +
      `${upstream.embedded ? ' (the embedded reference mock)' : ''}; ` +
      `${command.length > 0 ? `running ${commandLineShown(command)}` : 'Ctrl+C to stop and report'}\n`,
  );
  let outcome: CommandOutcome | undefined;
  // Where the suite's own runs among the command's note their reports (output/proxied-runs.ts).
  let suiteRuns: ProxiedRun[] = [];
  if (command.length > 0) {
    const notes = mkdtempSync(join(tmpdir(), 'collect-conformance-proxy-'));
    const runsFile = join(notes, 'runs.jsonl');
    try {
      outcome = await runCommand(
        command,
        {
          ...process.env,
          ...upstream.commandEnv,
          [proxyUrlVariable]: running.url,
          PCS_BASE_URL: running.url,
          [proxiedRunsVariable]: runsFile,
        },
        signals,
      );
      suiteRuns = proxiedRuns(runsFile);
    } finally {
      rmSync(notes, { recursive: true, force: true });
    }
  } else await signals.first();
  const stoppedBy = signals.received;
  await running.close();
  await upstream.close();
  if (outcome !== undefined && 'error' in outcome) {
    await judge.close();
    signals.stop();
    process.stderr.write(`collect-conformance: proxy: ${outcome.error}\n`);
    return ExitCode.usage;
  }
  const stats = running.stats();
  const gaps = proxyGaps(stats, judge.lost);
  const forwarded = stats.received;
  let verdict;
  try {
    // A run of the suite that wrote its reports where the proxy would: the proxy's go beside them, in proxy/.
    const places = proxyReportPlaces(
      { outputDir: options.outputDir, allureResultsDir: options.allureResultsDir },
      suiteRuns,
    );
    if (places.moved) {
      prepareOutputDirectory(places.outputDir, '--output');
      await forgetEarlierVerdicts(places.outputDir);
      prepareOutputDirectory(places.allureResultsDir, 'ALLURE_RESULTS_DIR');
    }
    verdict = await judge.report({
      ...(stoppedBy ? { stoppedBy } : {}),
      ...gaps,
      options: {
        outputDir: places.outputDir,
        allureResultsDir: places.allureResultsDir,
        header: {
          target: `traffic through the proxy to ${shownUpstream}`,
          environment: 'proxied',
          runId: options.runId,
          finishedAt: new Date().toISOString(),
          traffic: true,
          ...(stoppedBy && outcome !== undefined ? { incomplete: `the command was stopped by ${stoppedBy}` } : {}),
        },
        origin: 'proxy',
        skipped: [],
        credentialsRecorded: true,
        failOnClient: options.failOnClient,
        suiteRuns: suiteRuns.map((run) => run.outputDir),
      },
      notes: [
        ...(places.moved
          ? [`the command's run wrote its reports in ${options.outputDir}: the proxy's are in ${places.outputDir}`]
          : []),
        `${forwarded} request(s) received: ${stats.captured} exchange(s) handed to the judge, ` +
          `${forwarded - stats.captured} without an exchange to judge`,
        ...(outcome === undefined ? [] : [commandLine(outcome, command)]),
        ...(stats.held > 0 ? [`the judge fell behind: ${stats.held} request(s) held back until it caught up`] : []),
        ...(stats.queue.spilled > 0
          ? [`${stats.queue.spilled} exchange(s) waited with their bodies on disk (${stats.spill.bytes} bytes)`]
          : []),
        ...(stats.informationalNotPassed > 0
          ? [`${stats.informationalNotPassed} informational (1xx) answer(s) not passed on (HTTP/1.0 clients)`]
          : []),
      ],
    });
  } catch (error) {
    signals.stop();
    process.stderr.write(`${internalErrorLine('collect-conformance proxy', error)}\n`);
    return stoppedBy && outcome !== undefined ? exitCodeForSignal(stoppedBy) : ExitCode.internal;
  }
  signals.stop();
  if (verdict.warning !== null) process.stdout.write(`${verdict.warning}\n`);
  process.stdout.write(`${verdict.summary.join('\n')}\n`);
  const unavailable =
    verdict.undecided ||
    stats.cut > 0 ||
    (Object.entries(stats.unanswered) as Array<[UnansweredReason, number]>).some(
      ([reason, count]) => count > 0 && unavailableReasons.has(reason),
    );
  const code = trafficExitCode({
    stoppedBy: outcome === undefined ? undefined : stoppedBy,
    killedBy:
      outcome !== undefined && !('error' in outcome) && stoppedBy === undefined
        ? (outcome.signal ?? undefined)
        : undefined,
    findings:
      verdict.serverFindings > 0 ||
      (options.failOnClient && verdict.clientFindings > 0) ||
      (flags.get('fail-on-command') === true && outcome !== undefined && commandFailed(outcome)),
    internalError: verdict.internalError,
    unavailable,
    notJudged: verdict.notJudged,
    judgedNothing: verdict.judgedOperations === 0,
  });
  if (verdict.judgedOperations === 0 && stoppedBy === undefined)
    process.stderr.write(
      'collect-conformance: proxy: no exchange of the traffic is an operation of the reference: nothing was judged\n',
    );
  if (code === ExitCode.internal && verdict.internalError !== null)
    process.stderr.write(`${internalErrorLine('collect-conformance proxy', new Error(verdict.internalError))}\n`);
  return code;
}
