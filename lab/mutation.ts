/**
 * npm run mutation: runs the conformance suite against every contract mutant of the reference
 * mock (mock/mutants/) and every conforming variant, and writes the mutation score to
 * ${PCS_OUTPUT_DIR:-reports}/mutation.md and mutation.json.
 *
 * One mock process serves every behaviour (chosen per request by the x-pcs-mutant header) and
 * Playwright runs on both cores (lab/mutation.playwright.config.ts). The suite runs in its two
 * modes, each a Playwright run of its own (PCS_STRICT is read per process):
 * 1. the whole suite against the reference, by default: every test must pass, and each test's status
 *    annotations tell which operations it calls (with --strict, the reference is a project of step 2's run);
 * 2. by default: each mutant against the tests tagged with the rule it breaks (among those calling
 *    an operation it changes), packed into batch projects, its remaining tests skipped once one killed
 *    it; each variant against its impact map (the tests of the rules its choice tests, among those
 *    calling an operation it changes), and a seeded sample of the variants against every test calling
 *    an operation they change, which checks the maps (--full: every variant so); with --strict: each
 *    mutant the same way, and each lenient variant (it conforms by default) against the tests of the
 *    rule --strict must name;
 * 3. in each mode, what step 2 did not kill against every test that calls one of its operations (a
 *    test that never calls an operation cannot observe a change to it): the mutants' map is checked on
 *    every mutant it misses.
 * Exit code 1 when a non-equivalent mutant survives either mode, a lenient variant survives
 * --strict, a variant fails by default (a false positive of the suite), or the suite fails
 * against the reference; 2 for a wrong argument.
 *
 *   npx tsx lab/mutation.ts [--only REGEX] [--workers N] [--list] [--sample N] [--sample-seed S] [--full]
 *
 * PCS_RUNS (default here 10) sets the cases per property test for the run.
 */
import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockServer, type RunningMock } from '../mock/server.ts';
import {
  isLenient,
  mutants as allMutants,
  perRequestMutant,
  variants as allVariants,
  type Behaviour,
} from '../mock/mutants/index.ts';
import { planVariable, referenceName, type MutationPlan, type MutationPlanProject } from './mutation/plan-file.ts';
import { readOutcomes, type TestOutcome } from './mutation/outcomes.ts';
import { computeScore, renderMarkdown, widerStageSuffix } from './mutation/score.ts';
import {
  attribute,
  coveringTests,
  firstRuleTests,
  impactTests,
  layOut,
  mapGaps,
  ruleTests,
  wholeSample,
  type Assignment,
} from './mutation/plan.ts';
import { writeSuiteCopies } from './mutation/suite-copies.ts';
import { killersFile, killersOf, readKillers, writeKillers } from './mutation/killers.ts';
import { commandLineOf, mutationFigures, writeMeasured } from './measured.ts';
import {
  proxyFigures,
  proxyScore,
  startJudgingProxy,
  type JudgingProxy,
  type ProxyScore,
} from './mutation/proxy-mode.ts';
import { trafficSettingsOf } from '../cli/traffic-options.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const configFile = join(root, 'lab', 'mutation.playwright.config.ts');
const suiteDir = join(root, 'tests', 'conformance');
/** Where copies of the suite are written: a folder of the checkout (git-ignored), so that packages resolve. */
const copiesParent = join(root, '.work');
/** The whole run must stay under 5 minutes; a hung child is stopped well after that. */
const childTimeoutMs = 15 * 60_000;
/** The byte budget of the run's one mock: room for the records of every run of the suite it serves. */
const mutationStoreBytes = 512 * 1024 * 1024;

class UsageError extends Error {}

interface Options {
  only?: RegExp;
  workers: number;
  list: boolean;
  /** The suite's run as the client of the forwarding proxy, whose judge's verdicts are measured (default mode). */
  proxy: boolean;
  /** Variants run against every covering test, which checks their impact maps: a count, drawn by the seed. */
  sample: number;
  sampleSeed: number;
  /** Every variant against every covering test (no impact maps). */
  full: boolean;
}

/** Variants a run checks against every covering test: about one in ten, so each is checked every few runs. */
const defaultSample = 7;

