/**
 * npm run independent: the suite against servers it did not write, on real stacks. Each server
 * in lab/independent-servers/ was written by a separate session that saw only the API reference
 * (Go's standard library, FastAPI with pydantic 1 and Flask from Debian, Python's standard library,
 * plain PHP with SQLite, Express with zod, Fastify with its JSON schemas, Node's http), making its
 * stack's own choices where the reference is silent; their READMEs list those choices. They are not
 * part of the package.
 *
 * Each server seeds two accounts; the suite gets the second one's key and balance, so the
 * cross-account checks run too.
 *
 * For each server: the default run must pass (exit 0: a failure there is a false positive of the
 * suite), unless the server keeps a defect its stack's defaults make (stackDefects: Fastify's coercion
 * charges an amount true as 1), when it must fail naming exactly that rule; the --strict run lists
 * what it would refuse (the rules it fails; neither outcome is an error); and each of the server's
 * planted defects (its DEFECT variable) must fail naming the rule it breaks, in a run of that rule's
 * tests. Prints one table and writes it to
 * ${PCS_OUTPUT_DIR:-reports}/independent/independent-servers.md; exits 1 when an expectation fails.
 *
 *   npx tsx lab/independent-servers.ts [--only go,python-fastapi,php,express-zod] [--skip-missing] [--quick]
 *                                      [--seeds N] [--jobs N]
 *
 * --seeds N adds N - 1 default runs per server, each with a random seed of its own (printed in the table), each of
 * which must pass: a false positive that one seed in five shows is still a false positive.
 *
 * --jobs N measures N servers side by side (default 2; each server's runs stay one after the other, and each
 * server's lines are printed when it ends, the table in the servers' order): a suite run waits on its server
 * (Rails, Django) as much as it computes.
 *
 * --quick runs the default run only (what CI gates on: no false positive on any stack), and does not
 * write docs/measured.
 *
 * --through SPEC puts each run behind lab/throttle-proxy.ts: the suite is given the
 * proxy's URL, and the proxy throttles or delays what it forwards to the server, as a gateway in front
 * of it would. SPEC is a comma-separated list of presets (bucket400: token bucket 400/s, burst 40,
 * Retry-After in seconds; sliding300-date: sliding window of 300 a second, Retry-After as an HTTP
 * date; fixed200-latency50: fixed window of 200 a second, 50 ms latency, X-RateLimit headers; slow50:
 * 50 ms latency alone) or one spec of the proxy's own (`bucket=100/10,latency=20`, see its header);
 * --through may be given more than once. Every run happens once per spec; the table names the spec
 * and gives, per run, the proxy's forwarded and refused requests, the run's wall time, and the
 * forwarded requests per second of that time against the rate the spec allows. Throttled runs are
 * written to ${PCS_OUTPUT_DIR:-reports}/independent/independent-servers-throttled.md and never to
 * docs/measured: their figures depend on the spec chosen and are not the servers' own.
 *
 * Needs Debian's golang-go, php8.2-cli with php8.2-sqlite3, python3-fastapi with python3-uvicorn,
 * python3-flask (.ci/run installs them); the Express and Fastify servers' packages come from their
 * own lockfiles (npm ci).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeMeasured } from './measured.ts';
import {
  allowedRate,
  parseThrottleSpec,
  startThrottleProxy,
  throttlePresets,
  ThrottleSpecError,
  type ThrottleStats,
} from './throttle-proxy.ts';

class UsageError extends Error {}

const root = fileURLToPath(new URL('../', import.meta.url));
const serversDir = join(root, 'lab', 'independent-servers');
const bin = join(root, 'bin', 'collect-conformance.mjs');
const pythonClient = join(root, 'lab', 'independent-clients', 'python', 'client.py');

interface Defect {
  /** The server's DEFECT value. */
  name: string;
  /** The tests that meet it (a --grep of rule tags). */
  grep: string;
  /** Rules of which at least one must fail. */
  rules: string[];
  /** Whether the independent client's traffic shows it (the proxy can only judge what a client sends). */
  shownByClient: boolean;
}

