/**
 * Playwright configuration of the conformance suite: API tests only (the request
 * fixture; no browser project), the embedded mock started by global setup when
 * PCS_BASE_URL is unset, and reports for people (HTML) and CI (JUnit).
 */
import { defineConfig } from '@playwright/test';
import { loadDotEnv } from './support/config.ts';

loadDotEnv();

const outputRoot = process.env.PCS_OUTPUT_DIR ?? 'reports';

export default defineConfig({
  testDir: './tests/conformance',
  globalSetup: './support/global-setup.ts',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: process.env.PCS_WORKERS ? Number(process.env.PCS_WORKERS) : 2,
  timeout: 60_000,
  outputDir: `${outputRoot}/test-output`,
  reporter: [
    ['list'],
    ['junit', { outputFile: `${outputRoot}/junit.xml` }],
    ['html', { open: 'never', outputFolder: `${outputRoot}/html` }],
  ],
  use: {
    // Traces record request headers; they stay off so that the key cannot leak through them.
    trace: 'off',
    screenshot: 'off',
    video: 'off',
  },
  projects: [{ name: 'conformance' }],
});
