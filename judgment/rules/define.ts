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