interface Stack {
  name: string;
  /** What must be installed, and the Debian package that installs it. */
  requires: { command: string[]; package: string };
  /** Builds or installs what the server needs; returns the command that starts it. */
  prepare(dir: string, scratch: string): string[];
  keys: { own: string; second: string };
  /**
   * Defects its stack's defaults make, which its author kept (the servers stay as written): every run must fail
   * naming exactly these rules, no more, as a planted defect must fail naming its own.
   */
  stackDefects?: { rules: string[]; why: string };
}

/** The defects every server plants (the same four names, each written by the server's author). */
const defects: Defect[] = [
  { name: 'amount-plus-one', grep: '@TXN-CREATE-ECHO', rules: ['TXN-CREATE-ECHO'], shownByClient: true },
  {
    name: 'no-auth',
    grep: '@AUTH-',
    rules: ['AUTH-DELETE-401', 'AUTH-OTHERS-401', 'AUTH-KEY-EXACT'],
    shownByClient: true,
  },
  { name: 'delete-500', grep: '@CUSTOMER-DELETE', rules: ['CUSTOMER-DELETE-404'], shownByClient: true },
  {
    name: 'drop-callback-query',
    grep: '@TXN-CREATE-ECHO|@TXN-CREATE-OPEN-INPUT',
    rules: ['TXN-CREATE-ECHO', 'TXN-CREATE-OPEN-INPUT'],
    // Its callback URLs carry no query.
    shownByClient: false,
  },
];

