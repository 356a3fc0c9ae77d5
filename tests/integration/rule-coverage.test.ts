/**
 * Every rule of the catalogue has at least one conformance test, every rule a test names
 * exists, and every operation of the reference is exercised. Read from Playwright's own
 * listing of the suite (tags), so it sees exactly what a run would run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { rules } from '../../contract/rules.ts';
import { operations } from '../../contract/operations.ts';

interface ListedSuite {
  specs?: Array<{ title: string; tags: string[] }>;
  suites?: ListedSuite[];
}

const root = fileURLToPath(new URL('../../', import.meta.url));

function listedTests(): Array<{ title: string; tags: string[] }> {
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const output = execFileSync(process.execPath, [cli, 'test', '--list', '--reporter=json'], {
    cwd: root,
    encoding: 'utf8',
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PCS_'))),
      PCS_OUTPUT_DIR: fileURLToPath(new URL('../../reports/unit-listing', import.meta.url)),
    },
    maxBuffer: 64 * 1024 * 1024,
  });
  const report = JSON.parse(output.slice(output.indexOf('{'))) as { suites: ListedSuite[] };
  const specs: Array<{ title: string; tags: string[] }> = [];
  const walk = (suite: ListedSuite) => {
    specs.push(...(suite.specs ?? []));
    for (const child of suite.suites ?? []) walk(child);
  };
  report.suites.forEach(walk);
  return specs;
}

const specs = listedTests();
const tagged = new Set(specs.flatMap((spec) => spec.tags.map((tag) => tag.replace(/^@/, ''))));

test('every rule of the catalogue has at least one test', () => {
  const untested = rules.filter((entry) => !tagged.has(entry.id)).map((entry) => entry.id);
  assert.deepEqual(untested, [], `rules without a test: ${untested.join(', ')}`);
});

test('every test names at least one rule and exactly one kind', () => {
  const ids = new Set(rules.map((entry) => entry.id));
  for (const spec of specs) {
    const names = spec.tags.map((tag) => tag.replace(/^@/, ''));
    const ruleTags = names.filter((tag) => ids.has(tag));
    assert.ok(ruleTags.length > 0, `"${spec.title}" names no rule`);
    const kinds = names.filter((tag) => tag === 'documented' || tag === 'inferred');
    assert.equal(kinds.length, 1, `"${spec.title}" must be tagged @documented or @inferred`);
  }
});

test('rule ids are unique and well-formed, and name known operations', () => {
  const seen = new Set<string>();
  const known = new Set(operations.map((op) => op.id));
  for (const entry of rules) {
    assert.match(entry.id, /^[A-Z0-9]+(-[A-Z0-9]+)+$/);
    assert.ok(!seen.has(entry.id), `duplicate ${entry.id}`);
    seen.add(entry.id);
    assert.ok(entry.operations.length > 0 && entry.operations.every((op) => known.has(op)), `${entry.id} operations`);
    assert.ok(entry.kind === 'documented' || entry.kind === 'inferred');
    assert.ok(entry.text.endsWith('.') && entry.reference.length > 0);
  }
});

test('the type quirks of the reference are rules of their own', () => {
  const quirks = rules
    .filter((entry) => entry.quirk)
    .map((entry) => entry.id)
    .sort();
  for (const id of [
    'LINK-TOKEN-STRING',
    'SEND-TOKEN-INTEGER',
    'TXN-CREATE-PHONE-NUMBER-NUMERIC',
    'SEND-PHONE-NUMBER-STRING',
    'TXN-CREATE-MODE-ACCEPTED',
    'BALANCE-ARRAY',
    'CURRENCY-ARRAY',
  ]) {
    assert.ok(quirks.includes(id), `${id} is a quirk rule`);
  }
});

test('every documented operation is exercised by some test', () => {
  for (const op of operations.filter((entry) => !entry.undocumented)) {
    const covered = rules.filter((entry) => entry.operations.includes(op.id)).some((entry) => tagged.has(entry.id));
    assert.ok(covered, `${op.id} has no test`);
  }
});

test('test titles read right: no "an" before a consonant ("an non-numeric")', () => {
  const wrong = specs.map((spec) => spec.title).filter((title) => /\ban (?![aeiouhAEIOUH])/.test(title));
  assert.deepEqual(wrong, []);
});
