/**
 * Runner glue of the property-based and stateful tests: reads PCS_RUNS, PCS_SEED, PCS_PATH
 * and PCS_PROPERTY_BUDGET_MS, runs a fast-check property inside a Playwright test with the
 * keep-alive client, and on failure throws one message that names the rule, gives the
 * seed and path, the minimal counterexample (numbered steps, each request as a curl
 * command with the key masked) and the one command that replays it.
 *
 * Generated requests are not Playwright steps (thousands of steps would swamp Allure and
 * the HTML report): each property test attaches one summary (requests per operation and
 * status), plus the counterexample's exchanges when it fails, and appends its request
 * count and duration to ${PCS_OUTPUT_DIR:-reports}/property-stats.jsonl for npm run bench.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import type { TestInfo } from '@playwright/test';
import fc from 'fast-check';
import { curlCommand, describeRequest, formatExchange, type Exchange } from '../http/exchange.ts';
import { answerSettings, currentSink } from '../judgment/expect-rule.ts';
import type { Violation } from '../judgment/checks.ts';
import { FastClient, type CaseStep, type FastTarget } from '../http/fast-client.ts';
import { RequestAbandoned, TargetAlreadyUnreachable, TransportError } from '../http/transport.ts';
import { addCost, peekCost, takeCosts } from '../http/request-costs.ts';
import { operation, type OperationId } from '../contract/operations.ts';
import { redact } from '../settings/secrets.ts';
import { outputRootOf } from '../output/output-directory.ts';
import { assertedJudgements, judgeAnswer, judgeHistory } from '../judgment/registry.ts';
import type { Expectation } from '../judgment/expectations.ts';
import type { Asked, History } from '../judgment/history.ts';
import { rule } from '../contract/rules.ts';

// The settings are read in their own light module: the command checks them before Playwright starts.
export { propertySettings, defaultRuns, defaultBudgetMs, type PropertySettings } from './property-settings.ts';
import { propertySettings, type Env, type PropertySettings } from './property-settings.ts';
import { recordedInvocation, replayLine } from './replay-command.ts';
import { casesInFlight, freshSeed, type CaseRunDetails } from './concurrent-cases.ts';
import { inFlightLimit } from '../http/in-flight.ts';
import { blockedReason, brokenEarlier, recordBroken } from '../judgment/known-broken.ts';
import { recordShrink, shrinkDecision } from './shrink-budget.ts';
import { withoutFrames } from '../judgment/frameless.ts';
import { checkRecord, renderVerdict, requestLine } from '../judgment/verdict-message.ts';
import type { VerdictRecord } from '../judgment/verdict-record.ts';
import { sinkOf, type VerdictSink, withSink } from '../judgment/verdict-sink.ts';
import { causeSignature } from '../judgment/cause-keys.ts';

/** A rule broken by a generated case: thrown inside a predicate (see holds); its record is the verdict. */
export class PropertyViolation extends Error {
  override name = 'PropertyViolation';
  readonly record: VerdictRecord;
  readonly ruleId: string;
  readonly precondition: boolean;

  constructor(ruleId: string, exchange: Exchange, violations: Violation[], precondition: boolean) {
    const record = checkRecord(ruleId, exchange, violations, { precondition });
    super(renderVerdict(record));
    this.record = record;
    this.ruleId = ruleId;
    this.precondition = precondition;
    // A verdict on the target: no code frame of the suite under it (judgment/frameless.ts).
    withoutFrames(this);
  }
}

/**
 * Asserts a rule on an exchange inside a property: no violations, or the case fails. A rule that
 * holds is counted in the test's records; a broken one is recorded once, for the case the run reports.
 */
export function holds(ruleId: string, exchange: Exchange, violations: Violation[], lenient?: string): void {
  if (violations.length > 0) throw new PropertyViolation(ruleId, exchange, violations, false);
  currentSink()?.add(checkRecord(ruleId, exchange, [], lenient === undefined ? {} : { lenient }));
}

