/**
 * The Allure labels of a failed test, made to agree with the conformance matrix. A test carries
 * a story per rule it checks (and an epic and a feature per operation it calls); a stateful test
 * checks fourteen rules, so one broken echo turned fourteen stories red, among them
 * CUSTOMER-DELETE-204, which the matrix shows unchecked (blocked) or passed. A failed test that
 * names the rules it broke keeps the stories of those rules only, and the epics and features of
 * their operations: the Behaviors tab then counts what the matrix marks ❌. A failure that names
 * no rule (target unavailable, an error of the suite) keeps every label: it decided nothing.
 */
import type { Label } from 'allure-js-commons';
import { operation, type OperationId } from '../contract/operations.ts';
import { isRuleId, rule } from '../contract/rules.ts';
import { featureName } from '../judgment/rule-labels.ts';
import type { VerdictRecord } from '../judgment/verdict-record.ts';

/** The rules a test's records say it found broken (as its own rule or as a precondition it relied on). */
export function brokenRulesOf(records: readonly VerdictRecord[]): string[] {
  return [...new Set(records.filter((record) => record.kind === 'broken' && isRuleId(record.rule)).map((r) => r.rule))];
}

export function labelsAgreeingWithTheMatrix(labels: readonly Label[], broken: readonly string[]): Label[] {
  if (broken.length === 0) return [...labels];
  const operations = [...new Set(broken.flatMap((id) => rule(id).operations))] as OperationId[];
  const features = new Set(operations.map(featureName));
  const epics = new Set<string>(operations.map((id) => operation(id).tag));
  const kept = labels.filter((label) => {
    if (label.name === 'story') return broken.some((id) => label.value.startsWith(`${id}: `));
    if (label.name === 'feature') return features.has(label.value);
    if (label.name === 'epic') return epics.has(label.value);
    return true;
  });
  // A broken rule's operation the test did not call (it failed before its request) is still where it broke.
  const missingFeatures = [...features].filter(
    (value) => !kept.some((label) => label.name === 'feature' && label.value === value),
  );
  const hadFeatures = labels.some((label) => label.name === 'feature');
  if (hadFeatures && !kept.some((label) => label.name === 'feature')) {
    kept.push(...missingFeatures.map((value) => ({ name: 'feature', value })));
    kept.push(...[...epics].map((value) => ({ name: 'epic', value })));
  }
  return kept;
}
