/**
 * Why the traffic never exercised a rule, per rule, for the traffic's coverage: an operation the
 * traffic never called; a rule only a request owed acceptance exercises, when every request of its
 * operation was "accept or refuse" or "must refuse" (which input made the first one so, and what a
 * request owed acceptance looks like); a rule only a request owed a refusal exercises; or no
 * exchange that met what the rule judges. "Not exercised" is never "passed": this says what the
 * client's traffic leaves untested, and how to reach it.
 */
import { operationRules, type OperationId } from '../contract/operations.ts';
import type { Rule } from '../contract/rules.ts';
import { mustAcceptRequest, type TargetOwnValues } from '../judge/must-accept-example.ts';
import type { OperationTraffic } from './traffic-collector.ts';

const classWords: Record<string, string> = {
  'must-accept': 'must accept',
  'must-refuse': 'must refuse',
  'accept-or-refuse': 'accept or refuse',
};

const words = (inputClass: string): string => classWords[inputClass] ?? inputClass;

/** A rule only a request owed acceptance exercises: the operation's success rule, or a rule of must-accept inputs. */
function owesAcceptance(rule: Rule, operation: OperationId): boolean {
  return rule.id === operationRules(operation).success || rule.input?.class === 'must-accept';
}

/** Why a request of the operation was not owed acceptance: its first input of another class, and why. */
function notOwedBecause(seen: OperationTraffic): string {
  for (const inputClass of ['accept-or-refuse', 'must-refuse'])
    for (const [name, first] of seen.firstOfClass)
      if (name === inputClass) return `; the first ${words(name)} sent ${first.what} (${first.why})`;
  return '';
}

/** The reason a rule of an operation the traffic called was never exercised, in one sentence. */
export function notExercisedReason(
  rule: Rule,
  operation: OperationId,
  seen: OperationTraffic,
  values: TargetOwnValues | undefined,
): string {
  if (owesAcceptance(rule, operation)) {
    const owed = seen.classes.get('must-accept') ?? 0;
    const example = values === undefined ? undefined : mustAcceptRequest(operation, values);
    const lookLike = example === undefined ? '' : `; one owed acceptance: ${example}`;
    if (owed === 0) {
      const classes = [...seen.classes].map(([name, count]) => `${count} ${words(name)}`).join(', ');
      return (
        'only a request owed acceptance exercises it, and none came' +
        (classes === '' ? '' : ` (the requests' input classes: ${classes})`) +
        `${notOwedBecause(seen)}${lookLike}`
      );
    }
    return (
      `${owed} request(s) owed acceptance came, but none was judged by it ` +
      '(answered otherwise, or not the input it judges)'
    );
  }
  if (rule.input?.class === 'must-refuse')
    return 'only a request owed a refusal of its kind exercises it, and none came';
  return 'no exchange met what it judges';
}

/**
 * The coverage's section of reasons: per operation, the rules never exercised, those with the same reason on one
 * line (each rule named, with why).
 */
export function notExercisedSection(
  never: ReadonlyArray<{ operation: OperationId; rules: readonly Rule[]; seen: OperationTraffic | undefined }>,
  values: TargetOwnValues | undefined,
): string[] {
  const lines: string[] = [];
  for (const { operation, rules, seen } of never) {
    if (rules.length === 0) continue;
    if (seen === undefined || seen.exchanges === 0) {
      lines.push(`- ${operation}: no exchange of it, so none of its ${rules.length} rule(s)`);
      continue;
    }
    const byReason = new Map<string, string[]>();
    for (const rule of rules) {
      const reason = notExercisedReason(rule, operation, seen, values);
      byReason.set(reason, [...(byReason.get(reason) ?? []), rule.id]);
    }
    for (const [reason, ids] of byReason) lines.push(`- ${ids.join(', ')} (${operation}): ${reason}`);
  }
  return lines.length === 0
    ? []
    : [
        '',
        '### Why not exercised',
        '',
        'Each rule the traffic never exercised, with why ' +
          '(`collect-conformance rules --show RULE` says what exercises ' +
          'a rule):',
        '',
        ...lines,
      ];
}
