/**
 * Every setting of the suite, declared once: its variable, its flag, its default, the values it
 * accepts (the validator), its line of --help and its row of the documentation. From this table
 * the configuration is read and validated (settings/read-setting.ts), the known PCS_*
 * names are listed, every command's flags are parsed and mapped onto their variables
 * (cli/run-flags.ts), every command's --help prints its flags (cli/help.ts), and
 * `npm run settings:generate` writes the tables of docs/reference/configuration.md and the whole
 * .env.example (lab/settings-doc.ts), which tests/unit/settings.test.ts keeps in step.
 *
 * A row names the commands that take its flag (the run when it names none): the run, the proxy and
 * the judge of traffic, the standalone mock, the Allure report, the rules catalogue, and the shards'
 * run and merge. Every variable has a flag, so that a CI job can set with a variable what a person
 * types as a flag, and the reverse; a flag without a variable says why.
 *
 * Texts are Markdown: --help and .env.example print them without backticks and links.
 */
import { farMs, farWorkers } from './round-trip-probe.ts';
import { operationIds, operationList, regExpPattern, reporterNames, shard } from './selection-values.ts';
import {
  anyText,
  baseUrl,
  port,
  positiveCount,
  inFlight,
  keyToken,
  lagSeconds,
  matching,
  maxInFlight,
  oneOf,
  oneOrZero,
  positiveAtMost,
  positiveId,
  propertyPath,
  requestsPerSecond,
  seed,
  shareOfExchanges,
  wholeNumber,
  yesNo,
  type InFlightSetting,
  type Validator,
} from './setting-values.ts';

/** Where a setting is listed, in this order, in --help, the documentation and .env.example. */
export const sections = {
  target: 'The target',
  run: 'The run',
  selection: 'Which tests run',
  transport: 'Transport',
  properties: 'Property tests',
  reports: 'Reports',
  sharding: 'Sharding',
  lab: 'Measuring the suite (lab)',
  traffic: 'Judging traffic',
  mock: 'The standalone mock',
  catalogue: 'The rules catalogue',
} as const;
export type Section = keyof typeof sections;

/** The commands whose flags the table declares, as a person starts each. */
export const commands = {
  run: 'collect-conformance [run]',
  proxy: 'collect-conformance proxy',
  judge: 'collect-conformance judge',
  mock: 'collect-conformance mock',
  report: 'collect-conformance report',
  rules: 'collect-conformance rules',
  shard: 'npm run conformance:shard --',
  merge: 'npm run report:merge --',
} as const;
export type CommandName = keyof typeof commands;

export interface Flag {
  /** Without the leading dashes. */
  name: string;
  /** What --help calls its value (URL, N, NAME); absent: a switch. */
  placeholder?: string;
  /** A switch: the value its variable gets when it is given. */
  sets?: string;
  /** The value is the name of the variable that holds the setting (a key is never typed on a command line). */
  namesVariable?: true;
  /** May be given more than once: the values are joined with commas. */
  repeatable?: true;
}

interface Described {
  section: Section;
  flag: Flag;
  /** One line: --help and the documentation's table of flags. */
  summary: string;
  /** The commands that take the flag; absent: the run alone. */
  commands?: readonly CommandName[];
  /** What the flag says to a command where it means more or other than the summary. */
  summaryFor?: Partial<Record<CommandName, string>>;
  /** The flag's default for a command where it is not the run's. */
  defaultFor?: Partial<Record<CommandName, string>>;
  /** The documentation's row; the summary when absent. */
  meaning?: string;
}

export interface Setting<T> extends Described {
  variable: `PCS_${string}`;
  /** The value when the variable is unset (or set but blank, which the command refuses first). */
  default: T;
  /** How the default reads where the value alone would not say it (null: "unlimited", the mock's own). */
  defaultText?: string;
  parse: Validator<T>;
  /** The documentation's accepted values. */
  accepted: string;
  /** Masked everywhere; its flag names a variable, and a flag of its own name is refused. */
  secret?: true;
  /** The value .env.example suggests, when not the default. */
  example?: string;
}

/** A flag that has no variable, and why. */
export interface FlagOnly extends Described {
  variable?: undefined;
  whyNoVariable: string;
  /** The values the flag takes (checked when it is parsed); absent: any value, checked by its command. */
  parse?: Validator<unknown>;
  /** The flag's value when it is not given, as --help and the documentation say it. */
  defaultText?: string;
  /** A value the flag takes, for its examples (and the test that gives every flag of every --help). */
  example?: string;
}

export type AnySetting = Setting<unknown>;
export type TableRow = AnySetting | FlagOnly;

