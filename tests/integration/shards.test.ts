/**
 * Beyond one machine (cli/shards.ts, .github/workflows/): two shards, each as on its own
 * CI machine (own folders), run disjoint parts of the suite against one mock; their blob
 * reports merge into one JUnit file with every test once, and their Allure results into
 * one folder. The workflows are sharded, take the key from the secret store, upload blob
 * and Allure artifacts and merge them in a final job.
 *
 *   node --import tsx --test tests/unit/shards.test.ts
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { startMockServer } from '../../mock/server.ts';
import { allureFolders, parseShard, runShard, UsageError } from '../../cli/shards.ts';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'pcs-shards-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const specs = [
  'tests/conformance/delete-customer.spec.ts',
  'tests/conformance/payment-link.spec.ts',
  'tests/conformance/balances-and-currencies.spec.ts',
];

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        join(projectRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs'),
        join(projectRoot, 'cli', 'shards.ts'),
        ...args,
      ],
      { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => done({ code, output }));
  });
}

function testNames(junit: string): string[] {
  return [...junit.matchAll(/<testcase name="([^"]+)"/g)].map((match) => match[1] ?? '');
}

describe('sharding', () => {
  test('shard specs are I/N with 1 ≤ I ≤ N', () => {
    assert.deepEqual(parseShard('2/4'), { index: 2, total: 4 });
    for (const bad of ['0/2', '3/2', '1-2', '', undefined, 'a/b'])
      assert.throws(() => parseShard(bad), UsageError, String(bad));
  });

  test("a shard whose test runner cannot even start its Node exits 4, the tool's own failure, not 1", async () => {
    const folder = join(scratch, 'runner-fails');
    // Node refuses an unknown option in NODE_OPTIONS and exits 9, a code no outcome of a run gives.
    const code = await runShard(['--shard', '1/1', '--list'], {
      ...process.env,
      NODE_OPTIONS: '--no-such-option',
      PCS_OUTPUT_DIR: join(folder, 'reports'),
      PCS_BLOB_DIR: join(folder, 'blob-report'),
      ALLURE_RESULTS_DIR: join(folder, 'allure-results'),
    });
    assert.equal(code, 4);
  });

  test('two shards on two "machines" run disjoint halves; merged reports hold every test once', {
    timeout: 240_000,
  }, async () => {
    const mock = await startMockServer({ host: '127.0.0.1', port: 0 });
    try {
      const machineEnv = (machine: string): NodeJS.ProcessEnv => ({
        ...process.env,
        PCS_BASE_URL: mock.sandboxBaseUrl,
        PCS_SECRET_KEY: mock.sandboxKey,
        PCS_ENVIRONMENT: 'sandbox',
        PCS_BALANCE_ID: '1',
        PCS_CURRENCY_ID: '1',
        PCS_RUN_ID: 'cc-shard-test',
        PCS_OUTPUT_DIR: join(machine, 'reports'),
        CI: '',
      });
      const shardNames: string[][] = [];
      for (const index of [1, 2]) {
        const machine = join(scratch, `machine-${index}`);
        mkdirSync(machine, { recursive: true });
        // Defaults, as on a CI machine: blob-report/ and allure-results/ inside the output directory (reports/).
        const env = machineEnv(machine);
        delete env.PCS_BLOB_DIR;
        delete env.ALLURE_RESULTS_DIR;
        const result = await run(
          ['run', '--shard', `${index}/2`, ...specs.map((spec) => join(projectRoot, spec))],
          machine,
          env,
        );
        assert.equal(result.code, 0, result.output.slice(-3000));
        shardNames.push(testNames(readFileSync(join(machine, 'reports', 'junit.xml'), 'utf8')));
        assert.ok(
          readdirSync(join(machine, 'reports', 'blob-report')).some((file) => file.endsWith('.zip')),
          'a blob report per shard',
        );
        assert.ok(allureFolders(join(machine, 'reports', 'allure-results')).length === 1, 'Allure results per shard');
      }
      const [first = [], second = []] = shardNames;
      assert.ok(first.length > 0 && second.length > 0, 'each shard ran tests');
      assert.deepEqual(
        first.filter((name) => second.includes(name)),
        [],
        'no test ran on both shards',
      );

      // The final CI job: every blob in one folder, every shard's Allure results in its own subfolder.
      const merge = join(scratch, 'merge');
      mkdirSync(join(merge, 'all-blob-reports'), { recursive: true });
      for (const index of [1, 2]) {
        const machine = join(scratch, `machine-${index}`);
        for (const file of readdirSync(join(machine, 'reports', 'blob-report')))
          copyFileSync(join(machine, 'reports', 'blob-report', file), join(merge, 'all-blob-reports', file));
        const allureCopy = join(merge, 'all-allure-results', `allure-results-${index}`);
        mkdirSync(allureCopy, { recursive: true });
        for (const file of readdirSync(join(machine, 'reports', 'allure-results')))
          copyFileSync(join(machine, 'reports', 'allure-results', file), join(allureCopy, file));
      }
      const env = {
        ...process.env,
        PCS_OUTPUT_DIR: join(merge, 'reports'),
        ALLURE_RESULTS_DIR: join(merge, 'allure-results'),
        CI: '',
      };
      const merged = await run(
        ['merge', '--blobs', 'all-blob-reports', '--allure', 'all-allure-results', '--allure-report', 'no'],
        merge,
        env,
      );
      assert.equal(merged.code, 0, merged.output.slice(-3000));
      const mergedNames = testNames(readFileSync(join(merge, 'reports', 'junit.xml'), 'utf8'));
      assert.deepEqual(
        [...mergedNames].sort(),
        [...first, ...second].sort(),
        'the merged JUnit report holds both shards, each test once',
      );
      const results = (folder: string) => readdirSync(folder).filter((file) => file.endsWith('-result.json')).length;
      assert.equal(
        results(join(merge, 'allure-results')),
        results(join(scratch, 'machine-1', 'reports', 'allure-results')) +
          results(join(scratch, 'machine-2', 'reports', 'allure-results')),
        'the merged Allure results hold every shard’s results',
      );
      assert.ok(readdirSync(join(merge, 'reports', 'html')).includes('index.html'), 'one merged HTML report');
    } finally {
      await mock.close();
    }
  });
});

interface Workflow {
  on: Record<string, unknown>;
  env?: Record<string, string>;
  jobs: Record<
    string,
    {
      needs?: string | string[];
      strategy?: { matrix?: { shard?: number[] } };
      steps?: {
        run?: string;
        uses?: string;
        env?: Record<string, string>;
        with?: Record<string, unknown>;
        if?: string;
      }[];
    }
  >;
}

describe('CI workflows', () => {
  const scripts = (
    JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts;

  for (const file of ['nightly-sandbox.yml', 'release-gate.yml']) {
    test(`${file}: sharded, key from the secret store, artifacts uploaded and merged in a final job`, () => {
      const text = readFileSync(join(projectRoot, '.github', 'workflows', file), 'utf8');
      const workflow = parse(text) as Workflow;
      const shardJob = Object.entries(workflow.jobs).find(([, job]) => job.strategy?.matrix?.shard);
      assert.ok(shardJob, 'a job with a shard matrix');
      const [shardJobName, job] = shardJob;
      const shards = job.strategy?.matrix?.shard ?? [];
      assert.ok(shards.length >= 2, 'at least two shards');
      const runStep = job.steps?.find((step) => step.run?.includes('npm run conformance:shard'));
      assert.ok(runStep, 'the shard job runs npm run conformance:shard');
      assert.match(
        runStep.run ?? '',
        new RegExp(`--shard \\$\\{\\{ matrix\\.shard \\}\\}/${shards.length}\\b`),
        'every shard of the matrix is run, I/N with N = matrix size',
      );
      assert.equal(
        runStep.env?.PCS_SECRET_KEY,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template literal
        '${{ secrets.PCS_SANDBOX_SECRET_KEY }}',
        'the key comes from the secret store',
      );
      assert.doesNotMatch(text, /sk_(live|sandbox|test)_[A-Za-z0-9]/, 'no key written in the workflow');
      assert.doesNotMatch(text, /PCS_ALLOW_LIVE/, 'never allowed to touch live');
      assert.equal(workflow.env?.PCS_ENVIRONMENT, 'sandbox');
      for (const artifact of ['reports/blob-report', 'reports/allure-results']) {
        const upload = job.steps?.find(
          (step) => step.uses?.startsWith('actions/upload-artifact') && step.with?.path === artifact,
        );
        assert.ok(upload, `the shard job uploads ${artifact}`);
        assert.ok(
          upload.if?.includes('!cancelled()') || upload.if?.includes('always()'),
          `${artifact} is uploaded also when tests fail`,
        );
      }
      const mergeJob = Object.values(workflow.jobs).find((candidate) =>
        candidate.steps?.some((step) => step.run?.includes('npm run report:merge')),
      );
      assert.ok(mergeJob, 'a job merges the reports');
      assert.ok([mergeJob.needs].flat().includes(shardJobName), 'the merge job waits for the shards');
      for (const step of Object.values(workflow.jobs).flatMap((candidate) => candidate.steps ?? [])) {
        for (const match of (step.run ?? '').matchAll(/npm run ([\w:-]+)/g))
          assert.ok(scripts[match[1] ?? ''], `npm run ${match[1]} exists`);
      }
    });
  }
});