function integerOf(flag: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}`);
  return n;
}

function parseArgs(argv: string[]): Options {
  const options: Options = {
    workers: 2,
    list: false,
    proxy: false,
    sample: defaultSample,
    sampleSeed: randomInt(1, 2 ** 31),
    full: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new UsageError(`${arg} needs a value`);
      return next;
    };
    if (arg === '--list') options.list = true;
    else if (arg === '--proxy') options.proxy = true;
    else if (arg === '--full') options.full = true;
    else if (arg === '--sample') options.sample = integerOf(arg, value(), 0, 1000);
    else if (arg === '--sample-seed') options.sampleSeed = integerOf(arg, value(), 1, 2 ** 31);
    else if (arg === '--only') {
      const source = value();
      try {
        options.only = new RegExp(source);
      } catch {
        throw new UsageError(`--only: not a regular expression: ${source}`);
      }
    } else if (arg === '--workers') {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1 || n > 16) throw new UsageError('--workers must be an integer from 1 to 16');
      options.workers = n;
    } else
      throw new UsageError(
        `unknown argument ${arg} (use --only REGEX, --workers N, --list, --proxy, --sample N, --sample-seed S, --full)`,
      );
  }
  return options;
}

/** What a behaviour is about: the rule a mutant breaks, or a variant's gap rows and the rules its choice tests. */
function aboutOf(behaviour: Behaviour): string {
  if (behaviour.kind === 'mutant') return behaviour.equivalent ? `${behaviour.rule} (equivalent)` : behaviour.rule;
  const lenient = behaviour.strictKills ? ` (lenient: --strict names ${behaviour.strictKills})` : '';
  return `variant of ${behaviour.gaps.join(', ')}; rules ${behaviour.rules.join(', ')}${lenient}`;
}

function listCatalogue(): void {
  for (const behaviour of [...allMutants(), ...allVariants()]) {
    process.stdout.write(`${behaviour.name}\t${aboutOf(behaviour)}\t${behaviour.description}\n`);
  }
}

type Mode = 'default' | 'strict';

/**
 * The environment of the Playwright run: the mock, the mode, and nothing
 * from the caller's PCS_* setup or an outer run's internal variables.
 */
function childEnv(mock: RunningMock, outputDir: string, mode: Mode): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (!name.startsWith('PCS_') && !name.startsWith('COLLECT_CONFORMANCE_')) env[name] = value;
  return {
    ...env,
    PCS_BASE_URL: mock.sandboxBaseUrl,
    PCS_SECRET_KEY: mock.sandboxKey,
    PCS_SECOND_SECRET_KEY: mock.secondSandboxKey,
    PCS_SECOND_BALANCE_ID: '11',
    PCS_ENVIRONMENT: 'sandbox',
    PCS_BALANCE_ID: '1',
    PCS_CURRENCY_ID: '1',
    PCS_CURRENCY_ISO: 'XOF',
    PCS_PAYMENT_MODE: 'mtn',
    COLLECT_CONFORMANCE_EMBEDDED_MOCK: '1',
    COLLECT_CONFORMANCE_EMBEDDED_LIVE_BASE_URL: mock.liveBaseUrl,
    COLLECT_CONFORMANCE_EMBEDDED_LIVE_KEY: mock.liveKey,
    PCS_OUTPUT_DIR: outputDir,
    PCS_STRICT: mode === 'strict' ? 'yes' : 'no',
    // Property tests run fewer cases per mutant, and a kill needs the
    // first failing case, not a minimal one; the caller may still choose.
    PCS_RUNS: process.env.PCS_RUNS ?? '10',
    PCS_SHRINK: process.env.PCS_SHRINK ?? 'no',
    ...(process.env.PCS_SEED ? { PCS_SEED: process.env.PCS_SEED } : {}),
    FORCE_COLOR: '0',
  };
}

async function runPlaywright(
  plan: MutationPlan,
  env: NodeJS.ProcessEnv,
  work: string,
  label: string,
): Promise<{ outcomes: TestOutcome[]; seconds: number }> {
  const planFile = join(work, `${label}-plan.json`);
  writeFileSync(planFile, JSON.stringify(plan));
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [join(root, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '-c', configFile],
    {
      cwd: root,
      env: { ...env, [planVariable]: planFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-4000)));
  child.stdout.resume();
  const timer = setTimeout(() => child.kill('SIGTERM'), childTimeoutMs);
  const code = await new Promise<number | null>((done) => child.on('close', done));
  clearTimeout(timer);
  const seconds = (performance.now() - started) / 1000;
  let report;
  try {
    report = readOutcomes(plan.reportFile);
  } catch (error) {
    throw new Error(
      `the ${label} Playwright run wrote no complete report (${(error as Error).message}; exit ${code}): ` +
        stderr.trim().split('\n').slice(-3).join(' / '),
    );
  }
  if (report.errors.length > 0) throw new Error(`the ${label} Playwright run failed: ${report.errors[0]}`);
  return { outcomes: report.outcomes, seconds };
}

/** The proxy mode's figures: printed, in the output directory, and (for the whole catalogue) in docs/measured. */
function reportProxyMode(score: ProxyScore, wallSeconds: number, options: Options, outputRoot: string): number {
  const figures = proxyFigures(score, wallSeconds);
  mkdirSync(outputRoot, { recursive: true });
  writeFileSync(join(outputRoot, 'mutation-proxy.md'), `# Mutants through the proxy\n\n${figures.join('\n')}`);
  process.stdout.write(
    `mutation --proxy: ${score.killedThroughProxy.length}/${score.killedByRun.length} mutants killed by the run ` +
      `are killed through the proxy; ${score.falsePositives.length} conforming behaviour(s) with a judge finding\n`,
  );
  for (const missed of score.missed)
    process.stdout.write(`  not through the proxy: ${missed.name} (${missed.rule}), ${missed.exchanges} exchanges\n`);
  for (const fp of score.falsePositives)
    process.stdout.write(`  FALSE POSITIVE of the judge: ${fp.name}: ${fp.finding}\n`);
  if (options.only) process.stdout.write('mutation --proxy: docs/measured not written: a partial run (--only)\n');
  else {
    const args = process.argv.slice(2).filter((arg) => arg !== '--proxy');
    const written = writeMeasured({
      name: 'mutation-proxy',
      commandLine: commandLineOf('mutation-proxy', args),
      body: figures,
    });
    process.stdout.write(`mutation --proxy: wrote ${written}\n`);
  }
  return score.falsePositives.length > 0 ? 1 : 0;
}