function run(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}: ${(result.stderr || result.stdout).trim()}`);
}

/** A server in Go's standard library: built into the scratch folder. */
function goStack(name: string, keyPart: string): Stack {
  return {
    name,
    requires: { command: ['go', 'version'], package: 'golang-go' },
    prepare: (dir, scratch) => {
      const binary = join(scratch, `${name}-server`);
      run('go', ['build', '-o', binary, '.'], dir);
      return [binary];
    },
    keys: { own: `sk_sandbox_independent_${keyPart}_0001`, second: `sk_sandbox_independent_${keyPart}_0002` },
  };
}

/** A server in plain Node (its own packages, if any, from its lockfile). */
function nodeStack(name: string, keyPart: string): Stack {
  return {
    name,
    requires: { command: ['node', '--version'], package: 'nodejs' },
    prepare: (dir) => {
      if (existsSync(join(dir, 'package-lock.json')) && !existsSync(join(dir, 'node_modules')))
        run('npm', ['ci', '--no-audit', '--no-fund'], dir);
      return [process.execPath, join(dir, 'server.js')];
    },
    keys: { own: `sk_sandbox_independent_${keyPart}_0001`, second: `sk_sandbox_independent_${keyPart}_0002` },
  };
}

/** A server in Python 3 (Debian's, where FastAPI and uvicorn are installed). */
function pythonStack(name: string, keyPart: string, modules: string, debianPackage: string): Stack {
  return {
    name,
    requires: { command: ['/usr/bin/python3', '-c', `import ${modules}`], package: debianPackage },
    prepare: (dir) => ['/usr/bin/python3', join(dir, 'server.py')],
    keys: { own: `sk_sandbox_independent_${keyPart}_0001`, second: `sk_sandbox_independent_${keyPart}_0002` },
  };
}

/** A server in plain PHP with SQLite, started by its run.sh (PHP's built-in server). */
function phpStack(name: string, keyPart: string): Stack {
  return {
    name,
    requires: { command: ['php', '-r', 'new PDO("sqlite::memory:");'], package: 'php8.2-cli php8.2-sqlite3' },
    prepare: (dir) => [join(dir, 'run.sh')],
    keys: { own: `sk_sandbox_independent_${keyPart}_0001`, second: `sk_sandbox_independent_${keyPart}_0002` },
  };
}

/** A server its run.sh starts (it builds what it needs itself), on a runtime the probe command checks. */
function scriptStack(name: string, keyPart: string, probe: string[], debianPackage: string): Stack {
  return {
    name,
    requires: { command: probe, package: debianPackage },
    prepare: (dir) => [join(dir, 'run.sh')],
    keys: { own: `sk_sandbox_independent_${keyPart}_0001`, second: `sk_sandbox_independent_${keyPart}_0002` },
  };
}

/** The servers, each written by its own session from the reference alone (its README says how it chose). */
const stacks: Stack[] = [
  goStack('go', 'go'),
  pythonStack('python-fastapi', 'py', 'fastapi, uvicorn', 'python3-fastapi python3-uvicorn'),
  phpStack('php', 'php'),
  nodeStack('express-zod', 'express'),
  goStack('go-alt', 'goalt'),
  nodeStack('node-http', 'nodehttp'),
  phpStack('php-laravel-style', 'phplv'),
  pythonStack('python-stdlib', 'pystd', 'json', 'python3'),
  pythonStack('flask', 'flask', 'flask', 'python3-flask'),
  {
    ...nodeStack('fastify-schemas', 'fastify'),
    stackDefects: {
      rules: ['TXN-CREATE-AMOUNT-EXACT'],
      why: "Fastify's default validation (ajv, coerceTypes 'array') charges an amount true as 1 and [1500] as 1500",
    },
  },
  scriptStack(
    'django-drf',
    'django',
    ['/usr/bin/python3', '-c', 'import django, rest_framework'],
    'python3-django python3-djangorestframework',
  ),
  scriptStack(
    'java-jackson',
    'java',
    ['sh', '-c', 'javac -version && test -f /usr/share/java/jackson-databind.jar'],
    'openjdk-17-jdk-headless libjackson2-databind-java',
  ),
  scriptStack('perl-mojolicious', 'perl', ['perl', '-MMojolicious', '-e', '1'], 'libmojolicious-perl'),
  scriptStack(
    'rails',
    'rails',
    ['ruby', '-e', 'require "rails"; require "sqlite3"; require "puma"'],
    'ruby-rails ruby-sqlite3 puma',
  ),
];

interface Options {
  only: string[];
  skipMissing: boolean;
  skipped: boolean;
  /** The default run only: no --strict run, no planted defects. */
  quick: boolean;
  /** The proxies each run goes through, one after the other (--through); empty: straight to the server. */
  through: Through[];
  /** Default runs per server, each with a seed of its own (--seeds): a false positive one seed in five shows counts. */
  seeds: number;
  /** Servers measured side by side (--jobs): most wait on their stack as much as they compute. */
  jobs: number;
}

interface Through {
  /** A preset's name, or the spec itself. */
  name: string;
  spec: string;
}

function parseThrough(value: string): Through[] {
  // A spec of the proxy's own has key=value pairs; anything else is a list of presets.
  const throughs = value.includes('=')
    ? [{ name: value, spec: value }]
    : value
        .split(',')
        .filter(Boolean)
        .map((name) => {
          const spec = throttlePresets[name];
          if (spec === undefined)
            throw new UsageError(
              `--through ${name}: a preset among ${Object.keys(throttlePresets).join(', ')}, or a spec key=value,...`,
            );
          return { name, spec };
        });
  if (throughs.length === 0) throw new UsageError('--through: name a preset or give a spec');
  for (const through of throughs) {
    try {
      parseThrottleSpec(through.spec);
    } catch (error) {
      if (error instanceof ThrottleSpecError) throw new UsageError(`--through: ${error.message}`);
      throw error;
    }
  }
  return throughs;
}

function parseArgs(argv: string[]): Options {
  const options: Options = {
    only: stacks.map((stack) => stack.name),
    skipMissing: false,
    skipped: false,
    quick: false,
    through: [],
    seeds: 1,
    jobs: 2,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--skip-missing') options.skipMissing = true;
    else if (arg === '--quick') options.quick = true;
    else if (arg === '--through') options.through.push(...parseThrough(argv[++i] ?? ''));
    else if (arg === '--seeds') {
      const count = Number(argv[++i]);
      if (!Number.isInteger(count) || count < 1 || count > 20) throw new UsageError('--seeds: a number from 1 to 20');
      options.seeds = count;
    } else if (arg === '--jobs') {
      const count = Number(argv[++i]);
      if (!Number.isInteger(count) || count < 1 || count > 8) throw new UsageError('--jobs: a number from 1 to 8');
      options.jobs = count;
    } else if (arg === '--only') {
      const names = (argv[++i] ?? '').split(',').filter(Boolean);
      const unknown = names.filter((name) => !stacks.some((stack) => stack.name === name));
      if (names.length === 0 || unknown.length > 0)
        throw new UsageError(`--only: name servers among ${stacks.map((stack) => stack.name).join(', ')}`);
      options.only = names;
    } else
      throw new UsageError(
        `unknown argument ${arg} (use --only NAMES, --skip-missing, --quick, --seeds N, --through SPEC, --jobs N)`,
      );
  }
  return options;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

interface RunningServer {
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * A server started on a free port. One that exits at once is started again on another port, twice at most: the
 * port was free when asked for, and another lane's process may have taken it before the server bound it.
 */
async function startServer(stack: Stack, command: string[], defect: string): Promise<RunningServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(stack, command, defect);
    } catch (error) {
      if (!(error instanceof ServerStartError) || !error.exited || attempt === 3) throw error;
    }
  }
}

async function startServerOnce(stack: Stack, command: string[], defect: string): Promise<RunningServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(command[0]!, command.slice(1), {
    cwd: join(serversDir, stack.name),
    env: {
      ...process.env,
      PORT: String(port),
      SECRET_KEY: stack.keys.own,
      SECOND_SECRET_KEY: stack.keys.second,
      DEFECT: defect,
      // The FastAPI server posts to callback URLs; tests talk to loopback only.
      CALLBACKS: 'off',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const baseUrl = `http://127.0.0.1:${port}/v1`;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise((done) => child.once('exit', done));
    try {
      process.kill(-child.pid, 'SIGTERM'); // the group: PHP's built-in server forks workers
    } catch {
      return;
    }
    await Promise.race([exited, new Promise((done) => setTimeout(done, 5000))]);
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  // Generous: a start compiles (javac) or boots a framework (Rails) on a machine busy with other stages, and the
  // start is not what is measured. A server that still does not answer is that stack's failed row, not the run's end.
  for (const started = Date.now(); Date.now() - started < startLimitMs; ) {
    if (child.exitCode !== null)
      throw new ServerStartError(`exited at start with code ${child.exitCode} (3 times)`, stderr, true);
    try {
      await fetch(`${baseUrl}/balances/1`, { signal: AbortSignal.timeout(1000) });
      return { baseUrl, stop };
    } catch {
      await new Promise((done) => setTimeout(done, 200));
    }
  }
  await stop();
  throw new ServerStartError(`did not answer on ${baseUrl} within ${startLimitMs / 1000} s`, stderr, false);
}

