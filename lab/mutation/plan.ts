/**
 * Which tests run against which mutant, and how they are packed into Playwright projects
 * (see lab/mutation.ts and lab/mutation.playwright.config.ts).
 */
import { isRuleId } from '../../contract/rules.ts';
import type { Behaviour } from '../../mock/mutants/index.ts';
import { behaviourOf, referenceName, type MutationPlanProject } from './plan-file.ts';
import { grepOf, type TestOutcome } from './outcomes.ts';
import { copyTestId, originalOf } from './suite-copies.ts';
import { seededRandom } from '../../mock/seeded-random.ts';

/** A behaviour (a mutant, a variant, or the reference) and the tests it runs against. */
export interface Assignment {
  behaviour: string;
  tests: TestOutcome[];
}

/** A run's one project, over copies of the suite: each test once per behaviour assigned to it. */
export interface CopiesPlan {
  project: MutationPlanProject;
  /** How many copies of the suite the run needs: the most behaviours any one test has. */
  copies: number;
  /** Whether copy k holds tests of a spec file (only those copies are written). */
  needs(copy: number, file: string): boolean;
}

/**
 * Lays (behaviour, its tests) out over copies of the suite's spec files (lab/mutation/suite-copies.ts): a
 * test's n-th behaviour runs in copy n, so that one project holds every assignment and its workers start
 * once (a project or a batch per behaviour started workers for each).
 */
export function layOut(assignments: Assignment[], name: string): CopiesPlan {
  const used = new Map<string, number>();
  const behaviourByTest: Record<string, string> = {};
  const grep: string[] = [];
  const files = new Set<string>();
  let copies = 0;
  for (const { behaviour, tests } of assignments) {
    for (const test of tests) {
      const copy = (used.get(test.id) ?? 0) + 1;
      used.set(test.id, copy);
      copies = Math.max(copies, copy);
      behaviourByTest[copyTestId(copy, test.id)] = behaviour;
      grep.push(grepOf([`c${copy}/${test.file}`, ...test.titlePath.slice(1)]));
      files.add(`${copy}\n${test.file}`);
    }
  }
  return {
    project: { name, behaviourByTest, grep },
    copies,
    needs: (copy, file) => files.has(`${copy}\n${file}`),
  };
}

/**
 * Outcomes of a project that assigns behaviours, each re-labelled with the behaviour it ran against (plus a
 * suffix; the reference keeps its name) and with the original test's identity (a copy's is under c<k>/).
 * Outcomes of other projects are kept as they are.
 */
export function attribute(outcomes: TestOutcome[], projects: MutationPlanProject[], suffix: string): TestOutcome[] {
  const byName = new Map(projects.map((project) => [project.name, project]));
  return outcomes.map((outcome) => {
    const project = byName.get(outcome.project);
    if (project?.behaviourByTest === undefined) return outcome;
    const behaviour = behaviourOf(project, outcome.id);
    if (behaviour === undefined)
      throw new Error(`test ${outcome.id} ran in ${outcome.project} without an assigned behaviour`);
    const original = originalOf(outcome.id);
    const titlePath = original
      ? [outcome.file.replace(/^c\d+\//, ''), ...outcome.titlePath.slice(1)]
      : outcome.titlePath;
    return {
      ...outcome,
      project: behaviour === referenceName ? referenceName : `${behaviour}${suffix}`,
      id: titlePath.join(' › '),
      titlePath,
      file: titlePath[0]!,
      grep: grepOf(titlePath),
    };
  });
}

/** A property test explores many inputs, where an example test sends one. */
const isProperty = (test: TestOutcome): boolean => test.file.startsWith('properties/');

/**
 * The first test each mutant meets: the one that killed it in the last whole run (lab/mutation/killers.ts),
 * while the suite still has it; else one of its rule's tests, a property test where
 * the rule has one (a defect at an edge meets the property that explores the edges, seldom the one example
 * test picked), then the one the other assignments (and the mutants picked before) use least, then the
 * quickest. A mutant nearly always dies at the first test of its rule; one its first test misses meets the
 * rest of them next.
 */
export function firstRuleTests(
  targets: Assignment[],
  others: Assignment[],
  killedBefore: Record<string, string> = {},
  covering: TestOutcome[] = [],
): Assignment[] {
  const byId = new Map(covering.map((test) => [test.id, test]));
  const load = new Map<string, number>();
  const use = (test: TestOutcome): void => void load.set(test.id, (load.get(test.id) ?? 0) + 1);
  for (const other of others) other.tests.forEach(use);
  // The mutants with the fewest choices pick first, so that those with many can go around them.
  const order = [...targets].sort((a, b) => a.tests.length - b.tests.length);
  const picked = new Map<string, TestOutcome>();
  const better = (a: TestOutcome, b: TestOutcome): boolean => {
    if (isProperty(a) !== isProperty(b)) return isProperty(a);
    const byLoad = (load.get(a.id) ?? 0) - (load.get(b.id) ?? 0);
    return byLoad < 0 || (byLoad === 0 && a.durationMs <= b.durationMs);
  };
  for (const target of order) {
    const recorded = byId.get(killedBefore[target.behaviour] ?? '');
    const best = recorded ?? target.tests.reduce((a, b) => (better(a, b) ? a : b));
    use(best);
    picked.set(target.behaviour, best);
  }
  return targets.map((target) => ({ behaviour: target.behaviour, tests: [picked.get(target.behaviour)!] }));
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

/** What a variant's impact map needs of it: the operations it changes and the rules its choice tests. */
export type Declared = Touching & { rules: readonly string[] };

/**
 * A variant's impact map: the tests that can meet its choice, as it declares it. Of the tests calling an
 * operation it changes, those tagged with a rule whose verdict its choice tests (its `rules`); broad tests
 * only when no other test is tagged so. A choice it makes beyond what its rules name still meets every
 * covering test when the variant is among the run's sample (wholeSample), which checks the map.
 */
export function impactTests(variant: Declared, reference: TestOutcome[]): TestOutcome[] {
  const tagged = coveringTests(variant, reference).filter((outcome) =>
    outcome.tags.some((tag) => variant.rules.includes(tag)),
  );
  const focused = tagged.filter((outcome) => !isBroad(outcome));
  return focused.length > 0 ? focused : tagged;
}

/**
 * `count` names drawn from `names` by a seeded shuffle: the same seed draws the same sample, so that a
 * run's map check can be repeated (npm run mutation -- --sample-seed S), and another seed draws others.
 */
export function wholeSample(names: readonly string[], count: number, seed: number): string[] {
  const random = seededRandom(seed);
  const pool = [...names];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, Math.max(0, Math.min(count, pool.length)));
}

/**
 * Tests outside a variant's impact map that failed on it: the map missed them (its `rules` should name
 * a rule of theirs), besides each being a false positive of the suite.
 */
export function mapGaps(variant: Declared, failed: TestOutcome[], reference: TestOutcome[]): TestOutcome[] {
  const mapped = new Set(impactTests(variant, reference).map((outcome) => outcome.id));
  return failed.filter((outcome) => !mapped.has(outcome.id));
}
