/**
 * The outcome classes of request inputs (judgment/input-class.ts), the readings of
 * mistyped values (judgment/readings.ts) and the verdicts on answers
 * (judgment/outcome.ts). Classes are data in specs/input-cases/ (each case names the rule
 * that judges it, whose input class must be the case's); this runner is thin.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inputCaseFiles } from '../../contract/input-cases.ts';
import { operations } from '../../contract/operations.ts';
import { isRuleId, rule } from '../../contract/rules.ts';
import {
  classifyField,
  declaredContentType,
  effectiveClass,
  type ClassifiedInput,
} from '../../judgment/input-class.ts';
import { judgeInput } from '../../judgment/outcome.ts';
import { coercedValue } from '../../judgment/readings.ts';
import { creationRule, sendRule } from '../../judgment/accepted-input.ts';
import { dialectReadings } from '../../judgment/json-dialects.ts';
import { isJson } from '../../generation/json-text.ts';
import { classifyText } from '../../judgment/text-class.ts';
import type { SchemaName } from '../../contract/schemas.ts';

/** The rule a test of the body's operation judges this input under (judgment/accepted-input.ts). */
const creationOrSendRule = (schema: SchemaName, input: ClassifiedInput): string =>
  schema === 'send-transaction-body' ? sendRule(input) : creationRule(input);

for (const { file, schema, valid, cases } of inputCaseFiles()) {
  // The operation whose request body the cases fill: the rule of each case must concern it.
  const operation = operations.find((candidate) => candidate.requestBody === schema)?.id;
  for (const entry of cases) {
    const sent = entry.text === undefined ? `${entry.pointer}:` : 'as text:';
    test(`${schema} ${sent} ${entry.name} is ${entry.class}`, () => {
      const input =
        entry.text === undefined
          ? classifyField(schema, entry.pointer, entry.absent ? undefined : entry.value)
          : classifyText(schema, valid, entry.text);
      assert.equal(input.class, entry.class, input.why);
      if (entry.class === 'accept-or-refuse') {
        assert.equal(input.strictRefuses, entry.strictRefuses, 'what --strict makes of it');
        const readings = input.readings.map((reading) => (reading.kind === 'absent' ? 'absent' : reading.value));
        // A text read as the valid body needs no list of bodies: its readers say who reads it.
        if (entry.text === undefined || entry.readings !== undefined) assert.deepEqual(readings, entry.readings);
      }
      if (entry.text !== undefined) {
        // Every dialect reads JSON: its readers are those that read it beyond RFC 8259.
        const readers = isJson(entry.text) ? [] : dialectReadings(entry.text).map(({ dialect }) => dialect.name);
        assert.deepEqual(readers, entry.readers ?? [], 'the parsers that read it beyond RFC 8259');
        assert.equal(creationOrSendRule(schema, input), entry.rule, 'the rule its class is judged under');
      }
      assert.ok((entry.text !== undefined || input.what.startsWith(entry.pointer)) && input.why.length > 0);
    });
    test(`${schema} ${entry.pointer}: ${entry.name} names a rule of its class (${entry.rule})`, () => {
      assert.ok(isRuleId(entry.rule), `${file}: "${entry.name}" names ${entry.rule}, which is not in specs/rules.json`);
      const named = rule(entry.rule);
      const judged = named.input?.class ?? 'no inputs';
      assert.equal(judged, entry.class, `${file}: "${entry.name}" is ${entry.class}, ${entry.rule} judges ${judged}`);
      const concerned = operation !== undefined && named.operations.includes(operation);
      assert.ok(concerned, `${file}: ${entry.rule} does not concern ${operation ?? schema}`);
    });
  }
}

const coercionTitle =
  'coercion follows ajv: digits to numbers, numbers and booleans to strings, ' +
  'one-element arrays to their element, no object coercion';
test(coercionTitle, () => {
  assert.equal(coercedValue('12', ['integer']), 12);
  assert.equal(coercedValue('12.5', ['integer']), undefined);
  assert.equal(coercedValue('12.5', ['number']), 12.5);
  assert.equal(coercedValue(12, ['string']), '12');
  assert.equal(coercedValue(false, ['integer']), 0);
  assert.equal(coercedValue(null, ['string']), '');
  assert.deepEqual(coercedValue(['7'], ['integer']), 7);
  assert.equal(coercedValue([{ a: 1 }], ['object']), undefined);
  assert.equal(coercedValue('true', ['boolean']), true);
  assert.equal(coercedValue('', ['null']), null);
  assert.equal(
    coercedValue('x', ['integer', 'string']),
    undefined,
    'a value of an allowed type needs no coercion (and is not one here)',
  );
});

