/**
 * The assertion every conformance test ends in: expectRule(ruleId, exchange, violations).
 * Each call makes a verdict record (held, lenient or broken) in the running test's sink
 * (judgment/verdict-sink.ts), which the reporters read; a broken rule also fails the
 * test, with the message rendered from its record (judgment/verdict-message.ts): the
 * rule and its kind, the operation, the request, each location with the expected and actual
 * value, the rule's sentence, its reference section, and a curl command (key masked).
 */
import { expect as baseExpect, test, type TestInfo } from '@playwright/test';
import { rule, type RuleKind } from '../contract/rules.ts';
import { describeRequest, type Exchange } from '../http/exchange.ts';
import type { Violation } from './checks.ts';
import { redact } from '../settings/secrets.ts';
import { violationTable } from './rule-labels.ts';
import { assertedJudgements, judgeAnswer } from './registry.ts';
import type { Expectation } from './expectations.ts';
import { withoutFrames, withoutSuiteFrames } from './frameless.ts';
import { blockedReason, brokenEarlier, recordBroken } from './known-broken.ts';
import { checkRecord, renderVerdict } from './verdict-message.ts';
import { causeSignature } from './cause-keys.ts';
import { currentSink as scopedSink, sinkOf, type VerdictSink } from './verdict-sink.ts';
import type { AnswerSettings } from './answer-settings.ts';

export { ruleFailureMessage } from './verdict-message.ts';

/** The running Playwright test; undefined outside one (unit tests of the messages). */
function runningTest(): TestInfo | undefined {
  try {
    return test.info();
  } catch {
    return undefined;
  }
}

/** The sink of the judgment under way: a property run's, else the running test's. */
export function currentSink(): VerdictSink | undefined {
  return scopedSink() ?? sinkOf(runningTest());
}

/**
 * How the running test reads answers (its fixture's settings: --strict, the clock tolerance). A check made where
 * no sink is open has no settings to read: an error, never the default reading in silence.
 */
export function answerSettings(): AnswerSettings {
  const sink = currentSink();
  if (sink === undefined)
    throw new Error(
      'a check was made outside a test of the suite (no verdict sink is open): how to read answers (--strict, ' +
        'the clock tolerance) is unknown; judge inside a test that uses suite/fixtures.ts, or open a sink',
    );
  return sink.settings;
}

/**
 * Attaches the violations as a table (CSV; Allure shows it as a table) to the current test.
 * Fire and forget: callers are synchronous, and an attachment with a body is recorded before
 * the failure that follows it is reported.
 */
export function attachViolationTable(ruleId: string, violations: readonly Violation[]): void {
  if (violations.length === 0) return;
  const info = runningTest();
  if (info === undefined) return; // outside a test: nothing to attach to
  info
    .attach(`${ruleId} violations`, { body: redact(violationTable(violations)), contentType: 'text/csv' })
    .catch(() => undefined);
}

export const expect = baseExpect.extend({
  toSatisfyRule(exchange: Exchange, ruleId: string, violations: Violation[]) {
    rule(ruleId); // an unknown id is a bug in the test, not a pass
    const pass = violations.length === 0;
    return {
      pass,
      name: 'toSatisfyRule',
      message: () =>
        pass
          ? `${ruleId}: expected a violation by ${exchange.operation}, found none`
          : renderVerdict(checkRecord(ruleId, exchange, violations)),
    };
  },
});

/** Records the rule as broken in this run, and by what causes, for later tests; nothing outside a test. */
function noteBroken(ruleId: string, violations: readonly Violation[]): void {
  const title = runningTest()?.title;
  const sink = currentSink();
  if (title !== undefined && sink !== undefined)
    recordBroken(ruleId, title, sink.runEnv, violations.map(causeSignature));
}

/** Asserts a rule on an exchange; soft assertions let one test report every rule it checks. */
export function expectRule(
  ruleId: string,
  exchange: Exchange,
  violations: Violation[],
  options: { soft?: boolean; lenient?: string } = {},
): void {
  currentSink()?.add(
    checkRecord(ruleId, exchange, violations, options.lenient === undefined ? {} : { lenient: options.lenient }),
  );
  if (violations.length > 0) {
    attachViolationTable(ruleId, violations);
    noteBroken(ruleId, violations);
  }
  // A broken rule is a verdict on the target: no code frame of this file under it (judgment/frameless.ts).
  withoutSuiteFrames(() => {
    if (options.soft) expect.soft(exchange).toSatisfyRule(ruleId, violations);
    else expect(exchange).toSatisfyRule(ruleId, violations);
  });
}

/** The kind of the running test's rules (covers() records it), if it has one. */
function testKind(): RuleKind | undefined {
  const sink = currentSink();
  if (sink !== undefined) return sink.kind;
  const kind = runningTest()?.annotations.find((annotation) => annotation.type === 'kind')?.description;
  return kind === 'documented' || kind === 'inferred' ? kind : undefined;
}

/** Fails the test before its own rule is checked, because a step it needs broke another rule. */
export class PreconditionError extends Error {
  override name = 'PreconditionError';
}

/** Fails the test with a precondition naming the rule that broke, when it has violations. */
export function precondition(ruleId: string, exchange: Exchange, violations: Violation[]): void {
  const sink = currentSink();
  if (violations.length === 0) {
    sink?.add(checkRecord(ruleId, exchange, violations, { precondition: true }));
    return;
  }
  // Already found broken by another test: skipped here, not failed again (judgment/known-broken.ts).
  const title = runningTest()?.title;
  const earlier = title === undefined || sink === undefined ? undefined : brokenEarlier(ruleId, title, sink.runEnv);
  if (earlier !== undefined) {
    const reason = blockedReason(ruleId, earlier);
    sink?.undecided('blocked', reason, ruleId);
    test.skip(true, reason);
  }
  const record = checkRecord(ruleId, exchange, violations, { precondition: true });
  sink?.add(record);
  sink?.undecided('blocked', `not checked: its precondition ${ruleId} failed first`, ruleId);
  noteBroken(ruleId, violations);
  attachViolationTable(ruleId, violations);
  throw withoutFrames(new PreconditionError(renderVerdict(record)));
}

/**
 * Asserts the judgements of an answer (judgment/registry.ts) that the running test owns
 * (assertedJudgements: its kind's rules, and of the other kind what it relies on, as a
 * precondition). The rule the expectation names comes first, and hard (unless `soft`: the test goes
 * on to other requests of the same kind), since what a test does next needs the answer it expected;
 * then each rule the operation's answers owe, softly, so that one test reports every rule its
 * answer breaks.
 */
export function expectAnswer(exchange: Exchange, expectation: Expectation, options: { soft?: boolean } = {}): void {
  const judgements = judgeAnswer(exchange, expectation, answerSettings());
  const asserted = assertedJudgements(exchange, expectation, judgements, testKind());
  // What --strict would fail among the rules this test asserts: shown on the test's page in every report.
  const info = runningTest();
  for (const { rule: ruleId, lenient } of asserted) {
    if (lenient === undefined || info === undefined) continue;
    const description = redact(`${ruleId}: ${describeRequest(exchange)} → ${exchange.status}: ${lenient}`);
    info.annotations.push({ type: 'lenient', description });
  }
  for (const [index, judgement] of asserted.entries()) {
    if (judgement.precondition) precondition(judgement.rule, exchange, judgement.violations);
    else
      expectRule(judgement.rule, exchange, judgement.violations, {
        soft: index > 0 || options.soft === true,
        ...(judgement.lenient === undefined ? {} : { lenient: judgement.lenient }),
      });
  }
}