/** A step the case needs (e.g. creating the transaction it sends) broke another rule: reported as a precondition. */
export function needs(ruleId: string, exchange: Exchange, violations: Violation[]): void {
  if (violations.length > 0) throw new PropertyViolation(ruleId, exchange, violations, true);
  currentSink()?.add(checkRecord(ruleId, exchange, [], { precondition: true }));
}

/**
 * One 'status' annotation per operation and status the property's requests got, in the form
 * suite/api-client.ts records each request: the HTML report shows the statuses, and the mutation
 * plan knows which operations the property calls.
 */
function statusAnnotations(client: FastClient): Array<{ type: string; description: string }> {
  return [...client.counts.keys()].sort().map((key) => {
    const [operationId, status] = key.split(' ') as [OperationId, string];
    const op = operation(operationId);
    return { type: 'status', description: `${operationId} ${op.method} ${op.path} → ${status}` };
  });
}

/** One annotation per rule for what --strict would refuse in a property run (how many, and the first), for people. */
function lenientAnnotations(sink: VerdictSink): Array<{ type: string; description: string }> {
  return sink
    .records()
    .filter((record) => record.kind === 'lenient')
    .map((record) => ({
      type: 'lenient',
      description: redact(
        `${record.rule}: ${record.count ?? 1} case(s) --strict refuses, e.g. ` +
          `${record.exchange === undefined ? '' : `${requestLine(record.exchange)}: `}${record.lenient ?? ''}`,
      ),
    }));
}

/**
 * Judges an answer inside a property (judgment/registry.ts): the first rule of the
 * property's kind that the answer breaks fails the case; of the other kind, what the case relies on
 * is a precondition (assertedJudgements; `prerequisite`: later steps use the answer's id or token).
 * An input --strict would refuse that the target accepted is recorded as a lenient pass.
 */
export function holdsAnswer(
  exchange: Exchange,
  expectation: Expectation,
  options: { prerequisite?: boolean } = {},
): void {
  const sink = currentSink();
  const judgements = judgeAnswer(exchange, expectation, answerSettings());
  const asserted = assertedJudgements(exchange, expectation, judgements, sink?.kind, options.prerequisite);
  for (const judgement of asserted) {
    if (judgement.precondition) needs(judgement.rule, exchange, judgement.violations);
    else holds(judgement.rule, exchange, judgement.violations, judgement.lenient);
  }
}

/**
 * Judges an answer by what the case's earlier exchanges gave out (the registry's history checks, the same the judge
 * of traffic applies), then adds it to the history, for the exchanges after it. The rules of the property's kind
 * are asserted; the others are left to the tests of their kind. Returns the rules judged (a history that held
 * nothing to judge the answer by judges none).
 */
export function holdsHistory(exchange: Exchange, asked: Asked, history: History): string[] {
  const kind = currentSink()?.kind;
  const judged: string[] = [];
  for (const judgement of judgeHistory(exchange, asked, history)) {
    judged.push(judgement.rule);
    if (kind === undefined || rule(judgement.rule).kind === kind) holds(judgement.rule, exchange, judgement.violations);
  }
  history.learn(exchange, asked);
  return judged;
}

/** Judges a step the case needs (creating the transaction it then sends): every rule it breaks is a precondition. */
export function needsAnswer(exchange: Exchange, expectation: Expectation): void {
  for (const judgement of judgeAnswer(exchange, expectation, answerSettings()))
    needs(judgement.rule, exchange, judgement.violations);
}

/** What the runner uses of Playwright's TestInfo (a plain object in the unit tests). */
export type PropertyTestInfo = Pick<
  TestInfo,
  'title' | 'file' | 'parallelIndex' | 'timeout' | 'setTimeout' | 'annotations' | 'attach' | 'skip'
>;

