/**
 * The mutants a mutation run has already killed, shared between its Playwright runner and
 * workers through one file: the runner's reporter appends a mutant's name when a test of a
 * mutant batch fails (a kill), and the workers read it before sending a test's requests, so
 * that the remaining tests of a killed mutant run against the reference instead.
 *
 * Why: the remaining tests of a killed mutant say nothing new and cost their full time (a
 * property runs all its cases when it passes, only until the kill when it fails); against the
 * reference they pass quickly. A kill keeps its worker (support/fixtures.ts marks it expected).
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

export function readKilled(file: string | undefined): Set<string> {
  if (file === undefined || !existsSync(file)) return new Set();
  return new Set(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line !== ''),
  );
}

interface BatchMetadata {
  behaviourByTest?: Record<string, string>;
  killRegistry?: string;
}

/** Playwright reporter of the mutation configuration: records kills of batch tests in the registry file. */
export default class KillRegistryReporter implements Reporter {
  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status !== 'failed' && result.status !== 'timedOut') return;
    const project = test.parent.project();
    const metadata = (project?.metadata ?? {}) as BatchMetadata;
    const mutant = metadata.behaviourByTest?.[test.titlePath().slice(2).join(' › ')];
    if (mutant === undefined || metadata.killRegistry === undefined) return;
    try {
      appendFileSync(metadata.killRegistry, `${mutant}\n`);
    } catch {
      // The registry only saves time: without it the remaining tests still run against the mutant.
    }
  }

  onEnd(_result: FullResult): void {}

  printsToStdio(): boolean {
    return false;
  }
}
