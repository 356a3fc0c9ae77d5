/**
 * The queue between the forwarding and whoever looks at what was forwarded: items go in as their
 * answers are sent and come out one at a time, in that order, to a consumer that may take its time
 * (a judge). Pushing never waits. The queue is bounded twice, so that memory stays bounded however
 * far the consumer falls behind: by the body bytes its items hold (past it, the oldest items lose
 * their bodies and keep the rest) and by its length (past it, the oldest items are dropped whole).
 */

/** The longest the queue delivers items without letting the event loop turn. */
const sliceMs = 1;

export interface QueueLimits {
  /** Items waiting, at most; the oldest goes when one more comes. */
  maxItems: number;
  /** Body bytes held by the items waiting, at most; the oldest items' bodies go first. */
  maxBodyBytes: number;
}

export interface QueueCounts {
  /** Waiting now (not counting the one the consumer holds). */
  waiting: number;
  peakWaiting: number;
  /** Body bytes held by the items waiting. */
  bodyBytes: number;
  delivered: number;
  /** Items whose bodies were dropped to stay under maxBodyBytes. */
  bodiesDropped: number;
  /** Items dropped whole to stay under maxItems. */
  itemsDropped: number;
  /** Deliveries that threw or rejected. */
  failed: number;
}

export interface QueueHandlers<T> {
  /** The body bytes an item holds. */
  bodyBytes(item: T): number;
  /** Returns the item without its bodies. */
  dropBodies(item: T): T;
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
  /** Items before this index hold no bodies: the next to lose its bodies is here or later. */
  private withBodies = 0;
  private draining = false;
  private idle: (() => void)[] = [];
  private readonly counts: QueueCounts = {
    waiting: 0,
    peakWaiting: 0,
    bodyBytes: 0,
    delivered: 0,
    bodiesDropped: 0,
    itemsDropped: 0,
    failed: 0,
  };

  constructor(limits: QueueLimits, handlers: QueueHandlers<T>) {
    if (!(limits.maxItems >= 1)) throw new RangeError('the queue must hold at least one item');
    if (!(limits.maxBodyBytes >= 0)) throw new RangeError('the queue body budget cannot be negative');
    this.limits = limits;
    this.handlers = handlers;
  }

  stats(): QueueCounts {
    return { ...this.counts };
  }

  push(item: T): void {
    if (this.counts.waiting >= this.limits.maxItems) this.dropOldest();
    const size = this.handlers.bodyBytes(item);
    this.items.push(item);
    this.sizes.push(size);
    this.counts.waiting++;
    this.counts.bodyBytes += size;
    if (this.counts.waiting > this.counts.peakWaiting) this.counts.peakWaiting = this.counts.waiting;
    this.shedBodies();
    if (!this.draining) {
      this.draining = true;
      // Never on the caller's turn: the caller is the forwarding.
      setImmediate(() => void this.drain());
    }
  }

  /** Resolves when every item pushed so far has been delivered (or dropped). */
  flush(): Promise<void> {
    if (!this.draining) return Promise.resolve();
    return new Promise((done) => this.idle.push(done));
  }

  private dropOldest(): void {
    const at = this.head;
    this.counts.bodyBytes -= this.sizes[at]!;
    this.items[at] = undefined;
    this.head++;
    this.counts.waiting--;
    this.counts.itemsDropped++;
  }

  private shedBodies(): void {
    if (this.counts.bodyBytes <= this.limits.maxBodyBytes) return;
    let at = Math.max(this.withBodies, this.head);
    const end = this.items.length;
    while (this.counts.bodyBytes > this.limits.maxBodyBytes && at < end) {
      const size = this.sizes[at]!;
      if (size > 0) {
        this.items[at] = this.handlers.dropBodies(this.items[at]!);
        this.sizes[at] = 0;
        this.counts.bodyBytes -= size;
        this.counts.bodiesDropped++;
      }
      at++;
    }
    this.withBodies = at;
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
      this.withBodies = Math.max(0, this.withBodies - this.head);
      this.head = 0;
    }
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
    this.withBodies = 0;
    this.draining = false;
    for (const done of this.idle.splice(0)) done();
  }
}