test('a token of another type is usable only when a reading names the issued token', () => {
  const issued = '123456789012';
  const usable = (value: unknown) => value === issued || value === Number(issued);
  assert.equal(classifyField('send-transaction-body', '/token', [issued], { usable }).class, 'accept-or-refuse');
  assert.equal(classifyField('send-transaction-body', '/token', true, { usable }).class, 'must-refuse');
  assert.equal(classifyField('send-transaction-body', '/token', 'other', { usable }).class, 'must-refuse');
});

test('valid JSON declared with another Content-Type is accept or refuse, --strict refuses it', () => {
  assert.equal(declaredContentType('application/json; charset=utf-8', {}).class, 'must-accept');
  const plain = declaredContentType('text/plain', {});
  assert.equal(plain.class, 'accept-or-refuse');
  assert.equal(effectiveClass(plain, true), 'must-refuse');
  assert.equal(declaredContentType(undefined, {}).class, 'accept-or-refuse');
});

const open: ClassifiedInput = {
  class: 'accept-or-refuse',
  strictRefuses: true,
  readings: [{ kind: 'coerced', value: 1500, how: 'read as 1500' }],
  what: '/amount = "1500" (string)',
  why: 'x',
};
const edge: ClassifiedInput = {
  ...open,
  strictRefuses: false,
  readings: [{ kind: 'as-sent', value: 0 }],
  what: '/amount = 0 (number)',
};

const verdictsTitle =
  'verdicts: accept or refuse passes a 4xx and a conforming 2xx, ' +
  'fails a 5xx and a 2xx that does not carry the value as read';
test(verdictsTitle, () => {
  const echo = (expected: unknown) => (reading: { kind: string; value?: unknown }) =>
    reading.kind !== 'absent' && reading.value === expected
      ? []
      : [{ location: 'body /amount', expected: String(reading.value), actual: String(expected) }];
  assert.deepEqual(judgeInput({ status: 400 }, open, false, echo(1500)), { violations: [], lenient: null });
  assert.deepEqual(judgeInput({ status: 422 }, open, true, echo(1500)), { violations: [], lenient: null });
  const accepted = judgeInput({ status: 201 }, open, false, echo(1500));
  assert.deepEqual(accepted.violations, []);
  assert.match(accepted.lenient ?? '', /--strict requires a 4xx/);
  assert.equal(
    judgeInput({ status: 201 }, edge, false, () => []).lenient,
    null,
    'an edge of the documented type is not lenient',
  );
  assert.equal(judgeInput({ status: 500 }, open, false, echo(1500)).violations[0]?.location, 'status');
  assert.match(
    judgeInput({ status: 201 }, open, false, echo(1501)).violations[0]?.expected ?? '',
    /accepted read as 1500/,
  );
  assert.match(
    judgeInput({ status: 201 }, open, true, echo(1500)).violations[0]?.expected ?? '',
    /a 4xx status/,
    '--strict: must refuse',
  );
  assert.deepEqual(judgeInput({ status: 201 }, edge, true, () => []).violations, [], '--strict leaves edges open');
});

test('verdicts: must refuse needs a 4xx, must accept a 2xx and a conforming answer', () => {
  const refuse: ClassifiedInput = {
    class: 'must-refuse',
    strictRefuses: false,
    readings: [],
    what: '/amount = "abc" (string)',
    why: 'no reading',
  };
  assert.deepEqual(judgeInput({ status: 404 }, refuse, false, () => []).violations, []);
  for (const status of [200, 500]) assert.equal(judgeInput({ status }, refuse, false, () => []).violations.length, 1);
  const accept: ClassifiedInput = {
    class: 'must-accept',
    strictRefuses: false,
    readings: [{ kind: 'as-sent', value: 1 }],
    what: '/amount = 1 (number)',
    why: 'safe',
  };
  assert.equal(judgeInput({ status: 400 }, accept, false, () => []).violations.length, 1);
  assert.equal(
    judgeInput({ status: 201 }, accept, false, () => [{ location: 'body', expected: 'x', actual: 'y' }]).violations
      .length,
    1,
  );
});
