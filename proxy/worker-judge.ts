/**
 * The proxy's side of the judging worker (judging-worker.ts): each exchange the forwarding proxy
 * hands over is moved to the worker (its bodies transferred, not copied) and judged there, in the
 * order handed over; the inspect option's exchanges wait for their verdict (the rules they broke); at
 * the end the worker writes the reports and answers with the verdict. The worker may be a bounded
 * number of exchanges and of body bytes behind: past either, the promise judge() returns holds the
 * proxy's queue, which then holds the traffic (back-pressure), so that nothing is ever dropped. A
 * worker that fails is the tool's own failure, said in one line: never a verdict on the traffic.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ownBuffer } from './body-capture.ts';
import type { CapturedExchange } from './captured-exchange.ts';
import type { JudgeOptions } from '../judge/traffic-judge.ts';
import type { TrafficVerdict } from '../reporters/judging-session.ts';
import type { SkipReason } from '../reporters/traffic-collector.ts';
import type { TrafficReportOptions } from '../reporters/traffic-report.ts';

export type { TrafficVerdict } from '../reporters/judging-session.ts';

export interface JudgingWorkerData {
  judge: JudgeOptions;
}

export type JudgeRequest =
  | { type: 'exchange'; captured: CapturedExchange; skip?: SkipReason }
  | { type: 'inspect'; id: number; captured: CapturedExchange }
  | {
      type: 'report';
      options: Omit<TrafficReportOptions, 'notes'>;
      /** Lines after the count of exchanges judged. */
      notes: string[];
      stoppedBy?: string;
      /** Traffic the proxy could not hand over for judging, by why (it is counted as not judged). */
      notJudged: Array<[reason: string, count: number]>;
      /** Requests the proxy got no answer to, by why. */
      unanswered: Array<[reason: string, count: number]>;
    };

export type JudgeResponse =
  | { type: 'judged' }
  | { type: 'inspected'; id: number; broken: string[] }
  | ({ type: 'reported' } & TrafficVerdict)
  | { type: 'failed'; id?: number; message: string };

/** Exchanges, and body bytes, the worker may be behind before the proxy's queue waits for it. */
const maxInFlight = 256;
const maxInFlightBytes = 32 * 1024 * 1024;

/**
 * The worker's module beside this one: JavaScript when installed; TypeScript in a checkout, loaded through tsx,
 * which a worker registers for itself (the main thread's loader hooks do not reach it). tsx is found from this
 * module, never from the working directory: the command runs from any directory.
 */
function startWorker(judge: JudgeOptions): Worker {
  const extension = extname(fileURLToPath(import.meta.url));
  const url = new URL(`./judging-worker${extension}`, import.meta.url);
  const workerData: JudgingWorkerData = { judge };
  if (extension !== '.ts') return new Worker(url, { workerData });
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const module = JSON.stringify(url.href);
  const bootstrap = `import(${tsx}).then((tsx) => { tsx.register(); return import(${module}); })`;
  return new Worker(bootstrap, { eval: true, workerData });
}

/** The body bytes an exchange carries to the worker. */
function bytesOf(captured: CapturedExchange): number {
  return (
    captured.requestBody.bytes.length +
    captured.responseBody.bytes.length +
    (captured.decodedResponseBody?.bytes.length ?? 0)
  );
}

/** The exchange with each body in memory of its own, and those memories, to be moved to the worker (not copied). */
function transferable(captured: CapturedExchange): { captured: CapturedExchange; transfer: ArrayBuffer[] } {
  const requestBody = { ...captured.requestBody, bytes: ownBuffer(captured.requestBody.bytes) };
  const responseBody = { ...captured.responseBody, bytes: ownBuffer(captured.responseBody.bytes) };
  const decoded = captured.decodedResponseBody;
  const decodedResponseBody = decoded === null ? null : { ...decoded, bytes: ownBuffer(decoded.bytes) };
  const transfer = new Set<ArrayBuffer>();
  for (const bytes of [requestBody.bytes, responseBody.bytes, decodedResponseBody?.bytes])
    if (bytes !== undefined && bytes.length > 0) transfer.add(bytes.buffer as ArrayBuffer);
  return { captured: { ...captured, requestBody, responseBody, decodedResponseBody }, transfer: [...transfer] };
}

export class WorkerJudge {
  private readonly worker: Worker;
  private readonly inspections = new Map<number, (broken: string[]) => void>();
  private nextId = 0;
  private failure: string | null = null;
  /** The body bytes of each exchange posted and not yet judged, in order, and their sum. */
  private readonly inFlight: number[] = [];
  private inFlightHead = 0;
  private inFlightBytes = 0;
  private readonly waiting: Array<() => void> = [];
  private reported: ((verdict: TrafficVerdict) => void) | null = null;
  private rejectReport: ((error: Error) => void) | null = null;
  /** Exchanges handed over after the worker failed: not judged. */
  lost = 0;

  constructor(judge: JudgeOptions) {
    this.worker = startWorker(judge);
    this.worker.on('message', (response: JudgeResponse) => this.receive(response));
    this.worker.on('error', (error) => this.fail(`the judging worker failed: ${error.message}`));
    this.worker.on('exit', (code) => {
      if (this.reported !== null || this.inspections.size > 0 || this.inFlight.length > this.inFlightHead)
        this.fail(`the judging worker exited (${code})`);
    });
  }

  /** Why the worker failed, or null. */
  get failed(): string | null {
    return this.failure;
  }

  private behind(): boolean {
    return this.inFlight.length - this.inFlightHead >= maxInFlight || this.inFlightBytes >= maxInFlightBytes;
  }

  private receive(response: JudgeResponse): void {
    if (response.type === 'judged') {
      this.inFlightBytes -= this.inFlight[this.inFlightHead] ?? 0;
      this.inFlightHead++;
      if (this.inFlightHead > 1024 && this.inFlightHead * 2 > this.inFlight.length) {
        this.inFlight.splice(0, this.inFlightHead);
        this.inFlightHead = 0;
      }
      if (!this.behind()) for (const resume of this.waiting.splice(0)) resume();
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
   * Judges an exchange in the worker (or, skipped on purpose, lets it only learn from it). Nothing waits for it,
   * unless the worker is maxInFlight exchanges or maxInFlightBytes behind: then the promise holds the forwarding
   * proxy's queue until it catches up, so that what waits for the judge is bounded on both sides.
   */
  judge(captured: CapturedExchange, skip?: SkipReason): undefined | Promise<void> {
    if (this.failure !== null) {
      this.lost++;
      return undefined;
    }
    const moved = transferable(captured);
    const size = bytesOf(moved.captured);
    this.inFlight.push(size);
    this.inFlightBytes += size;
    const request: JudgeRequest = { type: 'exchange', captured: moved.captured, ...(skip ? { skip } : {}) };
    this.worker.postMessage(request, moved.transfer);
    if (!this.behind()) return undefined;
    return new Promise((resume) => this.waiting.push(resume));
  }

  /** Ends the worker without reports (a bench, an aborted start). */
  async close(): Promise<void> {
    for (const resume of this.waiting.splice(0)) resume();
    await this.worker.terminate();
  }

  /** The rules an exchange broke, once the worker has judged it (and every exchange handed over before it). */
  inspect(captured: CapturedExchange): Promise<string[]> {
    if (this.failure !== null) {
      this.lost++;
      return Promise.resolve([]);
    }
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.inspections.set(id, resolve);
      // Copied, not moved: the proxy still sends this answer's bytes to the client.
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
