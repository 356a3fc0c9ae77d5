/**
 * Playwright fixtures of the conformance suite: the target, the API client, and the
 * resources tests need (a created transaction, its payment link, customers), each
 * owned by its fixture. A resource that cannot be obtained fails the test with a
 * "precondition" message naming the rule that broke, or skips it when the target lacks
 * something the reference does not promise (customer creation, configured ids).
 */
import { test as base, type TestInfo } from '@playwright/test';
import type { CreateTransactionBody } from '../contract/types.ts';
import { operation } from '../contract/operations.ts';
import { ApiClient } from './api-client.ts';
import { creationPhoneNumber, customerBody, transactionBody } from '../generation/bodies.ts';
import { statusIsSuccess } from '../judgment/checks.ts';
import type { Exchange } from '../http/exchange.ts';
import { answerSettings, expectRule, precondition } from '../judgment/expect-rule.ts';
import { deletionRule, deletionViolations } from '../judgment/deletion.ts';
import { labelTestAfter, labelTestBefore } from './allure-labels.ts';
import { currentTarget, type Target } from '../settings/target.ts';
import { createdCustomerId } from '../output/ledger.ts';
import { settleInFlight } from '../http/transport.ts';
import { judgeAnswer, wasJudged } from '../judgment/registry.ts';
import { accepted, type Expectation } from '../judgment/expectations.ts';
import { openSink, VerdictSink } from '../judgment/verdict-sink.ts';
import { sameCauseAnnotation, verdictAttachment, type VerdictAttachmentBody } from '../judgment/verdict-record.ts';
import { causesReportedFirstBy } from '../judgment/known-broken.ts';
import { causeSignature } from '../judgment/cause-keys.ts';
import type { RuleKind } from '../contract/rules.ts';

export interface CreatedTransaction {
  sent: CreateTransactionBody;
  exchange: Exchange;
  id: number;
  amount: number;
}

export interface IssuedLink {
  exchange: Exchange;
  /** The token exactly as the link operation returned it (the reference says: a string). */
  token: unknown;
  url: unknown;
}

export interface CustomerFactory {
  /** Creates a customer through POST /customers (the suite's helper; skips the test when the target has none). */
  create(): Promise<{ id: number; exchange: Exchange }>;
}

export { precondition, PreconditionError } from '../judgment/expect-rule.ts';

/**
 * Judges a step the test needs (judgment/registry.ts): what the test relies on, the success
 * of the request and the shape of its answer (the id, the token), is a precondition; the other rules
 * its answer owes are judged by the tests about them.
 */
export function preconditionAnswer(exchange: Exchange, expectation: Expectation): void {
  const shape = operation(exchange.operation).rules?.shape;
  for (const [index, judgement] of judgeAnswer(exchange, expectation, answerSettings()).entries()) {
    if (index === 0 || judgement.rule === shape) precondition(judgement.rule, exchange, judgement.violations);
  }
}

/**
 * A test that failed only on causes other tests of this run reported first: a failure like any other, for
 * Playwright and every report, with an annotation naming the tests that reported them first, so that the
 * reports can group it under their cause (the Playwright HTML report shows the annotation beside the failure).
 */
function annotateSameCause(testInfo: TestInfo, sink: VerdictSink): void {
  if (testInfo.status !== 'failed') return;
  const broken = sink.records().filter((record) => record.kind === 'broken');
  // Another error than the verdicts (an error of the suite, the transport) is this test's own to report.
  if (broken.length === 0 || testInfo.errors.length > broken.length) return;
  const firstBy = causesReportedFirstBy(
    broken.flatMap((record) => record.violations.map(causeSignature)),
    testInfo.title,
    sink.runEnv,
  );
  if (firstBy === undefined) return;
  testInfo.annotations.push({
    type: sameCauseAnnotation,
    description: firstBy.map((title) => `"${title}"`).join(', '),
  });
}

/** Skips a test that creates or deletes something when the target is live without PCS_ALLOW_LIVE_WRITES=yes. */
export function requireWrites(target: Target): void {
  base.skip(!target.writesAllowed, 'writes are off on a live target (set PCS_ALLOW_LIVE_WRITES=yes to allow them)');
}

