/**
 * One request-rate budget for all the Playwright workers of a machine. Global setup starts this small
 * coordinator on 127.0.0.1 (a free port) and passes its address to the workers in
 * COLLECT_CONFORMANCE_RATE_COORDINATOR; it holds one RateController (rate-control.ts) per target,
 * ceilinged by the whole PCS_MAX_RPS. A worker connects only once rate limiting is active for it (a 429,
 * rate-limit headers, PCS_MAX_RPS), so an unthrottled run never talks to it.
 *
 * Protocol: one persistent connection per worker and target, lines of text, replies carry the
 * request's id (answers may be awaited concurrently). `ok` is the number of answers the worker's
 * target accepted since its previous line, so successes cost no message of their own.
 *   o ORIGIN                                  first line: the target
 *   a ID OK                                   a slot → "ID WAIT_MS"
 *   r ID OK AGE_MS PACED HINT_RPS             a 429 for a request sent AGE_MS ago → "ID 1" when it counts
 *                                             against its retries, "ID 0" when it was part of the learning
 *   h LIMIT REMAINING RESET_MS WINDOW_MS      rate-limit headers ("-" for absent); no reply
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { RateController } from './rate-control.ts';
import type { RateFacts } from './rate-headers.ts';

export const coordinatorVariable = 'COLLECT_CONFORMANCE_RATE_COORDINATOR';

export interface RateCoordinator {
  /** host:port, for COLLECT_CONFORMANCE_RATE_COORDINATOR. */
  address: string;
  close(): Promise<void>;
}

function field(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '-' : String(Math.round(value * 1000) / 1000);
}

function readField(text: string | undefined): number | undefined {
  if (text === undefined || text === '-') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** Splits a socket's data into lines. */
function onLines(socket: Socket, handle: (line: string) => void): void {
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let end = buffered.indexOf('\n');
    while (end >= 0) {
      handle(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
      end = buffered.indexOf('\n');
    }
    // A peer that never ends its line is not one of ours.
    if (buffered.length > 4096) socket.destroy();
  });
}

/**
 * Starts the coordinator. `ceilingRps`: the whole PCS_MAX_RPS (null: none); `workers`: how many
 * processes share it, to scale the first refusing worker's own rate into the machine's.
 */
export async function startRateCoordinator(options: {
  ceilingRps: number | null;
  workers: number;
  maxHoldMs?: number;
}): Promise<RateCoordinator> {
  const controllers = new Map<string, RateController>();
  const sockets = new Set<Socket>();
  const controllerFor = (origin: string): RateController => {
    let controller = controllers.get(origin);
    if (controller === undefined) {
      controller = new RateController({ ceilingRps: options.ceilingRps, maxHoldMs: options.maxHoldMs });
      controllers.set(origin, controller);
    }
    return controller;
  };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let controller: RateController | null = null;
    onLines(socket, (line) => {
      const [kind, ...rest] = line.split(' ');
      if (kind === 'o') {
        controller = controllerFor(rest.join(' '));
        return;
      }
      if (controller === null) {
        socket.destroy();
        return;
      }
      if (kind === 'a') {
        controller.accepted(Number(rest[1]) || 0);
        socket.write(`${rest[0]} ${Math.ceil(controller.slot())}\n`);
      } else if (kind === 'r') {
        controller.accepted(Number(rest[1]) || 0);
        const ageMs = Number(rest[2]) || 0;
        const paced = rest[3] === '1';
        const hint = readField(rest[4]);
        let counts = false;
        // A worker's first refusals, of requests it sent before it asked for slots, say nothing new about
        // a rate already learned: its unpaced traffic, not the budget, was too much.
        if (paced || !controller.learned) {
          counts = controller.refused(
            performance.now() - ageMs,
            hint === undefined ? undefined : hint * options.workers,
          );
        }
        socket.write(`${rest[0]} ${counts ? 1 : 0}\n`);
      } else if (kind === 'h') {
        const facts: RateFacts = {};
        const [limit, remaining, resetMs, windowMs] = rest.map(readField);
        if (limit !== undefined) facts.limit = limit;
        if (remaining !== undefined) facts.remaining = remaining;
        if (resetMs !== undefined) facts.resetMs = resetMs;
        if (windowMs !== undefined) facts.windowMs = windowMs;
        controller.advise(facts);
      } else {
        socket.destroy();
      }
    });
  });
  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(0, '127.0.0.1', () => resolveListen());
  });
  // The runner must not stay up for the coordinator's sake.
  server.unref();
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('rate coordinator: no port');
  return {
    address: `127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolveClose) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolveClose());
      }),
  };
}

/** A worker's connection to the coordinator, for one target. Any failure rejects: the caller falls back. */
export class CoordinatorLink {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: number) => void; reject: (error: Error) => void }>();
  private broken: Error | null = null;
  private readonly socket: Socket;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.setNoDelay(true);
    // Idle, the link must not keep a worker alive; it is referenced only while an answer is awaited.
    socket.unref();
    onLines(socket, (line) => {
      const [id, value] = line.split(' ');
      const waiting = this.pending.get(Number(id));
      if (waiting === undefined) return;
      this.pending.delete(Number(id));
      if (this.pending.size === 0) socket.unref();
      waiting.resolve(Number(value) || 0);
    });
    const breakLink = (error: Error) => {
      this.broken ??= error;
      for (const waiting of this.pending.values()) waiting.reject(this.broken);
      this.pending.clear();
      socket.destroy();
    };
    socket.on('error', breakLink);
    socket.on('close', () => breakLink(new Error('rate coordinator: connection closed')));
  }

  static connect(address: string, origin: string, timeoutMs = 1_000): Promise<CoordinatorLink> {
    const match = /^([\d.]+|localhost):(\d{1,5})$/.exec(address.trim());
    if (!match) return Promise.reject(new Error(`rate coordinator: unreadable address "${address.slice(0, 60)}"`));
    return new Promise((resolveLink, rejectLink) => {
      const socket = createConnection({ host: match[1], port: Number(match[2]) });
      const timer = setTimeout(() => {
        socket.destroy();
        rejectLink(new Error('rate coordinator: no connection'));
      }, timeoutMs);
      socket.once('error', (error) => {
        clearTimeout(timer);
        rejectLink(error);
      });
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.write(`o ${origin.replace(/\s/g, '')}\n`);
        resolveLink(new CoordinatorLink(socket));
      });
    });
  }

  get usable(): boolean {
    return this.broken === null;
  }

  private ask(line: (id: number) => string): Promise<number> {
    if (this.broken !== null) return Promise.reject(this.broken);
    const id = this.nextId++;
    return new Promise<number>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.ref();
      this.socket.write(line(id));
    });
  }

  /** Milliseconds to wait for a slot of the shared budget; `ok`: answers accepted since the last line. */
  acquire(ok: number): Promise<number> {
    return this.ask((id) => `a ${id} ${ok}\n`);
  }

  /** Reports a 429; resolves to whether it counts against the request's retries. */
  async refused(ok: number, ageMs: number, paced: boolean, hintRps: number | null): Promise<boolean> {
    const answer = await this.ask(
      (id) => `r ${id} ${ok} ${Math.max(0, Math.round(ageMs))} ${paced ? 1 : 0} ${field(hintRps ?? undefined)}\n`,
    );
    return answer === 1;
  }

  advise(facts: RateFacts): void {
    if (this.broken !== null) return;
    this.socket.write(
      `h ${field(facts.limit)} ${field(facts.remaining)} ${field(facts.resetMs)} ${field(facts.windowMs)}\n`,
    );
  }

  close(): void {
    this.socket.destroy();
  }
}
