/**
 * The signals that stop a traffic command (proxy, judge) as they stop a run: SIGINT (Ctrl+C),
 * SIGTERM (a timeout, docker stop, Kubernetes) and SIGHUP (a closed terminal). The first one
 * received is remembered, every one is passed to whoever listens (the proxy's command gets each,
 * SIGINT included, so that a signal sent to the proxy alone stops the command too), and the command
 * exits 128 + its number once the command has ended and the reports are written. The console may be
 * gone with the terminal: failing to print must not stop the reports from being written.
 */
import { redact } from '../settings/secrets.ts';

export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';
const stopSignals: readonly StopSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export class SignalWatch {
  /** The first signal received, if any. */
  received: StopSignal | undefined;
  private readonly listeners = new Set<(signal: StopSignal) => void>();
  private readonly waiters: Array<(signal: StopSignal) => void> = [];
  private readonly handler = (signal: StopSignal): void => {
    this.received ??= signal;
    process.stdout.on('error', () => {});
    process.stderr.on('error', () => {});
    for (const listener of this.listeners) listener(signal);
    for (const waiter of this.waiters.splice(0)) waiter(signal);
  };

  constructor() {
    for (const signal of stopSignals) process.on(signal, this.handler);
  }

  onSignal(listener: (signal: StopSignal) => void): void {
    this.listeners.add(listener);
  }

  offSignal(listener: (signal: StopSignal) => void): void {
    this.listeners.delete(listener);
  }

  /** Resolves with the first signal (at once if one came already). */
  first(): Promise<StopSignal> {
    if (this.received !== undefined) return Promise.resolve(this.received);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Stops listening (the command ends with its code). */
  stop(): void {
    for (const signal of stopSignals) process.off(signal, this.handler);
  }
}

/**
 * A command line as the console shows it: the credential of an Authorization header written in it
 * masked (curl -H "Authorization: Bearer ..."), key-shaped strings and configured keys too (redact).
 */
export function commandLineShown(command: readonly string[]): string {
  const joined = command
    .join(' ')
    .replace(
      /((?:proxy-)?authorization\s*:\s*)(?:([A-Za-z][\w-]*)\s+)?\S+/gi,
      (_all, name: string, scheme?: string) => `${name}${scheme === undefined ? '' : `${scheme} `}***`,
    );
  return redact(joined.replace(/\s+/g, ' ')).slice(0, 200);
}
