/**
 * Playwright reporter with one job: empty the Allure results directory when a run begins,
 * so that `npm run report` shows the last run only (allure-playwright appends otherwise).
 * It must come before allure-playwright in the reporter list. History across runs lives in
 * the report's history file (allurerc.mjs), not in the results.
 */
import { rmSync } from 'node:fs';
import type { Reporter } from '@playwright/test/reporter';

export interface FreshAllureResultsOptions {
  resultsDir?: string;
}

export default class FreshAllureResults implements Reporter {
  private readonly resultsDir: string;

  constructor(options: FreshAllureResultsOptions = {}) {
    this.resultsDir = options.resultsDir ?? 'allure-results';
  }

  onBegin(): void {
    // `playwright test --list` runs no test: it must not throw away the last run's results.
    if (process.argv.includes('--list')) return;
    rmSync(this.resultsDir, { recursive: true, force: true });
  }

  printsToStdio(): boolean {
    return false;
  }
}
