import fc from 'fast-check';
import { acceptedTransactionBody, arbitraryFor, derive } from '../../support/arbitraries.ts';
import { validateAgainst } from '../../contract/schemas.ts';
const target = { currencyIso: 'XOF', paymentMode: 'mtn', phoneNumber: '+22997000001', phoneCountry: 'BJ', runId: 'x' };
const r = fc.check(fc.property(acceptedTransactionBody<{ amount: number; description: string }>(target), (b) => { if (validateAgainst('create-transaction-body', b).length) throw new Error('invalid ' + JSON.stringify(b)); return b.amount < 5000; }), { numRuns: 200 });
console.log(r.failed, r.counterexample, r.errorInstance && String(r.errorInstance).slice(0, 300));
const s = fc.check(fc.property(derive({ type: 'string', minLength: 1, maxLength: 120 }), (d) => { if ((d as string).length === 0) throw new Error('empty!'); return (d as string).length < 3; }));
console.log(s.counterexample, String(s.errorInstance).slice(0, 100));
