/**
 * npm run mutation: runs the conformance suite against every contract mutant of the reference
 * mock (mock/mutants/) and every conforming variant, and writes the mutation score to
 * ${PCS_OUTPUT_DIR:-reports}/mutation.md and mutation.json.
 *
 * One mock process serves every behaviour (chosen per request by the x-pcs-mutant header) and
 * Playwright runs on both cores (lab/mutation.playwright.config.ts). The suite runs in its two
 * modes, each a Playwright run of its own (PCS_STRICT is read per process):
 * 1. the whole suite against the reference, by default and with --strict: every test must pass,
 *    and each test's status annotations tell which operations it calls;
 * 2. by default: each mutant against the tests tagged with the rule it breaks (among those calling
 *    an operation it changes), packed into batch projects, and each variant against every test
 *    calling an operation it changes; with --strict: each mutant the same way, and each lenient
 *    variant (it conforms by default) against the tests of the rule --strict must name;
 * 3. in each mode, what step 2 did not kill against every test that calls one of its operations (a
 *    test that never calls an operation cannot observe a change to it).
 * Exit code 1 when a non-equivalent mutant survives either mode, a lenient variant survives
 * --strict, a variant fails by default (a false positive of the suite), or the suite fails
 * against the reference; 2 for a wrong argument.
 *
 *   npx tsx lab/mutation.ts [--only REGEX] [--workers N] [--list]
 *
 * PCS_RUNS (default here 10) sets the cases per property test for the run.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockServer, type RunningMock } from '../mock/server.ts';
import {
  isLenient,
  mutants as allMutants,
  perRequestMutant,
  variants as allVariants,
  type Behaviour,
} from '../mock/mutants/index.ts';
import type { MutationPlan, MutationPlanProject } from './mutation.playwright.config.ts';
import { readReport, type TestOutcome } from './mutation/playwright-json.ts';
import { computeScore, renderMarkdown, widerStageSuffix } from './mutation/score.ts';
import { attribute, batches, coveringTests, ruleTests, type Assignment } from './mutation/plan.ts';
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
}

function parseArgs(argv: string[]): Options {
  const options: Options = { workers: 2, list: false, proxy: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new UsageError(`${arg} needs a value`);
      return next;
    };
    if (arg === '--list') options.list = true;
    else if (arg === '--proxy') options.proxy = true;
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
    } else throw new UsageError(`unknown argument ${arg} (use --only REGEX, --workers N, --list, --proxy)`);
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
function childEnv(mock: RunningMock, planFile: string, outputDir: string, mode: Mode): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (!name.startsWith('PCS_') && !name.startsWith('COLLECT_CONFORMANCE_')) env[name] = value;
  return {
    ...env,
    COLLECT_CONFORMANCE_MUTATION_PLAN: planFile,
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
      env: { ...env, COLLECT_CONFORMANCE_MUTATION_PLAN: planFile },
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
    report = readReport(plan.reportFile);
  } catch {
    throw new Error(
      `the ${label} Playwright run wrote no report (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' / ')}`,
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
  process.stdout.write(
    `mutation: ${counted.length} mutants (+${mutants.length - counted.length} equivalent, not run) ` +
      `and ${variants.length} conforming variants ` +
      `(${variants.filter(isLenient).length} lenient), both modes, ${options.workers} workers\n`,
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
  try {
    if (options.proxy) {
      const env = childEnv(mock, '', join(work, 'output-proxy-judge'), 'default');
      proxy = await startJudgingProxy(mock.sandboxBaseUrl, {
        ...trafficSettingsOf(env, new Map(), mock.sandboxBaseUrl).judge,
        credentialsRecorded: true,
        basePath: new URL(mock.sandboxBaseUrl).pathname,
      });
    }
    const proxyUrl = proxy?.url;
    const envOf = (mode: Mode): NodeJS.ProcessEnv => {
      const env = childEnv(mock, '', join(work, `output-${mode}`), mode);
      return proxyUrl === undefined ? env : { ...env, PCS_BASE_URL: proxyUrl };
    };
    const modes: readonly Mode[] = options.proxy ? ['default'] : ['default', 'strict'];
    const base = (label: string, projects: MutationPlanProject[]): MutationPlan => ({
      reportFile: join(work, `${label}.json`),
      outputDir: join(work, `${label}-output`),
      workers: options.workers,
      projects,
      // One registry per mode: a mutant killed by default is still to be killed with --strict.
      killRegistry: join(work, `killed-${label.endsWith('strict') ? 'strict' : 'default'}.txt`),
    });
    const lenient = variants.filter(isLenient);

    // 1. The reference in both modes: every test must pass; the default run records which operations each test calls.
    let referenceSeconds = 0;
    let covering: TestOutcome[] = [];
    for (const mode of modes) {
      const reference = await runPlaywright(
        base(`reference-${mode}`, [{ name: 'reference' }]),
        envOf(mode),
        work,
        `reference-${mode}`,
      );
      referenceSeconds += reference.seconds;
      const failures = reference.outcomes.filter((outcome) => outcome.status === 'failed');
      process.stdout.write(
        `mutation: reference run (${mode}): ${reference.outcomes.length} tests in ${reference.seconds.toFixed(1)} s\n`,
      );
      if (failures.length > 0) {
        for (const failure of failures) process.stderr.write(`  ${failure.id}: ${failure.message}\n`);
        throw new Error(
          `${failures.length} tests fail against the unmutated reference mock (${mode} mode); ` +
            `fix the suite or the mock first`,
        );
      }
      if (mode === 'default') covering = reference.outcomes.filter((outcome) => outcome.status === 'passed');
    }

    // 2. and 3., per mode.
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
      const firstAssignments: Assignment[] = [];
      let toWiden: Behaviour[] = [];
      for (const { behaviour, rule } of targets) {
        const tests = ruleTests({ ...behaviour, rule }, covering);
        if (tests.length === 0) toWiden.push(behaviour);
        else firstAssignments.push({ mutant: behaviour.name, tests });
      }
      const firstBatches = batches(firstAssignments, `${mode} mutants`);
      // By default every variant must pass the tests that can see it (those calling an operation it changes).
      const variantProjects: MutationPlanProject[] =
        mode === 'default'
          ? variants.map((variant) => {
              const tests = coveringTests(variant, covering);
              // No test calls its operations: nothing could see it (reported
              // as "no test ran"), and an empty grep would run everything.
              const grep = tests.length === 0 ? ['^$no test'] : tests.map((test) => test.grep);
              return { name: variant.name, behaviour: variant.name, ...(variant.operations === 'all' ? {} : { grep }) };
            })
          : [];
      const firstStage = [...firstBatches, ...variantProjects];
      const firstRun =
        firstStage.length > 0
          ? await runPlaywright(base(`rule-tests-${mode}`, firstStage), envOf(mode), work, `rule-tests-${mode}`)
          : { outcomes: [], seconds: 0 };
      ruleTestsSeconds += firstRun.seconds;
      const first = attribute(firstRun.outcomes, firstBatches, '');
      process.stdout.write(
        `mutation: ${mode}: ${firstAssignments.length} targets ` +
          `with their rule's tests (${firstBatches.length} batches)` +
          `${mode === 'default' ? ` and ${variants.length} variants` : ''}: ` +
          `${first.length} tests in ${firstRun.seconds.toFixed(1)} s\n`,
      );

      const killedFirst = new Set(
        first.filter((outcome) => outcome.status === 'failed').map((outcome) => outcome.project),
      );
      toWiden = [
        ...toWiden,
        ...targets
          .map((target) => target.behaviour)
          .filter((behaviour) => !killedFirst.has(behaviour.name) && !toWiden.includes(behaviour)),
      ];
      const secondAssignments: Assignment[] = [];
      for (const behaviour of toWiden) {
        const tests = coveringTests(behaviour, covering);
        if (tests.length > 0) secondAssignments.push({ mutant: behaviour.name, tests });
      }
      const secondBatches = batches(secondAssignments, `${mode} survivors`);
      const secondRun =
        secondBatches.length > 0
          ? await runPlaywright(
              base(`covering-tests-${mode}`, secondBatches),
              envOf(mode),
              work,
              `covering-tests-${mode}`,
            )
          : { outcomes: [], seconds: 0 };
      coveringTestsSeconds += secondRun.seconds;
      const second = attribute(secondRun.outcomes, secondBatches, widerStageSuffix);
      if (secondBatches.length > 0) {
        process.stdout.write(
          `mutation: ${mode}: ${secondAssignments.length} targets with every covering test: ` +
            `${second.length} tests in ${secondRun.seconds.toFixed(1)} s\n`,
        );
      }
      outcomes[mode] = [
        ...first,
        ...second,
        ...firstRun.outcomes.filter((outcome) => variantProjects.some((project) => project.name === outcome.project)),
      ];
    }

    const wallSeconds = (performance.now() - started) / 1000;
    if (proxy !== null)
      return reportProxyMode(proxyScore(mutants, variants, outcomes.default, proxy), wallSeconds, options, outputRoot);
    const score = computeScore(mutants, variants, outcomes, {
      wallSeconds,
      referenceSeconds,
      ruleTestsSeconds,
      coveringTestsSeconds,
    });
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
    process.stdout.write(`mutation: wrote ${join(outputRoot, 'mutation.md')} and mutation.json\n`);
    // The figures the docs link to; a subset (--only) would replace the whole catalogue's figures.
    if (options.only) process.stdout.write('mutation: docs/measured/mutation.md not written: a partial run (--only)\n');
    else {
      const runs = process.env.PCS_RUNS ?? '10';
      const body = mutationFigures(score, runs);
      const written = writeMeasured({ name: 'mutation', commandLine: commandLineOf('mutation'), body });
      process.stdout.write(`mutation: wrote ${written}\n`);
    }
    process.stdout.write(`mutation: wall time ${wallSeconds.toFixed(1)} s\n`);
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
