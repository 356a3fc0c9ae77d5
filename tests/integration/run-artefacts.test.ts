/**
 * Where a run's artefacts go and how CI reads them: every artefact of a run lives under its
 * output directory (two runs with different output directories in one checkout, at the same
 * time, each finish with their own results), and a non-conformance is a JUnit <failure>, not an
 * <error> (CI dashboards count them apart).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockServer, type RunningMock } from '../../mock/server.ts';

const bin = fileURLToPath(new URL('../../bin/collect-conformance.mjs', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'cc-artefacts-'));
let broken: RunningMock;

before(async () => {
  broken = await startMockServer({ host: '127.0.0.1', port: 0, mutant: 'createTransaction.echo.amount' });
});

after(async () => {
  await broken.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Runs the suite from `cwd` (a checkout where nothing else is), resolving with its exit code and output. */
function suite(cwd: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  // No target of the calling environment: the embedded mock unless the arguments name one.
  const { PCS_BASE_URL: _base, PCS_SECRET_KEY: _key, PCS_OUTPUT_DIR: _output, ...inherited } = process.env;
  return new Promise((done) => {
    const child = spawn(process.execPath, [bin, ...args, '--reporter', 'dot'], {
      cwd,
      env: { ...inherited, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => done({ code: code ?? -1, out }));
  });
}

const twoRunsTitle =
  'two runs at once in one checkout, each with its output directory, both finish with their own results';
test(twoRunsTitle, async () => {
  const checkout = mkdtempSync(join(scratch, 'checkout-'));
  const [first, second] = await Promise.all([
    suite(checkout, ['--output', 'first', '--grep', '@CURRENCY-ARRAY|@BALANCE-ARRAY']),
    suite(checkout, ['--output', 'second', '--grep', '@CURRENCY-ARRAY|@BALANCE-ARRAY']),
  ]);
  assert.equal(first.code, 0, first.out);
  assert.equal(second.code, 0, second.out);
  for (const name of ['first', 'second']) {
    const results = readdirSync(join(checkout, name, 'allure-results'));
    assert.ok(
      results.some((file) => file.endsWith('-result.json')),
      `${name}: no Allure results`,
    );
    assert.ok(existsSync(join(checkout, name, 'junit.xml')), `${name}: no junit.xml`);
  }
  assert.deepEqual(readdirSync(checkout).sort(), ['first', 'second'], 'nothing of a run outside its output directory');
});

test('a non-conformance is a JUnit <failure>; none is an <error>', async () => {
  const checkout = mkdtempSync(join(scratch, 'junit-'));
  const { code, out } = await suite(
    checkout,
    ['--base-url', broken.sandboxBaseUrl, '--secret-key-env', 'HOLD_KEY', '--grep', '@TXN-CREATE-ECHO'],
    { HOLD_KEY: broken.sandboxKey },
  );
  assert.equal(code, 1, out);
  const junit = readFileSync(join(checkout, 'reports', 'junit.xml'), 'utf8');
  const totals = /<testsuites [^>]*failures="(\d+)"[^>]*errors="(\d+)"/.exec(junit);
  assert.ok(totals, 'no totals in junit.xml');
  assert.ok(Number(totals[1]) > 0, `failures="${totals[1]}"`);
  assert.equal(totals[2], '0', 'a non-conformance reported as an error');
  assert.match(
    junit,
    /<failure message="cause [0-9a-f]{8}: [^"]*; TXN-CREATE-ECHO \(documented\) violated by createTransaction/,
  );
});
