/**
 * The judged traffic as the reports need it, gathered while it is judged: one case per operation and
 * rule, whose held, lenient and undecided records of the same kind and status are counted rather
 * than kept (as a test's verdict sink counts them), and whose broken records are kept, each with its
 * exchange; and each exchange without its headers and bodies. A recording of a hundred thousand
 * exchanges is reported from what fits in memory, not from every record of every exchange.
 */
import type { TestRecord } from '../../reporters/conformance-model.ts';
import { isUndecided, type VerdictRecord } from '../judgment/verdict-record.ts';
import type { JudgedExchange } from './judge.ts';

interface TrafficCase {
  verdicts: VerdictRecord[];
  counted: Map<string, VerdictRecord>;
}

/** Whether any record of a case is broken, or every one undecided or skipped: its outcome. */
function outcomeOf(records: readonly VerdictRecord[]): TestRecord['outcome'] {
  if (records.some((record) => record.kind === 'broken')) return 'failed';
  if (records.length > 0 && records.every((record) => isUndecided(record) || record.kind === 'skipped'))
    return 'skipped';
  return 'passed';
}

export class TrafficCollector {
  private readonly kept: JudgedExchange[] = [];
  private readonly byCase = new Map<string, TrafficCase>();

  /** Takes one judged exchange: its records into their cases, the exchange itself without its headers and bodies. */
  add(judged: JudgedExchange): void {
    for (const record of judged.records) this.addRecord(record);
    this.kept.push({
      ...judged,
      traffic: { ...judged.traffic, requestHeaders: [], requestBody: undefined, responseHeaders: [], responseBody: '' },
      records: [],
    });
  }

  private addRecord(record: VerdictRecord): void {
    const title = `${record.operation ?? 'any operation'} › ${record.rule}`;
    let found = this.byCase.get(title);
    if (found === undefined) {
      found = { verdicts: [], counted: new Map() };
      this.byCase.set(title, found);
    }
    if (record.kind === 'broken') {
      found.verdicts.push(record);
      return;
    }
    const key = [record.kind, record.exchange?.status, record.reason ?? '', record.lenient ?? ''].join('|');
    const same = found.counted.get(key);
    if (same !== undefined) {
      same.count = (same.count ?? 1) + (record.count ?? 1);
      return;
    }
    // A counted record names its first exchange only: the others are counted, not described.
    const { curl: _curl, transcript: _transcript, ...exchange } = record.exchange ?? {};
    const first: VerdictRecord = {
      ...record,
      count: record.count ?? 1,
      ...(record.exchange === undefined ? {} : { exchange: exchange as NonNullable<VerdictRecord['exchange']> }),
    };
    found.counted.set(key, first);
    found.verdicts.push(first);
  }

  /** The exchanges, in the order they were judged, without headers, bodies or records. */
  get exchanges(): readonly JudgedExchange[] {
    return this.kept;
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
