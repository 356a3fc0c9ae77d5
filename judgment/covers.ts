/**
 * Test details that say which rules a test checks: Playwright tags (@RULE-ID and
 * @documented or @inferred, plus @quirk for the type quirks) so that --grep selects by
 * rule or kind, and annotations that reporters read. A test checks rules of one kind
 * only, so that "documented only" runs are exact; mixing kinds is an error at load time.
 */
import type { TestDetails } from '@playwright/test';
import { rule, type RuleKind } from '../contract/rules.ts';

export function covers(...ruleIds: string[]): TestDetails & { tag: string[] } {
  if (ruleIds.length === 0) throw new Error('covers(): name at least one rule id');
  const entries = ruleIds.map((id) => rule(id));
  const kinds = new Set<RuleKind>(entries.map((entry) => entry.kind));
  if (kinds.size > 1) throw new Error(`covers(${ruleIds.join(', ')}): rules of different kinds in one test; split it`);
  const kind = entries[0]!.kind;
  const tag = [`@${kind}`, ...ruleIds.map((id) => `@${id}`)];
  if (entries.some((entry) => entry.quirk)) tag.push('@quirk');
  return {
    tag,
    annotation: [{ type: 'kind', description: kind }, ...ruleIds.map((id) => ({ type: 'rule', description: id }))],
  };
}
