/**
 * The tests of the suite as Playwright itself lists them (`playwright test --list
 * --reporter=json`), through the configuration a run uses (playwright.config.ts, compiled to
 * JavaScript with the same lines when installed as a package): titles, file:line and tags, exactly
 * what a run would run. Listing starts no target and no global setup, so it works with no reachable
 * service.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { packageRoot, playwrightConfig } from './run.ts';

export interface ListedTest {
  /** Describe blocks and title, joined with " › ". */
  title: string;
  /** Path relative to the package root, e.g. tests/conformance/payment-link.spec.ts. */
  file: string;
  /**
   * Line of the test in its file; undefined where Playwright cannot know it: a spec transpiled onto
   * one line by a transform that does not keep lines (the package once shipped its specs so).
   */
  line?: number;
  /** Tags without the leading @: rule ids and the kinds (documented, inferred, quirk). */
  tags: string[];
}

/** Playwright could not list the suite (a configuration error, a broken spec file). */
export class ListingError extends Error {
  override name = 'ListingError';
}

interface JsonSpec {
  title: string;
  file: string;
  line: number;
  column: number;
  tags?: string[];
}

interface JsonSuite {
  title: string;
  specs?: JsonSpec[];
  suites?: JsonSuite[];
}

interface JsonListing {
  config?: { rootDir?: string };
  suites?: JsonSuite[];
  errors?: Array<{ message?: string }>;
}

const listingTimeoutMs = 120_000;

/** The grep pattern that selects the tests tagged with one rule id (and not a longer id it begins). */
export function ruleGrep(id: string): string {
  return `@${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`;
}

/** Flattens Playwright's JSON listing into one record per test, with paths relative to the package root. */
export function listedTests(listing: JsonListing, root: string = packageRoot): ListedTest[] {
  const testDir = listing.config?.rootDir ?? join(root, 'tests', 'conformance');
  const tests: ListedTest[] = [];
  const walk = (suite: JsonSuite, describes: string[]): void => {
    for (const spec of suite.specs ?? []) {
      // Line 1 far from column 1 is a position in transpiled code, not in the spec (no test sits on an import line).
      const located = spec.line > 1 || spec.column <= 1;
      tests.push({
        title: [...describes, spec.title].join(' › '),
        file: relative(root, join(testDir, spec.file)),
        ...(located ? { line: spec.line } : {}),
        tags: (spec.tags ?? []).map((tag) => tag.replace(/^@/, '')),
      });
    }
    for (const child of suite.suites ?? []) walk(child, [...describes, child.title]);
  };
  // The top-level suites are the files: their titles are paths, not describe blocks.
  for (const file of listing.suites ?? []) walk(file, []);
  return tests;
}

function firstLine(text: string): string {
  const line = text
    .split('\n')
    .map((candidate) => candidate.trim())
    .find((candidate) => candidate !== '' && !candidate.startsWith('npm warn'));
  return (line ?? '').slice(0, 300);
}

/**
 * Lists the suite's tests, optionally only those a --grep pattern selects. Report directories
 * the configuration prepares go to a temporary directory, removed afterwards: listing writes
 * nothing where it is run.
 */
export async function listTests(options: { grep?: string } = {}): Promise<ListedTest[]> {
  const work = mkdtempSync(join(tmpdir(), 'pcs-list-'));
  const output = join(work, 'listing.json');
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const args = [cli, 'test', '--config', playwrightConfig, '--list', '--reporter=json'];
  if (options.grep !== undefined) args.push('--grep', options.grep);
  const env = {
    ...process.env,
    PCS_OUTPUT_DIR: join(work, 'reports'),
    ALLURE_RESULTS_DIR: join(work, 'allure-results'),
    PLAYWRIGHT_JSON_OUTPUT_FILE: output,
    PLAYWRIGHT_JSON_OUTPUT_NAME: output,
    FORCE_COLOR: '0',
  };
  try {
    const child = spawn(process.execPath, args, { cwd: packageRoot, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-8000)));
    const timer = setTimeout(() => child.kill('SIGTERM'), listingTimeoutMs);
    const code = await new Promise<number | null>((done) => {
      child.on('error', () => done(null));
      child.on('close', done);
    });
    clearTimeout(timer);
    let listing: JsonListing;
    try {
      listing = JSON.parse(readFileSync(output, 'utf8')) as JsonListing;
    } catch {
      const exit = code ?? 'signal';
      throw new ListingError(`Playwright listed no tests (exit ${exit}): ${firstLine(stderr) || 'no output'}`);
    }
    const problem = listing.errors?.[0]?.message;
    if (problem !== undefined) throw new ListingError(`Playwright could not list the suite: ${firstLine(problem)}`);
    return listedTests(listing);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
