/**
 * Playwright configuration used by tools/mutation.ts: the project's configuration, with the
 * projects of a mutation plan (a JSON file named by PCS_MUTATION_PLAN, written by
 * tools/mutation.ts). One mock process serves every behaviour; each request says which one
 * with the x-pcs-mutant header:
 * - a variant (or the reference) project runs tests against one behaviour;
 * - a mutant batch project runs each of its tests against the mutant assigned to that test
 *   (a test appears once per project, so one batch holds many mutants), and marks the test as
 *   expected to fail: a kill is then an expected failure, and Playwright keeps the worker
 *   instead of replacing it after every kill, which is what makes a run of ~200 mutants fit
 *   in minutes. A test that passes against its mutant (a survivor) is the unexpected outcome.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, test, type PlaywrightTestConfig } from '@playwright/test';
import base from '../playwright.config.ts';

export interface MutationPlanProject {
  name: string;
  /** Behaviour of every test of the project (x-pcs-mutant header); absent: the reference. */
  behaviour?: string;
  /** Behaviour per test, by title path joined with ' › ' (mutant batches). */
  behaviourByTest?: Record<string, string>;
  /** Tests are expected to fail (mutant batches): a kill is an expected failure. */
  expectFailure?: boolean;
  /** Regular expression sources matched against Playwright's grep title; absent: every test. */
  grep?: string[];
}

export interface MutationPlan {
  reportFile: string;
  outputDir: string;
  workers: number;
  projects: MutationPlanProject[];
}

interface ProjectMetadata {
  behaviour?: string;
  behaviourByTest?: Record<string, string>;
  expectFailure?: boolean;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const planFile = process.env.PCS_MUTATION_PLAN;
if (!planFile) throw new Error('PCS_MUTATION_PLAN is not set: this configuration is run by tools/mutation.ts');
const plan = JSON.parse(readFileSync(planFile, 'utf8')) as MutationPlan;

/** The behaviour of the running test, or undefined outside a test (global setup) and for the reference. */
function currentBehaviour(): { behaviour: string; expectFailure: boolean } | undefined {
  let info;
  try {
    info = test.info();
  } catch {
    return undefined;
  }
  const metadata = info.project.metadata as ProjectMetadata;
  const behaviour = metadata.behaviourByTest?.[info.titlePath.join(' › ')] ?? metadata.behaviour;
  if (behaviour === undefined) return undefined;
  if (metadata.expectFailure && info.expectedStatus !== 'failed') test.fail(true, `mutant ${behaviour}: the suite is expected to catch it`);
  return { behaviour, expectFailure: metadata.expectFailure === true };
}

/**
 * In each worker (this file is loaded there too), every request made through node:http during
 * a test gets the header naming its behaviour. The suite's clients send through node:http, not
 * Playwright's request fixture (so extraHTTPHeaders would not reach them), and Playwright has no
 * per-project environment (so the base URL cannot differ per project). Only this mutation
 * configuration does this; the suite itself is unchanged.
 */
function tagRequestsWithBehaviour(): void {
  const original = http.request;
  const tagged = function (this: unknown, ...args: unknown[]): http.ClientRequest {
    const request = Reflect.apply(original, this, args) as http.ClientRequest;
    const current = currentBehaviour();
    if (current && !request.headersSent) request.setHeader('x-pcs-mutant', current.behaviour);
    return request;
  };
  http.request = tagged as typeof http.request;
}

if (process.env.TEST_WORKER_INDEX !== undefined) tagRequestsWithBehaviour();

const config: PlaywrightTestConfig = {
  ...base,
  testDir: `${root}tests/conformance`,
  globalSetup: `${root}support/lifecycle/global-setup.ts`,
  outputDir: plan.outputDir,
  workers: plan.workers,
  retries: 0,
  reporter: [['json', { outputFile: plan.reportFile }]],
  projects: plan.projects.map((project) => {
    const metadata: ProjectMetadata = {
      ...(project.behaviour ? { behaviour: project.behaviour } : {}),
      ...(project.behaviourByTest ? { behaviourByTest: project.behaviourByTest } : {}),
      ...(project.expectFailure ? { expectFailure: true } : {}),
    };
    return { name: project.name, metadata, ...(project.grep ? { grep: project.grep.map((source) => new RegExp(source)) } : {}) };
  }),
};

export default defineConfig(config);
