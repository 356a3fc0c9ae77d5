/**
 * The gap table (specs/gaps.json) and the conforming variants derived from it: the table of
 * docs/explanations/gaps.md is generated from the data, every row names rules that exist and
 * has at least one variant that chooses differently there, and every variant names rows that
 * exist. Lenient variants name the rule --strict fails them under, a rule about inputs the
 * reference leaves open.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gapRows } from '../../contract/gaps.ts';
import { isRuleId, rule } from '../../contract/rules.ts';
import { variants } from '../../mock/mutants/index.ts';
import { gapsDocFile, renderGapsDoc } from '../../lab/gap-table.ts';

test("docs/explanations/gaps.md's table is generated from specs/gaps.json (npm run gaps:generate)", () => {
  const page = readFileSync(gapsDocFile, 'utf8');
  assert.equal(renderGapsDoc(page), page, 'docs/explanations/gaps.md is stale: run npm run gaps:generate');
});

test('gap rows have unique ids, name existing rules and say their class and what --strict changes', () => {
  const ids = new Set<string>();
  for (const row of gapRows) {
    assert.ok(!ids.has(row.id), `duplicate row ${row.id}`);
    ids.add(row.id);
    for (const id of row.rules) assert.ok(isRuleId(id), `${row.id}: unknown rule ${id}`);
    assert.ok(row.gap.length > 10 && row.reading.length > 10 && row.class.length > 0 && row.strict.length > 0, row.id);
  }
});

test('every gap row has at least one conforming variant, and every variant names rows that exist', () => {
  const ids = new Set(gapRows.map((row) => row.id));
  for (const variant of variants()) {
    assert.ok((variant.gaps ?? []).length > 0, `${variant.name} names no gap row`);
    for (const gap of variant.gaps ?? []) assert.ok(ids.has(gap), `${variant.name}: unknown gap row ${gap}`);
  }
  const varied = new Set(variants().flatMap((variant) => variant.gaps ?? []));
  assert.deepEqual(
    gapRows.map((row) => row.id).filter((id) => !varied.has(id)),
    [],
    'gap rows without a conforming variant',
  );
  assert.ok(variants().length >= 25, `at least 25 conforming variants, found ${variants().length}`);
  assert.ok(
    variants().some((variant) => (variant.gaps ?? []).length >= 4),
    'a variant combines several choices',
  );
});

test(
  'lenient variants name the rule --strict fails them under: a rule about inputs the reference leaves open, ' +
    'or the shape rule of a gap row whose strict reading requires more of an answer',
  () => {
    const lenient = variants().filter((variant) => variant.strictKills !== undefined);
    assert.ok(lenient.length >= 3);
    for (const variant of lenient) {
      const ruleId = variant.strictKills!;
      assert.ok(isRuleId(ruleId), `${variant.name}: unknown rule ${ruleId}`);
      const strictAnswerRow = gapRows.some(
        (row) => (variant.gaps ?? []).includes(row.id) && row.strict !== 'nothing' && row.rules.includes(ruleId),
      );
      const inputRule = rule(ruleId).input?.class === 'accept-or-refuse';
      assert.ok(inputRule || strictAnswerRow, `${variant.name}: ${ruleId} is neither an open-input rule nor its row's`);
    }
  },
);