/** The first failures of a run against the unmutated reference: the suite or the mock is to be fixed first. */
function refuseReferenceFailures(outcomes: TestOutcome[], mode: Mode): void {
  const failures = outcomes.filter((outcome) => outcome.status === 'failed');
  if (failures.length === 0) return;
  for (const failure of failures) process.stderr.write(`  ${failure.id}: ${failure.message}\n`);
  throw new Error(
    `${failures.length} tests fail against the unmutated reference mock (${mode} mode); ` +
      'fix the suite or the mock first',
  );
}

/** A stage's wall time, printed at the end of the run. */
interface StageTime {
  stage: string;
  seconds: number;
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  if (options.list) {
    listCatalogue();
    return 0;
  }
  const started = performance.now();
  const outputRoot = resolve(process.env.PCS_OUTPUT_DIR ?? 'reports');
  const selected = (behaviour: Behaviour): boolean => !options.only || options.only.test(behaviour.name);
  const mutants = allMutants().filter(selected);
  const variants = allVariants().filter(selected);
  const counted = mutants.filter((mutant) => !mutant.equivalent);
  // The variants checked against every covering test this run; the others meet their impact maps.
  const whole = new Set(
    options.full
      ? variants.map((variant) => variant.name)
      : wholeSample(
          variants.map((variant) => variant.name),
          options.sample,
          options.sampleSeed,
        ),
  );
  process.stdout.write(
    `mutation: ${counted.length} mutants (+${mutants.length - counted.length} equivalent, not run) ` +
      `and ${variants.length} conforming variants ` +
      `(${variants.filter(isLenient).length} lenient), both modes, ${options.workers} workers\n` +
      (options.full
        ? 'mutation: --full: every variant against every test calling an operation it changes\n'
        : `mutation: variants against their impact maps; ${whole.size} against every covering test ` +
          `(sample seed ${options.sampleSeed}: --sample-seed ${options.sampleSeed} draws them again; --full, all)\n`),
  );

