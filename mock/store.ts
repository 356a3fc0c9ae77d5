/**
 * The in-memory state of one environment of the reference mock. Each collection is a
 * Map in insertion order with a cap: at the cap the oldest record is evicted, so memory
 * stays bounded under any load (docs/reference/mock.md documents this).
 */
import { randomBytes, randomInt } from 'node:crypto';
import { seedFor, type AccountName, type BalanceRecord, type CurrencyRecord } from './seed.ts';

export interface PhoneNumberRecord {
  number: string | number;
  country: string;
}

export interface CustomerRecord {
  id: number;
  email: string | null;
  firstname: string | null;
  lastname: string | null;
  phone_number: PhoneNumberRecord | null;
  account_id: number;
  created_at: string;
  updated_at: string;
}

export interface TransactionRecord {
  id: number;
  reference: string;
  amount: number;
  description: string;
  callback_url: string;
  status: string;
  currency_id: number;
  customer_id: number | null;
  mode: string | null;
  custom_metadata: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export interface PaymentIntentRecord {
  id: number;
  reference: string;
  amount: number;
  status: string;
  currency_id: number;
  mode: string;
  last_error_code: string | null;
  created_at: string;
  updated_at: string;
  approved_at: string | null;
  canceled_at: string | null;
  deleted_at: string | null;
  payment_method_id: number;
  transaction_key: string;
  account_id: number;
  transaction_id: number;
  phone_number: PhoneNumberRecord | null;
}

export const defaultStoreCap = 50_000;
/** Bytes of records kept per environment (records as JSON, UTF-16, plus overhead), before the oldest are evicted. */
export const defaultStoreBytes = 64 * 1024 * 1024;

/** Bytes of the records an environment keeps, shared by its collections. */
interface Evictable {
  readonly size: number;
  evictOldest(): void;
}

export class ByteBudget {
  used = 0;
  private readonly maps: Evictable[] = [];
  readonly limit: number;
  constructor(limit: number) {
    this.limit = limit;
  }
  register(map: Evictable): void {
    this.maps.push(map);
  }
  /** Evicts oldest records, from `first` and then the others, until the bytes fit the limit. */
  fit(first: Evictable): void {
    if (this.used <= this.limit) return;
    for (const map of [first, ...this.maps.filter((m) => m !== first)]) {
      // The record just inserted stays (first.size > 1): it was accepted, it must be findable.
      while (this.used > this.limit && map.size > (map === first ? 1 : 0)) map.evictOldest();
      if (this.used <= this.limit) return;
    }
  }
}

/**
 * A Map that forgets its oldest entry when it grows past its cap of records or when the
 * environment's records exceed their byte budget: no sequence of accepted requests can exhaust
 * the heap, whatever the size of each record (a 60 KiB custom_metadata counts as 60 KiB).
 *
 * The oldest key comes from a queue of insertions, not from the Map's own iterator: once the
 * Map is full, every insertion evicts, and V8's iterator first steps over every entry deleted
 * since the table was last compacted (about 20 µs per creation at the cap; npm run bench).
 * Each entry of the queue carries the insertion it stands for, so that a key deleted and set
 * again is not evicted for its earlier life.
 */
export class CappedMap<K, V> extends Map<K, V> {
  private readonly sizes = new Map<K, number>();
  /** Insertion number of each present key. */
  private readonly born = new Map<K, number>();
  /** Keys in insertion order, with the insertion number of each (parallel arrays: no object per entry). */
  private queueKeys: K[] = [];
  private queueBirths: number[] = [];
  private head = 0;
  private births = 0;
  private readonly cap: number;
  private readonly budget: ByteBudget | undefined;
  private readonly sizeOf: ((value: V) => number) | undefined;
  constructor(cap: number, budget?: ByteBudget, sizeOf?: (value: V) => number) {
    super();
    this.cap = cap;
    this.budget = budget;
    this.sizeOf = sizeOf;
    budget?.register(this);
  }
  override set(key: K, value: V): this {
    if (this.budget && this.sizeOf) {
      this.forget(key);
      const size = this.sizeOf(value);
      this.sizes.set(key, size);
      this.budget.used += size;
    }
    if (!super.has(key)) {
      const birth = this.births++;
      this.born.set(key, birth);
      this.queueKeys.push(key);
      this.queueBirths.push(birth);
      // Keys deleted by requests (not evicted) leave their entries behind: bounded by the Map's size.
      if (this.queueKeys.length - this.head > 2 * this.size + 1024) this.compact(true);
    }
    super.set(key, value);
    while (this.size > this.cap) this.evictOldest();
    this.budget?.fit(this);
    return this;
  }
  override delete(key: K): boolean {
    this.forget(key);
    this.born.delete(key);
    return super.delete(key);
  }
  override clear(): void {
    this.sizes.clear();
    this.born.clear();
    this.queueKeys = [];
    this.queueBirths = [];
    this.head = 0;
    super.clear();
  }
  evictOldest(): void {
    while (this.head < this.queueKeys.length) {
      const key = this.queueKeys[this.head]!;
      const birth = this.queueBirths[this.head++]!;
      if (this.born.get(key) === birth) {
        this.delete(key);
        this.compact();
        return;
      }
    }
    this.compact();
  }
  /** Drops the queue's consumed head, and the entries of deleted keys, once they are most of it. */
  private compact(always = false): void {
    if (!always && (this.head < 1024 || this.head * 2 < this.queueKeys.length)) return;
    const keys: K[] = [];
    const births: number[] = [];
    for (let i = this.head; i < this.queueKeys.length; i++) {
      const key = this.queueKeys[i]!;
      if (this.born.get(key) !== this.queueBirths[i]) continue;
      keys.push(key);
      births.push(this.queueBirths[i]!);
    }
    this.queueKeys = keys;
    this.queueBirths = births;
    this.head = 0;
  }
  private forget(key: K): void {
    const size = this.sizes.get(key);
    if (size === undefined || !this.budget) return;
    this.budget.used -= size;
    this.sizes.delete(key);
  }
}

/** Approximate bytes of a record: its JSON text, plus a fixed overhead for the object itself. */
function recordBytes(value: unknown): number {
  return 200 + JSON.stringify(value).length * 2;
}

function now(): string {
  return new Date().toISOString();
}

/**
 * Random hex from a pool refilled 4 KiB at a time: one randomBytes call per creation was the
 * mock's largest cost after the socket writes (npm run bench). Same quality, fewer calls.
 */
const randomPool = { bytes: Buffer.alloc(0), offset: 0 };
function randomHex(byteCount: number): string {
  if (randomPool.offset + byteCount > randomPool.bytes.length) {
    randomPool.bytes = randomBytes(4096);
    randomPool.offset = 0;
  }
  const hex = randomPool.bytes.toString('hex', randomPool.offset, randomPool.offset + byteCount);
  randomPool.offset += byteCount;
  return hex;
}

export class EnvironmentStore {
  readonly accountId: number;
  readonly currencies: Map<number, CurrencyRecord>;
  readonly balances: Map<number, BalanceRecord>;
  readonly customers: CappedMap<number, CustomerRecord>;
  readonly transactions: CappedMap<number, TransactionRecord>;
  /** token (as a string) -> transaction id */
  readonly tokens: CappedMap<string, number>;
  /** transaction id -> token, so that asking the link twice gives the same token */
  readonly tokenOfTransaction: CappedMap<number, string>;
  readonly intents: CappedMap<number, PaymentIntentRecord>;
  readonly modes: ReadonlySet<string>;
  /** The byte budget of this environment's records (used and limit). */
  readonly bytes: ByteBudget;
  private nextCustomerId = 1;
  private nextTransactionId = 1;
  private nextIntentId = 1;

