/**
 * The proxy's side of the judging worker (judging-worker.ts): each exchange the forwarding proxy
 * hands over is copied to the worker and judged there, in the order handed over; the inspect
 * option's exchanges wait for their verdict (the rules they broke); at the end the worker writes the
 * reports and answers with the summary. A worker that fails is the tool's own failure, said in one
 * line: never a verdict on the traffic.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CapturedExchange } from './captured-exchange.ts';
import type { JudgeOptions } from './judge.ts';
import type { TrafficReportOptions } from './traffic-report.ts';

export interface JudgingWorkerData {
  judge: JudgeOptions;
}

export type JudgeRequest =
  | { type: 'exchange'; captured: CapturedExchange }
  | { type: 'inspect'; id: number; captured: CapturedExchange }
  | {
      type: 'report';
      options: Omit<TrafficReportOptions, 'notes'>;
      /** Lines after the count of exchanges judged. */
      notes: string[];
      stoppedBy?: string;
    };

export type JudgeResponse =
  | { type: 'judged' }
  | { type: 'inspected'; id: number; broken: string[] }
  | {
      type: 'reported';
      warning: string | null;
      summary: string[];
      serverFindings: number;
      clientFindings: number;
      /** A 429 or a gateway's 502/503/504 was met: the upstream was (in part) unavailable. */
      undecided: boolean;
    }
  | { type: 'failed'; id?: number; message: string };

export type TrafficVerdict = Omit<Extract<JudgeResponse, { type: 'reported' }>, 'type'>;

/** Exchanges the worker may be behind before the proxy's queue waits for it. */
const maxInFlight = 256;

/**
 * The worker's module beside this one: JavaScript when installed; TypeScript in a checkout, loaded through tsx,
 * which a worker registers for itself (the main thread's loader hooks do not reach it).
 */
function startWorker(judge: JudgeOptions): Worker {
  const extension = extname(fileURLToPath(import.meta.url));
  const url = new URL(`./judging-worker${extension}`, import.meta.url);
  const workerData: JudgingWorkerData = { judge };
  if (extension !== '.ts') return new Worker(url, { workerData });
  const module = JSON.stringify(url.href);
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${module}); })`;
  return new Worker(bootstrap, { eval: true, workerData });
}

export class WorkerJudge {
  private readonly worker: Worker;
  private readonly inspections = new Map<number, (broken: string[]) => void>();
  private nextId = 0;
  private failure: string | null = null;
  /** Exchanges posted and not yet judged, and the hook calls waiting for the worker to catch up. */
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  private reported: ((verdict: TrafficVerdict) => void) | null = null;
  private rejectReport: ((error: Error) => void) | null = null;

  constructor(judge: JudgeOptions) {
    this.worker = startWorker(judge);
    this.worker.on('message', (response: JudgeResponse) => this.receive(response));
    this.worker.on('error', (error) => this.fail(`the judging worker failed: ${error.message}`));
    this.worker.on('exit', (code) => {
      if (this.reported !== null || this.inspections.size > 0) this.fail(`the judging worker exited (${code})`);
    });
  }

  private receive(response: JudgeResponse): void {
    if (response.type === 'judged') {
      this.inFlight--;
      if (this.inFlight < maxInFlight) for (const resume of this.waiting.splice(0)) resume();
    } else if (response.type === 'inspected') {
      this.inspections.get(response.id)?.(response.broken);
      this.inspections.delete(response.id);
    } else if (response.type === 'reported') {
      const { type: _type, ...verdict } = response;
      this.reported?.(verdict);
      this.reported = null;
    } else this.fail(response.message, response.id);
  }

  private fail(message: string, id?: number): void {
    this.failure ??= message;
    for (const resume of this.waiting.splice(0)) resume();
    // An inspected answer is held until its verdict comes: it gets no header rather than no answer.
    if (id !== undefined) {
      this.inspections.get(id)?.([]);
      this.inspections.delete(id);
    } else {
      for (const resolve of this.inspections.values()) resolve([]);
      this.inspections.clear();
    }
    this.rejectReport?.(new Error(message));
    this.reported = null;
  }

  /**
   * Judges an exchange in the worker. Nothing waits for it, unless the worker is maxInFlight exchanges behind: then
   * the promise holds the forwarding proxy's queue (bounded, its oldest dropped and counted) until it catches up, so
   * that what waits for the judge is bounded on both sides.
   */
  judge(captured: CapturedExchange): undefined | Promise<void> {
    if (this.failure !== null) return undefined;
    this.inFlight++;
    this.worker.postMessage({ type: 'exchange', captured } satisfies JudgeRequest);
    if (this.inFlight < maxInFlight) return undefined;
    return new Promise((resume) => this.waiting.push(resume));
  }

  /** Ends the worker without reports (a bench, an aborted start). */
  async close(): Promise<void> {
    for (const resume of this.waiting.splice(0)) resume();
    await this.worker.terminate();
  }

  /** The rules an exchange broke, once the worker has judged it (and every exchange handed over before it). */
  inspect(captured: CapturedExchange): Promise<string[]> {
    if (this.failure !== null) return Promise.resolve([]);
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.inspections.set(id, resolve);
      this.worker.postMessage({ type: 'inspect', id, captured } satisfies JudgeRequest);
    });
  }

  /** Writes the reports of everything judged, and ends the worker. */
  async report(request: Omit<Extract<JudgeRequest, { type: 'report' }>, 'type'>): Promise<TrafficVerdict> {
    if (this.failure !== null) throw new Error(this.failure);
    try {
      return await new Promise<TrafficVerdict>((resolve, reject) => {
        this.reported = resolve;
        this.rejectReport = reject;
        this.worker.postMessage({ type: 'report', ...request } satisfies JudgeRequest);
      });
    } finally {
      this.reported = null;
      this.rejectReport = null;
      await this.worker.terminate();
    }
  }
}
