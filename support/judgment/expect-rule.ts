/**
 * The assertion every conformance test ends in: expectRule(ruleId, exchange, violations).
 * It passes when there are no violations; otherwise it fails with a message that names
 * the rule and its kind, the operation, the request, each location with the expected
 * and actual value, the rule's sentence, its reference section, and a curl command
 * (key masked) that repeats the request.
 */
import { expect as baseExpect, test } from '@playwright/test';
import { rule } from '../../contract/rules.ts';
import { curlCommand, describeRequest, type Exchange } from '../http/exchange.ts';
import type { Violation } from './checks.ts';
import { redact } from '../http/redact.ts';
import { violationTable } from '../reporting/allure.ts';
import { assertedJudgements, judgeAnswer } from './registry.ts';
import type { Expectation } from './expectations.ts';
import type { RuleKind } from '../../contract/rules.ts';
import { withoutFrames, withoutSuiteFrames } from './frameless.ts';
import { blockedReason, brokenEarlier, recordBroken } from './known-broken.ts';

export function ruleFailureMessage(ruleId: string, exchange: Exchange, violations: Violation[]): string {
  const entry = rule(ruleId);
  const lines = [
    `${ruleId} (${entry.kind}) violated by ${exchange.operation}: ${describeRequest(exchange)} → ${exchange.status}`,
    ...violations.map(
      (violation) => `  at ${violation.location}: expected ${violation.expected}, actual ${violation.actual}`,
    ),
    `  rule: ${entry.text}`,
    `  reference: ${entry.section}: "${entry.reference}"`,
    `  reproduce: ${curlCommand(exchange)}`,
    // Names the assertion in the form Playwright's JUnit reporter reads as an assertion: the test is a <failure>
    // (a non-conformance), not an <error> (what a broken suite or an unreachable target gives).
    `  assertion: expect(answer).toSatisfyRule(${JSON.stringify(ruleId)})`,
  ];
  return redact(lines.join('\n'));
}

/**
 * Attaches the violations as a table (CSV; Allure shows it as a table) to the current test.
 * Fire and forget: callers are synchronous, and an attachment with a body is recorded before
 * the failure that follows it is reported.
 */
export function attachViolationTable(ruleId: string, violations: readonly Violation[]): void {
  if (violations.length === 0) return;
  let attached: Promise<void>;
  try {
    attached = test
      .info()
      .attach(`${ruleId} violations`, { body: redact(violationTable(violations)), contentType: 'text/csv' });
  } catch {
    return; // outside a test (unit tests of the messages): nothing to attach to
  }
  attached.catch(() => undefined);
}

export const expect = baseExpect.extend({
  toSatisfyRule(exchange: Exchange, ruleId: string, violations: Violation[]) {
    rule(ruleId); // an unknown id is a bug in the test, not a pass
    const pass = violations.length === 0;
    if (!pass) {
      attachViolationTable(ruleId, violations);
      noteBroken(ruleId);
    }
    return {
      pass,
      name: 'toSatisfyRule',
      message: () =>
        pass
          ? `${ruleId}: expected a violation by ${exchange.operation}, found none`
          : ruleFailureMessage(ruleId, exchange, violations),
    };
  },
});

/** Asserts a rule on an exchange; soft assertions let one test report every rule it checks. */
export function expectRule(
  ruleId: string,
  exchange: Exchange,
  violations: Violation[],
  options: { soft?: boolean } = {},
): void {
  // A broken rule is a verdict on the target: no code frame of this file under it (support/judgment/frameless.ts).
  withoutSuiteFrames(() => {
    if (options.soft) expect.soft(exchange).toSatisfyRule(ruleId, violations);
    else expect(exchange).toSatisfyRule(ruleId, violations);
  });
}

/** The kind of the running test's rules (covers() records it), if it has one. */
function testKind(): RuleKind | undefined {
  const kind = test.info().annotations.find((annotation) => annotation.type === 'kind')?.description;
  return kind === 'documented' || kind === 'inferred' ? kind : undefined;
}

/** Records the rule as broken in this run, for later tests' preconditions; nothing outside a test. */
function noteBroken(ruleId: string): void {
  const title = currentTitle();
  if (title !== undefined) recordBroken(ruleId, title);
}

/** The running test's title; undefined outside a test (unit tests of the messages). */
function currentTitle(): string | undefined {
  try {
    return test.info().title;
  } catch {
    return undefined;
  }
}

/** Fails the test before its own rule is checked, because a step it needs broke another rule. */
export class PreconditionError extends Error {
  override name = 'PreconditionError';
}

/** Fails the test with a precondition naming the rule that broke, when it has violations. */
export function precondition(ruleId: string, exchange: Exchange, violations: Violation[]): void {
  if (violations.length > 0) {
    // Already found broken by another test: skipped here, not failed again (support/judgment/known-broken.ts).
    const title = currentTitle();
    const earlier = title === undefined ? undefined : brokenEarlier(ruleId, title);
    if (earlier !== undefined) test.skip(true, blockedReason(ruleId, earlier));
    noteBroken(ruleId);
    attachViolationTable(ruleId, violations);
    throw withoutFrames(
      new PreconditionError(`precondition failed: ${ruleFailureMessage(ruleId, exchange, violations)}`),
    );
  }
}

/**
 * Asserts the judgements of an answer (support/judgment/registry.ts) that the running test owns
 * (assertedJudgements: its kind's rules, and of the other kind what it relies on, as a
 * precondition). The rule the expectation names comes first, and hard (unless `soft`: the test goes
 * on to other requests of the same kind), since what a test does next needs the answer it expected;
 * then each rule the operation's answers owe, softly, so that one test reports every rule its
 * answer breaks.
 */
export function expectAnswer(exchange: Exchange, expectation: Expectation, options: { soft?: boolean } = {}): void {
  const judgements = judgeAnswer(exchange, expectation);
  const asserted = assertedJudgements(exchange, expectation, judgements, testKind());
  // What --strict would fail among the rules this test asserts (an accepted lenient input, a value --strict requires).
  for (const { rule: ruleId, lenient } of asserted) {
    if (lenient === undefined) continue;
    const description = redact(`${ruleId}: ${describeRequest(exchange)} → ${exchange.status}: ${lenient}`);
    test.info().annotations.push({ type: 'lenient', description });
  }
  for (const [index, judgement] of asserted.entries()) {
    if (judgement.precondition) precondition(judgement.rule, exchange, judgement.violations);
    else expectRule(judgement.rule, exchange, judgement.violations, { soft: index > 0 || options.soft === true });
  }
}
