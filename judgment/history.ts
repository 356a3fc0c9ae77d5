/**
 * What earlier exchanges gave out, which later answers are held to by the history checks of the registry
 * (judgment/registry.ts, `judgeHistory`): the suite's stateful tests and the judge of traffic feed one History each,
 * exchange by exchange, and the same checks read it. Nothing is assumed that the exchanges did not show: an id no
 * answer gave out may exist on the target, so a request for it is judged only for what every answer owes.
 *
 * - transactions created (2xx), by id: the account that created each and its amount; an id given out twice is a new
 *   transaction with another's id (TXN-ID-UNIQUE);
 * - tokens a link answer gave, with their transaction (a send with the token owes intents of its amount), and
 *   whether the token has been sent already;
 * - customers created (POST /customers, or inline in a creation whose answer names them), by id: their account, and
 *   whether one was deleted with 204 (deleting it again owes 404);
 * - requests another account made on a resource (its owner's later requests must find it as it was);
 * - the account_id each account's answers carry (an answer to one never carries the other's);
 * - the balances and currencies read by their owners (what a refused read must not disclose);
 * - what a creation without an amount was answered, by body (the same body with an amount read as "not given" owes
 *   the same).
 */
import { createHash } from 'node:crypto';
import { exactText, stringifyJson } from '../contract/big-integers.ts';
import { valueAtPointer } from '../contract/json-pointer.ts';
import { operation } from '../contract/operations.ts';
import type { Exchange } from '../http/exchange.ts';
import { createdCustomerId } from '../output/ledger.ts';
import { isSuccess } from './checks.ts';
import type { ClassifiedInput } from './input-class.ts';

/** The two accounts whose keys the user gives (PCS_SECRET_KEY, PCS_SECOND_SECRET_KEY). */
export type Account = 'first' | 'second';

export const otherAccount = (account: Account): Account => (account === 'first' ? 'second' : 'first');

/**
 * One request as history reads it: whose it was, what it named and sent. The suite knows it; the judge of traffic
 * reads it from the exchange (its credential, its route, its body through the body classifier).
 */
export interface Asked {
  /** The account the request is taken for: its key's (the first account's when no known key was sent). */
  account: Account;
  /**
   * How it was authorised: with a known key in the Bearer scheme (`valid`), a known key in another form, refused for
   * its credential (no Authorization header, or a key of nobody), or not known (no keys were given).
   */
  key: 'valid' | 'other-scheme' | 'refused' | 'unknown';
  /** The id of the path (a transaction's, a customer's, a balance's), as sent. */
  id?: string;
  /** The request body as the server may have read it (JSON, or what a lenient parser reads); undefined: none. */
  sent?: unknown;
  /** The classes of the body's fields, where the body was classified (judge/body-class.ts). */
  fields?: readonly ClassifiedInput[];
  /** Where the exchange came from (the suite, the proxy, a HAR file): ids are compared within one. */
  origin: string;
  /** Sent with an Idempotency-Key: a replay of it is the same transaction. */
  replay?: boolean;
  /** The answer's body was not kept whole: what it lacks was not seen. */
  incomplete?: boolean;
}

/** A request the suite made with its configured key (the first account's), as history reads it. */
export function bySuite(request: { id?: number | string | bigint; sent?: unknown } = {}): Asked {
  return {
    account: 'first',
    key: 'valid',
    origin: 'suite',
    ...(request.id === undefined ? {} : { id: idText(request.id) }),
    ...(request.sent === undefined ? {} : { sent: request.sent }),
  };
}

export interface KnownTransaction {
  account: Account;
  /** The recording the creation came from (a HAR file, the proxy, the suite): ids are compared within one. */
  origin: string;
  amount: number | undefined;
  /** The customer it names: the one its request referenced by id, else the one its answer named. */
  customer?: string;
  linked: boolean;
  sent: boolean;
}

export interface KnownToken {
  token: string;
  transactionId: string;
  account: Account;
  sent: boolean;
}

export interface KnownCustomer {
  account: Account;
  deleted: boolean;
  /**
   * Only named by a transaction's answer (a customer referenced by id): its owner is known, not whether it
   * still exists, so deleting it may answer 204 or 404.
   */
  named?: true;
  /** Another account asked to delete it (its owner's next delete must still answer 204). */
  touchedByOther: boolean;
}

/** Leading zeros a token's digits are looked up with (tokens of digits are seldom longer than 32). */
const maxLeadingZeros = 32;

/** Balances and currencies kept for AUTH-REFUSED-NO-EFFECT: bounded, the ids the traffic read. */
const maxResources = 10_000;

/** The pointer of the creation body's amount of money (the operations table's exactAmount role). */
const amountPointer = operation('createTransaction').rules?.exactAmount?.pointer ?? '/amount';

const isId = (value: unknown): value is number | string => typeof value === 'number' || typeof value === 'string';

