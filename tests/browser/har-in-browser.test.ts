/**
 * A browser's traffic, judged twice: a page in Debian's Chromium calls every operation through
 * `collect-conformance proxy` (valid requests, a malformed body, a wrong key, the other account's
 * key, a deletion repeated) while Playwright's recordHar writes the session's HAR. The proxy's
 * verdict and `collect-conformance judge` over the HAR agree (exit code and broken rules), against
 * the reference mock (exit 0) and against mutants of it (exit 1 naming the rule each breaks).
 *
 *   npm run test:report            (needs: apt-get install -y chromium)
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { startMockServer } from '../../mock/server.ts';
import { runCommand, startCommand, type CommandResult } from '../integration/run-command.ts';
import { chromiumArgs, chromiumPath } from './browser-helpers.ts';

const work = mkdtempSync(join(tmpdir(), 'cc-har-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** What the page does: a client of the API in the browser, written as a web app would write it. */
const session = `async ({ key, second }) => {
  const call = async (method, path, body, auth = 'Bearer ' + key, raw) => {
    const headers = { accept: 'application/json' };
    if (auth !== null) headers.authorization = auth;
    if (body !== undefined || raw !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch('/v1' + path, {
      method, headers, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await response.text();
    try { return JSON.parse(text); } catch { return text; }
  };
  const created = await call('POST', '/transactions', {
    description: 'browser session', amount: 1500, currency: { iso: 'XOF' }, callback_url: 'https://example.com/cb',
  });
  const link = await call('POST', '/transactions/' + created.id + '/token');
  await call('POST', '/transactions/mtn', { token: link.token });
  await call('GET', '/balances/1');
  await call('GET', '/currencies/1');
  await call('GET', '/currencies/1', undefined, null);
  await call('GET', '/balances/1', undefined, 'Bearer sk_sandbox_not_a_key');
  await call('POST', '/transactions', undefined, 'Bearer ' + key, '{"amount": 12');
  await call('POST', '/transactions', { amount: 'abc', currency: { iso: 'XOF' } });
  const customer = await call('POST', '/customers', { email: 'browser@example.com', firstname: 'A', lastname: 'B' });
  await call('POST', '/transactions/' + created.id + '/token', undefined, 'Bearer ' + second);
  await call('GET', '/balances/11', undefined, 'Bearer ' + second);
  await call('DELETE', '/customers/' + customer.id);
  await call('DELETE', '/customers/' + customer.id);
}`;

interface Verdict {
  code: number | null;
  failed: string[];
}

function verdictOf(result: CommandResult, output: string): Verdict {
  const coverage = JSON.parse(readFileSync(join(output, 'rule-coverage.json'), 'utf8')) as {
    rules: Array<{ id: string; verdict: string }>;
  };
  return {
    code: result.code,
    failed: coverage.rules
      .filter((rule) => rule.verdict === 'fail')
      .map((rule) => rule.id)
      .sort(),
  };
}

async function waitForUrl(output: () => string): Promise<string> {
  for (const started = Date.now(); Date.now() - started < 20_000; ) {
    const found = /proxy: (http:\/\/127\.0\.0\.1:\d+)\/v1 →/.exec(output());
    if (found) return found[1]!;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the proxy printed no address: ${output()}`);
}

const targets: Array<{ mutant?: string; rules: string[] }> = [
  { rules: [] },
  { mutant: 'createTransaction.echo.amount', rules: ['TXN-CREATE-ECHO'] },
  { mutant: 'getBalance.auth.wrong-key-accepted', rules: ['AUTH-OTHERS-401', 'AUTH-KEY-EXACT'] },
  { mutant: 'deleteCustomer.state.delete-forgotten', rules: ['CUSTOMER-DELETE-GONE'] },
];

for (const { mutant, rules } of targets) {
  const name = mutant ?? 'the reference mock';
  test(`${name}: the proxy's verdict and the judge's over the browser's HAR agree`, { timeout: 120_000 }, async () => {
    assert.ok(existsSync(chromiumPath), `${chromiumPath} not found: apt-get install -y chromium`);
    const mock = await startMockServer({ port: 0, host: '127.0.0.1', ...(mutant ? { mutant } : {}) });
    const keys = {
      FIRST_KEY: mock.sandboxKey,
      SECOND_KEY: mock.secondSandboxKey,
      PCS_BALANCE_ID: '1',
      PCS_CURRENCY_ID: '1',
      PCS_SECOND_BALANCE_ID: '11',
    };
    const keyFlags = ['--secret-key-env', 'FIRST_KEY', '--second-secret-key-env', 'SECOND_KEY'];
    const dir = join(work, (mutant ?? 'reference').replace(/[^a-z0-9-]+/gi, '_'));
    const har = join(dir, 'session.har');
    try {
      const proxy = startCommand(
        ['proxy', '--upstream', mock.sandboxBaseUrl, ...keyFlags, '--output', join(dir, 'proxy')],
        keys,
      );
      const origin = await waitForUrl(() => proxy.output().stdout);
      const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
      try {
        const context = await browser.newContext({ recordHar: { path: har, content: 'embed' } });
        const page = await context.newPage();
        await page.goto(`${origin}/v1/`);
        await page.evaluate(`(${session})(${JSON.stringify({ key: mock.sandboxKey, second: mock.secondSandboxKey })})`);
        await context.close();
      } finally {
        await browser.close();
      }
      proxy.child.kill('SIGINT');
      const proxied = verdictOf(await proxy.done, join(dir, 'proxy'));
      const judged = await runCommand(['judge', har, ...keyFlags, '--output', join(dir, 'judge')], keys);
      const fromHar = verdictOf(judged, join(dir, 'judge'));
      assert.deepEqual(fromHar, proxied, `${judged.stdout.slice(-1500)}`);
      if (mutant === undefined) assert.deepEqual(proxied, { code: 0, failed: [] });
      else {
        assert.equal(proxied.code, 1);
        assert.ok(
          proxied.failed.some((rule) => rules.includes(rule)),
          `failed: ${proxied.failed.join(', ')}; expected one of ${rules.join(', ')}`,
        );
      }
    } finally {
      await mock.close();
    }
  });
}
