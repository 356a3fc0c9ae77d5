/**
 * The expectation a request is owed, from what it carried (its credential, its body's class) and what history showed
 * before it (judgment/history.ts): the judge of traffic asks here for every request, and names no rule itself; the
 * stateful sequences ask here for a link of a transaction they created.
 * The rules come from where judgment keeps them: the operations table's roles (success, unauthorised, invalid input),
 * the rule of an input's class (accepted-input.ts), the malformed text's (text-class.ts), the history checks'
 * (rules/identity.ts); the few that only traffic meets (a key in another scheme, an id with characters after it, an
 * id no answer gave) are named here, once.
 */
import { operation, type OperationId } from '../contract/operations.ts';
import { isRuleId, rule } from '../contract/rules.ts';
import { valueAtPointer } from '../contract/json-pointer.ts';
import type { Exchange } from '../http/exchange.ts';
import { creationRule, sendRule } from './accepted-input.ts';
import type { AnswerSettings } from './answer-settings.ts';
import {
  accepted,
  authorised,
  classified,
  either,
  exactly,
  noting,
  notAccepted,
  notServerError,
  refused,
  type Expectation,
} from './expectations.ts';
import { otherAccount, type Account, type History } from './history.ts';
import type { ClassifiedInput } from './input-class.ts';
import { judgeAnswer, type Judgement } from './registry.ts';
import { isolationRule } from './rules/accounts.ts';
import { deletedByItsOwner } from './rules/identity.ts';
import { malformedRule } from './text-class.ts';
import { anotherTokenInput } from './token-forms.ts';

/** A request body as the body classifier read it: not JSON at all, or classified as a whole. */
export type ReadBody = { kind: 'malformed' } | { kind: 'classified'; input: ClassifiedInput; body: unknown };

/** An expectation, with the input class it was chosen for (the traffic's coverage). */
export interface ChosenExpectation {
  expectation: Expectation;
  inputClass?: string;
}

const rulesOf = (id: OperationId) => operation(id).rules!;

/** A request naming a customer that may no longer exist (referenced by id, or deleted since): never a 5xx. */
const customerGoneRule = 'CUSTOMER-REFERENCE-NOT-5XX';

/** Not refused for its credential: the rule a valid key in the Bearer scheme is judged under. */
const bearerAccepted = 'AUTH-BEARER-ACCEPTED';

/**
 * The expectation of a request refused for its credential, or sent with a known key in another scheme:
 * `token` (a link's token sent as the key) and `nearly` (almost a key) say what the credential was.
 */
export function credentialExpectation(
  id: OperationId,
  credential: { kind: 'missing' } | { kind: 'invalid'; token: boolean; nearly: boolean } | { kind: 'other-scheme' },
  strict: boolean,
): Expectation {
  const unauthorised = rulesOf(id).unauthorised;
  if (credential.kind === 'missing') return exactly(unauthorised, 401);
  if (credential.kind === 'other-scheme')
    return strict ? refused('AUTH-BEARER-SCHEME') : notServerError('AUTH-BEARER-SCHEME');
  const ruleId = credential.token ? 'AUTH-TOKEN-NOT-A-KEY' : credential.nearly ? 'AUTH-KEY-EXACT' : unauthorised;
  // AUTH-TOKEN-NOT-A-KEY is checked on the currency read; elsewhere a token as the credential is a wrong key.
  const applies = isRuleId(ruleId) && rule(ruleId).operations.includes(id);
  return exactly(applies ? ruleId : unauthorised, 401);
}

/**
 * AUTH-BEARER-ACCEPTED: the valid key in the Bearer scheme is not refused for its credential (401). A 403 is not
 * held against it: traffic may address another account's resource, which a server may forbid.
 */
export function validKeyJudgement(exchange: Exchange, settings: AnswerSettings): Judgement | undefined {
  if (exchange.status === 403) return { rule: bearerAccepted, violations: [] };
  return judgeAnswer(exchange, authorised(bearerAccepted), settings)[0];
}

/** A body not kept whole cannot be classified: whatever it was, the server owes it no 5xx (undefined: no body). */
export function unclassifiedBodyExpectation(id: OperationId): ChosenExpectation | undefined {
  const open: ClassifiedInput['class'] = 'accept-or-refuse';
  const ruleId =
    id === 'createTransaction'
      ? creationRule({ class: open })
      : id === 'sendTransaction'
        ? sendRule({ class: open })
        : undefined;
  return ruleId === undefined
    ? undefined
    : { expectation: notServerError(ruleId), inputClass: 'not classified (the body was not kept whole)' };
}