export interface PropertyOptions<T, C> {
  testInfo: PropertyTestInfo;
  /** Where PCS_RUNS, PCS_SEED, PCS_PATH and PCS_PROPERTY_BUDGET_MS are read (default: the run's, its test's sink's). */
  env?: Env;
  target: FastTarget;
  /** The generated cases; a function for stateful tests, which need the replay path (and may depend on setup). */
  arbitrary: fc.Arbitrary<T> | ((replayPath: string | undefined, context: C) => fc.Arbitrary<T>);
  /** Checks one generated case; throws (holds/needs) when it breaks a rule. */
  predicate: (value: T, client: FastClient, context: C) => Promise<void>;
  /** Runs once before the cases (e.g. issues a token the cases reuse). */
  setup?: (client: FastClient) => Promise<C>;
  /**
   * Print the failure and the counterexample's exchanges to stderr as well (default true; the unit tests turn it off).
   */
  echo?: boolean;
  /** Cases for this property instead of PCS_RUNS (e.g. a fraction of it for long stateful sequences). */
  runs?: (settings: PropertySettings) => number;
  /**
   * Cases run first, before the generated ones and on top of them (fast-check examples): the
   * edges every run must meet, whatever PCS_RUNS says. A function when they depend on setup.
   */
  examples?: T[] | ((context: C) => T[]);
}

export interface PropertyOutcome {
  runs: number;
  requests: number;
  durationMs: number;
  interrupted: boolean;
  seed: number;
}

interface FailedCase {
  error: unknown;
  steps: CaseStep[];
}

/** Playwright's --grep is a regular expression: the title is escaped so that it matches itself only. */
export function grepFor(title: string): string {
  return title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The replay line: the user's own command with seed, path and title added; the checkout's form when unknown. */
export function replayCommand(seed: number, path: string, title: string, env: Env): string {
  const invocation = recordedInvocation(env);
  if (invocation !== undefined) return replayLine(invocation, seed, path, grepFor(title));
  return `PCS_SEED=${seed} PCS_PATH=${shellQuote(path)} npm run conformance -- --grep ${shellQuote(grepFor(title))}`;
}

/** fc.commands prints which commands ran as a replayPath comment; PCS_PATH carries it after a "~". */
export function fullPath(path: string, counterexample: unknown): string {
  if (counterexample === undefined) return path;
  const replay = /\/\*replayPath="([^"]*)"\*\//.exec(fc.stringify(counterexample));
  return replay ? `${path}~${replay[1]}` : path;
}

/** JSON with every character outside printable ASCII escaped: generated text may hold invisible code points. */
export function printable(value: unknown): string {
  const json = JSON.stringify(value) as string | undefined;
  if (json === undefined) return fc.stringify(value);
  return json.replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => prefix + line)
    .join('\n');
}

/** What a generated failure adds to its rule's message: the property, seed, path, minimal counterexample, replay. */
export function failureDetail<T>(
  title: string,
  details: {
    seed: number;
    counterexamplePath: string | null;
    numRuns: number;
    numShrinks: number;
    counterexample: [T] | null;
    /** Why the counterexample is not (fully) shrunk, when it is not (generation/shrink-budget.ts). */
    shrinkNote?: string;
  },
  failed: FailedCase,
  /** The run's variables: how the command that ran it is replayed (generation/replay-command.ts). */
  env: Env,
): string[] {
  const lines = [
    '',
    `property "${title}": failed after ${details.numRuns} case(s), shrunk ${details.numShrinks} time(s)`,
  ];
  const value = details.counterexample?.[0];
  const path = details.counterexamplePath === null ? null : fullPath(details.counterexamplePath, value);
  if (details.shrinkNote !== undefined) lines.push(`  ${details.shrinkNote}`);
  lines.push(`  seed: ${details.seed}`, `  path: ${path ?? '(none)'}`);
  const labelled = failed.steps.some((step) => step.label !== undefined);
  const request = (exchange: Exchange, prefix: string): string[] => [
    `${prefix}${describeRequest(exchange)} → ${exchange.status}`,
    `${' '.repeat(prefix.length)}${curlCommand(exchange)}`,
  ];
  if (labelled) {
    // Stateful: the commands of the minimal sequence, numbered, each with its request(s).
    lines.push('  minimal counterexample, as numbered steps:');
    failed.steps.forEach((step, index) => {
      lines.push(`    ${index + 1}. ${step.label ?? '(setup)'}`);
      for (const exchange of step.exchanges) lines.push(...request(exchange, '       '));
    });
  } else {
    if (value !== undefined) lines.push(`  minimal counterexample: ${printable(value).slice(0, 2000)}`);
    lines.push('  its requests:');
    failed.steps
      .flatMap((step) => step.exchanges)
      .forEach((exchange, index) => {
        lines.push(...request(exchange, `    ${index + 1}. `));
      });
  }
  if (path !== null) lines.push(`  replay: ${replayCommand(details.seed, path, title, env)}`);
  return lines.map((line) => redact(line));
}