const startLimitMs = 120_000;

/** A server that exited or never answered at its start: what it printed is kept for the row's log. */
class ServerStartError extends Error {
  readonly stderr: string;
  /** It exited (worth another port), rather than running without answering. */
  readonly exited: boolean;
  constructor(message: string, stderr: string, exited: boolean) {
    super(message);
    this.stderr = stderr;
    this.exited = exited;
  }
}

interface SuiteRun {
  code: number;
  failedRules: string[];
  lenientRules: string[];
  seconds: number;
  /** What the command printed: the end of it is shown under a row that is not as expected. */
  log: string;
  /** The proxy's counts when the run went through one. */
  proxy?: ThrottleStats;
}

interface CoverageRule {
  id: string;
  verdict: string;
}

/** A run of the suite, through a proxy in front of the server when one is given (a proxy per run: its own counts). */
async function suite(
  server: RunningServer,
  keys: Stack['keys'],
  output: string,
  args: string[],
  through?: Through,
): Promise<SuiteRun> {
  if (through === undefined) return suiteRun(server.baseUrl, keys, output, args);
  const proxy = await startThrottleProxy(server.baseUrl, through.spec);
  try {
    const result = await suiteRun(proxy.url, keys, output, args);
    return { ...result, proxy: proxy.stats() };
  } finally {
    await proxy.close();
  }
}

