/**
 * npm run mutation: runs the conformance suite against every contract mutant of the reference
 * mock (mock/mutants.ts) and every conforming variant, and writes the mutation score to
 * ${PCS_OUTPUT_DIR:-reports}/mutation.md and mutation.json.
 *
 * One mock process serves every behaviour (chosen per request by the x-pcs-mutant header) and
 * Playwright runs on both cores (tools/mutation.playwright.config.ts):
 * 1. the whole suite against the reference: every test must pass, and each test's status
 *    annotations tell which operations it calls;
 * 2. each mutant against the tests tagged with the rule it breaks (among those calling an
 *    operation it changes), packed into batch projects; each variant against the whole suite;
 * 3. each mutant step 2 did not kill against every test that calls one of its operations (a test
 *    that never calls an operation cannot observe a change to it).
 * Exit code 1 when a non-equivalent mutant survives, a variant fails (a false positive of the
 * suite), or the suite fails against the reference; 2 for a wrong argument.
 *
 *   npx tsx tools/mutation.ts [--only REGEX] [--workers N] [--list]
 *
 * PCS_RUNS (default here 10) sets the cases per property test for the run.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockServer, type RunningMock } from '../mock/server.ts';
import { mutants as allMutants, perRequestMutant, variants as allVariants, type Behaviour } from '../mock/mutants.ts';
import type { MutationPlan, MutationPlanProject } from './mutation.playwright.config.ts';
import { readReport, type TestOutcome } from './mutation/playwright-json.ts';
import { computeScore, renderMarkdown, widerStageSuffix } from './mutation/score.ts';
import { attribute, batches, coveringTests, ruleTests, type Assignment } from './mutation/plan.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const configFile = join(root, 'tools', 'mutation.playwright.config.ts');
/** The whole run must stay under 5 minutes; a hung child is stopped well after that. */
const childTimeoutMs = 15 * 60_000;

class UsageError extends Error {}

interface Options {
  only?: RegExp;
  workers: number;
  list: boolean;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { workers: 2, list: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new UsageError(`${arg} needs a value`);
      return next;
    };
    if (arg === '--list') options.list = true;
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
    } else throw new UsageError(`unknown argument ${arg} (use --only REGEX, --workers N, --list)`);
  }
  return options;
}

function listCatalogue(): void {
  for (const behaviour of [...allMutants(), ...allVariants()]) {
    const tail = behaviour.kind === 'variant' ? 'variant' : behaviour.equivalent ? `${behaviour.rule} (equivalent)` : behaviour.rule;
    process.stdout.write(`${behaviour.name}\t${tail}\t${behaviour.description}\n`);
  }
}

/** The environment of the Playwright run: the mock, and nothing from the caller's PCS_* setup. */
function childEnv(mock: RunningMock, planFile: string, outputDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('PCS_')) env[name] = value;
  return {
    ...env,
    PCS_MUTATION_PLAN: planFile,
    PCS_BASE_URL: mock.sandboxBaseUrl,
    PCS_SECRET_KEY: mock.sandboxKey,
    PCS_ENVIRONMENT: 'sandbox',
    PCS_BALANCE_ID: '1',
    PCS_CURRENCY_ID: '1',
    PCS_CURRENCY_ISO: 'XOF',
    PCS_PAYMENT_MODE: 'mtn',
    PCS_EMBEDDED_MOCK: '1',
    PCS_EMBEDDED_LIVE_BASE_URL: mock.liveBaseUrl,
    PCS_EMBEDDED_LIVE_KEY: mock.liveKey,
    PCS_OUTPUT_DIR: outputDir,
    // Property tests run fewer cases per mutant; the caller may still choose.
    PCS_RUNS: process.env.PCS_RUNS ?? '10',
    ...(process.env.PCS_SEED ? { PCS_SEED: process.env.PCS_SEED } : {}),
    FORCE_COLOR: '0',
  };
}

