/**
 * Where the verdict records of one test are kept until the test ends, with what its checks need
 * to judge (the answer settings: --strict, the clock tolerance) and what its records are about
 * (the kind and the rules the test declares). The fixture that opens it (suite/fixtures.ts)
 * attaches the records to the test's result when the test ends; the reporters read them there.
 *
 * Held records of the same rule, operation and status are counted rather than repeated: a
 * property test judges thousands of answers, and its result must stay small.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RuleKind } from '../contract/rules.ts';
import type { AnswerSettings } from './answer-settings.ts';
import { CountedRecords } from './counted-records.ts';
import type { VerdictKind, VerdictRecord } from './verdict-record.ts';

export class VerdictSink {
  private readonly kept: VerdictRecord[] = [];
  private readonly counted = new CountedRecords();

  /** How answers are judged in this test. */
  readonly settings: AnswerSettings;
  /** The kind of the test's rules (covers()), when it declares one. */
  readonly kind: RuleKind | undefined;
  /** The rules the test declares it checks. */
  readonly rules: readonly string[];
  /**
   * The run's variables: where the files the run's workers share are (its output directory) and its run id, for
   * what other tests of the run found broken (judgment/known-broken.ts).
   */
  readonly runEnv: Readonly<Record<string, string | undefined>>;

  constructor(
    settings: AnswerSettings,
    kind: RuleKind | undefined,
    rules: readonly string[],
    runEnv: Readonly<Record<string, string | undefined>>,
  ) {
    this.settings = settings;
    this.kind = kind;
    this.rules = rules;
    this.runEnv = runEnv;
  }

  add(record: VerdictRecord): void {
    if (record.kind !== 'held' && record.kind !== 'lenient') {
      this.kept.push(record);
      return;
    }
    const key = [
      record.rule,
      record.kind,
      record.operation,
      record.exchange?.status,
      record.precondition === true,
    ].join('|');
    const first = this.counted.count(key, record);
    if (first !== undefined) this.kept.push(first);
  }

  /**
   * A record for each rule the test declares that no check has decided yet: what stopped the test
   * (a skip and its reason, a precondition another test found broken, an unreachable target).
   */
  undecided(kind: Exclude<VerdictKind, 'held' | 'lenient' | 'broken'>, reason: string, blockedBy?: string): void {
    // A rule already judged by the test itself, or found broken (even as a step it relied on), keeps that verdict.
    const decided = new Set(
      this.kept.filter((record) => !record.precondition || record.kind === 'broken').map((record) => record.rule),
    );
    for (const rule of this.rules) {
      if (decided.has(rule)) continue;
      this.kept.push({ rule, kind, violations: [], reason, ...(blockedBy === undefined ? {} : { blockedBy }) });
    }
  }

  /** True when a record of this kind was made (a test that was already given its reason is not given another). */
  has(kind: VerdictKind): boolean {
    return this.kept.some((record) => record.kind === kind);
  }

  records(): VerdictRecord[] {
    return [...this.kept];
  }
}

/**
 * The sinks of the tests running in this worker, by the test's TestInfo (one object per test run). Module state on
 * purpose: checks are called from test code and helpers that are handed an exchange, not the test's fixtures; the
 * sink is found from the running test (Playwright's test.info()), as Playwright's own expect finds it.
 */
const sinks = new WeakMap<object, VerdictSink>();

export function openSink(testInfo: object, sink: VerdictSink): VerdictSink {
  sinks.set(testInfo, sink);
  return sink;
}

/** The sink of a test, when it has one (a test of the suite; not a unit test calling the checks directly). */
export function sinkOf(testInfo: object | undefined): VerdictSink | undefined {
  return testInfo === undefined ? undefined : sinks.get(testInfo);
}

/**
 * The sink of a judgment that runs outside a Playwright test's own call stack: a property run's
 * cases (generation/properties.ts) run inside withSink, so that every check they make
 * finds it, whatever test object, if any, is around.
 */
const scoped = new AsyncLocalStorage<VerdictSink>();

export function withSink<T>(sink: VerdictSink, run: () => T): T {
  return scoped.run(sink, run);
}

/** The sink of the scope under way (withSink), if any. */
export function currentSink(): VerdictSink | undefined {
  return scoped.getStore();
}
