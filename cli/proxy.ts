/**
 * `collect-conformance proxy [--upstream URL] [--port N] [--violations-header] [-- COMMAND ARGS...]`:
 * a transparent reverse proxy whose traffic the suite's rules judge (support/traffic/judge.ts), as
 * `judge` does a recorded HAR. The forwarding never waits for the judging, and never changes or
 * refuses anything because of a verdict; only --violations-header adds a header to an answer.
 *
 * With a command, the command runs with the proxy's base address in COLLECT_CONFORMANCE_PROXY_URL
 * (and PCS_BASE_URL, so that this suite's own run goes through it), and the traffic is reported when
 * it ends; without one, the proxy runs until SIGINT or SIGTERM. Without --upstream or PCS_BASE_URL,
 * the upstream is the embedded reference mock, and the command gets its keys and ids as a run does.
 *
 * The exit code is the traffic's verdict: 0 conforming; 1 non-conformance (a client finding too with
 * --fail-on-client, the command's failure with --fail-on-command); 2 a usage or configuration error
 * (an upstream that is no /v1 base address, a port in use, a command that cannot start); 3 the
 * upstream unavailable (the proxy answered 502, or the upstream answered 429/502/503/504) when no
 * violation was found.
 */
import { spawn } from 'node:child_process';
import { startMockServer } from '../mock/server.ts';
import { loadDotEnv, looksLive } from '../support/lifecycle/config.ts';
import { ConfigError } from '../support/lifecycle/config-error.ts';
import { readSetting } from '../support/lifecycle/read-setting.ts';
import { settings } from '../support/lifecycle/settings.ts';
import { checkVariableNames, printVariableWarnings } from '../support/lifecycle/variable-names.ts';
import { redact } from '../support/http/redact.ts';
import {
  startForwardingProxy,
  type CapturedExchange,
  type ProxyEvent,
  type RunningForwardingProxy,
} from '../support/traffic/forwarding-proxy.ts';
import { parseUpstream } from '../support/traffic/upstream.ts';
import { WorkerJudge } from '../support/traffic/worker-judge.ts';
import { parseArgs } from './args.ts';
import { ExitCode } from './exit-codes.ts';
import { commandHelp } from './help.ts';
import { commandFlags, environmentFromFlags } from './run-flags.ts';
import { trafficSettingsOf } from './traffic-options.ts';

/** The variable a command started by the proxy finds the proxy's base address in: a public interface. */
export const proxyUrlVariable = 'COLLECT_CONFORMANCE_PROXY_URL';
/** The answer header --violations-header adds: the rule ids the exchange broke, comma-separated. */
export const violationsHeader = 'Collect-Conformance-Violations';

/** The proxy's flags: rows of the settings table (support/lifecycle/settings.ts) that name the proxy. */
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

function runCommand(command: string[], env: NodeJS.ProcessEnv): Promise<CommandOutcome> {
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: 'inherit', env });
    child.once('error', (error: NodeJS.ErrnoException) =>
      resolve({ error: `${command[0]} could not be started (${error.code ?? error.message})` }),
    );
    child.once('exit', (code, signal) => resolve({ code, signal }));
    // A terminal's Ctrl+C reaches the command too; SIGTERM sent to the proxy alone is passed on.
    const pass = (signal: NodeJS.Signals) => () => child.kill(signal);
    process.on('SIGTERM', pass('SIGTERM'));
    process.on('SIGHUP', pass('SIGHUP'));
    process.on('SIGINT', () => {});
  });
}

function waitForSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => resolve(signal));
  });
}

function commandLine(outcome: CommandOutcome, command: string[]): string {
  const shown = redact(command.join(' ')).slice(0, 200);
  if ('error' in outcome) return `command: ${outcome.error}`;
  return outcome.signal !== null
    ? `command: ${shown} ended by ${outcome.signal}`
    : `command: ${shown} exited ${outcome.code}`;
}

const commandFailed = (outcome: CommandOutcome): boolean =>
  'error' in outcome || outcome.signal !== null || outcome.code !== 0;