async function runPlaywright(plan: MutationPlan, env: NodeJS.ProcessEnv, work: string, label: string): Promise<{ outcomes: TestOutcome[]; seconds: number }> {
  const planFile = join(work, `${label}-plan.json`);
  writeFileSync(planFile, JSON.stringify(plan));
  const started = performance.now();
  const child = spawn(process.execPath, [join(root, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '-c', configFile], {
    cwd: root,
    env: { ...env, PCS_MUTATION_PLAN: planFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
    throw new Error(`the ${label} Playwright run wrote no report (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' / ')}`);
  }
  if (report.errors.length > 0) throw new Error(`the ${label} Playwright run failed: ${report.errors[0]}`);
  return { outcomes: report.outcomes, seconds };
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
    `mutation: ${counted.length} mutants (+${mutants.length - counted.length} equivalent, not run) and ${variants.length} conforming variants, ${options.workers} workers\n`,
  );

  const work = mkdtempSync(join(tmpdir(), 'pcs-mutation-'));
  const mock = await startMockServer({ port: 0, host: '127.0.0.1', mutant: perRequestMutant });
  try {
    const env = childEnv(mock, '', join(work, 'output'));
    const base = (label: string, projects: MutationPlanProject[]): MutationPlan => ({
      reportFile: join(work, `${label}.json`),
      outputDir: join(work, `${label}-output`),
      workers: options.workers,
      projects,
    });

    // 1. The reference: every test must pass; it also records which operations each test calls.
    const reference = await runPlaywright(base('reference', [{ name: 'reference' }]), env, work, 'reference');
    const referenceFailures = reference.outcomes.filter((outcome) => outcome.status === 'failed');
    process.stdout.write(`mutation: reference run: ${reference.outcomes.length} tests in ${reference.seconds.toFixed(1)} s\n`);
    if (referenceFailures.length > 0) {
      for (const failure of referenceFailures) process.stderr.write(`  ${failure.id}: ${failure.message}\n`);
      throw new Error(`${referenceFailures.length} tests fail against the unmutated reference mock; fix the suite or the mock first`);
    }
    const covering = reference.outcomes.filter((outcome) => outcome.status === 'passed');

    // 2. Every mutant with the tests of the rule it breaks (in batches), and every variant with
    // the whole suite, in one run.
    const firstAssignments: Assignment[] = [];
    let toWiden: Behaviour[] = [];
    for (const mutant of counted) {
      const tests = ruleTests(mutant, covering);
      if (tests.length === 0) toWiden.push(mutant);
      else firstAssignments.push({ mutant: mutant.name, tests });
    }
    const firstBatches = batches(firstAssignments, 'mutants');
    const firstStage: MutationPlanProject[] = [...firstBatches, ...variants.map((variant) => ({ name: variant.name, behaviour: variant.name }))];
    const firstRun = firstStage.length > 0 ? await runPlaywright(base('rule-tests', firstStage), env, work, 'rule-tests') : { outcomes: [], seconds: 0 };
    const first = attribute(firstRun.outcomes, firstBatches, '');
    process.stdout.write(
      `mutation: ${firstAssignments.length} mutants with their rule's tests (${firstBatches.length} batches) and ${variants.length} variants: ` +
        `${first.length} tests in ${firstRun.seconds.toFixed(1)} s\n`,
    );

    // 3. Mutants their rule's tests missed: every test that calls one of their operations.
    const killedFirst = new Set(first.filter((outcome) => outcome.status === 'failed').map((outcome) => outcome.project));
    toWiden = [...toWiden, ...counted.filter((mutant) => !killedFirst.has(mutant.name) && !toWiden.includes(mutant))];
    const untested: string[] = [];
    const secondAssignments: Assignment[] = [];
    for (const mutant of toWiden) {
      const tests = coveringTests(mutant, covering);
      if (tests.length === 0) untested.push(mutant.name);
      else secondAssignments.push({ mutant: mutant.name, tests });
    }
    const secondBatches = batches(secondAssignments, 'survivors');
    const secondRun = secondBatches.length > 0 ? await runPlaywright(base('covering-tests', secondBatches), env, work, 'covering-tests') : { outcomes: [], seconds: 0 };
    const second = attribute(secondRun.outcomes, secondBatches, widerStageSuffix);
    if (secondBatches.length > 0) {
      process.stdout.write(`mutation: ${secondAssignments.length} mutants with every covering test: ${second.length} tests in ${secondRun.seconds.toFixed(1)} s\n`);
    }

    const wallSeconds = (performance.now() - started) / 1000;
    const score = computeScore(mutants, variants, [...first, ...second], {
      wallSeconds,
      referenceSeconds: reference.seconds,
      ruleTestsSeconds: firstRun.seconds,
      coveringTestsSeconds: secondRun.seconds,
    });
    for (const name of untested) {
      const survivor = score.survivors.find((s) => s.name === name);
      if (survivor) survivor.description += ' (no test of the suite calls this operation)';
    }
    mkdirSync(outputRoot, { recursive: true });
    writeFileSync(join(outputRoot, 'mutation.json'), `${JSON.stringify(score, null, 2)}\n`);
    writeFileSync(join(outputRoot, 'mutation.md'), renderMarkdown(score));

    process.stdout.write(
      `mutation: score ${score.score.killed}/${score.score.total} (${score.score.percent} %), ${score.equivalent.length} equivalent not counted, ` +
        `variants ${score.variants.length - score.falsePositives}/${score.variants.length} pass, ${score.testsExecuted} test executions\n`,
    );
    for (const survivor of score.survivors) process.stdout.write(`  SURVIVED ${survivor.name} (breaks ${survivor.rule}): ${survivor.description}\n`);
    for (const variant of score.variants.filter((v) => !v.passed)) {
      process.stdout.write(`  FALSE POSITIVE on ${variant.name}: ${variant.failures.map((f) => `${f.test}: ${f.message.slice(0, 140)}`).join('; ') || 'no test ran'}\n`);
    }
    process.stdout.write(`mutation: wrote ${join(outputRoot, 'mutation.md')} and mutation.json\n`);
    process.stdout.write(`mutation: wall time ${wallSeconds.toFixed(1)} s\n`);
    return score.survivors.length > 0 || score.falsePositives > 0 ? 1 : 0;
  } finally {
    await mock.close();
    rmSync(work, { recursive: true, force: true });
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
