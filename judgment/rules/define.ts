/**
 * How a rule's check is declared: one registered function per rule and operation set, in the
 * module of its rule's family (judgment/rules/*.ts), next to the check's own logic and
 * the words of its violations, in the manner of Schemathesis's checks. The registry
 * (judgment/registry.ts) applies every registered check of an operation to each answer
 * owed as a success, wherever the exchange comes from: a test of the suite, or traffic.
 */
import type { OperationId } from '../../contract/operations.ts';
import { rule } from '../../contract/rules.ts';
import type { Exchange } from '../../http/exchange.ts';
import type { AnswerSettings } from '../answer-settings.ts';
import type { Violation } from '../checks.ts';
import type { AnswerContext } from '../expectations.ts';
import type { Asked, History } from '../history.ts';

/** An answer that passed, in the default reading, with what --strict would refuse in it. */
export interface Passed {
  violations: [];
  lenient: string;
}

export interface RegisteredCheck {
  rule: string;
  operations: readonly OperationId[];
  /**
   * The violations of an answer the request was owed as a success; undefined when the context lacks what it
   * needs (the check is then not applied). A check that --strict reads otherwise also says, for an answer
   * that passed, what --strict would refuse.
   */
  check(exchange: Exchange, context: AnswerContext, settings: AnswerSettings): Violation[] | Passed | undefined;
}

/**
 * Declares a rule's check. The rule must be in the catalogue and concern every operation it is registered
 * for: a typo in a rule id, or a check on an operation its rule does not name, fails when the registry loads.
 */
export function registered(
  ruleId: string,
  operations: readonly OperationId[],
  check: RegisteredCheck['check'],
): RegisteredCheck {
  const entry = rule(ruleId);
  const foreign = operations.filter((id) => !entry.operations.includes(id));
  if (foreign.length > 0)
    throw new Error(`check of ${ruleId} registered for ${foreign.join(', ')}, which the rule does not concern`);
  return { rule: ruleId, operations, check };
}

/**
 * A check that needs history: what earlier exchanges gave out (ids, tokens, deletions, accounts), as a History the
 * caller fed (judgment/history.ts), and the request as history reads it (whose, naming what, sending what). It is
 * applied to every answer of its operations, before the exchange is learnt: the suite's stateful tests and the judge
 * of traffic apply the same one (judgment/registry.ts, `judgeHistory`).
 */
export interface HistoryCheck {
  rule: string;
  operations: readonly OperationId[];
  /** The violations of the answer given what history showed; undefined when history holds nothing to judge it by. */
  check(exchange: Exchange, asked: Asked, history: History): Violation[] | undefined;
  /** It reads the status alone: applied also to an answer whose body was not kept whole. */
  statusOnly?: boolean;
}

/** Declares a rule's history check, under the same conditions as `registered`. */
export function registeredWithHistory(
  ruleId: string,
  operations: readonly OperationId[],
  check: HistoryCheck['check'],
  options: { statusOnly?: boolean } = {},
): HistoryCheck {
  const { rule: checked } = registered(ruleId, operations, () => undefined);
  return { rule: checked, operations, check, ...(options.statusOnly ? { statusOnly: true } : {}) };
}
