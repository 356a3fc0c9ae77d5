/** Exit codes of collect-conformance: a public interface, documented in --help and the README (exit codes). */
export const ExitCode = {
  /** Every selected check passed. */
  pass: 0,
  /** Non-conformance found (or a check could not complete). */
  nonConformance: 1,
  /** Usage or configuration error. */
  usage: 2,
  /** Target unavailable: unreachable, DNS, TLS, persistent rate limiting. */
  unavailable: 3,
  /**
   * The tool itself failed (an unexpected error of the command, a test runner that could not
   * start or ended in a way no run outcome gives): nothing was decided about the target, and a
   * gate must not read it as a broken server.
   */
  internal: 4,
} as const;

/**
 * The one line an internal error prints: the first line of its message, so that a CI log shows
 * what failed without a stack trace.
 */
export function internalErrorLine(prefix: string, error: unknown): string {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const first = message.split('\n').find((line) => line.trim() !== '') ?? 'unknown error';
  return (
    `${prefix}: internal error: ${first.slice(0, 300)} ` +
    `(a failure of collect-conformance itself, not of the target: exit ${ExitCode.internal})`
  );
}