/** The one line an upstream failure gets on stderr the first time (the rest are counted in the summary). */
function upstreamErrorLine(event: Extract<ProxyEvent, { kind: 'upstream-error' }>, upstream: string): string {
  const what = event.phase === 'before-answer' ? 'could not be reached' : 'went away in the middle of an answer';
  return (
    `collect-conformance proxy: the upstream ${upstream} ${what} (${event.code ?? event.message}); ` +
    `${event.answered502 ? 'the client got 502' : 'the client’s answer was cut short'}`
  );
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
  let upstream: Upstream;
  let running: RunningForwardingProxy;
  let judge: WorkerJudge | undefined;
  let options;
  const upstreamFailures: Array<Extract<ProxyEvent, { kind: 'upstream-error' }>> = [];
  try {
    printVariableWarnings(checkVariableNames(env));
    upstream = await upstreamOf(flags.get('upstream') as string | undefined, env);
    options = trafficSettingsOf(env, flags);
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
    running = await startForwardingProxy({
      upstream: upstream.baseUrl,
      port: Number(flags.get('port') ?? 0),
      ...(withHeader
        ? {
            inspect: async (captured: CapturedExchange) => {
              const broken = await judging.inspect(captured);
              return broken.length === 0 ? undefined : [[violationsHeader, broken.join(', ')] as const];
            },
          }
        : { onExchange: (captured: CapturedExchange) => judging.judge(captured) }),
      onEvent: (event) => {
        if (event.kind !== 'upstream-error') return;
        if (upstreamFailures.length === 0) process.stderr.write(`${upstreamErrorLine(event, upstream.baseUrl)}\n`);
        upstreamFailures.push(event);
      },
    });
  } catch (error) {
    await judge?.close();
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
      `${command.length > 0 ? `running ${redact(command.join(' ')).slice(0, 200)}` : 'Ctrl+C to stop and report'}\n`,
  );
  let outcome: CommandOutcome | undefined;
  let stoppedBy: NodeJS.Signals | undefined;
  if (command.length > 0) {
    outcome = await runCommand(command, {
      ...process.env,
      ...upstream.commandEnv,
      [proxyUrlVariable]: running.url,
      PCS_BASE_URL: running.url,
    });
  } else stoppedBy = await waitForSignal();
  await running.close();
  await upstream.close();
  if (outcome !== undefined && 'error' in outcome) {
    await judge.close();
    process.stderr.write(`collect-conformance: proxy: ${outcome.error}\n`);
    return ExitCode.usage;
  }
  const stats = running.stats();

  const report = await judge.report({
    ...(stoppedBy ? { stoppedBy } : {}),
    options: {
      outputDir: options.outputDir,
      allureResultsDir: options.allureResultsDir,
      header: {
        target: `traffic through the proxy to ${shownUpstream}`,
        environment: 'proxied',
        runId: options.runId,
        finishedAt: new Date().toISOString(),
        traffic: true,
      },
      origin: 'proxy',
      skipped: [],
      credentialsRecorded: true,
    },
    notes: [
      ...(outcome === undefined ? [] : [commandLine(outcome, command)]),
      ...(stats.badGateway > 0 || upstreamFailures.length > 0
        ? [`upstream failures: ${upstreamFailures.length} (${stats.badGateway} answered 502 by the proxy)`]
        : []),
      ...(stats.queue.itemsDropped > 0 || stats.queue.bodiesDropped > 0
        ? [
            `the judge fell behind the traffic: ${stats.queue.itemsDropped} exchange(s) not judged, ` +
              `${stats.queue.bodiesDropped} judged by status alone`,
          ]
        : []),
    ],
  });
  if (report.warning !== null) process.stdout.write(`${report.warning}\n`);
  process.stdout.write(`${report.summary.join('\n')}\n`);
  if (report.serverFindings > 0) return ExitCode.nonConformance;
  if (options.failOnClient && report.clientFindings > 0) return ExitCode.nonConformance;
  if (flags.get('fail-on-command') === true && outcome !== undefined && commandFailed(outcome))
    return ExitCode.nonConformance;
  if (upstreamFailures.length > 0 || report.undecided) return ExitCode.unavailable;
  return ExitCode.pass;
}
