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
} as const;