/** The id an answer's element carries, as history keys ids (undefined: none). */
const idOf = (item: object): string | undefined => {
  const id = (item as { id?: unknown }).id;
  return isId(id) ? idText(id) : undefined;
};

/** An id as history keys it: its exact digits (an id beyond 2^53 read as its stand-in too), as a path names it. */
const idText = (value: number | string | bigint): string =>
  typeof value === 'bigint' ? value.toString() : exactText(value);

export class History {
  readonly transactions = new Map<string, KnownTransaction>();
  readonly tokens = new Map<string, KnownToken>();
  readonly customers = new Map<string, KnownCustomer>();
  /** The first transaction created with each amount: the transaction a send's intents of that amount belong to. */
  readonly amounts = new Map<number, string>();
  /**
   * What a creation without an amount was answered (its status and amount), by a digest of the account and the body:
   * the same body with an amount read as "not given" owes the same (judgment/rules/money.ts).
   */
  readonly withoutAmount = new Map<string, { status: number; json: unknown }>();
  /** The account_id values each account's own answers carried. */
  readonly accountIds = new Map<Account, Set<string>>();
  /** The balances and currencies read by their owners, by operation and id: what a refused read must not disclose. */
  readonly resources = new Map<string, Record<string, unknown>>();

  /** A token as a client may send it back: the string the link gave, or the same digits as a JSON number. */
  tokenFor(sent: unknown): KnownToken | undefined {
    if (typeof sent === 'string') return this.tokens.get(sent);
    if (typeof sent === 'number' && Number.isSafeInteger(sent)) return this.tokens.get(String(sent));
    if (typeof sent === 'bigint') return this.tokens.get(sent.toString());
    return undefined;
  }

  /**
   * The token whose digits start with 0 and whose integer `sent` is (a client that sent "0620..." as 620...): no JSON
   * integer keeps such a token, and its integer names another one (judgment/token-forms.ts). Looked up by its
   * spellings with leading zeros, so that a long session's tokens are not walked for every send.
   */
  tokenStartingWithZero(sent: unknown): KnownToken | undefined {
    if (typeof sent !== 'number' || !Number.isSafeInteger(sent) || sent < 0) return undefined;
    const digits = String(sent);
    for (let zeros = 1; zeros <= maxLeadingZeros; zeros++) {
      const known = this.tokens.get(`${'0'.repeat(zeros)}${digits}`);
      if (known !== undefined) return known;
    }
    return undefined;
  }

  /** The tokens given out that a url holds, each with its transaction (looked up by the url's words). */
  tokensIn(url: string): KnownToken[] {
    const found: KnownToken[] = [];
    for (const word of new Set(url.split(/[^A-Za-z0-9_.~-]+/))) {
      const known = this.tokens.get(word);
      if (known !== undefined) found.push(known);
    }
    return found;
  }

  /** The customer a body names by `id` (a number as parsed, 64-bit ids too, or a string), as history keys it. */
  customerNamed(id: unknown): KnownCustomer | undefined {
    return isId(id) ? this.customers.get(idText(id)) : undefined;
  }

  /**
   * Whether the customer a transaction names was deleted since: the reference does not say what becomes of its
   * transactions then (their link and send may be refused, never answered with a 5xx).
   */
  customerGone(transactionId: string): boolean {
    const customer = this.transactions.get(transactionId)?.customer;
    return customer !== undefined && this.customers.get(customer)?.deleted === true;
  }

  /** The account_id values of the other account, as JSON texts (the check compares JSON values). */
  otherAccountIds(account: Account): string[] {
    const mine = this.accountIds.get(account) ?? new Set<string>();
    return [...(this.accountIds.get(otherAccount(account)) ?? [])].filter((id) => !mine.has(id));
  }

