/**
 * The traffic judge in a worker thread of its own (started by worker-judge.ts): the forwarding proxy's
 * thread moves each exchange here and goes back to forwarding, so that judging, which costs a few
 * tenths of a millisecond an exchange, never takes the CPU time the traffic needs. The worker keeps
 * everything judged (a JudgingSession) and writes the reports itself when told the traffic ended.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { registerSecret } from '../settings/secrets.ts';
import type { CapturedExchange } from './captured-exchange.ts';
import { trafficOfCaptured } from './captured-traffic.ts';
import { JudgingSession } from '../reporters/judging-session.ts';
import type { JudgeRequest, JudgeResponse, JudgingWorkerData } from './worker-judge.ts';

const data = workerData as JudgingWorkerData;
// The reports are written here: the keys must be masked here too.
registerSecret(data.judge.keys.first ?? undefined);
registerSecret(data.judge.keys.second ?? undefined);

const session = new JudgingSession(data.judge);
let order = 0;

function reply(response: JudgeResponse): void {
  parentPort!.postMessage(response);
}

function judged(captured: CapturedExchange, skip?: 'sampled' | 'lag'): string[] {
  let traffic: ReturnType<typeof trafficOfCaptured>;
  try {
    traffic = trafficOfCaptured(captured, order++);
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    session.collected.noteInternalError(message, `an error of the judge reading it (${message.slice(0, 200)})`);
    return [];
  }
  return session.take(traffic, skip);
}

parentPort!.on('message', (request: JudgeRequest) => {
  try {
    switch (request.type) {
      case 'exchange':
        judged(request.captured, request.skip);
        reply({ type: 'judged' });
        return;
      case 'inspect':
        reply({ type: 'inspected', id: request.id, broken: judged(request.captured) });
        return;
      case 'report': {
        const { collected } = session;
        for (const [reason, count] of request.notJudged) collected.notJudged.add(reason, count);
        for (const [reason, count] of request.unanswered) collected.unanswered.add(reason, count);
        const stopped = request.stoppedBy ? ` (stopped by ${request.stoppedBy})` : '';
        const notes = [`${collected.judgedExchanges} exchange(s) judged through the proxy${stopped}`, ...request.notes];
        reply({ type: 'reported', ...session.report({ ...request.options, notes }) });
        return;
      }
    }
  } catch (error) {
    // Only the reply itself can get here (the session never throws): the worker stays for the next request.
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    reply({ type: 'failed', message, ...(request.type === 'inspect' ? { id: request.id } : {}) });
  }
});
