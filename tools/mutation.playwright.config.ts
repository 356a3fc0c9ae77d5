/**
 * Playwright configuration used by tools/mutation.ts: the project's configuration, with one
 * Playwright project per behaviour of the mock (the reference, a mutant, a variant). Each
 * project's requests carry the x-pcs-mutant header so that one mock process serves every
 * behaviour, and each project runs only the tests its plan selects. The plan is a JSON file
 * named by PCS_MUTATION_PLAN, written by tools/mutation.ts.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, test, type PlaywrightTestConfig } from '@playwright/test';
import base from '../playwright.config.ts';

export interface MutationPlanProject {
  name: string;
  /** Value of the x-pcs-mutant header; absent for the reference. */
  behaviour?: string;
  /** Regular expression sources matched against Playwright's grep title; absent: every test. */
  grep?: string[];
}

export interface MutationPlan {
  reportFile: string;
  outputDir: string;
  workers: number;
  projects: MutationPlanProject[];
}

const root = fileURLToPath(new URL('..', import.meta.url));
const planFile = process.env.PCS_MUTATION_PLAN;
if (!planFile) throw new Error('PCS_MUTATION_PLAN is not set: this configuration is run by tools/mutation.ts');
const plan = JSON.parse(readFileSync(planFile, 'utf8')) as MutationPlan;

/**
 * In each worker (this file is loaded there too), every request made through node:http during
 * a test gets the header naming its project's behaviour. The suite's clients send through
 * node:http, not Playwright's request fixture, so extraHTTPHeaders would not reach them; and
 * Playwright has no per-project environment, so the base URL cannot differ per project either.
 * Only this mutation configuration does this; the suite itself is unchanged.
 */
function tagRequestsWithBehaviour(): void {
  const original = http.request;
  const tagged = function (this: unknown, ...args: unknown[]): http.ClientRequest {
    const request = Reflect.apply(original, this, args) as http.ClientRequest;
    let behaviour: unknown;
    try {
      behaviour = test.info().project.metadata?.behaviour;
    } catch {
      behaviour = undefined; // outside a test (global setup, cleanup): the reference
    }
    if (typeof behaviour === 'string' && !request.headersSent) request.setHeader('x-pcs-mutant', behaviour);
    return request;
  };
  http.request = tagged as typeof http.request;
}

if (process.env.TEST_WORKER_INDEX !== undefined) tagRequestsWithBehaviour();

const config: PlaywrightTestConfig = {
  ...base,
  testDir: `${root}tests/conformance`,
  globalSetup: `${root}support/global-setup.ts`,
  outputDir: plan.outputDir,
  workers: plan.workers,
  retries: 0,
  reporter: [['json', { outputFile: plan.reportFile }]],
  projects: plan.projects.map((project) => ({
    name: project.name,
    ...(project.grep ? { grep: project.grep.map((source) => new RegExp(source)) } : {}),
    metadata: project.behaviour ? { behaviour: project.behaviour } : {},
  })),
};

export default defineConfig(config);
