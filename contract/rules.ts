/**
 * Typed access to the rules catalogue (specs/rules.json): the data that names every rule
 * of the reference. Tests refer to rules by id; an unknown id is an error at load time,
 * so a typo cannot silently leave a rule untested.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { OperationId } from './operations.ts';

export type RuleKind = 'documented' | 'inferred';

/** The outcome classes of request inputs (docs/explanations/outcome-classes.md). */
export type InputClass = 'must-accept' | 'must-refuse' | 'accept-or-refuse';

/** For a rule about request inputs: the class of the inputs it judges, and what --strict makes of them. */
export interface RuleInput {
  class: InputClass;
  /** A class, or a sentence when --strict treats the rule's inputs differently by kind. */
  strict: string;
}

export interface Rule {
  id: string;
  kind: RuleKind;
  /** Heading path in the reference, e.g. "Endpoints > 1. Delete a customer". */
  section: string;
  operations: OperationId[];
  /** The rule in one sentence. */
  text: string;
  /** The reference's own words the rule rests on. */
  reference: string;
  /** True for the type quirks the reference documents. */
  quirk?: boolean;
  /** Rules about request inputs: their outcome class. */
  input?: RuleInput;
  /**
   * Why no (non-equivalent) mutant of the mock can break this rule, for a rule that has none;
   * tests/unit/rule-links.test.ts requires a mutant or this reason.
   */
  noMutant?: string;
}

interface Catalogue {
  reference: string;
  rules: Rule[];
}

export const rulesFile = fileURLToPath(new URL('../specs/rules.json', import.meta.url));

const catalogue = JSON.parse(readFileSync(rulesFile, 'utf8')) as Catalogue;

export const rules: readonly Rule[] = catalogue.rules;

const byId = new Map(rules.map((rule) => [rule.id, rule]));

export function rule(id: string): Rule {
  const found = byId.get(id);
  if (!found) throw new Error(`unknown rule id ${id} (not in specs/rules.json)`);
  return found;
}

export function isRuleId(id: string): boolean {
  return byId.has(id);
}

/** Edit distance between two ids (insertions, deletions, substitutions), for suggestions. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The known ids nearest to an unknown one, for "did you mean" messages: most words in common
 * first (TXN, CREATE, 4XX, ...), then the fewest edits, case ignored.
 */
export function nearestRuleIds(unknown: string, count = 3): string[] {
  const wanted = unknown.trim().toUpperCase();
  const words = new Set(wanted.split(/[^A-Z0-9]+/).filter((word) => word !== ''));
  const shared = (id: string): number => id.split('-').filter((word) => words.has(word)).length;
  return rules
    .map((entry) => ({ id: entry.id, shared: shared(entry.id), edits: distance(wanted, entry.id) }))
    .sort((a, b) => b.shared - a.shared || a.edits - b.edits || a.id.localeCompare(b.id))
    .slice(0, count)
    .map((entry) => entry.id);
}
