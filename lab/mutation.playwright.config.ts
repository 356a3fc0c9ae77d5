/**
 * Playwright configuration used by lab/mutation.ts: the project's configuration, with the
 * projects of a mutation plan (a JSON file named by COLLECT_CONFORMANCE_MUTATION_PLAN, written by
 * lab/mutation.ts). One mock process serves every behaviour; each request says which one
 * with the x-pcs-mutant header:
 * - a variant (or the reference) project runs tests against one behaviour;
 * - a mutant batch project runs each of its tests against the mutant assigned to that test
 *   (a test appears once per project, so one batch holds many mutants). A kill is a failing
 *   test, marked expected by the suite's fixture so that Playwright keeps its worker; once a
 *   mutant is killed its remaining tests run against the reference
 *   (lab/mutation/kill-registry.ts).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, test, type PlaywrightTestConfig } from '@playwright/test';
import { readKilled } from './mutation/kill-registry.ts';
import { setOutgoingHeaders } from '../support/http/transport.ts';
import base from '../playwright.config.ts';
import type { SuiteOptions } from '../support/fixtures.ts';

export interface MutationPlanProject {
  name: string;
  /** Behaviour of every test of the project (x-pcs-mutant header); absent: the reference. */
  behaviour?: string;
  /** Behaviour per test, by title path joined with ' › ' (mutant batches). */
  behaviourByTest?: Record<string, string>;
  /** A mutant batch: its kills are recorded in the run's kill registry. */
  expectFailure?: boolean;
  /** Regular expression sources matched against Playwright's grep title; absent: every test. */
  grep?: string[];
}

export interface MutationPlan {
  reportFile: string;
  outputDir: string;
  workers: number;
  projects: MutationPlanProject[];
  /** The file of mutants already killed in this run (lab/mutation/kill-registry.ts). */
  killRegistry: string;
}

interface ProjectMetadata {
  behaviour?: string;
  behaviourByTest?: Record<string, string>;
  expectFailure?: boolean;
  killRegistry?: string;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const planFile = process.env.COLLECT_CONFORMANCE_MUTATION_PLAN;
if (!planFile)
  throw new Error('COLLECT_CONFORMANCE_MUTATION_PLAN is not set: this configuration is run by lab/mutation.ts');
const plan = JSON.parse(readFileSync(planFile, 'utf8')) as MutationPlan;

/** Killed mutants as this worker last read them: the registry only grows, so a name once read stays. */
let killed = new Set<string>();

/**
 * The behaviour of the running test, or undefined outside a test (global setup), for the
 * reference, and for a test of a batch whose mutant an earlier test already killed.
 */
function currentBehaviour(): { behaviour: string } | undefined {
  let info;
  try {
    info = test.info();
  } catch {
    return undefined;
  }
  const metadata = info.project.metadata as ProjectMetadata;
  const behaviour = metadata.behaviourByTest?.[info.titlePath.join(' › ')] ?? metadata.behaviour;
  if (behaviour === undefined) return undefined;
  if (metadata.expectFailure) {
    if (!killed.has(behaviour)) killed = readKilled(metadata.killRegistry);
    if (killed.has(behaviour)) return undefined;
  }
  return { behaviour };
}

/**
 * In each worker (this file is loaded there too), every request the suite sends during a test
 * gets the header naming its behaviour, through the transport's hook for harness headers (both
 * clients and both senders, node:http and the direct one, go through it). Playwright has no
 * per-project environment, so the base URL cannot differ per project. Only this mutation
 * configuration sets the hook; the suite itself is unchanged.
 */
function tagRequestsWithBehaviour(): void {
  setOutgoingHeaders(() => {
    const current = currentBehaviour();
    return current ? { 'x-pcs-mutant': current.behaviour } : undefined;
  });
}

if (process.env.TEST_WORKER_INDEX !== undefined) tagRequestsWithBehaviour();

const config: PlaywrightTestConfig<SuiteOptions> = {
  ...base,
  testDir: `${root}tests/conformance`,
  globalSetup: `${root}support/lifecycle/global-setup.ts`,
  outputDir: plan.outputDir,
  workers: plan.workers,
  retries: 0,
  reporter: [['json', { outputFile: plan.reportFile }], [`${root}lab/mutation/kill-registry.ts`]],
  projects: plan.projects.map((project) => {
    const metadata: ProjectMetadata = {
      ...(project.behaviour ? { behaviour: project.behaviour } : {}),
      ...(project.behaviourByTest ? { behaviourByTest: project.behaviourByTest } : {}),
      ...(project.expectFailure ? { expectFailure: true, killRegistry: plan.killRegistry } : {}),
    };
    // A batch runs tests against mutants: their failures are the expected outcome (support/fixtures.ts).
    const use: SuiteOptions = { failuresExpected: project.expectFailure === true };
    return {
      name: project.name,
      metadata,
      use,
      ...(project.grep ? { grep: project.grep.map((source) => new RegExp(source)) } : {}),
    };
  }),
};

export default defineConfig(config);
