import fc from 'fast-check';
import { FastClient } from '../../support/fast-client.ts';
import { acceptedTransactionBody } from '../../support/arbitraries.ts';
import { bodyMatchesSchema } from '../../support/checks.ts';
import { startMockServer } from '../../mock/server.ts';
const client = new FastClient({ baseUrl: process.argv[2]!, secretKey: 'sk_sandbox_collect_conformance_mock_0001', timeoutMs: 5000 });
const target = { currencyIso: 'XOF', paymentMode: 'mtn', phoneNumber: '+22997000001', phoneCountry: 'BJ', runId: 'x' };
for (let round = 0; round < 5; round++) {
  let t = performance.now();
  let gen = 0, req = 0, val = 0;
  await fc.assert(fc.asyncProperty(acceptedTransactionBody(target), async (b) => {
    const t1 = performance.now(); gen += 0;
    const e = await client.call('createTransaction', { body: b });
    const t2 = performance.now(); req += t2 - t1;
    bodyMatchesSchema(e, 'transaction'); val += performance.now() - t2;
  }), { numRuns: 100 });
  const total = performance.now() - t;
  console.log(`round ${round}: ${total.toFixed(0)} ms total, requests ${req.toFixed(0)} ms, validation ${val.toFixed(0)} ms, rest (generation, fast-check) ${(total - req - val).toFixed(0)} ms`);
}
client.close();
