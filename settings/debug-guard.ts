/**
 * Refuses a run whose diagnostics would write the key. Node's debug output for its network
 * modules (NODE_DEBUG=net, http and any pattern that matches them) prints every request's
 * headers, Authorization included, and the runner's console output reaches the JUnit, HTML
 * and Allure reports. No masking can run inside Node's own logger, so the run does not start:
 * one line naming the variable, exit code 2.
 *
 * Playwright's own DEBUG=pw:* logging is not refused: the suite's requests do not go through
 * Playwright (http/transport.ts), and tests/unit/secrets.test.ts checks with a canary
 * key that a run with it writes the key nowhere.
 */
import { ConfigError } from './config.ts';

type Env = Record<string, string | undefined>;

/** Node options that write what the process holds (environment, memory, traffic), the key included. */
const leakingNodeOptions: Record<string, string> = {
  '--report-on-signal': 'writes a diagnostic report that lists the environment, the key included',
  '--report-uncaught-exception': 'writes a diagnostic report that lists the environment, the key included',
  '--report-on-fatalerror': 'writes a diagnostic report that lists the environment, the key included',
  '--heapsnapshot-signal': 'writes heap snapshots, which hold the key',
  '--heapsnapshot-near-heap-limit': 'writes heap snapshots, which hold the key',
  '--trace-event-categories': "writes trace events of the run's input and output",
  '--trace-events-enabled': "writes trace events of the run's input and output",
  '--trace-tls': 'prints the TLS traffic of every request',
  '--tls-keylog': 'writes TLS session keys, with which a capture of the traffic reveals the key',
  '--experimental-network-inspection': 'sends every request, headers included, to the inspector',
  // A debugger attached to the runner or a worker reads its memory and environment: the key.
  '--inspect': 'opens the inspector, through which a debugger reads the environment, the key included',
  '--inspect-brk': 'opens the inspector, through which a debugger reads the environment, the key included',
  '--inspect-wait': 'opens the inspector, through which a debugger reads the environment, the key included',
  '--inspect-port': 'sets the port of the inspector, through which a debugger reads the environment and the key',
  '--debug-port': 'sets the port of the inspector, through which a debugger reads the environment and the key',
};

/** The refused flags in a NODE_OPTIONS value (Node accepts _ for - in option names). */
export function leakingOptionsIn(nodeOptions: string): string[] {
  const found: string[] = [];
  for (const token of nodeOptions.split(/\s+/)) {
    const name = token.replace(/^["']/, '').split('=')[0]!.replace(/_/g, '-');
    if (name in leakingNodeOptions && !found.includes(name)) found.push(name);
  }
  return found;
}

/** Throws a ConfigError when a debug variable of the environment would make the run write the key. */
export function refuseLeakingDiagnostics(env: Env = process.env): void {
  const nodeDebug = env.NODE_DEBUG?.trim();
  if (nodeDebug) {
    throw new ConfigError(
      'NODE_DEBUG',
      `is set ("${nodeDebug.slice(0, 40)}"): Node's debug output prints request headers, ` +
        `the key included, into the console and the reports; unset it to run the suite`,
    );
  }
  const nativeDebug = env.NODE_DEBUG_NATIVE?.trim();
  if (nativeDebug) {
    throw new ConfigError(
      'NODE_DEBUG_NATIVE',
      `is set ("${nativeDebug.slice(0, 40)}"): Node's native debug output may print request data, ` +
        `the key included; unset it to run the suite`,
    );
  }
  const [flag] = leakingOptionsIn(env.NODE_OPTIONS ?? '');
  if (flag !== undefined) {
    throw new ConfigError('NODE_OPTIONS', `${flag} ${leakingNodeOptions[flag]}; remove it to run the suite`);
  }
}