type TestFixtures = {
  /** The test's verdict records, attached to its result when it ends (judgment/verdict-sink.ts). */
  verdicts: VerdictSink;
  api: ApiClient;
  createdTransaction: CreatedTransaction;
  issuedLink: IssuedLink;
  customers: CustomerFactory;
  /** Allure labels of every test (epic, feature, story, severity, reference link), from its rules. */
  allureLabels: void;
  keepWorkerOnExpectedFailure: void;
  harnessSkip: void;
};

/** Options a Playwright project sets with `use`. */
export type SuiteOptions = {
  /** The target is known to break rules (a harness's deliberately broken server): failing tests are expected. */
  failuresExpected: boolean;
};

type WorkerFixtures = { target: Target; settleRequests: void };

/** A harness's reason to skip a test before it sends anything, or undefined to run it. */
export type HarnessSkip = (testInfo: TestInfo) => string | undefined;

/**
 * Kept on globalThis under a registered symbol, as the transport's outgoing headers are
 * (http/transport.ts), so that a configuration file and the tests reach the same hook.
 */
const harnessSkipKey = Symbol.for('collect-conformance.harness-skip');

/**
 * Lets a harness skip tests that can no longer tell it anything: npm run mutation skips the remaining tests
 * of a mutant another test already killed (each would only pass against the reference). The suite never sets it.
 */
export function setHarnessSkip(skip: HarnessSkip | undefined): void {
  (globalThis as Record<symbol, unknown>)[harnessSkipKey] = skip;
}

