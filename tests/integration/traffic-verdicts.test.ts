/**
 * What traffic shows, judged as the suite judges it: a client written from the reference through
 * `collect-conformance proxy`, against a conforming server on an Express-like stack (an ETag on its
 * reads, 304 to the client's own conditional requests), passes; the same server with the defects only
 * traffic shows planted (a 401 whose body still holds the balance asked for, a link given for
 * /transactions/1001xyz/token, a link whose url carries another transaction's token) fails naming
 * each rule: AUTH-REFUSED-NO-EFFECT, ID-EXACT, LINK-TOKEN-OWN.
 *
 *   node --import tsx --test tests/integration/traffic-verdicts.test.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockServer, type RunningMock } from '../../mock/server.ts';
import { runCommand, type CommandResult } from './run-command.ts';
import { clientScript, startFrontServer, type TrafficDefect } from './traffic-fixtures.ts';

const scratch = mkdtempSync(join(tmpdir(), 'pcs-traffic-verdicts-'));
let mock: RunningMock;
before(async () => {
  mock = await startMockServer({ port: 0, host: '127.0.0.1' });
});
after(async () => {
  await mock.close();
  rmSync(scratch, { recursive: true, force: true });
});

const failedRules = (output: string): string[] =>
  (
    JSON.parse(readFileSync(join(output, 'rule-coverage.json'), 'utf8')) as {
      rules: Array<{ id: string; verdict: string }>;
    }
  ).rules
    .filter((rule) => rule.verdict === 'fail')
    .map((rule) => rule.id);

const lastLines = (result: CommandResult): string => `${result.stdout.slice(-2500)}\n${result.stderr.slice(-800)}`;

async function throughProxy(name: string, defects: readonly TrafficDefect[]) {
  const front = await startFrontServer(mock, defects);
  try {
    const output = join(scratch, name);
    const result = await runCommand(
      ['proxy', '--upstream', front.base, '--output', output, '--', process.execPath, '-e', clientScript],
      {
        PCS_SECRET_KEY: mock.sandboxKey,
        PCS_SECOND_SECRET_KEY: mock.secondSandboxKey,
        PCS_BALANCE_ID: '1',
        PCS_CURRENCY_ID: '1',
        PCS_SECOND_BALANCE_ID: '11',
      },
    );
    return { result, output };
  } finally {
    await front.close();
  }
}

describe('a client’s traffic through the proxy, judged as the suite judges', { concurrency: true }, () => {
  test('a conforming server that answers 304 to the client’s conditional reads passes', async () => {
    const { result, output } = await throughProxy('conforming', []);
    assert.equal(result.code, 0, lastLines(result));
    assert.deepEqual(failedRules(output), []);
    assert.match(result.stdout, /summary: no rule broken/);
    assert.match(result.stdout, /command: .* exited 0/);
    const coverage = readFileSync(join(output, 'traffic-coverage.md'), 'utf8');
    assert.match(coverage, /\| getBalance \| \d+ \| [^|]*304/, 'the 304s were judged under their operation');
  });

  test('the three defects only traffic shows fail, each naming its rule', async () => {
    const { result, output } = await throughProxy('defects', [
      'refusal-discloses',
      'id-read-leniently',
      'url-of-another-token',
    ]);
    assert.equal(result.code, 1, lastLines(result));
    const failed = failedRules(output);
    for (const rule of ['AUTH-REFUSED-NO-EFFECT', 'ID-EXACT', 'LINK-TOKEN-OWN'])
      assert.ok(failed.includes(rule), `${rule} is not among the failed rules: ${failed.join(', ')}`);
    assert.match(result.stdout, /breaks [^\n]*AUTH-REFUSED-NO-EFFECT/);
    assert.match(result.stdout, /breaks [^\n]*ID-EXACT/);
    assert.match(result.stdout, /breaks [^\n]*LINK-TOKEN-OWN/);
  });
});