/** An operation traffic reaches that the rules judge by no other expectation: never a 5xx. */
export const otherRequestExpectation = (): Expectation => notServerError('REQUEST-FORM-NOT-5XX');

/** What an accepted creation owes back: the body as the server read it (each reading of the classifier). */
const readAs = (reading: { kind: string; value?: unknown }): { read?: Record<string, unknown> } =>
  reading.kind === 'absent' ||
  reading.value === null ||
  typeof reading.value !== 'object' ||
  Array.isArray(reading.value)
    ? {}
    : { read: reading.value as Record<string, unknown> };

/**
 * A creation: by its body's class; a customer referenced by id that history did not show as this account's living
 * customer may not exist (accept or refuse); one it did is owed back where the answer names a customer.
 */
export function creationExpectation(
  body: ReadBody,
  history: History,
  account: Account,
  strict: boolean,
): ChosenExpectation {
  if (body.kind === 'malformed') return { expectation: refused(malformedRule), inputClass: 'must-refuse' };
  const customerId = valueAtPointer(body.body, '/customer/id');
  let asRead = readAs;
  if (customerId !== undefined && body.input.class !== 'must-refuse') {
    const known = history.customerNamed(customerId);
    // One it did: accepted, the answer names that customer where it names one (TXN-CREATE-CUSTOMER-KEPT).
    if (known !== undefined && !known.deleted && known.account === account && typeof customerId === 'number')
      asRead = (reading) => ({ ...readAs(reading), customerId });
    if (known === undefined || known.deleted || known.account !== account) {
      const open: ClassifiedInput = {
        ...body.input,
        class: 'accept-or-refuse',
        strictRefuses: false,
        why: 'a customer id the traffic did not show as this account’s living customer',
      };
      return {
        expectation: classified(customerGoneRule, open, strict, readAs),
        inputClass: 'accept-or-refuse',
      };
    }
  }
  return {
    expectation: classified(creationRule(body.input), body.input, strict, asRead),
    inputClass: body.input.class,
  };
}

/**
 * A send: by its body's class and the token as the body was read (JSON, or what a lenient parser read beyond
 * RFC 8259): a token history gave this account owes intents of its transaction's amount; another account's is
 * refused; one history never showed may still be one the target issued.
 */
export function sendExpectation(
  body: ReadBody,
  history: History,
  account: Account,
  modes: { sent: string | undefined; configured: string },
  strict: boolean,
): ChosenExpectation {
  if (body.kind === 'malformed') return { expectation: refused(malformedRule), inputClass: 'must-refuse' };
  const sentToken = valueAtPointer(body.body, '/token');
  const token = history.tokenFor(sentToken);
  if (sentToken === undefined || sentToken === null)
    return { expectation: notAccepted('SEND-TOKEN-REQUIRED'), inputClass: 'must-refuse' };
  // The integer of a token history showed that starts with 0: another token, which may be refused or accepted.
  const zeroPadded = token === undefined ? history.tokenStartingWithZero(sentToken) : undefined;
  if (zeroPadded !== undefined && zeroPadded.account === account && typeof sentToken === 'number') {
    const amount = history.transactions.get(zeroPadded.transactionId)?.amount;
    return {
      expectation: classified('SEND-TOKEN-INTEGER', anotherTokenInput(zeroPadded.token, sentToken), strict, () =>
        amount === undefined ? {} : { amount },
      ),
      inputClass: 'accept-or-refuse',
    };
  }
  const open: ClassifiedInput['class'] = 'accept-or-refuse';
  if (token === undefined) return { expectation: either(sendRule({ class: open })), inputClass: 'unknown token' };
  if (token.account !== account) return { expectation: refused(isolationRule), inputClass: 'must-refuse' };
  const amount = history.transactions.get(token.transactionId)?.amount;
  const context = () => (amount === undefined ? {} : { amount });
  if (history.customerGone(token.transactionId) && body.input.class !== 'must-refuse') {
    const gone: ClassifiedInput = {
      ...body.input,
      class: open,
      strictRefuses: false,
      why: 'a token of a transaction whose customer was deleted since',
    };
    return { expectation: classified(customerGoneRule, gone, strict, context), inputClass: open };
  }
  let input = body.input;
  // The reference shows one mode (the target's own, configured) and says nothing of sending a token twice.
  if (input.class === 'must-accept' && (modes.sent !== modes.configured || token.sent))
    input = {
      ...input,
      class: open,
      why: token.sent ? 'a token already sent' : `a mode other than the configured ${modes.configured}`,
    };
  return {
    expectation: classified(sendRule(input), input, strict, context),
    inputClass: input.class,
  };
}