/** The failure message: the rule's own message first, rendered from its record, then how to replay. */
export function failureMessage<T>(
  title: string,
  details: Parameters<typeof failureDetail<T>>[1],
  failed: FailedCase,
  env: Env,
): string {
  const error = failed.error;
  const detail = failureDetail(title, details, failed, env);
  if (error instanceof PropertyViolation) return renderVerdict({ ...error.record, detail });
  const reason = error instanceof Error ? error.message : String(error);
  const head = `property failed with an error of the suite itself: ${reason}`;
  return redact([head, ...detail].join('\n'));
}

function recordStats(
  testInfo: PropertyTestInfo,
  title: string,
  outcome: PropertyOutcome,
  startedAt: number,
  costs: Record<string, number> | undefined,
  env: Env,
): void {
  const line = JSON.stringify({
    ...(costs === undefined ? {} : { costs }),
    runId: env.PCS_RUN_ID ?? null,
    title,
    file: testInfo.file,
    worker: testInfo.parallelIndex,
    runs: outcome.runs,
    requests: outcome.requests,
    durationMs: outcome.durationMs,
    startedAt,
    endedAt: startedAt + outcome.durationMs,
    interrupted: outcome.interrupted,
  });
  try {
    mkdirSync(outputRootOf(env), { recursive: true });
    // One short line per append: O_APPEND keeps the lines of concurrent workers whole.
    appendFileSync(`${outputRootOf(env)}/property-stats.jsonl`, `${line}\n`);
  } catch {
    // Statistics are for the benchmark; a read-only output directory must not fail the test.
  }
}

/** The skip reason when an error is a precondition that another test of this run found broken already. */
function blockingRule(error: unknown, title: string, env: Env): string | undefined {
  if (!(error instanceof PropertyViolation) || !error.precondition) return undefined;
  const earlier = brokenEarlier(error.ruleId, title, env);
  return earlier === undefined ? undefined : blockedReason(error.ruleId, earlier);
}

/** fast-check's account of a run, in the runner's terms (the counterexample is the property's one-value tuple). */
function fromFastCheck<T>(
  details: Omit<CaseRunDetails<T>, 'counterexample'> & { counterexample: unknown },
): CaseRunDetails<T> {
  return {
    failed: details.failed,
    interrupted: details.interrupted,
    seed: details.seed,
    numRuns: details.numRuns,
    numShrinks: details.numShrinks,
    counterexample: details.counterexample as [T] | null,
    counterexamplePath: details.counterexamplePath,
    errorInstance: details.errorInstance,
  };
}

/** Runs a property inside the current Playwright test; throws the failure message when a case breaks a rule. */
export async function runProperty<T, C = undefined>(options: PropertyOptions<T, C>): Promise<PropertyOutcome> {
  const { testInfo } = options;
  // The test's own sink, which its fixture opened (suite/fixtures.ts): how answers are read, where the run's files are.
  const sink = sinkOf(testInfo);
  if (sink === undefined)
    throw new Error(
      `property "${testInfo.title}": no verdict sink is open for its test (a property runs inside a test of the ` +
        'suite, whose fixture opens one; elsewhere, open one with openSink)',
    );
  return withSink(sink, () => runPropertyIn(sink, options));
}

