import { writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { startMockServer } from '/work/main/mock/server.ts';
import { openapi30 } from '/work/main/tools/peers/spec.ts';
const m = await startMockServer({});
writeFileSync('/tmp/p5dbg/o30.json', JSON.stringify(openapi30({ customerEmail: 'a@example.com', transaction: { description: 'd', amount: 1500, currency: { iso: 'XOF' }, callback_url: 'https://example.com/cb' }, send: { token: 'T' } })));
const r = spawnSync('/work/main/peers/node_modules/.bin/dredd', ['/tmp/p5dbg/o30.json', m.sandboxBaseUrl, '--hookfiles=/work/main/peers/dredd-hooks.cjs', '--header', `Authorization: Bearer ${m.sandboxKey}`, '--loglevel=debug'], { encoding: 'utf8' });
console.log((r.stdout + r.stderr).split('\n').filter(l => /fail|error|Request|URI|uri|statusCode|expected|real/i.test(l)).slice(0, 60).join('\n'));
await m.close();
