/**
 * The queue between the forwarding and whoever looks at what was forwarded: items go in as their
 * answers are sent and come out one at a time, in that order, to a consumer that may take its time
 * (a judge). Pushing never waits, and nothing pushed is ever dropped. Memory stays bounded however
 * far the consumer falls behind: past the queue's memory budget an item's bodies are spilled (to
 * disk, by the spill handler) as it comes in, and past its length, or when the spill is full too, the
 * queue says it is full: the forwarding then holds new exchanges back (whenRoom) until the consumer
 * catches up. Back-pressure instead of forgetting.
 */

/** The longest the queue delivers items without letting the event loop turn. */
const sliceMs = 1;

export interface QueueLimits {
  /** Items waiting before the queue says it is full (the forwarding then holds new exchanges). */
  maxItems: number;
  /** Body bytes the waiting items may hold in memory; past it, new items' bodies are spilled. */
  maxMemoryBytes: number;
}

export interface QueueCounts {
  /** Waiting now (not counting the one the consumer holds). */
  waiting: number;
  peakWaiting: number;
  /** Body bytes held in memory by the items waiting. */
  bodyBytes: number;
  delivered: number;
  /** Items whose bodies were spilled out of memory while they waited. */
  spilled: number;
  /** Times the queue became full (and the forwarding held new exchanges until it had room). */
  full: number;
  /** Deliveries that threw or rejected. */
  failed: number;
}

export interface QueueHandlers<T> {
  /** The body bytes an item holds in memory. */
  bodyBytes(item: T): number;
  /** The item with its bodies moved out of memory, or undefined when they cannot be (the spill is full). */
  spill?(item: T): T | undefined;
  /** Takes one item; the next is not delivered before this one settles. */
  deliver(item: T): void | Promise<void>;
  /** A delivery that failed: the queue goes on with the next. */
  failed(item: T, error: unknown): void;
}

export class ExchangeQueue<T> {
  private readonly limits: QueueLimits;
  private readonly handlers: QueueHandlers<T>;
  private items: (T | undefined)[] = [];
  private sizes: number[] = [];
  /** Items before head have left the queue (removed in bulk, not one shift at a time). */
  private head = 0;
  private draining = false;
  private spillRefused = false;
  private idle: (() => void)[] = [];
  private roomWaiters: (() => void)[] = [];
  private readonly counts: QueueCounts = {
    waiting: 0,
    peakWaiting: 0,
    bodyBytes: 0,
    delivered: 0,
    spilled: 0,
    full: 0,
    failed: 0,
  };

  constructor(limits: QueueLimits, handlers: QueueHandlers<T>) {
    if (!(limits.maxItems >= 1)) throw new RangeError('the queue must hold at least one item');
    if (!(limits.maxMemoryBytes >= 0)) throw new RangeError('the queue memory budget cannot be negative');
    this.limits = limits;
    this.handlers = handlers;
  }

  stats(): QueueCounts {
    return { ...this.counts };
  }

  /** True while new items should wait: the queue is at its length, or over its memory with nowhere to spill. */
  isFull(): boolean {
    return (
      this.counts.waiting >= this.limits.maxItems ||
      (this.spillRefused && this.counts.bodyBytes > this.limits.maxMemoryBytes)
    );
  }

  /** Resolves at once when the queue has room, else once the consumer has made some. */
  whenRoom(): Promise<void> {
    if (!this.isFull()) return Promise.resolve();
    if (this.roomWaiters.length === 0) this.counts.full++;
    return new Promise((done) => this.roomWaiters.push(done));
  }

  push(incoming: T): void {
    let item = incoming;
    let size = this.handlers.bodyBytes(item);
    if (size > 0 && this.counts.bodyBytes + size > this.limits.maxMemoryBytes) {
      const spilled = this.handlers.spill?.(item);
      this.spillRefused = spilled === undefined;
      if (spilled !== undefined) {
        item = spilled;
        size = this.handlers.bodyBytes(item);
        this.counts.spilled++;
      }
    }
    this.items.push(item);
    this.sizes.push(size);
    this.counts.waiting++;
    this.counts.bodyBytes += size;
    if (this.counts.waiting > this.counts.peakWaiting) this.counts.peakWaiting = this.counts.waiting;
    if (!this.draining) {
      this.draining = true;
      // Never on the caller's turn: the caller is the forwarding.
      setImmediate(() => void this.drain());
    }
  }

  /** Resolves when every item pushed so far has been delivered. */
  flush(): Promise<void> {
    if (!this.draining) return Promise.resolve();
    return new Promise((done) => this.idle.push(done));
  }

  private take(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head]!;
    this.counts.bodyBytes -= this.sizes[this.head]!;
    this.items[this.head] = undefined;
    this.head++;
    this.counts.waiting--;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items.splice(0, this.head);
      this.sizes.splice(0, this.head);
      this.head = 0;
    }
    if (this.counts.bodyBytes <= this.limits.maxMemoryBytes) this.spillRefused = false;
    if (this.roomWaiters.length > 0 && !this.isFull()) for (const resume of this.roomWaiters.splice(0)) resume();
    return item;
  }

  private async drain(): Promise<void> {
    let slice = performance.now();
    for (let item = this.take(); item !== undefined; item = this.take()) {
      try {
        await this.handlers.deliver(item);
        this.counts.delivered++;
      } catch (error) {
        this.counts.failed++;
        try {
          this.handlers.failed(item, error);
        } catch {
          // A failing report of a failure: the queue goes on.
        }
      }
      // Back to the event loop once a slice of time is spent: a consumer that never awaits must not
      // hold up the sockets the forwarding waits on for longer than that, and one that is quick
      // must not wait a turn of the loop per item either.
      if (performance.now() - slice >= sliceMs) {
        await new Promise<void>((done) => setImmediate(done));
        slice = performance.now();
      }
    }
    this.items = [];
    this.sizes = [];
    this.head = 0;
    this.draining = false;
    for (const resume of this.roomWaiters.splice(0)) resume();
    for (const done of this.idle.splice(0)) done();
  }
}
