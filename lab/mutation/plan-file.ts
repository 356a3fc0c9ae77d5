/**
 * The plan of one Playwright run of the mutation configuration: written by lab/mutation.ts to the file
 * COLLECT_CONFORMANCE_MUTATION_PLAN names, read by the configuration (in the runner and each worker) and by
 * the run's reporter.
 */
import { readFileSync } from 'node:fs';

/** In a list of behaviours, the unmutated reference (its requests carry no behaviour header). */
export const referenceName = 'reference';

export interface MutationPlanProject {
  name: string;
  /**
   * The behaviour each test runs against, by test id (file › describes › title; a copy's file is under
   * c<k>/); absent: every test against the reference.
   */
  behaviourByTest?: Record<string, string>;
  /** Regular expression sources matched against Playwright's grep title; absent: every test. */
  grep?: string[];
}

export interface MutationPlan {
  /** The spec files the run reads: the suite's, or copies of them (lab/mutation/suite-copies.ts). */
  testDir: string;
  /** Where the run's reporter writes its outcomes (JSON lines). */
  reportFile: string;
  outputDir: string;
  workers: number;
  projects: MutationPlanProject[];
  /** The file of mutants already killed in this run (lab/mutation/run-reporter.ts). */
  killRegistry: string;
  /** Behaviours whose remaining tests are skipped once one of their tests failed: the mutants. */
  killable: string[];
}

export const planVariable = 'COLLECT_CONFORMANCE_MUTATION_PLAN';

export function readPlan(): MutationPlan {
  const file = process.env[planVariable];
  if (!file) throw new Error(`${planVariable} is not set: this configuration is run by lab/mutation.ts`);
  return JSON.parse(readFileSync(file, 'utf8')) as MutationPlan;
}

/** The behaviour a test runs against in a project (the reference, for a project that assigns none). */
export function behaviourOf(project: MutationPlanProject, testId: string): string | undefined {
  if (project.behaviourByTest === undefined) return referenceName;
  return project.behaviourByTest[testId];
}
