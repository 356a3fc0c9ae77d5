/**
 * The traffic judge in a worker thread of its own (started by worker-judge.ts): the forwarding proxy's
 * thread copies each exchange here and goes back to forwarding, so that judging, which costs a few
 * tenths of a millisecond an exchange, never takes the CPU time the traffic needs. The worker keeps
 * everything judged and writes the reports itself when told the traffic ended.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { registerSecret } from '../http/redact.ts';
import { isUndecided } from '../judgment/verdict-record.ts';
import type { CapturedExchange } from './captured-exchange.ts';
import { trafficOfCaptured } from './captured-traffic.ts';
import { TrafficJudge } from './judge.ts';
import { TrafficCollector } from './traffic-collector.ts';
import { reportTraffic } from './traffic-report.ts';
import type { JudgeRequest, JudgeResponse, JudgingWorkerData } from './worker-judge.ts';

const data = workerData as JudgingWorkerData;
// The reports are written here: the keys must be masked here too.
registerSecret(data.judge.keys.first ?? undefined);
registerSecret(data.judge.keys.second ?? undefined);

const judge = new TrafficJudge(data.judge);
const collected = new TrafficCollector();
let order = 0;
let undecided = false;

function judgeOne(captured: CapturedExchange): string[] {
  const result = judge.judge(trafficOfCaptured(captured, order++));
  if (result.records.some(isUndecided)) undecided = true;
  collected.add(result);
  return [...new Set(result.records.filter((record) => record.kind === 'broken').map((record) => record.rule))];
}

function reply(response: JudgeResponse): void {
  parentPort!.postMessage(response);
}

parentPort!.on('message', (request: JudgeRequest) => {
  try {
    switch (request.type) {
      case 'exchange':
        judgeOne(request.captured);
        reply({ type: 'judged' });
        return;
      case 'inspect':
        reply({ type: 'inspected', id: request.id, broken: judgeOne(request.captured) });
        return;
      case 'report': {
        const stopped = request.stoppedBy ? ` (stopped by ${request.stoppedBy})` : '';
        const notes = [`${collected.exchanges} exchange(s) judged through the proxy${stopped}`, ...request.notes];
        const report = reportTraffic(collected, { ...request.options, notes });
        reply({
          type: 'reported',
          warning: report.reports.warning,
          summary: report.summary,
          serverFindings: report.serverFindings,
          clientFindings: report.clientFindings,
          undecided,
        });
        return;
      }
    }
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    reply({ type: 'failed', message, ...(request.type === 'inspect' ? { id: request.id } : {}) });
  }
});
