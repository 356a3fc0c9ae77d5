/**
 * The JSON dialects of mainstream parsers (judgment/json-dialects.ts) and the text modes built on them
 * (generation/json-text.ts): with no extension the reader is RFC 8259's (it agrees with JSON.parse on JSON
 * and on JSON one character away from it), each dialect reads what its parser documents, malformed text is read by
 * none and lenient text by at least one. tests/integration/json-dialects.test.ts holds the dialects that run here
 * (Ruby's json, Python's json) to the real parsers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseJson } from '../../contract/big-integers.ts';
import { dialectReadings, dialects, readJson, unread } from '../../judgment/json-dialects.ts';
import { isJson, lenientExamples, lenientForms, lenientText, malformedText } from '../../generation/json-text.ts';

const strict = { extensions: {} };
const dialect = (name: string) => {
  const found = dialects.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no dialect ${name}`);
  return found;
};

/** JSON.parse's value of the text (integers beyond 2^53 as the suite's exact stand-ins), or `unread`. */
function parsed(text: string): unknown {
  try {
    return parseJson(text);
  } catch {
    return unread;
  }
}

test('with no extension, the reader is JSON.parse: on JSON, and on JSON one character away', () => {
  const nearJson = fc
    .tuple(fc.json(), fc.nat(), fc.constantFrom('', '{', '}', '"', ',', ':', '[', ']', '\\', "'", 'x', '0', ' ', '/'))
    .map(([text, at, char]) => {
      const where = text.length === 0 ? 0 : at % text.length;
      return text.slice(0, where) + char + text.slice(where + 1);
    });
  fc.assert(
    fc.property(fc.oneof(fc.json(), nearJson), (text) => {
      assert.deepEqual(readJson(text, strict), parsed(text), text);
    }),
    { numRuns: 3000 },
  );
});

test("each dialect reads what its parser documents, and nothing of the others'", () => {
  const cases: Array<[text: string, reads: Record<string, unknown>]> = [
    ['{"a":1 /* c */}', { "Ruby's json": { a: 1 }, Gson: { a: 1 }, 'Json.NET': { a: 1 } }],
    ['{"a":1 // c\n}', { "Ruby's json": { a: 1 }, Gson: { a: 1 }, 'Json.NET': { a: 1 } }],
    ['{"a":1 # c\n}', { Gson: { a: 1 } }],
    ['{"\\escription":1}', { "Ruby's json": { escription: 1 } }],
    ['{"a":"x\\uzzzz"}', {}],
    ['{"a":1,}', { 'Json.NET': { a: 1 } }],
    ['[1,]', { Gson: [1, null], 'Json.NET': [1] }],
    ["{'a':'b'}", { Gson: { a: 'b' }, 'Json.NET': { a: 'b' } }],
    ['{a:1}', { Gson: { a: 1 }, 'Json.NET': { a: 1 } }],
    ['{"a":b c}', {}],
    ['{"a":bc}', { Gson: { a: 'bc' } }],
    ['{"a":0150}', { Gson: { a: 150 } }],
    ['{"a":NaN}', { "Python's json": { a: Number.NaN }, Gson: { a: Number.NaN }, 'Json.NET': { a: Number.NaN } }],
    ['{"a":1}}', { "Go's json.Decoder": { a: 1 }, Jackson: { a: 1 } }],
    ['{"a":1', {}],
    ['<a>1</a>', {}],
  ];
  for (const [text, reads] of cases) {
    const read = Object.fromEntries(dialectReadings(text).map(({ dialect: { name }, value }) => [name, value]));
    assert.deepEqual(read, reads, text);
  }
  assert.deepEqual(
    readJson('{"__proto__":1}', dialect('Gson')),
    JSON.parse('{"__proto__":1}'),
    'a name like any other',
  );
});

const body = JSON.stringify({
  description: 'Order 42',
  amount: 1500,
  currency: { iso: 'XOF' },
  callback_url: 'https://shop.example.com/cb',
  custom_metadata: { run: 'cc-1', n: 3 },
});

test('malformed text is read by no dialect, and is not JSON', () => {
  fc.assert(
    fc.property(malformedText(body), (text) => {
      assert.equal(isJson(text), false, text);
      assert.deepEqual(dialectReadings(text), [], text);
    }),
    { numRuns: 500 },
  );
});

test('lenient text is JSON or read by a dialect, and every form has an example', () => {
  fc.assert(
    fc.property(lenientText(body), ({ text }) => {
      assert.ok(isJson(text) || dialectReadings(text).length > 0, text);
    }),
    { numRuns: 500 },
  );
  assert.deepEqual(
    lenientExamples(body).map(({ form }) => form),
    lenientForms.map(({ name }) => name),
  );
});
