/**
 * What the traffic showed so far, which later answers are held to. Nothing is assumed that the
 * traffic did not show: an id no answer gave out may exist on the target, so a request for it
 * is judged only for what every answer owes (never a 5xx, the documented shape of a success).
 *
 * - transactions created (2xx), by id: the account that created each and its amount; an id given
 *   out twice is a new transaction with another's id (TXN-ID-UNIQUE);
 * - tokens a link answer gave, with their transaction (a send with the token owes intents of its
 *   amount), and whether the token has been sent already;
 * - customers created (POST /customers, or inline in a creation whose answer names them), by id:
 *   their account, and whether one was deleted with 204 (deleting it again owes 404);
 * - requests another account made on a resource (its owner's later requests must find it as it was);
 * - the account_id each account's answers carry (an answer to one never carries the other's);
 * - what a creation without an amount was answered, by body (the same body with an amount read as "not given" owes
 *   the same).
 */
import type { Account } from './request-account.ts';

export interface KnownTransaction {
  account: Account;
  /** The recording the creation came from (a HAR file, or the proxy): ids are compared within one. */
  origin: string;
  amount: number | undefined;
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

export class TrafficState {
  readonly transactions = new Map<string, KnownTransaction>();
  readonly tokens = new Map<string, KnownToken>();
  readonly customers = new Map<string, KnownCustomer>();
  /**
   * What a creation without an amount was answered (its status and amount), by a digest of the account and the body:
   * the same body with an amount read as "not given" owes the same (judgment/rules/money.ts).
   */
  readonly withoutAmount = new Map<string, { status: number; json: unknown }>();
  /** The account_id values each account's own answers carried. */
  readonly accountIds = new Map<Account, Set<string>>();
  /** The balances and currencies read by their owners, by operation and id: what a refused read must not disclose. */
  readonly resources = new Map<string, Record<string, unknown>>();

  /** Keeps the element of a read's answer that is the resource asked for (bounded: the ids the traffic read). */
  noteResource(operation: string, id: string, json: unknown): void {
    if (!Array.isArray(json) || this.resources.size >= 10_000) return;
    const element = json.find(
      (item): item is Record<string, unknown> =>
        item !== null && typeof item === 'object' && String((item as { id?: unknown }).id) === id,
    );
    if (element !== undefined) this.resources.set(`${operation} ${id}`, element);
  }

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

  noteAccountIds(account: Account, json: unknown): void {
    const found = this.accountIds.get(account) ?? new Set<string>();
    visit(json, (object) => {
      if ('account_id' in object && object.account_id !== null && object.account_id !== undefined)
        found.add(JSON.stringify(object.account_id));
    });
    this.accountIds.set(account, found);
  }

  /** The account_id values of the other account, as JSON texts (the check compares JSON values). */
  otherAccountIds(account: Account): string[] {
    const other: Account = account === 'first' ? 'second' : 'first';
    const mine = this.accountIds.get(account) ?? new Set<string>();
    return [...(this.accountIds.get(other) ?? [])].filter((id) => !mine.has(id));
  }
}

function visit(value: unknown, onObject: (object: Record<string, unknown>) => void): void {
  if (Array.isArray(value)) for (const item of value) visit(item, onObject);
  else if (value !== null && typeof value === 'object') {
    onObject(value as Record<string, unknown>);
    for (const item of Object.values(value)) visit(item, onObject);
  }
}