/**
 * ID-EXACT: a path id that is a known resource's id followed by other characters (4218abc, 4218;, 4218 and NUL)
 * is not that resource: it must be refused, whatever a number parser that stops early reads.
 */
function exactId(raw: string, known: (id: string) => boolean): Expectation | undefined {
  const digits = /^[1-9]\d*/.exec(raw)?.[0];
  if (digits === undefined || digits === raw || !known(digits)) return undefined;
  return noting(refused('ID-EXACT'), `the id ${JSON.stringify(raw)} is ${digits} followed by other characters`);
}

/**
 * A link: owed for a transaction history showed this account create, unless its customer was deleted since; an id
 * history never gave may still exist.
 */
export function linkExpectation(history: History, account: Account, raw: string): Expectation {
  const transaction = history.transactions.get(raw);
  if (transaction === undefined)
    return exactId(raw, (id) => history.transactions.has(id)) ?? either('UNKNOWN-ID-NOT-5XX');
  if (transaction.account !== account) return refused(isolationRule);
  // Its customer deleted since, or already sent, it may no longer give a link (the reference does not say).
  if (history.customerGone(raw)) return either(customerGoneRule);
  const success = rulesOf('getPaymentLink').success;
  return transaction.sent ? either(success) : accepted(success);
}

/** A customer id as CUSTOMER-ID-INTEGER reads it. */
function customerIdClass(raw: string): 'integer' | 'wide' | 'readable' | 'not-an-id' {
  if (/^[1-9]\d*$/.test(raw)) {
    const value = BigInt(raw);
    if (value <= BigInt(Number.MAX_SAFE_INTEGER)) return 'integer';
    return value <= 2n ** 64n - 1n ? 'wide' : 'not-an-id';
  }
  // What a common integer parser reads as a positive integer: leading zeros, a + sign, white space around it.
  return /^\s*\+?0*[1-9]\d*\s*$/.test(raw) ? 'readable' : 'not-an-id';
}

/**
 * A deletion, by its id's class and what history showed of the customer; undefined for a customer its owner
 * deleted: the history check of CUSTOMER-DELETE-GONE judges it (rules/identity.ts).
 */
export function deletionExpectation(history: History, account: Account, raw: string): Expectation | undefined {
  const rules = rulesOf('deleteCustomer');
  const kind = customerIdClass(raw);
  if (kind === 'not-an-id') return exactId(raw, (id) => history.customers.has(id)) ?? refused(rules.invalidInput);
  if (kind !== 'integer') return notServerError(rules.invalidInput);
  const customer = history.customers.get(raw);
  if (customer === undefined)
    return noting(either('CUSTOMER-DELETE-404'), 'an id no answer of the traffic gave: 204 or 404');
  if (customer.account !== account) return refused(isolationRule);
  if (deletedByItsOwner({ account, id: raw }, history)) return undefined;
  if (customer.named)
    return noting(either('CUSTOMER-DELETE-404'), 'a customer only named by a transaction: 204 or 404');
  return customer.touchedByOther ? exactly('ACCOUNT-ISOLATION-UNCHANGED', 204) : accepted(rules.success);
}

/**
 * A read of a balance or a currency: owed for an id the user named as its account's; another account's balance is
 * not this account's (ACCOUNT-ISOLATION-4XX); any other id is never a 5xx.
 */
export function readExpectation(
  id: 'getBalance' | 'getCurrency',
  account: Account,
  raw: string | undefined,
  named: Record<Account, number | null>,
): Expectation {
  const value = Number(raw);
  const exact = String(value) === raw;
  if (exact && named[account] === value) return accepted(rulesOf(id).success, { id: value });
  if (id === 'getBalance' && exact && named[otherAccount(account)] === value) return notServerError(isolationRule);
  return either('UNKNOWN-ID-NOT-5XX');
}
