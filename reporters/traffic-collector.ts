/**
 * The judged traffic as the reports need it, gathered while it is judged, in memory bounded however
 * long the traffic runs: one case per operation and rule, whose held, lenient and undecided records
 * of the same kind and status are counted rather than kept (as a test's verdict sink counts them)
 * and whose first broken records are kept, each with its exchange; per operation, the exchanges,
 * statuses and input classes seen; the first exchanges outside the reference, the first client
 * findings and the first partly recorded answers, with their totals.
 */
import type { TestRecord } from './conformance-model.ts';
import { CountedRecords } from '../judgment/counted-records.ts';
import { isUndecided, type VerdictRecord } from '../judgment/verdict-record.ts';
import type { ClientFinding } from '../judge/client-findings.ts';
import type { JudgedExchange } from '../judge/traffic-judge.ts';

/** Broken records kept per case: enough to show a defect, whatever the traffic's length. */
export const brokenKeptPerCase = 100;
/** Exchanges outside the reference, and client findings, listed (the others counted). */
export const listedOutside = 200;
export const listedClientFindings = 1000;

interface TrafficCase {
  verdicts: VerdictRecord[];
  counted: CountedRecords;
  brokenKept: number;
  /** Broken records past brokenKeptPerCase: counted, not kept. */
  brokenMore: number;
}

export interface OperationTraffic {
  exchanges: number;
  statuses: Set<number>;
  classes: Map<string, number>;
  /** The first request of each input class: what it sent, and why it has that class (the coverage says why). */
  firstOfClass: Map<string, { what: string; why: string }>;
}

export interface OutsideExchange {
  method: string;
  path: string;
  status: number;
  why: string;
}

