/** The --help text: flags, variables and exit codes (a public interface). */
export const helpText = `collect-conformance: conformance suite for the Payment Collection Service API

Usage:
  collect-conformance [run] [flags] [-- <playwright test arguments>]
  collect-conformance mock [--port N] [--host H] [--mutant NAME] [--faults SPEC] [--store-cap N]
  collect-conformance rules [--json] [--kind documented|inferred]
  collect-conformance rules --show RULE-ID [--json]
  collect-conformance --help | --version

Run flags (each maps onto a variable; flags win over the environment, which wins over .env):
  --base-url URL          PCS_BASE_URL     base address including /v1; unset: the embedded reference mock
  --secret-key-env NAME   PCS_SECRET_KEY   read the key from environment variable NAME (never pass a key itself)
  --second-secret-key-env NAME  PCS_SECOND_SECRET_KEY  a key of another account on the same environment, read from
                          variable NAME (cross-account checks; without it they are skipped, and the summary says so)
  --environment E         PCS_ENVIRONMENT  sandbox (default) or live (live needs PCS_ALLOW_LIVE=yes)
  --balance-id N          PCS_BALANCE_ID   a balance id that exists on the target
  --currency-id N         PCS_CURRENCY_ID  a currency id that exists on the target
  --runs N                PCS_RUNS         cases per property test
  --seed S                PCS_SEED         property-test seed (replay)
  --path P                PCS_PATH         property-test path (replay)
  --workers N             PCS_WORKERS      parallel workers (default 2)
  --output DIR            PCS_OUTPUT_DIR   where reports go (default ./reports)
  --grep PATTERN          run tests whose title or tags match (tags: @documented, @inferred, @quirk, @<RULE-ID>)
  --operation ID          run every test that calls operation ID (getBalance, createTransaction, ...), property
                          and stateful tests included; repeatable, or comma-separated
  --documented-only       run only checks of documented rules (@documented)
  --strict                PCS_STRICT=yes   inputs the reference leaves open only to a lenient reading (null as
                          "not given", coercion, another Content-Type, its prose read as a constraint) must be refused
  --shard i/n             run shard i of n (Playwright sharding)
  --reporter R            console output: list (default), line or dot (report files are still written);
                          any other Playwright reporter (json, blob, ...) replaces the configured ones
  --list                  list the selected tests without running them

Other variables:
  PCS_CURRENCY_ISO (XOF)  PCS_PAYMENT_MODE (mtn)  PCS_PHONE_NUMBER (+22997000001)  PCS_PHONE_COUNTRY (BJ)
  PCS_TIMEOUT_MS (15000)  PCS_ALLOW_LIVE  PCS_ALLOW_LIVE_WRITES  PCS_RUN_ID  PCS_MAX_RPS  PCS_RETRIES
  PCS_PROPERTY_BUDGET_MS  PCS_STRICT (no)  PCS_SHRINK (yes)  PCS_REFERENCE_URL  PCS_SHARD  PCS_BLOB_DIR
  PCS_CPU_PROFILE (a directory for V8 CPU profiles)  PCS_COST_BREAKDOWN  PCS_IN_FLIGHT (auto)
  PCS_SECOND_SECRET_KEY  PCS_SECOND_BALANCE_ID (a balance of the second account)  PCS_CLOCK_TOLERANCE_S (120)

A PCS_* variable set but empty, a PCS_* name not listed above, or PCS_SECRET_KEY without PCS_BASE_URL is a
configuration error (exit 2): unset a variable for its default.
Arguments after -- go to \`playwright test\` and are checked against its options first.
NODE_DEBUG, NODE_DEBUG_NATIVE and NODE_OPTIONS flags that would print or write the key
(--report-on-signal, --heapsnapshot-signal, --trace-tls, --inspect, ...) are refused.

Rules flags:
  --json                  the catalogue (or, with --show, the rule's page) as JSON
  --kind K                list only documented or only inferred rules
  --show RULE-ID          one rule: its sentence, the reference's words, input class and what --strict makes of
                          it, its tests (file:line, from Playwright's listing: no target needed), input cases,
                          mutants, conforming variants, gap rows and operation roles; an unknown id exits 2

Exit codes:
  0  every selected check passed
  1  non-conformance found (wins over 3: a broken rule is 1 even when the target was also unavailable)
  2  usage or configuration error
  3  target unavailable (unreachable, DNS, TLS, persistent rate limiting)
  4  internal error: collect-conformance itself failed (one line says what); nothing was decided about the target
  130, 143, 129  stopped by SIGINT, SIGTERM or SIGHUP (after the run's cleanup)
  137  the test runner was killed outright (kill -9; 128 + the signal's number): its cleanup did not run
`;