function suiteRun(baseUrl: string, keys: Stack['keys'], output: string, args: string[]): Promise<SuiteRun> {
  return commandRun(['--base-url', baseUrl, ...keyFlags, '--output', output, ...args], keyEnv(keys), output);
}

/** The keys reach the command through variables of their own: never a PCS_* of the caller's. */
const keyFlags = ['--secret-key-env', 'INDEPENDENT_KEY', '--second-secret-key-env', 'INDEPENDENT_SECOND_KEY'];

function keyEnv(keys: Stack['keys']): NodeJS.ProcessEnv {
  return {
    INDEPENDENT_KEY: keys.own,
    // Every server seeds a second account with balance 2: the cross-account checks run too.
    INDEPENDENT_SECOND_KEY: keys.second,
    PCS_BALANCE_ID: '1',
    PCS_CURRENCY_ID: '1',
    PCS_SECOND_BALANCE_ID: '2',
  };
}

/**
 * The independent black-box client (lab/independent-clients/python, written from the reference alone) run
 * through `collect-conformance proxy` in front of the server: the traffic's verdict by the suite's rules.
 */
function clientRun(baseUrl: string, keys: Stack['keys'], output: string): Promise<SuiteRun> {
  const args = ['proxy', '--upstream', baseUrl, ...keyFlags, '--output', output, '--', 'python3', pythonClient];
  return commandRun(
    args,
    {
      ...keyEnv(keys),
      API_KEY: keys.own,
      SECOND_API_KEY: keys.second,
      BALANCE_ID: '1',
      CURRENCY_ID: '1',
      SECOND_BALANCE_ID: '2',
    },
    output,
  );
}

function commandRun(args: string[], env: NodeJS.ProcessEnv, output: string): Promise<SuiteRun> {
  rmSync(output, { recursive: true, force: true });
  const started = Date.now();
  const { PCS_BASE_URL: _base, PCS_SECRET_KEY: _key, PCS_STRICT: _strict, ...inherited } = process.env;
  return new Promise((done) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: root,
      env: { ...inherited, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.once('exit', (code) => {
      mkdirSync(output, { recursive: true });
      writeFileSync(join(output, 'console.log'), log);
      const coverageFile = join(output, 'rule-coverage.json');
      const rules: CoverageRule[] = existsSync(coverageFile)
        ? (JSON.parse(readFileSync(coverageFile, 'utf8')) as { rules: CoverageRule[] }).rules
        : [];
      done({
        code: code ?? -1,
        failedRules: rules.filter((rule) => rule.verdict === 'fail').map((rule) => rule.id),
        lenientRules: rules.filter((rule) => rule.verdict === 'lenient').map((rule) => rule.id),
        seconds: (Date.now() - started) / 1000,
        log,
      });
    });
  });
}

interface Row {
  server: string;
  /** The proxy spec the run went through, and what the proxy counted. */
  through?: string;
  proxy?: string;
  run: string;
  expected: string;
  outcome: string;
  ok: boolean;
  /** The run's console output, printed (its end) when the row is not as expected. */
  log: string;
}

