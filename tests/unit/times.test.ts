/** Time that agrees with itself (judgment/rules/times.ts): TIME-NOW against the answer's own clock, TIME-ORDER. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createdNow, timesInOrder } from '../../judgment/rules/times.ts';

const now = Date.now();
const iso = (offsetMs: number): string => new Date(now + offsetMs).toISOString();
const answer = (json: unknown, date?: number) => ({
  json,
  responseHeaders: (date === undefined ? {} : { date: new Date(date).toUTCString() }) as Record<string, string>,
  receivedAt: now,
});

test("TIME-NOW: a creation's times within the tolerance of the answer's Date header pass", () => {
  assert.deepEqual(createdNow(answer({ created_at: iso(0), updated_at: iso(500) }, now), 120, 'now'), []);
});

test('TIME-NOW: a server clock ten minutes ahead of the suite passes when its Date header agrees', () => {
  const ahead = 600_000;
  assert.deepEqual(createdNow(answer({ created_at: iso(ahead), updated_at: iso(ahead) }, now + ahead), 120, 'now'), []);
  assert.deepEqual(
    createdNow(answer([{ created_at: iso(ahead), updated_at: iso(ahead) }], now + ahead), 120, 'this-run'),
    [],
  );
});

test("TIME-NOW: timestamps an hour off the answer's own clock fail, with or without a Date header", () => {
  const hourOff = { created_at: iso(-3_600_000), updated_at: iso(-3_600_000) };
  const [first] = createdNow(answer(hourOff, now), 120, 'now');
  assert.equal(first?.location, 'body /created_at');
  assert.match(first?.actual ?? '', /(3599|3600) s earlier/);
  assert.equal(createdNow(answer(hourOff), 120, 'now').length, 2, "the suite's clock without a Date header");
  assert.equal(createdNow(answer([{ created_at: iso(3_600_000) }], now), 120, 'this-run').length, 1);
});

test('TIME-NOW: RFC 3339 with an offset and with a space separator are read as the same instant', () => {
  // The same instant written in UTC+01:00: the wall clock an hour later, and the offset.
  const local = `${new Date(now + 3_600_000).toISOString().slice(0, 23)}+01:00`;
  const spaced = iso(0).replace('T', ' ');
  assert.deepEqual(createdNow(answer({ created_at: local, updated_at: spaced }, now), 120, 'now'), []);
});

test('TIME-ORDER: updated_at before created_at, an event before its creation, and a zero time fail', () => {
  assert.deepEqual(timesInOrder({ json: { created_at: iso(0), updated_at: iso(0) } }), []);
  assert.deepEqual(
    timesInOrder({ json: { created_at: '2026-01-01T00:00:00.700Z', updated_at: '2026-01-01T00:00:00Z' } }),
    [],
    'mixed precision',
  );
  assert.equal(
    timesInOrder({ json: { created_at: iso(0), updated_at: iso(-60_000) } })[0]?.location,
    'body /updated_at',
  );
  assert.equal(
    timesInOrder({ json: [{ created_at: iso(0), approved_at: iso(-60_000) }] })[0]?.location,
    'body /0/approved_at',
  );
  const [zero] = timesInOrder({ json: [{ created_at: iso(0), canceled_at: '0001-01-01T00:00:00Z' }] });
  assert.equal(zero?.location, 'body /0/canceled_at');
  assert.match(zero?.expected ?? '', /real time/);
});
