/**
 * The --help text: flags, variables and exit codes (a public interface). The run flags and their
 * variables are printed from the settings table (support/lifecycle/settings.ts); the rest is written here.
 */
import { isSetting, sections, tableRows, valueFlagName, type TableRow } from '../support/lifecycle/settings.ts';
import { defaultMarkdown, flagUsage, flagVariable, plainText, wrapWords } from '../support/lifecycle/setting-texts.ts';

const width = 118;

function flagLine(row: TableRow, flagWidth: number, variableWidth: number): string[] {
  const fallback = isSetting(row) ? defaultMarkdown(row) : undefined;
  const summary = plainText(row.summary) + (fallback !== undefined ? ` (default: ${plainText(fallback)})` : '');
  const left = `  ${flagUsage(row).padEnd(flagWidth)} ${(flagVariable(row) ?? '(flag only)').padEnd(variableWidth)} `;
  const [first = '', ...more] = wrapWords(summary, width - left.length);
  return [`${left}${first}`, ...more.map((line) => `${' '.repeat(left.length)}${line}`)];
}

/** The run flags, by section, each with its variable and default. */
export function runFlagsHelp(): string {
  const flagWidth = Math.max(...tableRows.map((row) => flagUsage(row).length));
  const variableWidth = Math.max(...tableRows.map((row) => (flagVariable(row) ?? '(flag only)').length));
  const lines: string[] = [];
  for (const [section, title] of Object.entries(sections)) {
    const rows = tableRows.filter((row) => row.section === section);
    if (rows.length === 0) continue;
    lines.push(` ${title}:`);
    for (const row of rows) lines.push(...flagLine(row, flagWidth, variableWidth));
  }
  const refused = tableRows.filter(isSetting).filter((row) => row.secret === true);
  lines.push(
    ...wrapWords(
      `${refused.map((row) => `--${valueFlagName(row)}`).join(' and ')} are refused: keys are read from ` +
        'variables (the flags above name them), never typed on a command line, where shell history and process ' +
        'lists keep them.',
      width - 2,
    ).map((line) => `  ${line}`),
  );
  return lines.join('\n');
}

export const helpText = `collect-conformance: conformance suite for the Payment Collection Service API

Usage:
  collect-conformance [run] [flags] [-- <playwright test arguments>]
  collect-conformance mock [--port N] [--host H] [--mutant NAME] [--faults SPEC] [--store-cap N]
  collect-conformance rules [--json] [--kind documented|inferred]
  collect-conformance rules --show RULE-ID [--json]
  collect-conformance proxy [--upstream URL] [--port N] [--violations-header] [--fail-on-client]
                            [--fail-on-command] [--sample RATE] [--max-judge-lag S] [traffic flags]
                            [-- COMMAND ARGS...]
  collect-conformance judge FILE.har [FILE.har ...] [--base-url URL] [--fail-on-client] [--sample RATE]
                            [traffic flags]
  collect-conformance report [--output DIR]
  collect-conformance --help | --version

Run flags: each sets the variable beside it (a switch, to the value shown); flags win over the environment,
which wins over .env. Every variable can be set in the environment or .env instead of its flag.
${runFlagsHelp()}

A PCS_* variable set but empty, a PCS_* name not listed above, or PCS_SECRET_KEY without PCS_BASE_URL is a
configuration error (exit 2): unset a variable for its default. An unknown flag or variable gets the nearest
known one suggested.
Arguments after -- go to \`playwright test\` and are checked against its options first.
NODE_DEBUG, NODE_DEBUG_NATIVE and NODE_OPTIONS flags that would print or write the key
(--report-on-signal, --heapsnapshot-signal, --trace-tls, --inspect, ...) are refused.

Rules flags:
  --json                  the catalogue (or, with --show, the rule's page) as JSON
  --kind K                list only documented or only inferred rules
  --show RULE-ID          one rule: its sentence, the reference's words, input class and what --strict makes of
                          it, its tests (file:line, from Playwright's listing: no target needed), input cases,
                          mutants, conforming variants, gap rows and operation roles; an unknown id exits 2

Traffic (proxy, judge): a client's own traffic, judged by the suite's rules.
  proxy forwards http://127.0.0.1:PORT/v1 to --upstream (else PCS_BASE_URL, else the embedded mock, whose
  keys and ids the command then gets) byte for byte, and reports when COMMAND ends (it finds the proxy's
  base address in COLLECT_CONFORMANCE_PROXY_URL and PCS_BASE_URL) or, without one, on SIGINT or SIGTERM.
  judge reads HAR 1.2 files (browsers, Playwright's recordHar, mitmproxy, Charles) in their recorded order.
  --upstream URL          the server's base address, ending in /v1
  --port N                the proxy's port on 127.0.0.1 (default: a free one, printed on start)
  --violations-header     add Collect-Conformance-Violations: <rule ids> to an answer that broke a rule
                          (off by default: the proxy changes nothing)
  --fail-on-client        a request of the client off the reference counts as a finding (exit 1)
  --fail-on-command       the command's failure counts as a finding (exit 1); its status is printed anyway
  --sample RATE           judge this share of the exchanges (0.1 or 10%); the rest are counted as skipped
  --max-judge-lag S       (proxy) skip judging, counted, once the judge is S seconds behind, instead of holding
                          new requests back until it catches up
  --base-url URL          (judge) the base address the HAR's URLs start with, when not found by /v1
  traffic flags: --secret-key-env, --second-secret-key-env (the keys that name the accounts), --balance-id,
  --currency-id, --second-balance-id, --currency-iso, --payment-mode, --phone-number, --phone-country,
  --clock-tolerance-seconds, --strict, --documented-only, --output, --run-id, --environment, --allow-live,
  --timeout-ms (how long an upstream has to begin an answer: past it, 504), as in a run.
  Exit codes as a run's: 3 (inconclusive) when the upstream was unreachable, silent or answered
  429/502/503/504, when traffic was not judged (counted with why), or when nothing was judged, and no rule broke.

Exit codes:
  0  every selected check passed
  1  non-conformance found (wins over 3: a broken rule is 1 even when the target was also unavailable)
  2  usage or configuration error
  3  target unavailable (unreachable, DNS, TLS, persistent rate limiting)
  4  internal error: collect-conformance itself failed (one line says what); nothing was decided about the target
  130, 143, 129  stopped by SIGINT, SIGTERM or SIGHUP (after the run's cleanup)
  137  the test runner was killed outright (kill -9; 128 + the signal's number): its cleanup did not run
`;
