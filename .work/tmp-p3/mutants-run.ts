import { spawn } from 'node:child_process';
import { startMockServer } from '../../mock/server.ts';
import { mutants } from '../../mock/mutants.ts';
const pick = /invalid-id-to-204|integer-token-refused/;
for (const v of mutants().filter((m) => !m.equivalent && pick.test(m.name) && !/auth/.test(m.name))) {
  const mock = await startMockServer({ port: 0, host: '127.0.0.1', mutant: v.name });
  const r = await new Promise<{ code: number; out: string }>((done) => {

    const child = spawn('npx', ['playwright', 'test', 'tests/conformance/properties', '--reporter=line'], { env: { ...process.env, PCS_BASE_URL: mock.sandboxBaseUrl, PCS_SECRET_KEY: mock.sandboxKey, PCS_BALANCE_ID: '1', PCS_CURRENCY_ID: '1', PCS_OUTPUT_DIR: '/tmp/p3-out' } });
    let out = ''; child.stdout.on('data', (c) => (out += c)); child.stderr.on('data', (c) => (out += c));
    child.on('close', (code) => done({ code: code ?? 1, out }));
  });
  const errors = [...r.out.matchAll(/^\s+Error: (.*)$/gm)].map((m) => m[1]).slice(0, 3);
  console.log(v.name, r.code === 0 ? 'PASS' : 'FAIL', (r.out.match(/\d+ (passed|failed|skipped)/g) ?? []).join(', '), errors.join(' | ').slice(0, 400));
  await mock.close();
}