  readonly environment: 'sandbox' | 'live';
  readonly account: AccountName;

  constructor(
    environment: 'sandbox' | 'live',
    cap: number = defaultStoreCap,
    storeBytes: number = defaultStoreBytes,
    account: AccountName = 'primary',
  ) {
    this.environment = environment;
    this.account = account;
    const seed = seedFor(environment, account);
    this.accountId = seed.accountId;
    this.currencies = new Map(seed.currencies.map((currency) => [currency.id, currency]));
    this.balances = new Map(seed.balances.map((balance) => [balance.id, balance]));
    this.modes = new Set(seed.currencies.flatMap((currency) => currency.modes));
    this.bytes = new ByteBudget(storeBytes);
    // Customers, transactions and intents hold what clients send (names, descriptions, metadata):
    // they count against the byte budget. Tokens are short and capped by count.
    this.customers = new CappedMap<number, CustomerRecord>(cap, this.bytes, recordBytes);
    this.transactions = new CappedMap<number, TransactionRecord>(cap, this.bytes, recordBytes);
    this.tokens = new CappedMap(cap);
    this.tokenOfTransaction = new CappedMap(cap);
    this.intents = new CappedMap<number, PaymentIntentRecord>(cap, this.bytes, recordBytes);
    // Ids start at an environment- and account-specific offset so that a sandbox id is never valid live, and an id
    // of one account never names a resource of the other (ids are unique across accounts, as in a real service).
    const offset = environment === 'live' ? 500_000 : account === 'second' ? 300_000 : 100;
    this.nextCustomerId = offset;
    this.nextTransactionId = offset * 10;
    this.nextIntentId = offset * 20;
  }

