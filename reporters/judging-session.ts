/**
 * One judging of traffic, from its first exchange to its reports, as `judge` (in its own thread) and
 * the proxy's judging worker both run it: each exchange's credentials are made secrets first, then
 * it is judged (or, skipped on purpose, only learnt from, so that later verdicts still know what it
 * showed), and gathered. Nothing here throws away what was judged: an exchange the judge fails on is
 * counted as not judged with the error, and the others go on; reports that cannot all be written
 * still say what was judged, and the error is returned with the verdict.
 */
import { isUndecided } from '../judgment/verdict-record.ts';
import { TrafficJudge, type JudgeOptions } from '../judge/traffic-judge.ts';
import { learnSecrets } from '../judge/seen-secrets.ts';
import { TrafficCollector, type SkipReason } from './traffic-collector.ts';
import type { TrafficExchange } from '../judge/traffic-exchange.ts';
import { reportTraffic, type TrafficReportOptions } from './traffic-report.ts';

/** What a judging of traffic concluded, for the exit code and the console. */
export interface TrafficVerdict {
  warning: string | null;
  summary: string[];
  serverFindings: number;
  clientFindings: number;
  /** A 429 or a gateway's 502/503/504 was met: the upstream was (in part) unavailable. */
  undecided: boolean;
  /** Exchanges judged as operations of the reference (those outside it are listed, and not judged). */
  judged: number;
  /** Exchanges judged as an operation of the reference: none, and nothing was judged. */
  judgedOperations: number;
  /** Traffic not judged, not on purpose: it keeps the verdict from being a pass. */
  notJudged: number;
  /** Exchanges skipped on purpose (--sample, --max-judge-lag). */
  skipped: number;
  /** The first error of the judge itself (an exchange it failed on, a report it could not write), or null. */
  internalError: string | null;
}

export const skipText: Record<SkipReason, string> = {
  sampled: 'left out by --sample',
  lag: 'the judge was further behind than --max-judge-lag',
};

function messageOf(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.split('\n', 1)[0]!.slice(0, 300);
}

export class JudgingSession {
  readonly judge: TrafficJudge;
  readonly collected = new TrafficCollector();
  private undecided = false;
  private readonly options: JudgeOptions;

  constructor(options: JudgeOptions) {
    this.options = options;
    this.judge = new TrafficJudge(options);
  }

  /** Judges one exchange (or only learns from it, when skipped on purpose); the rules it broke. Never throws. */
  take(traffic: TrafficExchange, skip?: SkipReason): string[] {
    try {
      learnSecrets(traffic);
      if (skip !== undefined) {
        this.judge.observe(traffic);
        this.collected.skipped.add(skipText[skip]);
        return [];
      }
      const result = this.judge.judge(traffic);
      if (result.records.some(isUndecided)) this.undecided = true;
      this.collected.add(result);
      return [...new Set(result.records.filter((record) => record.kind === 'broken').map((record) => record.rule))];
    } catch (error) {
      this.collected.noteInternalError(messageOf(error), `an error of the judge on it (${messageOf(error)})`);
      return [];
    }
  }

  /** Writes every report; a report that cannot be written is an internal error of the verdict, not a lost verdict. */
  report(options: TrafficReportOptions): TrafficVerdict {
    const { collected } = this;
    let internalError = collected.firstInternalError ?? null;
    let report: ReturnType<typeof reportTraffic> | undefined;
    try {
      const { pinned, paymentMode } = this.options;
      report = reportTraffic(collected, { targetValues: { pinned, paymentMode }, ...options });
      if (report.writeErrors.length > 0)
        internalError ??= `the reports could not all be written (${report.writeErrors.join('; ')})`;
    } catch (error) {
      internalError ??= `the reports could not be made: ${messageOf(error)}`;
    }
    return {
      warning: report?.reports.warning ?? null,
      summary: report?.summary ?? [`collect-conformance: ${internalError}`],
      serverFindings: report?.serverFindings ?? 0,
      clientFindings: report?.clientFindings ?? collected.clientFindingsTotal,
      undecided: this.undecided,
      judged: collected.judgedExchanges,
      judgedOperations: [...collected.operations.values()].reduce((sum, operation) => sum + operation.exchanges, 0),
      notJudged: collected.notJudged.total,
      skipped: collected.skipped.total,
      internalError,
    };
  }
}