const setting = <T>(declared: Setting<T>): Setting<T> => declared;

const phoneNumberExample = '+22997000001';

export const settings = {
  // The target.
  baseUrl: setting<string | null>({
    section: 'target',
    commands: ['run', 'judge'],
    summaryFor: {
      judge: "the base address the HAR's URLs start with, when it is not the first `/v1` of their path",
    },
    defaultFor: { judge: 'found in each URL (the first `/v1` of its path)' },
    variable: 'PCS_BASE_URL',
    flag: { name: 'base-url', placeholder: 'URL' },
    default: null,
    defaultText: 'the embedded reference mock',
    parse: baseUrl,
    summary: 'base address including `/v1`',
    meaning:
      'Base address including `/v1`, e.g. `http://127.0.0.1:4010/v1`; unset, the suite starts the embedded ' +
      'reference mock and tests it',
    accepted: 'an http or https URL ending in `/v1`, without credentials, query or fragment',
    example: 'http://127.0.0.1:4010/v1',
  }),
  secretKey: setting<string | null>({
    section: 'target',
    commands: ['run', 'proxy', 'judge'],
    variable: 'PCS_SECRET_KEY',
    flag: { name: 'secret-key-env', placeholder: 'NAME', namesVariable: true },
    default: null,
    defaultText: "the mock's key",
    parse: keyToken,
    secret: true,
    summary: 'read the key from environment variable `NAME`',
    meaning:
      'Secret key sent as `Authorization: Bearer <key>`; required with `PCS_BASE_URL`, refused without it. ' +
      'The flag reads it from the variable it names: a key on a command line ends up in shell history and ' +
      'process lists, so `--secret-key` is refused',
    accepted: 'one token, no spaces or control characters, at most 1024 characters',
  }),
  environment: setting<'sandbox' | 'live'>({
    section: 'target',
    // The live guard, as a run applies it, guards the proxy's upstream and the judge's recording too.
    commands: ['run', 'proxy', 'judge'],
    variable: 'PCS_ENVIRONMENT',
    flag: { name: 'environment', placeholder: 'E' },
    default: 'sandbox',
    parse: oneOf(['sandbox', 'live'] as const),
    summary: '`sandbox` or `live` (live needs `PCS_ALLOW_LIVE=yes`)',
    accepted: '`sandbox`, `live`',
  }),
  allowLive: setting<boolean>({
    section: 'target',
    commands: ['run', 'proxy', 'judge'],
    variable: 'PCS_ALLOW_LIVE',
    flag: { name: 'allow-live', sets: 'yes' },
    default: false,
    parse: yesNo,
    summary: 'allow a live target (the live guard)',
    meaning: 'Allow a live target ([the live guard](#the-live-guard))',
    accepted: '`yes`, `no`',
  }),
  allowLiveWrites: setting<boolean>({
    section: 'target',
    variable: 'PCS_ALLOW_LIVE_WRITES',
    flag: { name: 'allow-live-writes', sets: 'yes' },
    default: false,
    parse: yesNo,
    summary: 'on a live target, also run the tests that create, send or delete',
    accepted: '`yes`, `no`',
  }),
  balanceId: setting<number | null>({
    section: 'target',
    commands: ['run', 'proxy', 'judge'],
    variable: 'PCS_BALANCE_ID',
    flag: { name: 'balance-id', placeholder: 'N' },
    default: null,
    defaultText: '1 on the mock',
    parse: positiveId,
    summary: 'a balance id that exists on the target',
    meaning: 'A balance id known to exist on the target; unset on another target: the tests that need it are skipped',
    accepted: 'a positive integer (up to 20 digits; ids beyond 2^53 are kept exact)',
    example: '1',
  }),
  currencyId: setting<number | null>({
    section: 'target',
    commands: ['run', 'proxy', 'judge'],
    variable: 'PCS_CURRENCY_ID',
    flag: { name: 'currency-id', placeholder: 'N' },
    default: null,
    defaultText: '1 on the mock',
    parse: positiveId,
    summary: 'a currency id that exists on the target',
    meaning: 'A currency id known to exist on the target; unset on another target: the tests that need it are skipped',
    accepted: 'a positive integer (up to 20 digits; ids beyond 2^53 are kept exact)',
    example: '1',
  }),
  secondSecretKey: setting<string | null>({
    section: 'target',
    commands: ['run', 'proxy', 'judge'],
    variable: 'PCS_SECOND_SECRET_KEY',
    flag: { name: 'second-secret-key-env', placeholder: 'NAME', namesVariable: true },
    default: null,
    defaultText: "the mock's second account",
    parse: keyToken,
    secret: true,
    summary:
      'read a key of another account on the same environment from variable `NAME` ' +
      '(the cross-account checks; without it they are skipped, and the summary says so)',
    meaning:
      'A key of **another account** on the same environment, a secret exactly like `PCS_SECRET_KEY` (masked ' +
      'everywhere, held to the live guard, read by its flag from the variable it names). Without it, the ' +
      'cross-account rules (ACCOUNT-ISOLATION-4XX, ACCOUNT-ISOLATION-UNCHANGED, ACCOUNT-DATA-OWN) are skipped, ' +
      'and the run says so',
    accepted: 'one token, not the same as `PCS_SECRET_KEY`',
  }),
  secondBalanceId: setting<number | null>({
    section: 'target',
    commands: ['run', 'proxy', 'judge'],
    variable: 'PCS_SECOND_BALANCE_ID',
    flag: { name: 'second-balance-id', placeholder: 'N' },
    default: null,
    defaultText: '11 on the mock',
    parse: positiveId,
    summary: 'a balance of the second account',
    meaning:
      'A balance of the second account (ACCOUNT-ISOLATION-4XX on balances, ACCOUNT-DATA-OWN); unset: those tests ' +
      'are skipped',
    accepted: 'a positive integer',
    example: '11',
  }),
  clockToleranceSeconds: setting<number>({
    section: 'target',
    commands: ['run', 'proxy', 'judge'],
    variable: 'PCS_CLOCK_TOLERANCE_S',
    flag: { name: 'clock-tolerance-s', placeholder: 'N' },
    default: 120,
    parse: positiveId,
    summary: "how far (seconds) the timestamps of what a request created may be from the answer's Date header",
    meaning:
      "How far (seconds) the timestamps of what a request created may be from the answer's own Date header " +
      '(TIME-NOW)',
    accepted: 'a positive integer',
  }),
  currencyIso: setting<string>({
    section: 'target',
    commands: ['run', 'proxy', 'judge'],
    variable: 'PCS_CURRENCY_ISO',
    flag: { name: 'currency-iso', placeholder: 'CODE' },
    default: 'XOF',
    parse: matching(/^[A-Z]{3}$/, 'must be a three-letter upper-case currency code'),
    summary: 'currency of the transactions the suite creates',
    accepted: 'three upper-case letters',
  }),
  paymentMode: setting<string>({
    section: 'target',
    commands: ['run', 'proxy', 'judge'],
    variable: 'PCS_PAYMENT_MODE',
    flag: { name: 'payment-mode', placeholder: 'MODE' },
    default: 'mtn',
    parse: matching(/^[A-Za-z0-9_-]{1,64}$/, 'must be a mode name of letters, digits, _ or -'),
    summary: 'payment mode of sends',
    accepted: '1 to 64 letters, digits, `_` or `-`',
  }),
  phoneNumber: setting<string>({
    section: 'target',
    commands: ['run', 'proxy', 'judge'],
    variable: 'PCS_PHONE_NUMBER',
    flag: { name: 'phone-number', placeholder: 'NUMBER' },
    default: phoneNumberExample,
    parse: matching(/^\+?\d{6,15}$/, `must be an international-style number such as ${phoneNumberExample}`),
    summary: 'phone number of sends',
    accepted: 'an international-style number: optional `+`, 6 to 15 digits',
  }),
  phoneCountry: setting<string>({
    section: 'target',
    commands: ['run', 'proxy', 'judge'],
    variable: 'PCS_PHONE_COUNTRY',
    flag: { name: 'phone-country', placeholder: 'CC' },
    default: 'BJ',
    parse: matching(/^[A-Z]{2}$/, 'must be an upper-case two-letter country code'),
    summary: 'country of the phone number of sends',
    accepted: 'two upper-case letters',
  }),

  // The run.
  timeoutMs: setting<number>({
    section: 'run',
    // The proxy's too: an upstream that has not begun its answer by then gets the client a 504.
    commands: ['run', 'proxy'],
    variable: 'PCS_TIMEOUT_MS',
    flag: { name: 'timeout-ms', placeholder: 'N' },
    default: 15_000,
    parse: positiveAtMost(3_600_000, '3600000 (one hour)'),
    summary: 'per-request timeout (milliseconds)',
    accepted: 'a positive integer, at most 3600000 (one hour)',
  }),
  runId: setting<string | undefined>({
    section: 'run',
    commands: ['run', 'proxy', 'judge'],
    variable: 'PCS_RUN_ID',
    flag: { name: 'run-id', placeholder: 'ID' },
    default: undefined,
    defaultText: '`cc-<date>-<random>`',
    parse: matching(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1 to 64 letters, digits, dots, dashes or underscores', {
      echo: false,
    }),
    summary: 'label put in the description and `custom_metadata` of everything the run creates',
    meaning:
      'Label put in the description and `custom_metadata` of everything the run creates ' +
      '([cleanup](../guides/sandbox-nightly.md#4-cleanup)); the shards of one run share it',
    accepted: '1 to 64 letters, digits, dots, dashes or underscores',
    example: 'nightly-42',
  }),
  outputDir: setting<string>({
    section: 'run',
    commands: ['run', 'proxy', 'judge', 'report', 'shard', 'merge'],
    summaryFor: {
      report: 'the output directory of the run whose Allure results (`allure-results/`) to build into `allure-report/`',
      merge: 'where the merged reports go',
    },
    variable: 'PCS_OUTPUT_DIR',
    flag: { name: 'output', placeholder: 'DIR' },
    default: 'reports',
    parse: anyText,
    summary: 'where reports go',
    meaning:
      'Where reports, the run ledger and the marker file go; created if missing, and refused (exit 2) when it ' +
      'cannot be created or written. One run at a time per directory',
    accepted: 'a directory',
  }),
  workers: setting<number>({
    section: 'run',
    variable: 'PCS_WORKERS',
    flag: { name: 'workers', placeholder: 'N' },
    default: 2,
    defaultText: `2; against a target of yours that answers in ${farMs} ms or more, ${farWorkers}`,
    parse: wholeNumber(3, 1, 999, 'must be a whole number of parallel workers from 1 to 999'),
    summary: 'parallel workers',
    accepted: 'a whole number from 1 to 999',
  }),
  strict: setting<boolean>({
    section: 'run',
    commands: ['run', 'proxy', 'judge'],
    variable: 'PCS_STRICT',
    flag: { name: 'strict', sets: 'yes' },
    default: false,
    parse: yesNo,
    summary:
      'inputs the reference leaves open only to a lenient reading (null as "not given", coercion, another ' +
      'Content-Type, its prose read as a constraint) must be refused',
    meaning:
      'Inputs the reference leaves open only to a lenient reading must be refused ' +
      '([outcome classes](../explanations/outcome-classes.md#which-mode-default-or---strict))',
    accepted: '`yes`, `no`',
  }),
  referenceUrl: setting<string>({
    section: 'run',
    variable: 'PCS_REFERENCE_URL',
    flag: { name: 'reference-url', placeholder: 'URL' },
    default: 'api-reference.md',
    parse: anyText,
    summary: "where the rule links of the Allure report point (the reference's address in your organisation)",
    accepted: 'a URL or path',
    example: 'https://docs.example.com/payment-collection/api-reference',
  }),

  // Which tests run: read by the command, which hands them to Playwright.
  grep: setting<string | undefined>({
    section: 'selection',
    variable: 'PCS_GREP',
    flag: { name: 'grep', placeholder: 'PATTERN' },
    default: undefined,
    defaultText: 'every test',
    parse: regExpPattern,
    summary: 'run the tests whose title or tags match (tags: `@documented`, `@inferred`, `@quirk`, `@<RULE-ID>`)',
    accepted: 'a regular expression, as Playwright reads `--grep`',
    example: '@TXN-CREATE-2XX',
  }),
  operation: setting<string[] | undefined>({
    section: 'selection',
    variable: 'PCS_OPERATION',
    flag: { name: 'operation', placeholder: 'ID', repeatable: true },
    default: undefined,
    defaultText: 'every operation',
    parse: operationList,
    summary:
      'run every test that calls operation `ID` (`getBalance`, `createTransaction`, ...), property and stateful ' +
      'tests included; repeatable, or comma-separated',
    meaning:
      'Run every test that calls operation `ID`, property and stateful tests included: the tests tagged with a ' +
      'rule of that operation alone, the tests whose title names it, and the tests of a rule shared with other ' +
      'operations whose title names its resource (`random balance ids ...`). The flag is repeatable ' +
      '(`--operation getBalance --operation getCurrency`); combined with `--grep` and `--documented-only`, a test ' +
      'must match each. `--grep getBalance` matches titles only and misses the property tests',
    accepted: `operation ids, comma-separated: ${operationIds()
      .map((id) => `\`${id}\``)
      .join(', ')}`,
    example: 'getBalance,getCurrency',
  }),
  documentedOnly: setting<boolean>({
    section: 'selection',
    commands: ['run', 'proxy', 'judge'],
    variable: 'PCS_DOCUMENTED_ONLY',
    flag: { name: 'documented-only', sets: 'yes' },
    default: false,
    parse: yesNo,
    summary: 'run only the checks of documented rules (`@documented`)',
    accepted: '`yes`, `no`',
  }),
  list: {
    section: 'selection',
    flag: { name: 'list' },
    summary: 'list the selected tests without running them',
    whyNoVariable:
      'a variable left set in `.env` or a CI job would turn every later run into a listing that runs ' +
      'nothing and exits 0',
  } satisfies FlagOnly,

  // Transport.
  retries: setting<number>({
    section: 'transport',
    variable: 'PCS_RETRIES',
    flag: { name: 'retries', placeholder: 'N' },
    default: 3,
    parse: wholeNumber(2, 0, 10, 'must be a whole number from 0 to 10'),
    summary: 'further attempts after a 429 / 502 / 503 / 504, a timeout or a connection reset',
    meaning:
      'Further attempts after a 429 / 502 / 503 / 504, a timeout or a connection reset ' +
      '([rate limits and network trouble](../guides/sandbox-nightly.md#5-rate-limits-and-network-trouble))',
    accepted: 'a whole number from 0 to 10',
  }),
  maxRps: setting<number | null>({
    section: 'transport',
    variable: 'PCS_MAX_RPS',
    flag: { name: 'max-rps', placeholder: 'N' },
    default: null,
    defaultText: 'unlimited',
    parse: requestsPerSecond,
    summary: 'a ceiling on the requests per second of the whole run on this machine, shared by its workers',
    meaning:
      'A ceiling on the requests per second of the whole run on this machine, shared by its workers. Without it ' +
      'the rate is learned anyway: nothing is paced until the target answers 429 or sends `RateLimit-*` / ' +
      '`X-RateLimit-*` headers; then the workers share one rate, set from what the target accepted and raised ' +
      'slowly while no 429 comes (a 429 while the rate is learned spends no retry). N CI shards each learn their ' +
      "share; setting it to the sandbox's limit ÷ N avoids the learning 429s",
    accepted: 'a positive number',
    example: '50',
  }),
  inFlight: setting<InFlightSetting>({
    section: 'transport',
    variable: 'PCS_IN_FLIGHT',
    flag: { name: 'in-flight', placeholder: 'N|auto' },
    default: { kind: 'auto' },
    defaultText: '`auto`',
    parse: inFlight,
    summary: 'generated requests each worker keeps in flight (`auto`: from its round trip)',
    meaning:
      'Generated cases (and requests of the volume test) each worker keeps in flight. `auto` follows the ' +
      "worker's median round trip: one at a time below 3 ms (a target on this machine), one more per 2 ms " +
      'above, up to 16 (the keep-alive pool), and at least 8 once the target is rate limited (a request ' +
      'waiting a Retry-After must not idle the worker). A failure found in flight is replayed alone and shrunk, ' +
      'so its seed and path are those of a run of one case at a time',
    accepted: `\`auto\`, or a whole number from 1 to ${maxInFlight}`,
    example: 'auto',
  }),

  // Property tests.
  runs: setting<number>({
    section: 'properties',
    variable: 'PCS_RUNS',
    flag: { name: 'runs', placeholder: 'N' },
    default: 100,
    parse: wholeNumber(7, 1, 9_999_999, 'must be a positive integer (cases per property)'),
    summary: 'cases per property test',
    meaning: 'Cases per property (short stateful sequences: half as many; long ones: one per 50; bursts: one per 10)',
    accepted: 'a positive integer',
  }),
  propertyBudgetMs: setting<number>({
    section: 'properties',
    variable: 'PCS_PROPERTY_BUDGET_MS',
    flag: { name: 'property-budget-ms', placeholder: 'N' },
    default: 30_000,
    parse: wholeNumber(9, 100, 999_999_999, 'must be an integer of at least 100 (milliseconds per property)'),
    summary: 'time budget of each property (milliseconds)',
    meaning:
      'Time budget of each property: it stops generating after it and passes with what it checked, so a nightly ' +
      '`PCS_RUNS=10000` against a sandbox stays within minutes',
    accepted: 'an integer of at least 100',
  }),
  seed: setting<number | undefined>({
    section: 'properties',
    variable: 'PCS_SEED',
    flag: { name: 'seed', placeholder: 'S' },
    default: undefined,
    defaultText: 'random',
    parse: seed,
    summary: 'property-test seed to replay (printed by every failure)',
    accepted: 'a 32-bit integer',
    example: '1234567',
  }),
  path: setting<string | undefined>({
    section: 'properties',
    variable: 'PCS_PATH',
    flag: { name: 'path', placeholder: 'P' },
    default: undefined,
    parse: propertyPath,
    summary: 'path of the counterexample to replay (printed by every failure; needs the seed)',
    accepted: 'as printed',
    example: '3:1:0',
  }),
  shrink: setting<boolean>({
    section: 'properties',
    variable: 'PCS_SHRINK',
    flag: { name: 'shrink', placeholder: 'yes|no' },
    default: true,
    parse: yesNo,
    summary: "`no` reports a property's first failing case as generated, without shrinking it",
    meaning:
      "`no` reports a property's first failing case as generated, without shrinking it (faster gates; " +
      '`npm run mutation` uses it). With `yes`, shrinking is bounded: a third of `PCS_PROPERTY_BUDGET_MS` (at ' +
      'most 10 s) per property, twice `PCS_PROPERTY_BUDGET_MS` per run, and a rule already shrunk in the run is ' +
      'not shrunk again; the message says when a bound stopped it',
    accepted: '`yes`, `no`',
  }),

  // Reports.
  reporter: setting<string | undefined>({
    section: 'reports',
    variable: 'PCS_REPORTER',
    flag: { name: 'reporter', placeholder: 'R' },
    default: undefined,
    defaultText: '`line` in a terminal, `dot` elsewhere',
    parse: reporterNames,
    summary:
      "console output: `dot` or `line` (the suite's: the failures grouped by cause) or `list` (Playwright's: every " +
      'failure in full); the report files are still written. Any other Playwright reporter (`json`, `blob`, ...) ' +
      'replaces the configured ones',
    accepted:
      'reporter names, comma-separated: built into Playwright, or a file or module found from the working ' +
      'directory',
    example: 'dot',
  }),

  verbose: setting<boolean>({
    section: 'reports',
    variable: 'PCS_VERBOSE',
    flag: { name: 'verbose', sets: 'yes' },
    default: false,
    parse: yesNo,
    summary:
      "one console line per test, with its tags, and every failure in full (Playwright's `list`); by default the " +
      'console shows progress (`line` in a terminal, `dot` elsewhere), the failures grouped by cause and the summary',
    accepted: '`yes`, `no`',
  }),

  // Sharding.
  shard: setting<string | undefined>({
    section: 'sharding',
    commands: ['run', 'shard'],
    variable: 'PCS_SHARD',
    flag: { name: 'shard', placeholder: 'i/n' },
    default: undefined,
    defaultText: 'the whole suite',
    parse: shard,
    summary: 'run shard i of n (Playwright sharding)',
    meaning:
      'Run shard i of n (Playwright sharding); a shard outside 1 ≤ i ≤ n, here or after `--`, is one line and ' +
      'exit code 2. `npm run conformance:shard` reads it too, and adds a blob report',
    accepted: '`i/n`, 1 ≤ i ≤ n',
    example: '1/4',
  }),
  blobDir: setting<string | undefined>({
    section: 'sharding',
    commands: ['run', 'shard'],
    variable: 'PCS_BLOB_DIR',
    flag: { name: 'blob-dir', placeholder: 'DIR' },
    default: undefined,
    defaultText: 'no blob report; `<output dir>/blob-report` with `npm run conformance:shard`',
    parse: anyText,
    summary: 'also write a blob report there, for `npm run report:merge`',
    accepted: 'a directory',
    example: 'reports/blob-report',
  }),

  // Measuring the suite.
  cpuProfile: setting<string | undefined>({
    section: 'lab',
    variable: 'PCS_CPU_PROFILE',
    flag: { name: 'cpu-profile', placeholder: 'DIR' },
    default: undefined,
    defaultText: 'no profile',
    parse: anyText,
    summary: 'the runner (with the embedded mock and the reporters) and every worker write a V8 CPU profile there',
    meaning:
      'A directory: the runner (with the embedded mock and the reporters) and every worker write a V8 CPU ' +
      'profile there (`npm run profile` runs and summarises one; see [development](../development.md#profile))',
    accepted: 'a directory',
    example: 'reports/cpu-profile',
  }),
  costBreakdown: setting<boolean>({
    section: 'lab',
    variable: 'PCS_COST_BREAKDOWN',
    flag: { name: 'cost-breakdown', sets: '1' },
    default: false,
    parse: oneOrZero,
    summary: "the property runner records where each generated request's time goes (`npm run bench` sets it)",
    accepted: '`1`, `0`',
  }),

  // Judging traffic (collect-conformance proxy and judge): a session's own choices, typed where it starts.
  upstream: {
    section: 'traffic',
    commands: ['proxy'],
    flag: { name: 'upstream', placeholder: 'URL' },
    summary: "the server's base address, ending in `/v1` (http or https)",
    defaultText: '`PCS_BASE_URL`, else the embedded reference mock',
    whyNoVariable: '`PCS_BASE_URL` is the upstream when the flag is not given',
    example: 'http://127.0.0.1:4010/v1',
  } satisfies FlagOnly,
  proxyPort: {
    section: 'traffic',
    commands: ['proxy'],
    flag: { name: 'port', placeholder: 'N' },
    parse: port,
    summary: "the proxy's port on 127.0.0.1; its address is printed on start",
    defaultText: 'a free port',
    whyNoVariable:
      'a port belongs to one proxy at a time: a variable left set would stop the next proxy on a port in use',
    example: '0',
  } satisfies FlagOnly,
  violationsHeader: {
    section: 'traffic',
    commands: ['proxy'],
    flag: { name: 'violations-header' },
    summary:
      'add `Collect-Conformance-Violations: <rule ids>` to an answer that broke a rule (off: the proxy changes ' +
      'nothing)',
    whyNoVariable: 'it changes the answers a client gets: asked for where the proxy is started, never inherited',
  } satisfies FlagOnly,
  failOnCommand: {
    section: 'traffic',
    commands: ['proxy'],
    flag: { name: 'fail-on-command' },
    summary: "the command's failure (exit status not 0, a signal) is exit 1; its status is printed anyway",
    whyNoVariable: 'it says how to read the command given after `--` on the same command line',
  } satisfies FlagOnly,
  sample: {
    section: 'traffic',
    commands: ['proxy', 'judge'],
    flag: { name: 'sample', placeholder: 'SHARE' },
    parse: shareOfExchanges,
    summary:
      'judge this share of the exchanges (`0.1`, `10%`); the others are learnt from and counted as skipped, ' +
      'which the verdict says and, asked for, does not make inconclusive',
    defaultText: 'every exchange',
    whyNoVariable:
      'judging less than all of the traffic is chosen where the proxy or the judge is started, never inherited',
    example: '10%',
  } satisfies FlagOnly,
  maxJudgeLag: {
    section: 'traffic',
    commands: ['proxy'],
    flag: { name: 'max-judge-lag', placeholder: 'SECONDS' },
    parse: lagSeconds,
    summary:
      'an exchange the judge would reach later than this after it happened is skipped (counted and said, not ' +
      'inconclusive), instead of holding new requests back until the judge catches up',
    defaultText: 'none: the proxy holds new exchanges back until the judge catches up',
    whyNoVariable: 'judging less than all of the traffic is chosen where the proxy is started, never inherited',
    example: '5',
  } satisfies FlagOnly,
  failOnClient: {
    section: 'traffic',
    commands: ['proxy', 'judge'],
    flag: { name: 'fail-on-client' },
    summary: "a client finding (a request of the client's outside the reference) is exit 1",
    whyNoVariable:
      "the suite's own runs make deliberately invalid requests: a variable left set would fail a proxied run of " +
      'the suite on them',
  } satisfies FlagOnly,

  // The standalone mock (collect-conformance mock): the suite's runs start the embedded mock without these.
  mockPort: {
    section: 'mock',
    commands: ['mock'],
    flag: { name: 'port', placeholder: 'N' },
    parse: port,
    summary: 'port to listen on',
    defaultText: '4010',
    whyNoVariable: 'the standalone mock only: the suite starts its embedded mock on a free port',
    example: '0',
  } satisfies FlagOnly,
  mockHost: {
    section: 'mock',
    commands: ['mock'],
    flag: { name: 'host', placeholder: 'H' },
    summary: 'address to listen on',
    defaultText: '`127.0.0.1`',
    whyNoVariable: 'the standalone mock only: the embedded mock listens on 127.0.0.1',
    example: '127.0.0.1',
  } satisfies FlagOnly,
  mutant: {
    section: 'mock',
    commands: ['mock'],
    flag: { name: 'mutant', placeholder: 'NAME' },
    summary:
      'serve a contract mutant or a conforming variant instead of the reference behaviour ' +
      '(`npx tsx lab/mutation.ts --list` lists them)',
    meaning:
      'Serve a contract mutant or a conforming variant instead of the reference behaviour ' +
      '([mutation](../explanations/mutation.md); `npx tsx lab/mutation.ts --list` lists them)',
    whyNoVariable: 'a mock serving a mutant is asked for by name, where it is started',
    example: 'getBalance.amount.integer-to-string',
  } satisfies FlagOnly,
  faults: {
    section: 'mock',
    commands: ['mock'],
    flag: { name: 'faults', placeholder: 'SPEC' },
    summary: 'inject transport faults',
    meaning: 'Inject transport faults ([the mock](mock.md#transport-faults))',
    whyNoVariable: 'faults are asked for where the mock is started, never inherited by a run',
    example: 'reset=0.01',
  } satisfies FlagOnly,
  storeCap: {
    section: 'mock',
    commands: ['mock'],
    flag: { name: 'store-cap', placeholder: 'N' },
    parse: positiveCount,
    summary: 'records per collection before the oldest are evicted',
    meaning: 'Records per collection before the oldest are evicted ([memory](mock.md#memory))',
    defaultText: '50000',
    whyNoVariable: 'the standalone mock only: the embedded mock keeps its default',
    example: '50000',
  } satisfies FlagOnly,

  // The rules catalogue (collect-conformance rules).
  json: {
    section: 'catalogue',
    commands: ['rules'],
    flag: { name: 'json' },
    summary: "the catalogue (or, with `--show`, the rule's page) as JSON, for tooling",
    whyNoVariable: 'a listing chooses its form where it is asked for',
  } satisfies FlagOnly,
  kind: {
    section: 'catalogue',
    commands: ['rules'],
    flag: { name: 'kind', placeholder: 'documented|inferred' },
    parse: oneOf(['documented', 'inferred'] as const),
    summary: 'list one kind only',
    whyNoVariable: 'a listing chooses its rules where it is asked for',
    example: 'documented',
  } satisfies FlagOnly,
  show: {
    section: 'catalogue',
    commands: ['rules'],
    flag: { name: 'show', placeholder: 'RULE-ID' },
    summary:
      "one rule: its sentence, the reference's words, input class and what `--strict` makes of it, its tests " +
      "(file and line, from Playwright's listing: no target needed), input cases, mutants, conforming variants, gap " +
      'rows and operation roles; an unknown id exits 2',
    whyNoVariable: 'one rule is asked for by its id, where it is asked for',
    example: 'TXN-CREATE-2XX',
  } satisfies FlagOnly,

  // Merging the shards' reports (npm run report:merge).
  blobs: {
    section: 'sharding',
    commands: ['merge'],
    flag: { name: 'blobs', placeholder: 'DIR' },
    summary: "the shards' blob reports, merged into one HTML report, one JUnit file, the matrix and the coverage",
    defaultText: '`all-blob-reports`',
    whyNoVariable: 'the folder the CI job downloaded the artifacts to, named where the merge is started',
    example: 'all-blob-reports',
  } satisfies FlagOnly,
  allure: {
    section: 'sharding',
    commands: ['merge'],
    flag: { name: 'allure', placeholder: 'DIR' },
    summary: 'one folder of Allure results per shard, merged into one `<output dir>/allure-results/`',
    defaultText: '`all-allure-results`',
    whyNoVariable: 'the folder the CI job downloaded the artifacts to, named where the merge is started',
    example: 'all-allure-results',
  } satisfies FlagOnly,
  allureReport: {
    section: 'sharding',
    commands: ['merge'],
    flag: { name: 'allure-report', placeholder: 'yes|no' },
    parse: yesNo,
    summary: '`no` merges without building the Allure report',
    defaultText: '`yes`',
    whyNoVariable: 'whether this merge builds the report is said where it is started',
    example: 'no',
  } satisfies FlagOnly,
};

