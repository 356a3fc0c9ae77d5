/**
 * Playwright configuration used by lab/mutation.ts: the project's configuration, with the
 * projects of a mutation plan (lab/mutation/plan-file.ts, written by lab/mutation.ts). One mock
 * process serves every behaviour; each request says which one with the x-pcs-mutant header.
 *
 * A project either runs every test of its grep against the reference, or runs each of its tests
 * against the behaviour assigned to it: the tests of copies of the suite's spec files
 * (lab/mutation/suite-copies.ts), so that one project, and its workers, run a test against as many
 * behaviours as it has. A kill is a failing test, marked expected by the suite's fixture so that
 * Playwright keeps its worker; once a mutant is killed, its remaining tests are skipped before they
 * send anything (lab/mutation/run-reporter.ts keeps the registry of kills).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig, test, type PlaywrightTestConfig, type TestInfo } from '@playwright/test';
import { readKilled } from './mutation/run-reporter.ts';
import { behaviourOf, readPlan, referenceName, type MutationPlanProject } from './mutation/plan-file.ts';
import { setOutgoingHeaders } from '../http/transport.ts';
import { setHarnessSkip, type SuiteOptions } from '../suite/fixtures.ts';
import base from '../playwright.config.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const plan = readPlan();
const projects = new Map(plan.projects.map((project) => [project.name, project]));
const killable = new Set(plan.killable);

/** Killed mutants as this worker last read them: the registry only grows, so a name once read stays. */
let killed = new Set<string>();

/** The behaviour a test runs against (the reference included). */
function behaviourOfTest(info: TestInfo): string | undefined {
  const project: MutationPlanProject | undefined = projects.get(info.project.name);
  return project && behaviourOf(project, info.titlePath.join(' › '));
}

/** The mutant or variant the running test's requests go to, or undefined outside a test and for the reference. */
function currentBehaviour(): string | undefined {
  let info: TestInfo;
  try {
    info = test.info();
  } catch {
    return undefined;
  }
  const behaviour = behaviourOfTest(info);
  return behaviour === referenceName ? undefined : behaviour;
}

/**
 * Why a test need not run: another test already killed its mutant (the test could only confirm the kill; it
 * used to run against the reference instead, at its full cost).
 */
function skipReason(info: TestInfo): string | undefined {
  const behaviour = behaviourOfTest(info);
  if (behaviour === undefined || !killable.has(behaviour)) return undefined;
  if (!killed.has(behaviour)) killed = readKilled(plan.killRegistry);
  return killed.has(behaviour) ? `mutant ${behaviour} already killed by another test` : undefined;
}

/**
 * In each worker (this file is loaded there too), every request the suite sends during a test
 * gets the header naming its behaviour, through the transport's hook for harness headers (both
 * clients and both senders, node:http and the direct one, go through it), and tests that cannot
 * tell anything new are skipped through the fixtures' harness hook. Playwright has no per-project
 * environment, so the base URL cannot differ per project. Only this mutation configuration sets
 * the hooks; the suite itself is unchanged.
 */
if (process.env.TEST_WORKER_INDEX !== undefined) {
  setOutgoingHeaders(() => {
    const behaviour = currentBehaviour();
    return behaviour === undefined ? undefined : { 'x-pcs-mutant': behaviour };
  });
  setHarnessSkip(skipReason);
}

const config: PlaywrightTestConfig<SuiteOptions> = {
  ...base,
  testDir: plan.testDir,
  globalSetup: `${root}run/global-setup.ts`,
  outputDir: plan.outputDir,
  workers: plan.workers,
  retries: 0,
  reporter: [[`${root}lab/mutation/run-reporter.ts`]],
  projects: plan.projects.map((project) => {
    // A batch runs tests against mutants: their failures are the expected outcome (suite/fixtures.ts).
    const use: SuiteOptions = { failuresExpected: project.behaviourByTest !== undefined };
    return {
      name: project.name,
      use,
      ...(project.grep ? { grep: project.grep.map((source) => new RegExp(source)) } : {}),
    };
  }),
};

export default defineConfig(config);
