/**
 * The mutation run's proxy mode (npm run mutation -- --proxy): the suite's own run is the client of
 * the forwarding proxy, and the traffic judge (judge/traffic-judge.ts) judges what it sees, one
 * judge per behaviour (the x-pcs-mutant header each request carries; none: the reference). A mutant
 * the run killed is killed through the proxy when its judge found a broken rule in its traffic; the
 * figure is their ratio. The reference's and the variants' traffic must get no finding: one would be
 * a false positive of the judge.
 */
import { mutantHeader, type Behaviour } from '../../mock/mutants/index.ts';
import { trafficOfCaptured } from '../../proxy/captured-traffic.ts';
import { startForwardingProxy, type RunningForwardingProxy } from '../../proxy/forwarding-proxy.ts';
import { TrafficJudge, type JudgeOptions } from '../../judge/traffic-judge.ts';
import { headerValue } from '../../judge/traffic-exchange.ts';
import type { VerdictRecord } from '../../judgment/verdict-record.ts';
import { requestLine, violationLine } from '../../judgment/verdict-message.ts';
import type { TestOutcome } from './outcomes.ts';
import { widerStageSuffix } from './score.ts';

export const referenceBehaviour = 'reference';

export interface JudgingProxy {
  url: string;
  /** The broken records the judge of a behaviour found in its traffic. */
  findings(behaviour: string): VerdictRecord[];
  /** Exchanges judged for a behaviour. */
  exchanges(behaviour: string): number;
  close(): Promise<void>;
}

/** A forwarding proxy in front of the per-request mock, judging each behaviour's traffic apart. */
export async function startJudgingProxy(upstream: string, options: JudgeOptions): Promise<JudgingProxy> {
  const judges = new Map<string, { judge: TrafficJudge; broken: VerdictRecord[]; count: number }>();
  let order = 0;
  const running: RunningForwardingProxy = await startForwardingProxy({
    upstream,
    // The suite's run sends thousands of requests in bursts: the judge may not drop any.
    maxQueuedExchanges: 1_000_000,
    maxQueuedBodyBytes: 1024 * 1024 * 1024,
    onExchange: (captured) => {
      const behaviour = headerValue(captured.requestHeaders, mutantHeader) ?? referenceBehaviour;
      let entry = judges.get(behaviour);
      if (entry === undefined) {
        entry = { judge: new TrafficJudge(options), broken: [], count: 0 };
        judges.set(behaviour, entry);
      }
      const judged = entry.judge.judge(trafficOfCaptured(captured, order++));
      entry.count++;
      entry.broken.push(...judged.records.filter((record) => record.kind === 'broken'));
    },
  });
  return {
    url: running.url,
    findings: (behaviour) => judges.get(behaviour)?.broken ?? [],
    exchanges: (behaviour) => judges.get(behaviour)?.count ?? 0,
    close: () => running.close(),
  };
}

export interface ProxyScore {
  /** Non-equivalent mutants the run killed. */
  killedByRun: string[];
  /** Of those, the ones whose traffic the judge found broken. */
  killedThroughProxy: string[];
  /** Killed by the run, not through the proxy: the rule the mutant breaks, and the exchanges the judge saw. */
  missed: Array<{ name: string; rule: string; exchanges: number }>;
  /** Found through the proxy though the run did not kill them. */
  onlyThroughProxy: string[];
  /** Behaviours that conform (the reference, the variants) with judge findings: false positives. */
  falsePositives: Array<{ name: string; finding: string }>;
}

function firstFinding(record: VerdictRecord): string {
  const violation = record.violations[0];
  const exchange = record.exchange === undefined ? '' : `${requestLine(record.exchange)}: `;
  return `${record.rule}: ${exchange}${violation === undefined ? '' : violationLine(violation)}`.slice(0, 300);
}

export function proxyScore(
  mutants: readonly Behaviour[],
  variants: readonly Behaviour[],
  outcomes: readonly TestOutcome[],
  proxy: Pick<JudgingProxy, 'findings' | 'exchanges'>,
): ProxyScore {
  const failed = new Set(
    outcomes
      .filter((outcome) => outcome.status === 'failed')
      .map((outcome) => outcome.project.replace(widerStageSuffix, '')),
  );
  const counted = mutants.filter((mutant) => mutant.kind === 'mutant' && !mutant.equivalent);
  const killedByRun = counted.filter((mutant) => failed.has(mutant.name)).map((mutant) => mutant.name);
  const found = (name: string): boolean => proxy.findings(name).length > 0;
  const falsePositives = [referenceBehaviour, ...variants.map((variant) => variant.name)]
    .filter(found)
    .map((name) => ({ name, finding: firstFinding(proxy.findings(name)[0]!) }));
  return {
    killedByRun,
    killedThroughProxy: killedByRun.filter(found),
    missed: counted
      .filter((mutant) => failed.has(mutant.name) && !found(mutant.name))
      .map((mutant) => ({
        name: mutant.name,
        rule: mutant.kind === 'mutant' ? mutant.rule : '',
        exchanges: proxy.exchanges(mutant.name),
      })),
    onlyThroughProxy: counted.filter((mutant) => !failed.has(mutant.name) && found(mutant.name)).map((m) => m.name),
    falsePositives,
  };
}

const percent = (part: number, whole: number): string => (whole === 0 ? '-' : ((100 * part) / whole).toFixed(1));

/** The figures for docs/measured and the report. */
export function proxyFigures(score: ProxyScore, wallSeconds: number): string[] {
  const lines = [
    '| Figure | Value |',
    '|---|---|',
    `| Mutants killed through the proxy / killed by the run | ${score.killedThroughProxy.length} / ` +
      `${score.killedByRun.length} (${percent(score.killedThroughProxy.length, score.killedByRun.length)} %) |`,
    `| Found through the proxy, not by the run | ${score.onlyThroughProxy.length} |`,
    `| Conforming behaviours (the reference, the variants) with a finding through the proxy | ` +
      `${score.falsePositives.length} |`,
    `| Wall time | ${wallSeconds.toFixed(1)} s |`,
    '',
  ];
  if (score.missed.length > 0) {
    lines.push('## Killed by the run, not through the proxy', '');
    lines.push('The judge sees one exchange at a time and what earlier exchanges showed; these defects need ');
    lines.push('what only a test knows (the input it generated, a second request it compared).', '');
    lines.push('| Mutant | Rule | Exchanges judged |', '|---|---|---:|');
    for (const missed of score.missed) lines.push(`| ${missed.name} | ${missed.rule} | ${missed.exchanges} |`);
    lines.push('');
  }
  if (score.falsePositives.length > 0) {
    lines.push('## False positives of the judge', '');
    for (const fp of score.falsePositives) lines.push(`- ${fp.name}: ${fp.finding}`);
    lines.push('');
  }
  return lines;
}