async function runPropertyIn<T, C>(sink: VerdictSink, options: PropertyOptions<T, C>): Promise<PropertyOutcome> {
  const settings = propertySettings(options.env ?? sink.runEnv);
  /** The variables of the run: its test's, with what the caller gave on top (unit tests). */
  const runEnv = { ...sink.runEnv, ...options.env };
  const { testInfo } = options;
  const title = testInfo.title;
  testInfo.setTimeout(Math.max(testInfo.timeout, 2 * settings.budgetMs + 30_000));
  const client = new FastClient(options.target, runEnv);
  const startedAt = Date.now();
  const started = performance.now();
  let lastFailure: FailedCase | undefined;
  let transportFailure: TransportError | undefined;
  let cases = 0;
  /** The property stopped inside its first case, by its budget: what ran of it held. */
  let stoppedInFirstCase = false;
  /** Set when shrinking was cut short (its budget) or not done: said in the failure message. */
  let shrinkNote: string | undefined;
  let shrinkStopped = false;
  /** The skip reason when the failure is a precondition another test of this run found broken already. */
  let blockedBy: string | undefined;
  /** Time spent inside cases (the rest of the property's time is fast-check's: generating, filtering, shrinking). */
  let casesMs = 0;
  takeCosts(); // costs of an earlier test in this worker are not this one's
  try {
    let context: C;
    try {
      context = options.setup ? await options.setup(client) : (undefined as C);
    } catch (error) {
      // The target could not be reached while setting up: nothing is decided about the property's rules.
      if (error instanceof TransportError)
        sink.undecided(error.failure === 'rate-limited' ? 'rate-limited' : 'unavailable', error.message);
      if (error instanceof TargetAlreadyUnreachable) testInfo.skip(true, error.message);
      if (!(error instanceof PropertyViolation)) throw error;
      const blocked = blockingRule(error, title, runEnv);
      if (blocked !== undefined) {
        sink.undecided('blocked', blocked, error.ruleId);
        testInfo.skip(true, blocked);
      }
      recordBroken(error.ruleId, title, runEnv, error.record.violations.map(causeSignature));
      // What the setup needed is a precondition of every case.
      const record: VerdictRecord = { ...error.record, precondition: true };
      sink.add(record);
      sink.undecided('blocked', `not checked: its precondition ${error.ruleId} failed first`, error.ruleId);
      throw withoutFrames(new Error(renderVerdict(record)));
    }
    const arbitrary =
      typeof options.arbitrary === 'function' ? options.arbitrary(settings.replayPath, context) : options.arbitrary;
    /** Set when shrinking began; after its budget the remaining candidates pass at once, sending nothing. */
    let shrinkDeadline: number | undefined;
    /** One case: its failure (the error and the case's own steps), or undefined when it passed. */
    const caseOutcome = async (value: T): Promise<FailedCase | undefined> => {
      // After a transport failure the remaining cases pass at once: nothing is shrunk, the transport error is reported.
      if (transportFailure) return undefined;
      if (shrinkDeadline !== undefined && lastFailure !== undefined && performance.now() > shrinkDeadline) {
        shrinkStopped = true;
        return undefined;
      }
      cases++;
      // Its own record of steps: cases run side by side (generation/concurrent-cases.ts).
      const caseClient = client.forCase();
      const caseStarted = performance.now();
      try {
        await options.predicate(value, caseClient, context);
        return undefined;
      } catch (error) {
        // A case still running when the time budget stopped the property: the client was closed under it.
        if (error instanceof RequestAbandoned) return undefined;
        if (error instanceof TransportError) {
          transportFailure = error;
          return undefined;
        }
        return {
          error,
          steps: caseClient.caseSteps.map((step) => ({ label: step.label, exchanges: [...step.exchanges] })),
        };
      } finally {
        casesMs += performance.now() - caseStarted;
      }
    };
    const runCase = async (value: T): Promise<void> => {
      const failure = await caseOutcome(value);
      if (failure === undefined) return;
      // The last failing case is the minimal counterexample: shrinking only moves to cases that fail.
      lastFailure = failure;
      throw failure.error;
    };
    const property = fc.asyncProperty(arbitrary, runCase);
    const runs = options.runs ? options.runs(settings) : settings.runs;
    const examples = typeof options.examples === 'function' ? options.examples(context) : (options.examples ?? []);
    const parameters = {
      examples: examples.map((example) => [example] as [T]),
      // fast-check counts examples within numRuns (and cuts them to it): they come on top of the generated cases.
      numRuns: runs + examples.length,
      // Chosen here when PCS_SEED is unset: the cases run in flight and the shrink that follows need the same one.
      seed: settings.seed ?? freshSeed(),
    };
    const checkStarted = performance.now();
    let details: CaseRunDetails<T>;
    if (settings.path !== undefined) {
      // Replaying a path re-runs that one case; the reported counterexample is already minimal.
      details = fromFastCheck<T>(
        await fc.check(property, {
          ...parameters,
          path: settings.path,
          endOnFailure: true,
          plugins: [fc.interruptAfterTimeLimit(settings.budgetMs)],
        }),
      );
    } else {
      // The arbitrary's own sample, examples as values: fc.sample of the property draws other cases.
      const drawn = fc
        .sample(arbitrary, { examples, numRuns: parameters.numRuns, seed: parameters.seed })
        .map((value) => [value] as [T]);
      const found = await casesInFlight(
        drawn,
        parameters.seed,
        caseOutcome,
        settings.budgetMs,
        // Stopped by its budget: the cases still running may not send more (RequestAbandoned).
        () => client.close(),
        () => inFlightLimit(runEnv),
      );
      details = found.details;
      stoppedInFirstCase = found.stoppedInFirstCase;
      lastFailure = found.failure;
      if (found.failedIndex !== undefined && transportFailure === undefined) {
        const firstFailure = found.failure as FailedCase;
        const rule = firstFailure.error instanceof PropertyViolation ? firstFailure.error.ruleId : undefined;
        blockedBy = blockingRule(firstFailure.error, title, runEnv);
        const decision =
          settings.shrink && blockedBy === undefined ? shrinkDecision(rule, settings.budgetMs, runEnv) : undefined;
        if (decision?.shrink) {
          // The failing case again, alone, by its path, then fast-check's shrinking from it: the path and
          // counterexample printed are those a run of one case at a time would print.
          lastFailure = undefined;
          const shrinkStarted = performance.now();
          shrinkDeadline = shrinkStarted + decision.budgetMs;
          const shrunk = fromFastCheck<T>(await fc.check(property, { ...parameters, path: String(found.failedIndex) }));
          recordShrink(rule, title, performance.now() - shrinkStarted, runEnv);
          if (shrunk.failed && (lastFailure as FailedCase | undefined) !== undefined) {
            details = { ...shrunk, numRuns: found.failedIndex + 1 };
            if (shrinkStopped) shrinkNote = `shrinking stopped after ${decision.why}; the smallest case by then`;
          } else {
            lastFailure = firstFailure;
            shrinkNote =
              `not shrunk: the case did not fail again when replayed alone (it ran beside other cases), ` +
              `so the failure may depend on requests in flight at the same time`;
          }
        } else if (decision !== undefined) shrinkNote = decision.why;
      }
    }
    // Stopped by its budget, the property leaves its last case running: it may not send more (RequestAbandoned).
    client.close();
    const checkedMs = performance.now() - checkStarted;
    // What the cases spent outside the measured phases is the checks, the model and the test's own logic.
    const measured = (['build', 'transport', 'parse', 'mask', 'ledger', 'validation'] as const).reduce(
      (sum, phase) => sum + peekCost(phase),
      0,
    );
    addCost('checks', Math.max(0, casesMs - measured));
    addCost('generation', Math.max(0, checkedMs - casesMs));
    const recordingStarted = performance.now();
    const outcome: PropertyOutcome = {
      runs: cases,
      requests: client.requests,
      durationMs: Math.round(performance.now() - started),
      interrupted: details.interrupted,
      seed: details.seed,
    };
    testInfo.annotations.push(...lenientAnnotations(sink), ...statusAnnotations(client));
    testInfo.annotations.push({
      type: 'property',
      description:
        `seed ${details.seed}; ${cases} case(s), ${client.requests} request(s) in ${outcome.durationMs} ` +
        `ms${details.interrupted ? `; stopped by the ${settings.budgetMs} ms budget` : ''}`,
    });
    await testInfo.attach('generated requests', {
      contentType: 'text/plain',
      body:
        `seed ${details.seed}, ${cases} case(s), ${client.requests} request(s), ` +
        `${outcome.durationMs} ms\n${client.summary()}\n`,
    });
    addCost('recording', performance.now() - recordingStarted);
    recordStats(testInfo, title, outcome, startedAt, takeCosts(), runEnv);
    // Not a verdict on the target's conformance: the transport's own error (its name and prefix classify it), or a skip
    // when an earlier test already found the target unreachable (as suite/api-client.ts does).
    if (transportFailure !== undefined)
      sink.undecided(
        transportFailure.failure === 'rate-limited' ? 'rate-limited' : 'unavailable',
        transportFailure.message,
      );
    if (transportFailure instanceof TargetAlreadyUnreachable) testInfo.skip(true, transportFailure.message);
    if (transportFailure) throw transportFailure;
    // fast-check (replaying a path) reports a property its budget stopped before any case ended as failed, with no
    // error: nothing failed there (a slow target, a long sequence), what ran of the case held. It passes, and says so.
    if (details.failed && details.interrupted && lastFailure === undefined && details.errorInstance == null)
      stoppedInFirstCase = true;
    // A precondition another test found broken already: skipped here, not failed again (known-broken.ts).
    if (blockedBy !== undefined) {
      sink.undecided('blocked', blockedBy, (lastFailure?.error as PropertyViolation | undefined)?.ruleId);
      testInfo.skip(true, blockedBy);
    }
    if (stoppedInFirstCase) {
      testInfo.annotations.push({
        type: 'property',
        description:
          `stopped by the ${settings.budgetMs} ms budget (PCS_PROPERTY_BUDGET_MS) ` +
          `inside its first case: only what ran of it was checked`,
      });
    }
    if (details.failed && !stoppedInFirstCase) {
      const failed: FailedCase = lastFailure ?? { error: details.errorInstance, steps: [] };
      const counterexample = details.counterexample as [T] | null;
      const message = failureMessage(title, { ...details, counterexample, shrinkNote }, failed, runEnv);
      if (failed.error instanceof PropertyViolation) {
        const violation = failed.error;
        recordBroken(violation.ruleId, title, runEnv, violation.record.violations.map(causeSignature));
        // The one record of the run's failure: the minimal case, with how to replay it.
        sink.add({
          ...violation.record,
          detail: failureDetail(title, { ...details, counterexample, shrinkNote }, failed, runEnv),
        });
        if (violation.precondition)
          sink.undecided('blocked', `not checked: its precondition ${violation.ruleId} failed first`, violation.ruleId);
      }
      const exchanges = failed.steps.flatMap((step) => step.exchanges);
      for (const [index, exchange] of exchanges.entries()) {
        await testInfo.attach(
          `counterexample request ${index + 1}: ${exchange.method} ${exchange.path} → ${exchange.status}`,
          {
            contentType: 'text/plain',
            body: formatExchange(exchange),
          },
        );
      }
      if (options.echo !== false)
        process.stderr.write(
          `${message}\n\n${exchanges.map((exchange) => indent(formatExchange(exchange), '  ')).join('\n\n')}\n`,
        );
      // A broken rule is a verdict on the target: its message, without a code frame of this file.
      throw failed.error instanceof PropertyViolation ? withoutFrames(new Error(message)) : new Error(message);
    }
    return outcome;
  } finally {
    client.close();
  }
}