/** What the proxy did in a run, for the table: counts, wall time, achieved rate against the allowed one. */
function proxyCell(run: SuiteRun, through: Through): string {
  if (run.proxy === undefined) return '';
  const { forwarded, refused, upstreamErrors } = run.proxy;
  const allowed = allowedRate(parseThrottleSpec(through.spec));
  const achieved = run.seconds > 0 ? forwarded / run.seconds : 0;
  return (
    `${forwarded} forwarded, ${refused} refused` +
    (upstreamErrors > 0 ? `, ${upstreamErrors} upstream errors` : '') +
    `; ${run.seconds.toFixed(1)} s; ${achieved.toFixed(0)}/s of ${allowed === null ? 'unlimited' : `${allowed}/s`}`
  );
}

async function measureStack(
  stack: Stack,
  command: string[],
  outputRoot: string,
  quick: boolean,
  through?: Through,
  seeds = 1,
): Promise<Row[]> {
  const rows: Row[] = [];
  const proxyColumns = (run: SuiteRun): Pick<Row, 'through' | 'proxy'> =>
    through === undefined ? {} : { through: through.name, proxy: proxyCell(run, through) };
  const withServer = async <T>(defect: string, body: (server: RunningServer) => Promise<T>): Promise<T> => {
    const server = await startServer(stack, command, defect);
    try {
      return await body(server);
    } finally {
      await server.stop();
    }
  };
  // A run the stack's own defects fail must fail naming exactly them; any other run, pass.
  const own = stack.stackDefects?.rules ?? [];
  const expectedRun = own.length === 0 ? 'exit 0' : `exit 1 naming only ${own.join(', ')} (${stack.stackDefects!.why})`;
  const asExpected = (run: SuiteRun): boolean =>
    own.length === 0 ? run.code === 0 : run.code === 1 && [...run.failedRules].sort().join() === [...own].sort().join();
  // Each spec's runs in their own folders (a spec of the proxy's own is made fit for a file name).
  const throughPart = through === undefined ? '' : `${through.name.replace(/[^A-Za-z0-9-]+/g, '_')}-`;
  const out = (name: string): string => join(outputRoot, `${stack.name}-${throughPart}${name}`);

  // Further default runs on seeds of their own: each must pass as the first does.
  for (let extra = 1; extra < seeds; extra++) {
    const seed = String(randomInt(1, 2 ** 31));
    const run = await withServer('', (server) =>
      suite(server, stack.keys, out(`default-seed-${seed}`), ['--reporter', 'dot', '--seed', seed], through),
    );
    rows.push({
      server: stack.name,
      ...proxyColumns(run),
      run: `default, seed ${seed}`,
      expected: expectedRun,
      outcome:
        `exit ${run.code} in ${run.seconds.toFixed(0)} s` +
        (run.failedRules.length > 0 ? `; failed: ${run.failedRules.join(', ')}` : ''),
      ok: asExpected(run),
      log: run.log,
    });
  }
  const conforming = await withServer('', async (server) => ({
    normal: await suite(server, stack.keys, out('default'), ['--reporter', 'dot'], through),
    strict: quick
      ? undefined
      : await suite(server, stack.keys, out('strict'), ['--reporter', 'dot', '--strict'], through),
    client: through === undefined ? await clientRun(server.baseUrl, stack.keys, out('client')) : undefined,
  }));
  const clientRow = (run: SuiteRun, name: string, expected: string, ok: boolean): Row => ({
    server: stack.name,
    run: name,
    expected,
    outcome: `exit ${run.code}; server findings: ${run.failedRules.join(', ') || 'none'}`,
    ok,
    log: run.log,
  });
  rows.push({
    server: stack.name,
    ...proxyColumns(conforming.normal),
    run: 'default',
    expected: expectedRun,
    outcome:
      `exit ${conforming.normal.code} in ${conforming.normal.seconds.toFixed(0)} s` +
      (conforming.normal.failedRules.length > 0 ? `; failed: ${conforming.normal.failedRules.join(', ')}` : '') +
      (conforming.normal.lenientRules.length > 0 ? `; lenient: ${conforming.normal.lenientRules.join(', ')}` : ''),
    ok: asExpected(conforming.normal),
    log: conforming.normal.log,
  });
  const clientExpected = own.length === 0 ? 'exit 0, no server finding' : `${expectedRun}, as server findings`;
  if (conforming.client !== undefined)
    rows.push(
      clientRow(
        conforming.client,
        'client through the proxy',
        clientExpected,
        asExpected(conforming.client) && (own.length > 0 || conforming.client.failedRules.length === 0),
      ),
    );
  if (conforming.strict === undefined) return rows;
  rows.push({
    server: stack.name,
    ...proxyColumns(conforming.strict),
    run: '--strict',
    expected: 'what --strict refuses (exit 0 or 1)',
    outcome:
      `exit ${conforming.strict.code}` +
      (conforming.strict.failedRules.length > 0 ? `; refuses: ${conforming.strict.failedRules.join(', ')}` : ''),
    ok: conforming.strict.code === 0 || conforming.strict.code === 1,
    log: conforming.strict.log,
  });
  for (const defect of defects) {
    const result = await withServer(defect.name, (server) =>
      suite(server, stack.keys, out(`defect-${defect.name}`), ['--reporter', 'dot', '--grep', defect.grep], through),
    );
    const named = result.failedRules.filter((rule) => defect.rules.includes(rule));
    rows.push({
      server: stack.name,
      ...proxyColumns(result),
      run: `DEFECT=${defect.name}`,
      expected: `exit 1 naming ${defect.rules.join(' or ')}`,
      outcome: `exit ${result.code}; failed: ${result.failedRules.join(', ') || 'none'}`,
      ok: result.code === 1 && named.length > 0,
      log: result.log,
    });
    if (through !== undefined) continue;
    const client = await withServer(defect.name, (server) =>
      clientRun(server.baseUrl, stack.keys, out(`client-defect-${defect.name}`)),
    );
    rows.push(
      defect.shownByClient
        ? clientRow(
            client,
            `client through the proxy, DEFECT=${defect.name}`,
            `exit 1 naming ${defect.rules.join(' or ')}`,
            client.code === 1 && client.failedRules.some((rule) => defect.rules.includes(rule)),
          )
        : clientRow(
            client,
            `client through the proxy, DEFECT=${defect.name}`,
            `${own.length === 0 ? 'exit 0' : expectedRun}: the client’s traffic does not show it`,
            asExpected(client),
          ),
    );
  }
  return rows;
}

