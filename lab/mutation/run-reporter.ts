/**
 * The Playwright reporter of the mutation configuration, and the kill registry its workers read.
 *
 * It writes each test execution's outcome as a line of JSON to the plan's report file (read back by
 * lab/mutation.ts), and appends a mutant's name to the kill registry when a test run against it fails (a
 * kill). The workers read the registry before a test starts, so that the remaining tests of a killed
 * mutant are skipped (lab/mutation.playwright.config.ts): each would only confirm the kill, at its full cost.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { FullResult, Reporter, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { errorLine, type OutcomeLine, outcomeOf, testIdOf } from './outcomes.ts';
import { behaviourOf, readPlan, type MutationPlan } from './plan-file.ts';

export function readKilled(file: string | undefined): Set<string> {
  if (file === undefined || !existsSync(file)) return new Set();
  return new Set(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line !== ''),
  );
}

export default class MutationRunReporter implements Reporter {
  private readonly plan: MutationPlan = readPlan();
  private readonly killable = new Set(this.plan.killable);

  constructor() {
    writeFileSync(this.plan.reportFile, '');
  }

  private write(line: OutcomeLine): void {
    appendFileSync(this.plan.reportFile, `${JSON.stringify(line)}\n`);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.write({ outcome: outcomeOf(test, result) });
    if (result.status !== 'failed' && result.status !== 'timedOut') return;
    const project = this.plan.projects.find((candidate) => candidate.name === test.parent.project()?.name);
    const behaviour = project && behaviourOf(project, testIdOf(test).join(' › '));
    if (behaviour === undefined || !this.killable.has(behaviour)) return;
    try {
      appendFileSync(this.plan.killRegistry, `${behaviour}\n`);
    } catch {
      // The registry only saves time: without it the remaining tests still run against the mutant.
    }
  }

  onError(error: TestError): void {
    this.write({ error: errorLine(error.message) });
  }

  onEnd(result: FullResult): void {
    this.write({ end: result.status });
  }

  printsToStdio(): boolean {
    return false;
  }
}
