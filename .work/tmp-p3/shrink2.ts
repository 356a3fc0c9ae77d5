import fc from 'fast-check';
import { acceptedTransactionBody } from '../../support/arbitraries.ts';
import { validateAgainst } from '../../contract/schemas.ts';
const target = { currencyIso: 'XOF', paymentMode: 'mtn', phoneNumber: '+22997000001', phoneCountry: 'BJ', runId: 'x' };
let invalid = 0;
for (let seed = 0; seed < 30; seed++) {
  const r = fc.check(fc.property(acceptedTransactionBody<{ amount: number; description: string }>(target), (b) => { if (validateAgainst('create-transaction-body', b).length) invalid++; return b.amount < 5000; }), { numRuns: 100, seed });
  const c = r.counterexample?.[0] as { description: string } | undefined;
  if (c && c.description.length === 0) console.log('seed', seed, JSON.stringify(c));
}
console.log('invalid seen', invalid);