/**
 * The end of a run's console output, indented under its row: where a run went wrong (the failed tests with their
 * rule, pointer, expected and actual values, seed and curl line) is then in the log CI keeps, not only in a
 * folder CI throws away.
 */
function logTail(log: string, count = 40): string[] {
  if (log.trim() === '') return [];
  const lines = log.trimEnd().split('\n');
  const shown = lines.slice(-count).map((line) => `      │ ${line}`);
  return lines.length > count ? [`      │ … (${lines.length - count} earlier lines)`, ...shown] : shown;
}

function table(rows: Row[]): string {
  const throttled = rows.some((row) => row.through !== undefined);
  const through = (row: Row): string => (throttled ? ` \`${row.through ?? 'direct'}\` |` : '');
  const proxy = (row: Row): string => (throttled ? ` ${row.proxy ?? ''} |` : '');
  const lines = [
    throttled
      ? '| Server | Through | Run | Expected | Outcome | ' +
        'Proxy: forwarded, refused; wall time; achieved of allowed rate | |'
      : '| Server | Run | Expected | Outcome | |',
    throttled ? '|---|---|---|---|---|---|---|' : '|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.server} |${through(row)} ${row.run} | ${row.expected} | ${row.outcome} |${proxy(row)} ` +
        `${row.ok ? '✅' : '❌'} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const outputRoot = resolve(process.env.PCS_OUTPUT_DIR?.trim() || 'reports', 'independent');
  const scratch = join(outputRoot, '.build');
  mkdirSync(scratch, { recursive: true });
  // Every server's build first (compilers run one at a time, and a build blocks nothing that is measured), then
  // the servers' runs, options.jobs at a time.
  const prepared: Array<{ stack: Stack; command: string[] }> = [];
  for (const stack of stacks.filter((candidate) => options.only.includes(candidate.name))) {
    const [probeCommand, ...probeArgs] = stack.requires.command;
    const probe = spawnSync(probeCommand!, probeArgs, { stdio: 'ignore' });
    if (probe.status !== 0) {
      const line = `${stack.name}: not installed (apt-get install ${stack.requires.package})`;
      if (!options.skipMissing) throw new UsageError(`${line}; --skip-missing skips it`);
      process.stdout.write(`independent: ${line}: skipped\n`);
      options.skipped = true;
      continue;
    }
    prepared.push({ stack, command: stack.prepare(join(serversDir, stack.name), scratch) });
  }
  const measured = new Array<Row[]>(prepared.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < prepared.length; index = next++) {
      const { stack, command } = prepared[index]!;
      const stackRows: Row[] = [];
      const lines: string[] = [];
      for (const through of options.through.length > 0 ? options.through : [undefined]) {
        const via = through === undefined ? '' : ` through ${through.name} (${through.spec})`;
        const rowsOfSpec = await measureStack(stack, command, outputRoot, options.quick, through, options.seeds).catch(
          (error: unknown): Row[] => {
            if (!(error instanceof ServerStartError)) throw error;
            return [
              {
                server: stack.name,
                run: 'start',
                expected: 'a server that answers',
                outcome: error.message,
                ok: false,
                log: error.stderr,
              },
            ];
          },
        );
        lines.push(`independent: ${stack.name}${via}:`);
        for (const row of rowsOfSpec) {
          lines.push(
            `  ${row.ok ? '✅' : '❌'} ${row.run}: ${row.outcome} (expected ${row.expected})` +
              (row.proxy ? `; proxy: ${row.proxy}` : ''),
          );
          if (!row.ok) lines.push(...logTail(row.log));
        }
        stackRows.push(...rowsOfSpec);
      }
      process.stdout.write(`${lines.join('\n')}\n`);
      measured[index] = stackRows;
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.jobs, prepared.length) }, worker));
  const rows = measured.flat();
  const throttled = options.through.length > 0;
  const body = [
    'Each server in `lab/independent-servers/` was written from the API reference alone, on its stack, by a ' +
      'session that saw nothing of this suite; its README lists the choices it made where the reference is silent. ' +
      'The default run must pass; `--strict` lists what it would refuse; each planted defect (`DEFECT`) must fail ' +
      "naming its rule, in a run of that rule's tests.",
    ...(throttled
      ? [
          '',
          'Each run went through `lab/throttle-proxy.ts` with the spec named (presets: ' +
            Object.entries(throttlePresets)
              .map(([name, spec]) => `\`${name}\` = \`${spec}\``)
              .join(', ') +
            "). Achieved rate: requests the proxy forwarded per second of the run's wall time.",
        ]
      : []),
    '',
    table(rows),
  ];
  const tableFile = join(outputRoot, throttled ? 'independent-servers-throttled.md' : 'independent-servers.md');
  writeFileSync(tableFile, `${body.join('\n')}\n`);
  const complete = options.only.length === stacks.length && rows.length > 0 && !options.quick;
  if (throttled) process.stdout.write('independent: docs/measured not written: runs through a throttling proxy\n');
  else if (complete && !options.skipped)
    process.stdout.write(`independent: wrote ${writeMeasured({ name: 'independent-servers', body })}\n`);
  else process.stdout.write('independent: docs/measured/independent-servers.md not written: a partial run\n');
  rmSync(scratch, { recursive: true, force: true });
  const failed = rows.filter((row) => !row.ok);
  process.stdout.write(
    `independent: ${rows.length - failed.length}/${rows.length} as expected; ` + `table in ${tableFile}\n`,
  );
  return failed.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`independent: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
