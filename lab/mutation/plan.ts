/**
 * Which tests run against which mutant, and how they are packed into Playwright projects
 * (see lab/mutation.ts and lab/mutation.playwright.config.ts).
 */
import { isRuleId } from '../../contract/rules.ts';
import type { Behaviour } from '../../mock/mutants/index.ts';
import type { MutationPlanProject } from '../mutation.playwright.config.ts';
import type { TestOutcome } from './playwright-json.ts';

export interface Assignment {
  mutant: string;
  tests: TestOutcome[];
}

/**
 * Packs (mutant, its tests) into as few projects as possible: a test appears at most once per
 * project, so each test of a batch runs against exactly one mutant. Fewer projects, fewer workers.
 */
export function batches(assignments: Assignment[], prefix: string): MutationPlanProject[] {
  const packed: Array<{ used: Set<string>; byTest: Record<string, string>; grep: string[] }> = [];
  for (const assignment of assignments) {
    let batch = packed.find((candidate) => assignment.tests.every((test) => !candidate.used.has(test.id)));
    if (!batch) {
      batch = { used: new Set(), byTest: {}, grep: [] };
      packed.push(batch);
    }
    for (const test of assignment.tests) {
      batch.used.add(test.id);
      batch.byTest[test.id] = assignment.mutant;
      batch.grep.push(test.grep);
    }
  }
  return packed.map((batch, index) => ({
    name: `${prefix} ${index + 1}`,
    behaviourByTest: batch.byTest,
    expectFailure: true,
    grep: batch.grep,
  }));
}

/** Outcomes of batch projects, re-labelled with the mutant each test ran against (plus a suffix). */
export function attribute(
  outcomes: TestOutcome[],
  batchProjects: MutationPlanProject[],
  suffix: string,
): TestOutcome[] {
  const byName = new Map(batchProjects.map((project) => [project.name, project.behaviourByTest ?? {}]));
  return outcomes.map((outcome) => {
    const byTest = byName.get(outcome.project);
    if (!byTest) return outcome;
    const mutant = byTest[outcome.id];
    if (mutant === undefined)
      throw new Error(`test ${outcome.id} ran in ${outcome.project} without an assigned mutant`);
    return { ...outcome, project: `${mutant}${suffix}` };
  });
}

/** What the plan needs of a behaviour: the operations it changes. */
export type Touching = Pick<Behaviour, 'operations'>;

/**
 * What is run with a rule's tests: a mutant under the rule it breaks, or a lenient variant under
 * the rule --strict must name (its strictKills).
 */
export type RuleTarget = Touching & { rule: string };

/** Tests of the reference run that call one of the operations a behaviour changes. */
export function coveringTests(behaviour: Touching, reference: TestOutcome[]): TestOutcome[] {
  if (behaviour.operations === 'all') return reference;
  const operations = new Set<string>(behaviour.operations);
  return reference.filter((outcome) => outcome.operations.some((op) => operations.has(op)));
}

/** A test checking this many rules or more (the stateful model checks nearly all) is broad. */
export const broadTestRules = 12;
// Tags are rule ids (checked against specs/rules.json) and the kinds (documented, inferred, quirk).
const isBroad = (outcome: TestOutcome): boolean => outcome.tags.filter(isRuleId).length >= broadTestRules;

/**
 * Of those, the tests tagged with the target's rule; broad tests only when the rule has
 * no other. A broad test would sit in every mutant's list and force one batch project (one
 * worker start) per mutant; a mutant the rule's own tests miss still meets it among its
 * covering tests, in the second stage.
 */
export function ruleTests(target: RuleTarget, reference: TestOutcome[]): TestOutcome[] {
  const tagged = coveringTests(target, reference).filter((outcome) => outcome.tags.includes(target.rule));
  const focused = tagged.filter((outcome) => !isBroad(outcome));
  return focused.length > 0 ? focused : tagged;
}
