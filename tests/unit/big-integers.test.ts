/** Integers beyond 2^53 stay exact through the suite: parsed to stand-ins, written back as digits. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exactText, isUnsafeIntegerText, parseJson, standInFor, stringifyJson } from '../../contract/big-integers.ts';
import { buildRequest } from '../../http/outgoing-request.ts';
import { validateAgainst } from '../../contract/schemas.ts';
import { describeValue } from '../../contract/json-pointer.ts';

const big = '9200000000000001001';
const bigToo = '9200000000000001002';

test('safe JSON parses as JSON.parse does', () => {
  const text = '{"id":12,"amount":1500.5,"list":[1,-2,3e4],"s":"1234567890123456789"}';
  assert.deepEqual(parseJson(text), JSON.parse(text));
});

test('an integer beyond 2^53 becomes a safe integer stand-in, distinct per literal and the same every time', () => {
  const parsed = parseJson(`{"id":${big},"other":${bigToo},"note":"${big}","nested":[{"id":${big}}]}`) as Record<
    string,
    unknown
  >;
  assert.ok(Number.isSafeInteger(parsed.id));
  assert.notEqual(parsed.id, parsed.other);
  assert.equal((parsed.nested as Array<{ id: number }>)[0]!.id, parsed.id);
  assert.equal(parsed.note, big, 'digits inside strings are left alone');
  assert.equal(standInFor(big), parsed.id);
  assert.equal(exactText(parsed.id as number), big);
  assert.equal(exactText(12), '12');
});

test('stand-ins are written back as their exact digits, in bodies, paths and messages', () => {
  const id = standInFor(big);
  assert.equal(stringifyJson({ customer: { id }, amount: 100 }), `{"customer":{"id":${big}},"amount":100}`);
  const request = buildRequest('getPaymentLink', { params: { id } }, 'http://127.0.0.1/v1', 'k');
  assert.equal(request.path, `/transactions/${big}/token`);
  const send = buildRequest('createTransaction', { body: { customer: { id } } }, 'http://127.0.0.1/v1', 'k');
  assert.equal(send.data, `{"customer":{"id":${big}}}`);
  assert.equal(describeValue(id), `${big} (number)`);
});

test('a stand-in is an integer for the schemas', () => {
  const balance = parseJson(
    `[{"id":${big},"amount":1,"mode":"mtn",` +
      `"account_id":${bigToo},"created_at":"2024-01-01T00:00:00Z","updated_at":"2024-01-01T00:00:00Z"}]`,
  );
  assert.deepEqual(validateAgainst('balance-list', balance), []);
});

test('what counts as unsafe', () => {
  assert.equal(isUnsafeIntegerText('9007199254740991'), false);
  assert.equal(isUnsafeIntegerText('9007199254740993'), true);
  assert.equal(isUnsafeIntegerText('12.5'), false);
});