export const test = base.extend<TestFixtures & SuiteOptions, WorkerFixtures>({
  target: [
    async ({}, use) => {
      await use(currentTarget());
    },
    { scope: 'worker', auto: true },
  ],

  // Automatic: every test's checks read answers as the target's configuration says (--strict, the clock
  // tolerance), and what they judged reaches the reporters as records, whatever the test's outcome.
  verdicts: [
    async ({ target }, use, testInfo) => {
      const declared = (type: string) =>
        testInfo.annotations.filter((annotation) => annotation.type === type).map((a) => a.description ?? '');
      const kind = declared('kind')[0];
      const sink = openSink(
        testInfo,
        new VerdictSink(
          { strict: target.strict, clockToleranceSeconds: target.clockToleranceSeconds },
          kind === 'documented' || kind === 'inferred' ? (kind as RuleKind) : undefined,
          declared('rule'),
          target.env,
        ),
      );
      await use(sink);
      annotateSameCause(testInfo, sink);
      if (testInfo.status === 'skipped' && !sink.has('blocked') && !sink.has('unavailable')) {
        const reason = [...testInfo.annotations]
          .reverse()
          .find((annotation) => annotation.type === 'skip')?.description;
        sink.undecided('skipped', reason ?? 'skipped without a reason');
      }
      const body: VerdictAttachmentBody = { version: 1, records: sink.records() };
      // Pushed, not attach()ed: no step of its own in the reports, no stack captured.
      testInfo.attachments.push({ ...verdictAttachment, body: Buffer.from(JSON.stringify(body)) });
    },
    { auto: true },
  ],

  // When a worker stops (end of run, or Ctrl-C), requests an interrupted test abandoned are let finish,
  // so that a customer they created is in the run ledger for global teardown (run/cleanup.ts).
  settleRequests: [
    async ({}, use, workerInfo) => {
      await use();
      await settleInFlight(Math.min(10_000, workerInfo.project.timeout || 10_000));
    },
    { scope: 'worker', auto: true },
  ],

  allureLabels: [
    async ({ verdicts }, use, testInfo) => {
      await labelTestBefore(testInfo);
      await use();
      // Epic and feature depend on the operations the test called, known only now.
      await labelTestAfter(testInfo, verdicts.records());
    },
    { auto: true },
  ],

  /**
   * A project whose target is known to break rules (`use: { failuresExpected: true }`, as a harness
   * that runs the suite against deliberately broken servers sets it) expects failing tests: a failure
   * is marked expected once it happened, so that Playwright keeps the worker instead of replacing it
   * after every failure (about a second each on two cores). Results keep their actual status.
   */
  failuresExpected: [false, { option: true }],
  harnessSkip: [
    async ({}, use, testInfo) => {
      const reason = ((globalThis as Record<symbol, unknown>)[harnessSkipKey] as HarnessSkip | undefined)?.(testInfo);
      testInfo.skip(reason !== undefined, reason);
      await use();
    },
    { auto: true },
  ],
  keepWorkerOnExpectedFailure: [
    async ({ failuresExpected }, use, testInfo) => {
      await use();
      if (failuresExpected && testInfo.status === 'failed') testInfo.fail();
    },
    { auto: true },
  ],

  api: async ({ target, verdicts }, use, testInfo) => {
    const client = new ApiClient(target, testInfo, verdicts);
    await use(client);
    // Every answer of a passing test was judged by its operation's registered rules (judgment/registry.ts).
    const unjudged = client.unjudged(wasJudged);
    if (testInfo.status === 'passed' && unjudged.length > 0) {
      const list = unjudged.map((exchange) => `${exchange.method} ${exchange.path} → ${exchange.status}`).join(', ');
      throw new Error(
        `suite error: the test did not judge ${unjudged.length} answer(s) (${list}): judge each with expectAnswer`,
      );
    }
  },

  createdTransaction: async ({ api, target }, use, testInfo) => {
    requireWrites(target);
    const sent = transactionBody(target, testInfo.title);
    const exchange = await api.call('createTransaction', { body: sent });
    preconditionAnswer(exchange, accepted('TXN-CREATE-2XX', { read: { ...sent } }));
    const json = exchange.json as { id: number; amount: number };
    await use({ sent, exchange, id: json.id, amount: sent.amount });
    // Transactions cannot be deleted: they carry the run id (description, custom_metadata) instead.
  },

  issuedLink: async ({ api, createdTransaction }, use) => {
    const exchange = await api.call('getPaymentLink', { params: { id: createdTransaction.id } });
    preconditionAnswer(exchange, accepted('LINK-2XX'));
    const json = exchange.json as { token: unknown; url: unknown };
    await use({ exchange, token: json.token, url: json.url });
  },

  customers: async ({ api, target }, use) => {
    const created: number[] = [];
    await use({
      async create() {
        requireWrites(target);
        // Customer creation is not shown by the reference, so its body is unknown: try the
        // Customer fields without, then with, a phone number (string, then number form).
        const minimal = customerBody(target);
        const phone = creationPhoneNumber(target);
        const attempts = [
          minimal,
          { ...minimal, phone_number: { ...phone, number: String(phone.number) } },
          { ...minimal, phone_number: phone },
        ];
        let exchange: Exchange | undefined;
        for (const body of attempts) {
          exchange = await api.call('createCustomer', { body });
          if (statusIsSuccess(exchange).length === 0 || [401, 403, 404, 405, 501].includes(exchange.status)) break;
        }
        const answer = exchange!;
        const id = createdCustomerId(answer.json);
        base.skip(
          statusIsSuccess(answer).length > 0 && answer.status !== 401 && answer.status !== 403,
          `the target did not create a customer (POST /customers answered ${answer.status}); ` +
            `the reference does not show customer creation`,
        );
        precondition('CUSTOMER-DELETE-204', answer, [
          ...statusIsSuccess(answer),
          ...(id === undefined
            ? [
                {
                  location: 'body /id',
                  expected: 'an integer customer id',
                  actual: answer.bodyText.slice(0, 120) || 'empty',
                },
              ]
            : []),
        ]);
        created.push(id!);
        return { id: id!, exchange: answer };
      },
    });
    // Delete what is left: customers the test did not delete itself with a 204. Each deletion is a request of this
    // test, judged at least for "never a 5xx" (judgment/deletion.ts), whatever the test's kind.
    const deleted = new Set(
      api.exchanges
        .filter((exchange) => exchange.operation === 'deleteCustomer' && exchange.status === 204)
        .map((exchange) => exchange.path),
    );
    for (const id of created) {
      if (deleted.has(`/customers/${id}`)) continue;
      const exchange = await api.call('deleteCustomer', { params: { id }, quiet: true });
      expectRule(deletionRule, exchange, deletionViolations(exchange.status), { soft: true });
    }
  },
});

export { expectAnswer, expectRule } from '../judgment/expect-rule.ts';
