/**
 * Records of the same verdict counted rather than repeated: a property test judges thousands of
 * answers, and traffic may run for hours, so a held (or otherwise undecided-alike) record is kept
 * once per kind of verdict, with how many it stands for. What makes two records the same is the
 * caller's (a test's sink by rule, operation and status; the traffic's cases by status and reason);
 * how they are counted is this one place's.
 */
import type { ExchangeRef, VerdictRecord } from './verdict-record.ts';

export class CountedRecords {
  private readonly first = new Map<string, VerdictRecord>();

  /**
   * The record to keep when it is the first of its key: a copy that names its exchange without the curl line and
   * transcript (the others are counted, not described). Undefined when it was counted into the first of its key.
   */
  count(key: string, record: VerdictRecord): VerdictRecord | undefined {
    const same = this.first.get(key);
    if (same !== undefined) {
      same.count = (same.count ?? 1) + (record.count ?? 1);
      return undefined;
    }
    let kept: VerdictRecord = { ...record, count: record.count ?? 1 };
    if (record.exchange !== undefined) {
      const { curl: _curl, transcript: _transcript, ...exchange } = record.exchange;
      kept = { ...kept, exchange: exchange satisfies ExchangeRef };
    }
    this.first.set(key, kept);
    return kept;
  }
}