/** Whether any record of a case is broken, or every one undecided or skipped: its outcome. */
function outcomeOf(records: readonly VerdictRecord[]): TestRecord['outcome'] {
  if (records.some((record) => record.kind === 'broken')) return 'failed';
  if (records.length > 0 && records.every((record) => isUndecided(record) || record.kind === 'skipped'))
    return 'skipped';
  return 'passed';
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url.slice(0, 200);
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

/** Why exchanges were skipped on purpose: --sample, or --max-judge-lag (their verdict says how many). */
export type SkipReason = 'sampled' | 'lag';

/** Counts by reason, in the order the reasons first came. */
export class ReasonCounts {
  private readonly counts = new Map<string, number>();

  add(reason: string, count = 1): void {
    if (count > 0) this.counts.set(reason, (this.counts.get(reason) ?? 0) + count);
  }

  get total(): number {
    let sum = 0;
    for (const count of this.counts.values()) sum += count;
    return sum;
  }

  entries(): Array<[reason: string, count: number]> {
    return [...this.counts.entries()];
  }

  /** "12 (why), 3 (why)". */
  text(): string {
    return this.entries()
      .map(([reason, count]) => `${count} (${reason})`)
      .join(', ');
  }
}

export class TrafficCollector {
  private readonly byCase = new Map<string, TrafficCase>();
  /**
   * What was not judged, by why: an internal error judging it, an answer the proxy could not read, an entry of
   * a HAR that is not an exchange, a hook that failed. Such traffic keeps the verdict from being a pass.
   */
  readonly notJudged = new ReasonCounts();
  /** Requests that got no answer to judge (the upstream unreachable or silent, a connection closed), by why. */
  readonly unanswered = new ReasonCounts();
  /** Exchanges skipped on purpose (learnt from, not judged): --sample, --max-judge-lag. */
  readonly skipped = new ReasonCounts();
  /** Errors of the judge itself (an exchange it failed on, a report it could not write): the first says what. */
  internalErrors = 0;
  firstInternalError: string | undefined;
  readonly operations = new Map<string, OperationTraffic>();
  readonly outside: OutsideExchange[] = [];
  exchanges = 0;
  outsideTotal = 0;
  incompleteTotal = 0;
  /** Client findings, in the order the requests came, each with the origin it went to (the first ones: listed). */
  private readonly findingsKept: Array<{ finding: ClientFinding; origin: string }> = [];
  /** Findings of requests to operations of the reference. */
  private routedFindings = 0;
  /**
   * Requests outside the reference, by origin: a finding once an exchange to that origin was an operation of the
   * reference (a recording's other services with a /v1 in their paths are not the client's requests to the API).
   */
  private readonly outsideFindingsByOrigin = new Map<string, number>();
  private readonly apiOrigins = new Set<string>();
  firstIncomplete: string | undefined;

  /** Takes one judged exchange: its records into their cases, the rest into the counts. */
  add(judged: JudgedExchange): void {
    this.exchanges++;
    for (const record of judged.records) this.addRecord(record);
    const { traffic } = judged;
    if (judged.outside !== undefined) {
      this.outsideTotal++;
      if (this.outside.length < listedOutside)
        this.outside.push({
          method: traffic.method,
          path: pathOf(traffic.url),
          status: traffic.status,
          why: judged.outside,
        });
    }
    const origin = originOf(traffic.url);
    if (judged.route !== undefined && judged.outside === undefined) {
      this.apiOrigins.add(origin);
      let operation = this.operations.get(judged.route.operation);
      if (operation === undefined) {
        operation = { exchanges: 0, statuses: new Set(), classes: new Map(), firstOfClass: new Map() };
        this.operations.set(judged.route.operation, operation);
      }
      operation.exchanges++;
      operation.statuses.add(traffic.status);
      if (judged.inputClass)
        operation.classes.set(judged.inputClass, (operation.classes.get(judged.inputClass) ?? 0) + 1);
      if (judged.input !== undefined && !operation.firstOfClass.has(judged.input.class))
        operation.firstOfClass.set(judged.input.class, { what: judged.input.what, why: judged.input.why });
    }
    for (const finding of judged.clientFindings) {
      if (finding.outside)
        this.outsideFindingsByOrigin.set(origin, (this.outsideFindingsByOrigin.get(origin) ?? 0) + 1);
      else this.routedFindings++;
      if (this.findingsKept.length < listedClientFindings) this.findingsKept.push({ finding, origin });
    }
    if (traffic.incomplete !== undefined) {
      this.incompleteTotal++;
      this.firstIncomplete ??= traffic.incomplete;
    }
  }

  private addRecord(record: VerdictRecord): void {
    const title = `${record.operation ?? 'any operation'} › ${record.rule}`;
    let found = this.byCase.get(title);
    if (found === undefined) {
      found = { verdicts: [], counted: new CountedRecords(), brokenKept: 0, brokenMore: 0 };
      this.byCase.set(title, found);
    }
    if (record.kind === 'broken') {
      if (found.brokenKept < brokenKeptPerCase) {
        found.verdicts.push(record);
        found.brokenKept++;
      } else found.brokenMore++;
      return;
    }
    const key = [record.kind, record.exchange?.status, record.reason ?? '', record.lenient ?? ''].join('|');
    const first = found.counted.count(key, record);
    if (first !== undefined) found.verdicts.push(first);
  }

  /** Exchanges judged as operations of the reference (those outside it are listed, and not judged). */
  get judgedExchanges(): number {
    return this.exchanges - this.outsideTotal;
  }

  /** Requests off the reference: each one finding, whatever it departs in. */
  get clientFindingsTotal(): number {
    let total = this.routedFindings;
    for (const [origin, count] of this.outsideFindingsByOrigin) if (this.apiOrigins.has(origin)) total += count;
    return total;
  }

  /** The first client findings, in the order the requests came. */
  get clientFindings(): ClientFinding[] {
    return this.findingsKept
      .filter(({ finding, origin }) => !finding.outside || this.apiOrigins.has(origin))
      .map(({ finding }) => finding);
  }

  /** An error of the judge itself on one exchange: counted, that exchange not judged, the others go on. */
  noteInternalError(message: string, what = 'an error of the judge itself'): void {
    this.internalErrors++;
    this.firstInternalError ??= message;
    this.notJudged.add(what);
  }

  /** Broken records counted past the ones kept, by case title. */
  brokenNotListed(): Array<{ title: string; count: number }> {
    return [...this.byCase.entries()]
      .filter(([, found]) => found.brokenMore > 0)
      .map(([title, found]) => ({ title, count: found.brokenMore }));
  }

  /** One case per operation and rule: the exchanges that judged the rule on that operation. */
  cases(origin: string): TestRecord[] {
    return [...this.byCase.entries()].map(([title, { verdicts }]) => ({
      title,
      location: origin,
      rules: [verdicts[0]!.rule],
      outcome: outcomeOf(verdicts),
      verdicts,
    }));
  }
}
