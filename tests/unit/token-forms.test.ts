/**
 * A token's integer form (judgment/token-forms.ts) and an amount read as "not given"
 * (judgment/rules/money.ts): a value read as another is no reading.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { anotherTokenInput, integerForm } from '../../judgment/token-forms.ts';
import { notGivenAmountViolations, owesAnswerWithoutAmount, withoutAmount } from '../../judgment/rules/money.ts';
import { classifyField } from '../../judgment/input-class.ts';
import { namesNumber } from '../../judgment/readings.ts';
import { judgeInput } from '../../judgment/outcome.ts';

test('a token of digits has an integer form only when a JSON integer keeps it', () => {
  assert.deepEqual(integerForm('6208307154'), { kind: 'exact', value: 6208307154 });
  assert.deepEqual(integerForm('0'), { kind: 'exact', value: 0 });
  const leading = integerForm('06208307154');
  assert.equal(leading.kind, 'another');
  assert.equal(leading.kind === 'another' && leading.value, 6208307154);
  assert.match(leading.kind === 'another' ? leading.why : '', /starts with 0/);
  assert.equal(integerForm('9007199254740991').kind, 'exact');
  assert.equal(integerForm('9007199254740993').kind, 'none', 'beyond 2^53 - 1');
  assert.equal(integerForm('123456789012345678').kind, 'none');
  for (const token of ['', '+12', '-12', ' 12', '1.0', 'abc', 12, null, undefined])
    assert.equal(integerForm(token).kind, 'none', String(token));
});

test('the integer of a token that starts with 0 may be refused or accepted, never a 5xx', () => {
  const input = anotherTokenInput('06208307154', 6208307154);
  assert.equal(input.class, 'accept-or-refuse');
  const verdict = (status: number) => judgeInput({ status }, input, true, () => []).violations.length;
  assert.deepEqual([404, 400, 200, 500].map(verdict), [0, 0, 0, 1]);
});

test('a value names a number by itself only as a number or the text of a decimal number', () => {
  for (const value of [1500, 1500.5, '1500', ' 1500 ', '1_500', '1.5e3', '+7', '.5'])
    assert.ok(namesNumber(value), String(value));
  for (const value of [true, false, null, [1500], { value: 1500 }, '0x10', ' ', '', 'abc', 'Infinity'])
    assert.ok(!namesNumber(value), JSON.stringify(value));
});

test('an amount read only as "not given" owes what the same body without an amount is given', () => {
  const body = { amount: null, description: 'x' };
  const nullAmount = classifyField('create-transaction-body', '/amount', null);
  assert.ok(owesAnswerWithoutAmount(nullAmount, null));
  assert.ok(owesAnswerWithoutAmount(classifyField('create-transaction-body', '/amount', [1500]), [1500]));
  assert.ok(!owesAnswerWithoutAmount(classifyField('create-transaction-body', '/amount', '1500'), '1500'));
  assert.ok(!owesAnswerWithoutAmount(classifyField('create-transaction-body', '/amount', undefined), undefined));
  assert.ok(!owesAnswerWithoutAmount(classifyField('create-transaction-body', '/description', null), null));
  assert.deepEqual(withoutAmount(body), { description: 'x' });

  const accepted = { status: 201, json: { amount: 0 } };
  const refusedWithout = notGivenAmountViolations(accepted, { status: 400, json: {} }, nullAmount.what);
  assert.equal(refusedWithout.length, 1);
  assert.equal(refusedWithout[0]!.location, 'status');
  assert.deepEqual(notGivenAmountViolations(accepted, { status: 201, json: { amount: 0 } }, nullAmount.what), []);
  assert.deepEqual(
    notGivenAmountViolations({ status: 201, json: {} }, { status: 201, json: { amount: null } }, nullAmount.what),
    [],
    'no amount, absent or null, alike',
  );
  assert.equal(
    notGivenAmountViolations({ status: 201, json: { amount: 1500 } }, { status: 201, json: { amount: 0 } }, 'x').length,
    1,
  );
  assert.deepEqual(notGivenAmountViolations({ status: 400, json: {} }, { status: 400, json: {} }, 'x'), []);
  assert.deepEqual(notGivenAmountViolations(accepted, { status: 503, json: {} }, 'x'), []);
});