  currencyByIso(iso: string): CurrencyRecord | undefined {
    for (const currency of this.currencies.values()) if (currency.iso === iso) return currency;
    return undefined;
  }

  addCustomer(fields: Omit<CustomerRecord, 'id' | 'account_id' | 'created_at' | 'updated_at'>): CustomerRecord {
    const stamp = now();
    const customer: CustomerRecord = {
      id: this.nextCustomerId++,
      ...fields,
      account_id: this.accountId,
      created_at: stamp,
      updated_at: stamp,
    };
    this.customers.set(customer.id, customer);
    return customer;
  }

  addTransaction(
    fields: Omit<TransactionRecord, 'id' | 'reference' | 'status' | 'created_at' | 'updated_at'>,
  ): TransactionRecord {
    const stamp = now();
    const transaction: TransactionRecord = {
      id: this.nextTransactionId++,
      reference: `trx_${randomHex(6)}`,
      status: 'pending',
      ...fields,
      created_at: stamp,
      updated_at: stamp,
    };
    this.transactions.set(transaction.id, transaction);
    return transaction;
  }

  /** The transaction's token: issued once, then the same on every later request. */
  tokenFor(transactionId: number): string {
    const existing = this.tokenOfTransaction.get(transactionId);
    if (existing) return existing;
    let token: string;
    // A string of digits that is also a safe integer: the send payload shape types the
    // token as an integer while the link operation returns a string, and both must work.
    do token = String(randomInt(10 ** 11, 9 * 10 ** 12));
    while (this.tokens.has(token));
    this.tokens.set(token, transactionId);
    this.tokenOfTransaction.set(transactionId, token);
    return token;
  }

  /**
   * A payment intent, with a deterministic outcome so that every documented status and its
   * event timestamp is met by the suite: without a phone number nothing can be sent yet
   * (pending); with one, an even amount is sent (approved_at set) and an odd amount fails
   * (canceled_at set, last_error_code "insufficient_funds").
   */
  addIntent(transaction: TransactionRecord, mode: string, phone: PhoneNumberRecord | null): PaymentIntentRecord {
    const stamp = now();
    const outcome = phone === null ? 'pending' : transaction.amount % 2 === 0 ? 'sent' : 'failed';
    const intent: PaymentIntentRecord = {
      id: this.nextIntentId++,
      reference: `pi_${randomHex(6)}`,
      amount: transaction.amount,
      status: outcome,
      currency_id: transaction.currency_id,
      mode,
      last_error_code: outcome === 'failed' ? 'insufficient_funds' : null,
      created_at: stamp,
      updated_at: stamp,
      approved_at: outcome === 'sent' ? stamp : null,
      canceled_at: outcome === 'failed' ? stamp : null,
      deleted_at: null,
      payment_method_id: 1 + [...this.modes].indexOf(mode),
      transaction_key: randomHex(16),
      account_id: this.accountId,
      transaction_id: transaction.id,
      phone_number: phone,
    };
    this.intents.set(intent.id, intent);
    return intent;
  }
}

/** The stores of the mock: one per environment, and the sandbox's second account. */
export interface MockStores {
  sandbox: EnvironmentStore;
  sandboxSecond: EnvironmentStore;
  live: EnvironmentStore;
}