  const work = mkdtempSync(join(tmpdir(), 'pcs-mutation-'));
  // One mock keeps the records of every run of the suite (some 100 at PCS_RUNS=10, about 1.2 MB each): past the
  // default 64 MiB budget it evicts the oldest, and a customer created then evicts every older customer, which a
  // long sequence still holds (a false positive of the run, not of the suite).
  const mock = await startMockServer({
    port: 0,
    host: '127.0.0.1',
    mutant: perRequestMutant,
    storeBytes: mutationStoreBytes,
  });
  let proxy: JudgingProxy | null = null;
  const stages: StageTime[] = [];
  try {
    if (options.proxy) {
      const env = childEnv(mock, join(work, 'output-proxy-judge'), 'default');
      proxy = await startJudgingProxy(mock.sandboxBaseUrl, {
        ...trafficSettingsOf(env, new Map(), mock.sandboxBaseUrl).judge,
        credentialsRecorded: true,
        basePath: new URL(mock.sandboxBaseUrl).pathname,
      });
    }
    const proxyUrl = proxy?.url;
    const envOf = (mode: Mode): NodeJS.ProcessEnv => {
      const env = childEnv(mock, join(work, `output-${mode}`), mode);
      return proxyUrl === undefined ? env : { ...env, PCS_BASE_URL: proxyUrl };
    };
    const modes: readonly Mode[] = options.proxy ? ['default'] : ['default', 'strict'];
    const lenient = variants.filter(isLenient);
    const base = (label: string, projects: MutationPlanProject[], testDir = suiteDir): MutationPlan => ({
      testDir,
      reportFile: join(work, `${label}.json`),
      outputDir: join(work, `${label}-output`),
      workers: options.workers,
      projects,
      // One registry per mode: a mutant killed by default is still to be killed with --strict.
      killRegistry: join(work, `killed-${label.endsWith('strict') ? 'strict' : 'default'}.txt`),
      // Only a mutant's (or a lenient variant's, with --strict) remaining tests are skipped after a kill: a
      // variant runs every test of its own, so that each false positive is listed.
      killable: label.endsWith('strict') ? [...counted, ...lenient].map((b) => b.name) : counted.map((b) => b.name),
    });
    // 1. The reference by default: every test must pass, and the run records which operations each test calls.
    const reference = await runPlaywright(
      base('reference-default', [{ name: 'reference' }]),
      envOf('default'),
      work,
      'reference-default',
    );
    stages.push({ stage: 'reference (default)', seconds: reference.seconds });
    process.stdout.write(
      `mutation: reference run (default): ${reference.outcomes.length} tests in ${reference.seconds.toFixed(1)} s\n`,
    );
    refuseReferenceFailures(reference.outcomes, 'default');
    const covering = reference.outcomes.filter((outcome) => outcome.status === 'passed');
    const killedBefore = readKillers();

    // 2. and 3., per mode: each target meets the first test of its rule, then the rest of its rule's tests,
    // then every test calling an operation it changes, each stage with what the stages before did not kill.
    const outcomes: Record<Mode, TestOutcome[]> = { default: [], strict: [] };
    let ruleTestsSeconds = 0;
    let coveringTestsSeconds = 0;
    for (const mode of modes) {
      // --strict's targets: the mutants, and the lenient variants under the rule it must name.
      const targets: Array<{ behaviour: Behaviour; rule: string }> = counted.map((mutant) => ({
        behaviour: mutant,
        rule: mutant.rule,
      }));
      if (mode === 'strict')
        targets.push(...lenient.map((variant) => ({ behaviour: variant, rule: variant.strictKills })));
      const ruleAssignments: Assignment[] = targets
        .map(({ behaviour, rule }) => ({
          behaviour: behaviour.name,
          tests: ruleTests({ ...behaviour, rule }, covering),
        }))
        .filter((assignment) => assignment.tests.length > 0);
      // By default every variant must pass the tests that can see it: its impact map, or, for the sample, every
      // test calling an operation it changes. A variant no test meets is reported as "no test ran".
      const variantAssignments: Assignment[] =
        mode === 'default'
          ? variants.map((variant) => ({
              behaviour: variant.name,
              tests: whole.has(variant.name) ? coveringTests(variant, covering) : impactTests(variant, covering),
            }))
          : [];
      // With --strict the reference is one more behaviour of this run (a Playwright start saved): it must pass.
      const referenceAssignments: Assignment[] =
        mode === 'strict' ? [{ behaviour: referenceName, tests: reference.outcomes }] : [];
      const fixed = [...referenceAssignments, ...variantAssignments];
      const firstTests = firstRuleTests(ruleAssignments, fixed, killedBefore[mode], covering);
      const killed = new Set<string>();
      const ran: TestOutcome[] = [];
      const stage = async (label: string, assignments: Assignment[], suffix: string): Promise<TestOutcome[]> => {
        const laid = layOut(assignments, `${mode} ${label}`);
        if (laid.copies === 0) return [];
        const copies = writeSuiteCopies(suiteDir, copiesParent, laid.needs, laid.copies);
        let run: { outcomes: TestOutcome[]; seconds: number };
        try {
          const plan = base(`${label}-${mode}`, [laid.project], copies.testDir);
          run = await runPlaywright(plan, envOf(mode), work, `${label}-${mode}`);
        } finally {
          copies.remove();
        }
        const attributed = attribute(run.outcomes, [laid.project], suffix);
        for (const outcome of attributed)
          if (outcome.status === 'failed') killed.add(outcome.project.replace(suffix, ''));
        const executed = attributed.filter((outcome) => outcome.status !== 'skipped').length;
        stages.push({ stage: `${mode}: ${label}`, seconds: run.seconds });
        process.stdout.write(
          `mutation: ${mode}: ${label}: ${assignments.length} behaviours over ${laid.copies} copies of the suite: ` +
            `${executed} tests in ${run.seconds.toFixed(1)} s\n`,
        );
        return attributed;
      };
      const unkilled = (assignments: Assignment[]): Assignment[] =>
        assignments.filter((assignment) => !killed.has(assignment.behaviour));

      const first = await stage(
        mode === 'strict' ? 'reference and first rule tests' : 'first rule tests and variants',
        [...fixed, ...firstTests],
        '',
      );
      refuseReferenceFailures(
        first.filter((outcome) => outcome.project === referenceName),
        mode,
      );
      ran.push(...first.filter((outcome) => outcome.project !== referenceName));
      const restOfRule = unkilled(ruleAssignments).map(({ behaviour, tests }) => {
        const done = new Set(firstTests.find((pick) => pick.behaviour === behaviour)?.tests.map((t) => t.id));
        return { behaviour, tests: tests.filter((test) => !done.has(test.id)) };
      });
      ran.push(
        ...(await stage(
          'other rule tests',
          restOfRule.filter((a) => a.tests.length > 0),
          '',
        )),
      );
      ruleTestsSeconds += stages.filter((s) => s.stage.startsWith(`${mode}:`)).reduce((sum, s) => sum + s.seconds, 0);
      // What the rule's tests did not kill, against every test calling an operation it changes.
      const wider = targets
        .filter(({ behaviour }) => !killed.has(behaviour.name))
        .map(({ behaviour }) => ({ behaviour: behaviour.name, tests: coveringTests(behaviour, covering) }))
        .filter((assignment) => assignment.tests.length > 0);
      const before = stages.length;
      ran.push(...(await stage('covering tests', wider, widerStageSuffix)));
      coveringTestsSeconds += stages.slice(before).reduce((sum, s) => sum + s.seconds, 0);
      outcomes[mode] = ran;
    }

    const wallSeconds = (performance.now() - started) / 1000;
    if (proxy !== null)
      return reportProxyMode(proxyScore(mutants, variants, outcomes.default, proxy), wallSeconds, options, outputRoot);
    // A sampled variant that failed a test outside its map: the map missed that test (besides the false positive).
    const gaps = variants
      .filter((variant) => whole.has(variant.name))
      .flatMap((variant) => {
        const failed = outcomes.default.filter(
          (outcome) => outcome.project === variant.name && outcome.status === 'failed',
        );
        return mapGaps(variant, failed, covering).map((outcome) => ({
          variant: variant.name,
          test: `${outcome.file} › ${outcome.title}`,
        }));
      });
    const score = computeScore(
      mutants,
      variants,
      outcomes,
      { wallSeconds, referenceSeconds: reference.seconds, ruleTestsSeconds, coveringTestsSeconds },
      { full: options.full, sampleSeed: options.sampleSeed, wholeVariants: [...whole], mapGaps: gaps },
    );
    for (const survivor of [...score.survivors, ...score.strict.survivors]) {
      const operations = survivor.operations === 'all' ? null : survivor.operations;
      if (operations !== null && coveringTests({ operations } as Behaviour, covering).length === 0)
        survivor.description += ' (no test of the suite calls this operation)';
    }
    mkdirSync(outputRoot, { recursive: true });
    writeFileSync(join(outputRoot, 'mutation.json'), `${JSON.stringify(score, null, 2)}\n`);
    writeFileSync(join(outputRoot, 'mutation.md'), renderMarkdown(score));

    process.stdout.write(
      `mutation: default mode: score ${score.score.killed}/${score.score.total} (${score.score.percent} %), ` +
        `${score.equivalent.length} equivalent not counted, ` +
        `variants ${score.variants.length - score.falsePositives}/${score.variants.length} pass\n` +
        `mutation: --strict: ${score.strict.score.killed}/${score.strict.score.total} ` +
        `(${score.strict.score.percent} %) killed: ${score.strict.killed.length}/${score.score.total} mutants, ` +
        `${score.strict.lenientVariants.filter((v) => v.killed).length}/${score.strict.lenientVariants.length} ` +
        `lenient variants; ${score.testsExecuted} test executions\n`,
    );
    for (const survivor of score.survivors)
      process.stdout.write(
        `  SURVIVED (default) ${survivor.name} (breaks ${survivor.rule}): ${survivor.description}\n`,
      );
    for (const survivor of score.strict.survivors)
      process.stdout.write(`  SURVIVED (--strict) ${survivor.name} (${survivor.rule}): ${survivor.description}\n`);
    for (const variant of score.variants.filter((v) => !v.passed)) {
      process.stdout.write(
        `  FALSE POSITIVE on ${variant.name}: ` +
          `${variant.failures.map((f) => `${f.test}: ${f.message.slice(0, 140)}`).join('; ') || 'no test ran'}\n`,
      );
    }
    for (const gap of gaps)
      process.stdout.write(
        `  MAP GAP: ${gap.variant} failed ${gap.test}, outside its impact map: ` +
          "its rules should name one of that test's\n",
      );
    process.stdout.write(`mutation: wrote ${join(outputRoot, 'mutation.md')} and mutation.json\n`);
    // The figures the docs link to; a subset (--only) would replace the whole catalogue's figures.
    if (options.only) process.stdout.write('mutation: docs/measured/mutation.md not written: a partial run (--only)\n');
    else {
      const runs = process.env.PCS_RUNS ?? '10';
      const body = mutationFigures(score, runs);
      const written = writeMeasured({ name: 'mutation', commandLine: commandLineOf('mutation'), body });
      writeKillers(killersOf(score));
      process.stdout.write(`mutation: wrote ${written} and ${relative(root, killersFile)}\n`);
    }
    return score.survivors.length > 0 || score.strict.survivors.length > 0 || score.falsePositives > 0 ? 1 : 0;
  } finally {
    await proxy?.close();
    await mock.close();
    // A worker still writing when its run ended must not hide the run's own outcome.
    try {
      rmSync(work, { recursive: true, force: true, maxRetries: 3, retryDelay: 200 });
    } catch (error) {
      process.stderr.write(`mutation: could not remove ${work}: ${(error as Error).message.split('\n')[0]}\n`);
    }
    const total = (performance.now() - started) / 1000;
    process.stdout.write(
      `mutation: stages: ${stages.map(({ stage, seconds }) => `${stage} ${seconds.toFixed(1)} s`).join('; ')}; ` +
        `wall time ${total.toFixed(1)} s\n`,
    );
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`mutation: ${message.split('\n')[0]}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
