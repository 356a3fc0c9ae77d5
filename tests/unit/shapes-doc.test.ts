/**
 * docs/reference/shapes.md is what its generator writes (lab/shapes-doc.ts): a change of a schema,
 * an operation, an input case or the mock's seed without `npm run shapes:generate` fails here. Its
 * examples are what they claim: each request body is one the suite must see accepted, each answer
 * of the reference mock has the shape its schema gives, and every operation has one.
 *
 *   node --import tsx --test tests/unit/shapes-doc.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { operations } from '../../contract/operations.ts';
import { validateAgainst, type SchemaName } from '../../contract/schemas.ts';
import { exampleBodies, mockExamples, renderShapesDoc, shapesDocFile } from '../../lab/shapes-doc.ts';
import { seedFor } from '../../mock/seed.ts';
import { pinnedValues } from '../../generation/arbitraries.ts';
import { classifyField } from '../../judgment/input-class.ts';
import { settings } from '../../settings/settings.ts';

test('docs/reference/shapes.md is generated (npm run shapes:generate)', async () => {
  const page = readFileSync(shapesDocFile, 'utf8');
  assert.equal(await renderShapesDoc(), page, 'docs/reference/shapes.md is stale: run npm run shapes:generate');
});

test('every operation has an example; each answer has the shape of its schema', async () => {
  const examples = await mockExamples();
  for (const op of operations) {
    const example = examples.find((candidate) => candidate.operation === op.id);
    assert.ok(example, `${op.id} has no example`);
    const success = op.responses.find((response) => response.status.startsWith('2'));
    assert.ok(example.status >= 200 && example.status < 300, `${op.id} answered ${example.status}`);
    if (success?.schema !== undefined)
      assert.deepEqual(validateAgainst(success.schema as SchemaName, example.answer), [], op.id);
  }
});

test("the examples' request bodies are bodies a server must accept", () => {
  const pinned = pinnedValues({
    currencyIso: settings.currencyIso.default,
    paymentMode: settings.paymentMode.default,
    phoneNumber: settings.phoneNumber.default,
    phoneCountry: settings.phoneCountry.default,
  });
  const leaves = (value: unknown, pointer = ''): Array<[string, unknown]> =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.entries(value).flatMap(([key, member]) => leaves(member, `${pointer}/${key}`))
      : [[pointer, value]];
  const bodies: Array<[SchemaName, unknown]> = [
    ['create-transaction-body', exampleBodies.createTransaction()],
    ['create-customer-body', exampleBodies.createCustomer()],
    ['send-transaction-body', exampleBodies.sendTransaction('4821097365104')],
  ];
  for (const [schema, body] of bodies)
    for (const [pointer, value] of leaves(body)) {
      const classified = classifyField(schema, pointer, value, { pinned });
      assert.equal(classified.class, 'must-accept', `${schema} ${pointer}: ${classified.class}`);
    }
});

test('the page names every payment mode and seeded id of the mock', () => {
  const page = readFileSync(shapesDocFile, 'utf8');
  for (const currency of seedFor('sandbox').currencies)
    for (const mode of currency.modes) assert.ok(page.includes(`\`${mode}\``), mode);
  for (const balance of [...seedFor('sandbox').balances, ...seedFor('sandbox', 'second').balances])
    assert.ok(page.includes(`${balance.id}: ${balance.mode}`), String(balance.id));
});