/** The tolerance of the target's clock (TIME-NOW), in seconds, for the checks that are not given the configuration. */
export const defaultClockToleranceSeconds = settings.clockToleranceSeconds.default;

/** The table's rows in their order. */
export const tableRows: readonly TableRow[] = Object.values(settings);

/** The commands that take a row's flag. */
export const commandsOf = (row: TableRow): readonly CommandName[] => row.commands ?? ['run'];

/** The rows of a command's flags: its own first, then those it shares with the run, each in the table's order. */
export const rowsOf = (command: CommandName): readonly TableRow[] => {
  const rows = tableRows.filter((row) => commandsOf(row).includes(command));
  if (command === 'run') return rows;
  const shared = (row: TableRow): boolean => commandsOf(row).includes('run');
  return [...rows.filter((row) => !shared(row)), ...rows.filter(shared)];
};

/** What a row's flag says to a command. */
export const summaryOf = (row: TableRow, command: CommandName): string => row.summaryFor?.[command] ?? row.summary;

/** The settings that have a variable. */
export const variableSettings: readonly AnySetting[] = tableRows.filter(
  (row): row is AnySetting => row.variable !== undefined,
);

export function isSetting(row: TableRow): row is AnySetting {
  return row.variable !== undefined;
}

/** The flag that would carry a secret setting's value itself (--secret-key): refused, with the reason. */
export function valueFlagName(row: AnySetting): string {
  return row.variable.replace(/^PCS_/, '').toLowerCase().replace(/_/g, '-');
}
