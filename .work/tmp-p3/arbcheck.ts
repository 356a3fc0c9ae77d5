import fc from 'fast-check';
import { arbitraryFor, wrongTypeFor } from '../../support/arbitraries.ts';
import { schemaDocuments, validateAgainst, type SchemaName } from '../../contract/schemas.ts';
for (const name of schemaDocuments.keys()) {
  const arb = arbitraryFor(name as SchemaName);
  let bad = 0; let first: unknown;
  for (const v of fc.sample(arb, 2000)) { const viol = validateAgainst(name as SchemaName, v); if (viol.length) { bad++; first ??= [v, viol]; } }
  let wrongOk = 0;
  for (const v of fc.sample(wrongTypeFor(schemaDocuments.get(name)!), 300)) if (validateAgainst(name as SchemaName, v).length === 0) wrongOk++;
  console.log(name, 'bad', bad, 'wrongValid', wrongOk, bad ? JSON.stringify(first).slice(0, 400) : '');
}
console.log(JSON.stringify(fc.sample(arbitraryFor('create-transaction-body'), 2), null, 1));
