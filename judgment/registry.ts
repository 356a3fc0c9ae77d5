/**
 * The check registry: the rules every answer of an operation owes, registered once and applied
 * to every exchange of every test, example or generated, through judgeAnswer (in the manner of
 * Schemathesis's checks). A test says what its request was, as an Expectation that names the
 * rule its request is judged under, and asserts only what is specific to its behaviour; a new
 * operation or rule gets its checks here, without touching the tests.
 *
 * Two kinds of registered checks:
 * - by role, from the operations table (contract/operations.ts): the success status and the
 *   documented shape of the answer (the operation's success schema, or no body), and the JSON
 *   Content-Type of an answer with a body. Their rule ids are the table's, named there literally.
 * - owed by a particular answer: the echoes and ids the request's context makes checkable (the
 *   body as the server read it, the transaction's amount, the id asked for), each naming its
 *   rule literally in its family's module. A check whose context the test did not give is not applied.
 *
 * The registered checks judge the 2xx answers of valid requests (accepted, or authorised with a
 * valid key) and of inputs the server accepted (as it read them). An answer whose content the
 * reference leaves undefined (a 2xx for an id that names nothing, another request form) is judged
 * on its status only. What a request was is an Expectation (judgment/expectations.ts).
 * How answers are read (--strict, the clock tolerance) is given to every judgment as a value.
 *
 * Rules across exchanges are history checks (judgeHistory): a check that needs history is handed what earlier
 * exchanges gave out (judgment/history.ts) and the request as history reads it, as Schemathesis hands its stateful
 * checks a context; the suite's stateful tests and the judge of traffic each feed a History and apply the same ones.
 *
 * The checks themselves are declared in the modules of their rules' families
 * (judgment/rules/): the check, the operations it is registered for and the words of its
 * violations in one place.
 */
import { operation, type OperationId } from '../contract/operations.ts';
import type { Exchange } from '../http/exchange.ts';
import { rule as ruleOf, type RuleKind } from '../contract/rules.ts';
import {
  isSuccess,
  statusIs,
  statusIsClientError,
  statusIsNotServerError,
  statusIsNotSuccess,
  statusIsSuccess,
  type Violation,
} from './checks.ts';
import { judgeInput } from './outcome.ts';
import type { AnswerContext, Expectation } from './expectations.ts';
import type { AnswerSettings } from './answer-settings.ts';
import type { Asked, History } from './history.ts';
import type { HistoryCheck, RegisteredCheck } from './rules/define.ts';
import { historyChecks, registeredChecks } from './rules/index.ts';
import { documentedOperations } from './rules/shape.ts';

/** One rule's verdict on one exchange: no violations means the rule holds. */
export interface Judgement {
  rule: string;
  violations: Violation[];
  /**
   * Set in the default reading when --strict would fail what passed: an input --strict refuses that the
   * target accepted, or an answer without a value --strict requires. One line saying so.
   */
  lenient?: string;
}

/** The status a valid request is owed: the one the reference shows, or any 2xx where it shows none. */
export function successStatus(id: OperationId): number | undefined {
  const status = operation(id).responses.find((response) => response.status.startsWith('2'))?.status;
  return status === undefined || status === '2XX' ? undefined : Number(status);
}

let registry: RegisteredCheck[] | undefined;

/** The registered checks of an operation (every rule its answers owe beyond the status). */
export function checksOf(id: OperationId): Array<Pick<RegisteredCheck, 'rule' | 'check'>> {
  registry ??= registeredChecks();
  return registry.filter((entry) => entry.operations.includes(id));
}

let historyRegistry: HistoryCheck[] | undefined;

/** The history checks of an operation (rules across exchanges). */
export function historyChecksOf(id: OperationId): Array<Pick<HistoryCheck, 'rule' | 'check' | 'statusOnly'>> {
  historyRegistry ??= historyChecks();
  return historyRegistry.filter((entry) => entry.operations.includes(id));
}

/**
 * Judges an answer by what earlier exchanges gave out: every history check of its operation that history holds
 * something to judge it by, one judgement per rule (checks of the same rule merged). Called before the exchange is
 * learnt (History.learn). An answer whose body was not kept whole is judged only by the checks of its status.
 */
export function judgeHistory(exchange: Exchange, asked: Asked, history: History): Judgement[] {
  const merged = new Map<string, Judgement>();
  for (const entry of historyChecksOf(exchange.operation)) {
    if (asked.incomplete && !entry.statusOnly) continue;
    const violations = entry.check(exchange, asked, history);
    if (violations === undefined) continue;
    const same = merged.get(entry.rule);
    if (same) same.violations.push(...violations);
    else merged.set(entry.rule, { rule: entry.rule, violations: [...violations] });
  }
  return [...merged.values()];
}

/** Every rule id the registry judges, by operation (for the rules hub and its link test). */
export function registeredRules(): Map<OperationId, string[]> {
  return new Map(documentedOperations().map((id) => [id, checksOf(id).map((entry) => entry.rule)]));
}

