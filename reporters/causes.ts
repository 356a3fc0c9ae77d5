/**
 * Causes, not just rules: one defect of a target (timestamps written as numbers, an amount as a
 * string, 403 where 401 is owed) breaks several rules on several operations, and each of them
 * fails several tests. The violations of the broken records are grouped into causes: two
 * violations are one cause when they are the same JSON pointer of an answer with the same kind
 * of value found there (an amount as a string breaks the shape and the echo at /amount), when
 * they are the same failure of the shape (type string expected, a number found: created_at and
 * updated_at alike), or when they are the same status where another is owed, on any operation.
 * Reports lead with causes; a rule is listed under the cause that broke it.
 */
import { violationType, type Violation } from '../judgment/checks.ts';
import { causeId, causeKeys, expectedCore, fieldOf } from '../judgment/cause-keys.ts';
import type { VerdictRecord } from '../judgment/verdict-record.ts';
import type { TestRecord } from './conformance-model.ts';

export interface Cause {
  /** A short stable id of the cause (the same defect gives the same id in every run). */
  id: string;
  /** The ids of every violation signature it groups (a failure's message names its own). */
  ids: string[];
  /** What is wrong, in a few words: "/created_at, /updated_at: a number where type string is owed". */
  title: string;
  /** The rules it breaks (a violation found by a rule's check names that rule, whatever record holds it). */
  rules: string[];
  /** The input rules whose accepted answer it broke (their records hold the violation; the answer is at fault). */
  through: string[];
  operations: string[];
  /** The cases that met it. */
  tests: string[];
  /** The first record that shows it. */
  example: VerdictRecord;
  /** Every record that shows it. */
  records: VerdictRecord[];
  /** The first violation of the cause in that record. */
  violation: Violation;
}

/** A disjoint-set forest over the violations' keys. */
class Groups {
  private readonly parent = new Map<string, string>();

  find(key: string): string {
    let root = key;
    while (this.parent.has(root) && this.parent.get(root) !== root) root = this.parent.get(root)!;
    if (!this.parent.has(key)) this.parent.set(key, key);
    return root;
  }

  join(keys: readonly string[]): void {
    const [first, ...others] = keys.map((key) => this.find(key));
    for (const other of others) if (other !== first) this.parent.set(other, first!);
  }
}

function titleOf(members: ReadonlyArray<{ violation: Violation }>): string {
  const first = members[0]!.violation;
  if (violationType(first) === 'status') return `answers ${first.actual} where ${expectedCore(first.expected)} is owed`;
  const fields = [...new Set(members.map((member) => fieldOf(member.violation.location)))];
  const shownFields = fields.slice(0, 4).join(', ') + (fields.length > 4 ? ` and ${fields.length - 4} more` : '');
  const found = first.actualType;
  const expected = expectedCore(first.expected);
  if (found === 'absent') return `${shownFields}: missing where ${expected} is owed`;
  if (found !== undefined && violationType(first) === 'schema')
    return `${shownFields}: ${found === 'null' ? 'null' : `a ${found}`} where ${expected} is owed`;
  return `${shownFields}: not the value owed (e.g. ${expected} owed, ${first.actual} found)`;
}

/** The causes of the broken records of a run, the one that breaks most rules and tests first. */
export function causesOf(tests: ReadonlyArray<Pick<TestRecord, 'title' | 'verdicts'>>): Cause[] {
  const groups = new Groups();
  const members: Array<{
    test: Pick<TestRecord, 'title' | 'verdicts'>;
    record: VerdictRecord;
    violation: Violation;
    key: string;
  }> = [];
  for (const test of tests) {
    for (const record of test.verdicts) {
      if (record.kind !== 'broken') continue;
      for (const violation of record.violations) {
        const keys = causeKeys(violation);
        groups.join(keys);
        members.push({ test, record, violation, key: keys[0]! });
      }
    }
  }
  const byRoot = new Map<string, typeof members>();
  for (const member of members) {
    const root = groups.find(member.key);
    byRoot.set(root, [...(byRoot.get(root) ?? []), member]);
  }
  const causes = [...byRoot.values()].map((group): Cause => {
    const first = group[0]!;
    const rules = [...new Set(group.map((member) => member.violation.by ?? member.record.rule))];
    const through = [
      ...new Set(group.filter((member) => member.violation.by !== undefined).map((member) => member.record.rule)),
    ].filter((rule) => !rules.includes(rule));
    return {
      id: causeId(first.violation),
      ids: [...new Set(group.map((member) => causeId(member.violation)))],
      title: titleOf(group),
      rules,
      through,
      operations: [...new Set(group.flatMap((member) => (member.record.operation ? [member.record.operation] : [])))],
      tests: [...new Set(group.map((member) => member.test.title))],
      example: first.record,
      records: [...new Set(group.map((member) => member.record))],
      violation: first.violation,
    };
  });
  return causes.sort((a, b) => b.rules.length - a.rules.length || b.tests.length - a.tests.length);
}

/** One line naming a cause: what is wrong, where, and the rules it breaks. */
export function causeLine(cause: Cause): string {
  const through =
    cause.through.length > 0 ? `; and, through an accepted input's answer, ${cause.through.join(', ')}` : '';
  return (
    `cause ${cause.id}: ${cause.title} — on ${cause.operations.join(', ') || 'an operation'}; ` +
    `breaks ${cause.rules.join(', ')}${through}`
  );
}