  /** What the answer to `asked` showed, for the exchanges after it (learnt after the exchange is judged). */
  learn(exchange: Pick<Exchange, 'operation' | 'status' | 'json'>, asked: Asked): void {
    const ok = isSuccess(exchange.status);
    const { account } = asked;
    const json = exchange.json;
    if (asked.key === 'valid' && ok && (exchange.operation === 'getBalance' || exchange.operation === 'getCurrency')) {
      this.noteAccountIds(account, json);
      this.noteResource(exchange.operation, asked.id ?? '', json);
    }
    switch (exchange.operation) {
      case 'createCustomer': {
        // Its id where the answer has it, as the suite reads it (the reference does not show this answer).
        const direct = (json as { id?: unknown } | null | undefined)?.id;
        const id = isId(direct) ? direct : createdCustomerId(json);
        if (ok && isId(id)) this.customers.set(idText(id), { account, deleted: false, touchedByOther: false });
        return;
      }
      case 'createTransaction':
        this.learnCreation(exchange, asked);
        return;
      case 'getPaymentLink': {
        const token = (json as { token?: unknown } | null | undefined)?.token;
        const id = asked.id ?? '';
        const transaction = this.transactions.get(id);
        if (!ok || typeof token !== 'string' || transaction === undefined || transaction.account !== account) return;
        transaction.linked = true;
        this.tokens.set(token, { token, transactionId: id, account, sent: false });
        return;
      }
      case 'sendTransaction': {
        if (!ok) return;
        const sent = valueAtPointer(asked.sent, '/token');
        // A token of digits that starts with 0, sent as its integer and accepted, was sent too.
        const token = this.tokenFor(sent) ?? this.tokenStartingWithZero(sent);
        if (token === undefined || token.account !== account) return;
        token.sent = true;
        const transaction = this.transactions.get(token.transactionId);
        if (transaction) transaction.sent = true;
        return;
      }
      case 'deleteCustomer': {
        const customer = this.customers.get(asked.id ?? '');
        if (customer === undefined) return;
        if (customer.account !== account && !ok) customer.touchedByOther = true;
        if (exchange.status === 204 || (ok && customer.account === account)) customer.deleted = true;
        // Its owner was told it does not exist: it stays so.
        if (exchange.status === 404 && customer.account === account && customer.named) customer.deleted = true;
        return;
      }
      default:
        return;
    }
  }

  private learnCreation(exchange: Pick<Exchange, 'status' | 'json'>, asked: Asked): void {
    const { account } = asked;
    const amountSent = valueAtPointer(asked.sent, amountPointer);
    // A creation without an amount, answered whole for its body (not refused for its credential, nor by a rate limit
    // or a gateway's fault): what the same body with an amount read as "not given" owes.
    const settled = exchange.status >= 200 && exchange.status < 500 && exchange.status !== 429;
    const forItsBody = asked.key === 'valid' || asked.key === 'unknown';
    if (amountSent === undefined && asked.sent !== undefined && settled && forItsBody && !asked.incomplete)
      this.withoutAmount.set(bodyDigest(account, asked.sent), {
        status: exchange.status,
        json: { amount: valueAtPointer(exchange.json, amountPointer) },
      });
    const answer = exchange.json as {
      id?: unknown;
      amount?: unknown;
      customer_id?: unknown;
      customer?: { id?: unknown };
    };
    if (!isSuccess(exchange.status) || !isId(answer?.id)) return;
    // The amount the payer is owed to be charged: the one the client sent, as a plain integer; else as answered.
    const sent = typeof amountSent === 'number' && Number.isSafeInteger(amountSent) ? amountSent : undefined;
    const amount = sent ?? (typeof answer.amount === 'number' ? answer.amount : undefined);
    const id = idText(answer.id);
    const referenced = valueAtPointer(asked.sent, '/customer/id');
    const answered = answer.customer_id ?? answer.customer?.id;
    const named = isId(referenced) ? referenced : isId(answered) ? answered : undefined;
    this.transactions.set(id, {
      account,
      origin: asked.origin,
      amount,
      ...(named === undefined ? {} : { customer: idText(named) }),
      linked: false,
      sent: false,
    });
    if (amount !== undefined && !this.amounts.has(amount)) this.amounts.set(amount, id);
    if (isId(answered) && !this.customers.has(idText(answered))) {
      this.customers.set(idText(answered), {
        account,
        deleted: false,
        touchedByOther: false,
        // A customer the request referenced by id may have been deleted since: only a new one is known alive.
        ...(referenced !== undefined ? { named: true as const } : {}),
      });
    }
  }

  /** Keeps the element of a read's answer that is the resource asked for (bounded: the ids the traffic read). */
  private noteResource(operation: string, id: string, json: unknown): void {
    if (!Array.isArray(json) || this.resources.size >= maxResources) return;
    const element = json.find(
      (item): item is Record<string, unknown> => item !== null && typeof item === 'object' && idOf(item) === id,
    );
    if (element !== undefined) this.resources.set(`${operation} ${id}`, element);
  }

  private noteAccountIds(account: Account, json: unknown): void {
    const found = this.accountIds.get(account) ?? new Set<string>();
    visit(json, (object) => {
      if ('account_id' in object && object.account_id !== null && object.account_id !== undefined)
        found.add(JSON.stringify(object.account_id));
    });
    this.accountIds.set(account, found);
  }
}

function visit(value: unknown, onObject: (object: Record<string, unknown>) => void): void {
  if (Array.isArray(value)) for (const item of value) visit(item, onObject);
  else if (value !== null && typeof value === 'object') {
    onObject(value as Record<string, unknown>);
    for (const item of Object.values(value)) visit(item, onObject);
  }
}

/** A body's digest, for an account: its JSON with the members of every object in name order. */
export function bodyDigest(account: Account, body: unknown): string {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
          )
        : value;
  return createHash('sha256')
    .update(`${account}\n${stringifyJson(sorted(body)) ?? ''}`)
    .digest('base64');
}