/** The registered checks of an accepted answer, one judgement per rule with violations or not. */
function judgeAccepted(exchange: Exchange, context: AnswerContext, settings: AnswerSettings): Judgement[] {
  if (operation(exchange.operation).rules === undefined) return [];
  return checksOf(exchange.operation).flatMap((entry): Judgement[] => {
    const result = entry.check(exchange, context, settings);
    if (result === undefined) return [];
    return Array.isArray(result) ? [{ rule: entry.rule, violations: result }] : [{ rule: entry.rule, ...result }];
  });
}

function noted(violations: Violation[], note: string | undefined): Violation[] {
  return note === undefined
    ? violations
    : violations.map((violation) => ({ ...violation, expected: `${violation.expected} (${note})` }));
}

function statusJudgement(exchange: Exchange, expectation: Exclude<Expectation, { kind: 'input' }>): Violation[] {
  switch (expectation.kind) {
    case 'accepted': {
      const status = successStatus(exchange.operation);
      return status === undefined ? statusIsSuccess(exchange) : statusIs(exchange, status);
    }
    case 'status':
      return statusIs(exchange, expectation.status);
    case 'refused':
      return statusIsClientError(exchange);
    case 'authorised':
      return exchange.status === 401 || exchange.status === 403
        ? [{ location: 'status', expected: 'not 401 or 403 (the key is valid)', actual: String(exchange.status) }]
        : [];
    case 'not-accepted':
      return statusIsNotSuccess(exchange);
    case 'not-server-error':
      return statusIsNotServerError(exchange);
    case 'either':
      return statusIsNotServerError(exchange);
  }
}

const judged = new WeakSet<Exchange>();

/** True once judgeAnswer has judged the exchange (the API client fails a test that left one unjudged). */
export function wasJudged(exchange: Exchange): boolean {
  return judged.has(exchange);
}

/**
 * Judges an answer: first the rule the expectation names (its status; for an input of a known
 * class, the whole verdict of judgment/outcome.ts with the registered checks as what an
 * accepted answer owes), then, for an answer owed as a success, every registered check of its
 * operation under its own rule. Judgements of the same rule are merged.
 */
export function judgeAnswer(exchange: Exchange, expectation: Expectation, settings: AnswerSettings): Judgement[] {
  judged.add(exchange);
  if (expectation.kind === 'input') {
    // What the accepted answer broke is named with the rule whose check found it: the answer's fault, not the input's.
    const verdict = judgeInput(exchange, expectation.input, expectation.strict, (reading) =>
      judgeAccepted(exchange, expectation.context(reading), settings).flatMap((judgement) =>
        judgement.violations.map((violation) => ({ ...violation, by: judgement.rule })),
      ),
    );
    return [
      {
        rule: expectation.rule,
        violations: verdict.violations,
        ...(verdict.lenient ? { lenient: verdict.lenient } : {}),
      },
    ];
  }
  const first: Judgement = {
    rule: expectation.rule,
    violations: noted(statusJudgement(exchange, expectation), expectation.note),
  };
  const owesChecks =
    expectation.kind === 'accepted' || expectation.kind === 'authorised' || expectation.kind === 'either';
  if (!owesChecks || !isSuccess(exchange.status)) return [first];
  const merged = new Map<string, Judgement>([[first.rule, first]]);
  const context = expectation.kind === 'authorised' ? {} : expectation.context;
  for (const judgement of judgeAccepted(exchange, context, settings)) {
    const same = merged.get(judgement.rule);
    if (!same) merged.set(judgement.rule, judgement);
    else {
      same.violations.push(...judgement.violations);
      if (same.lenient === undefined && judgement.lenient !== undefined) same.lenient = judgement.lenient;
    }
  }
  return [...merged.values()];
}

/** A judgement as a test of one kind asserts it: of its own kind, or a precondition of its request. */
export interface AssertedJudgement extends Judgement {
  precondition: boolean;
}

/**
 * The judgements a test of `kind` asserts (covers() gives every test one kind, so that a run of
 * documented rules only stays exact): the rules of its kind; of the other kind, only what the test
 * relies on, as a precondition: the success of a request it expected to be accepted, and, with
 * `prerequisite` (the steps after this one use the answer: its id, its token), the answer's shape.
 * The other rules of the other kind are left to that kind's tests, which make the same requests.
 */
export function assertedJudgements(
  exchange: Pick<Exchange, 'operation'>,
  expectation: Expectation,
  judgements: Judgement[],
  kind: RuleKind | undefined,
  prerequisite = false,
): AssertedJudgement[] {
  const reliedOn = expectation.kind === 'accepted' || expectation.kind === 'authorised';
  const shape = operation(exchange.operation).rules?.shape;
  return judgements.flatMap((judgement, index): AssertedJudgement[] => {
    if (kind === undefined || ruleOf(judgement.rule).kind === kind) return [{ ...judgement, precondition: false }];
    const needed = (index === 0 && reliedOn) || (prerequisite && judgement.rule === shape);
    return needed ? [{ ...judgement, precondition: true }] : [];
  });
}
