/**
 * The judge of traffic the suite did not make: each exchange, in order, is matched to its
 * operation and judged by the check registry (judgment/registry.ts) under the expectation
 * its request calls for, exactly as the suite judges its own inputs: the credential (no header, a
 * wrong key, a known key in another scheme, a valid key), the input class of the body (must accept,
 * must refuse, accept or refuse, with --strict as in a run), and what the traffic showed earlier
 * (judge/traffic-state.ts): a link's token and its transaction's amount, a customer
 * deleted, which account owns what. Every judgment is a verdict record whose source is the exchange.
 */
import { createHash } from 'node:crypto';
import { stringifyJson } from '../contract/big-integers.ts';
import type { OperationId } from '../contract/operations.ts';
import { isRuleId, rule } from '../contract/rules.ts';
import { valueAtPointer } from '../contract/json-pointer.ts';
import type { Exchange } from '../http/exchange.ts';
import type { AnswerSettings } from '../judgment/answer-settings.ts';
import { creationRule, sendRule } from '../judgment/accepted-input.ts';
import type { Violation } from '../judgment/checks.ts';
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
} from '../judgment/expectations.ts';
import type { ClassifiedInput } from '../judgment/input-class.ts';
import { anotherTokenInput } from '../judgment/token-forms.ts';
import {
  amountPointer,
  notGivenAmountViolations,
  owesAnswerWithoutAmount,
  withoutAmount,
} from '../judgment/rules/money.ts';
import { checksOf, judgeAnswer, successStatus } from '../judgment/registry.ts';
import { accountIdIsNot, disclosesNothingOf } from '../judgment/rules/accounts.ts';
import { urlCarriesOwnToken, type KnownLinkToken } from '../judgment/rules/payment-link.ts';
import { checkRecord } from '../judgment/verdict-message.ts';
import type { VerdictRecord } from '../judgment/verdict-record.ts';
import { classifyBody } from './body-class.ts';
import { clientFindingsOf, outsideFindings, type ClientFinding } from './client-findings.ts';
import { credentialOf, type Account, type Credential, type Keys } from './request-account.ts';
import { httpReading, Representations, routedMethod } from './http-semantics.ts';
import { basePathOf, relativePath, routeOf, type Route } from './traffic-routes.ts';
import { TrafficState } from './traffic-state.ts';
import { headerValue, toExchange, type TrafficExchange } from './traffic-exchange.ts';

export interface JudgeOptions {
  keys: Keys;
  /** The variables the keys are read from (a replay line reads the key from there). */
  keyVariables: { first: string; second: string };
  settings: AnswerSettings;
  documentedOnly: boolean;
  /** The payment mode a send is owed acceptance through (PCS_PAYMENT_MODE); others may be refused. */
  paymentMode: string;
  /** Ids the user named as existing: a read of one with its owner's key must be accepted. */
  balanceIds: Record<Account, number | null>;
  currencyId: number | null;
  /** The pinned values of the target (its currency code, payment mode, phone number), by body pointer. */
  pinned: Readonly<Record<string, unknown>>;
  /** The base path of the API in the URLs (`/v1`); undefined: found in each URL (the first `/v1` segment). */
  basePath?: string;
  /** False when the traffic carries no Authorization header at all (a HAR exported without credentials). */
  credentialsRecorded: boolean;
}

export interface JudgedExchange {
  traffic: TrafficExchange;
  route?: Route;
  /** Why the exchange was not judged (a path outside the reference, an operation the reference does not show). */
  outside?: string;
  records: VerdictRecord[];
  /** The request's departures from the reference: at most one finding (one request, one finding). */
  clientFindings: ClientFinding[];
  /** The input class the request's body had, for the traffic's coverage. */
  inputClass?: string;
  /** The request's input as classified, for the traffic's coverage: what it was, and why it has its class. */
  input?: Pick<ClassifiedInput, 'class' | 'what' | 'why'>;
}

/** Almost a key: the same key with a few characters changed, added or cut, or in another case (AUTH-KEY-EXACT). */
function nearlyKey(credential: string, keys: Keys): boolean {
  return [keys.first, keys.second].some(
    (key) =>
      key !== null &&
      credential !== key &&
      (credential.toLowerCase() === key.toLowerCase() ||
        key.startsWith(credential) ||
        credential.startsWith(key) ||
        (Math.abs(credential.length - key.length) <= 2 &&
          [...credential].filter((char, index) => key[index] !== char).length <= 2)),
  );
}

const unauthorisedRule = (operation: OperationId): string =>
  operation === 'deleteCustomer' ? 'AUTH-DELETE-401' : 'AUTH-OTHERS-401';

/**
 * What a rate limit or a gateway's transient fault makes of an exchange: undecided, as the suite's own run has it
 * (its transport waits and retries them, then reports the target unavailable), never a non-conformance.
 */
function transientKind(status: number): 'rate-limited' | 'unavailable' | undefined {
  if (status === 429) return 'rate-limited';
  return status === 502 || status === 503 || status === 504 ? 'unavailable' : undefined;
}

/** The recording an exchange came from: its HAR file, or the proxy. */
function originOf(traffic: TrafficExchange): string {
  return traffic.source?.kind === 'har' ? `har:${traffic.source.file}` : (traffic.source?.kind ?? 'traffic');
}

function parsedOrUndefined(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
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

export class TrafficJudge {
  readonly state = new TrafficState();
  private readonly representations = new Representations();
  private readonly options: JudgeOptions;

  constructor(options: JudgeOptions) {
    this.options = options;
  }

  /** The operation of an exchange, and whose account asked (the credential it carried). */
  private locate(
    traffic: TrafficExchange,
  ):
    | { route: Route; credential: Credential; account: Account; keyVariable: string | null; caller: string }
    | { outside: string } {
    const basePath = this.options.basePath ?? basePathOf(traffic.url);
    const relative = basePath === undefined ? undefined : relativePath(traffic.url, basePath);
    const route = relative === undefined ? undefined : routeOf(routedMethod(traffic.method), relative);
    if (route === undefined) return { outside: 'a path or method the reference does not show' };
    const credential: Credential = this.options.credentialsRecorded
      ? credentialOf(traffic.requestHeaders, this.options.keys)
      : { kind: 'unknown' };
    const known = credential.kind === 'valid' || credential.kind === 'other-scheme';
    const account: Account = known ? credential.account : 'first';
    const keyVariable = known ? this.options.keyVariables[account] : null;
    return { route, credential, account, keyVariable, caller: known ? `${credential.kind} ${account}` : 'other' };
  }

  /**
   * Learns what an exchange shows without judging it (one skipped on purpose): the exchanges after it are held to
   * what it showed as if it had been judged, so that skipping one never makes a later verdict wrong.
   */
  observe(traffic: TrafficExchange): void {
    const located = this.locate(traffic);
    if ('outside' in located) return;
    const { route, account, credential, keyVariable, caller } = located;
    const exchange = toExchange(traffic, route.operation, route.path, keyVariable);
    this.representations.remember(traffic, caller);
    if (route.operation === 'createCustomer') this.noteCustomer(exchange, account);
    else this.learn(route, exchange, account, credential, originOf(traffic));
  }

  judge(original: TrafficExchange): JudgedExchange {
    const located = this.locate(original);
    if ('outside' in located)
      return {
        traffic: original,
        outside: located.outside,
        records: [],
        clientFindings: outsideFindings(original, this.options.basePath, located.outside),
      };
    const { route, credential, account, keyVariable, caller } = located;
    // A 304, a 206 or a HEAD the client asked for, as HTTP makes them (http-semantics.ts).
    const reading = httpReading(original, this.representations, caller, successStatus(route.operation) ?? 200);
    const traffic = reading.traffic;
    this.representations.remember(original, caller);
    const exchange = toExchange(traffic, route.operation, route.path, keyVariable);
    const judged = this.judgeRouted(traffic, route, credential, account, exchange);
    if (reading.wireStatus === undefined) return judged;
    const wireStatus = reading.wireStatus;
    return {
      ...judged,
      traffic: { ...traffic, status: wireStatus },
      records: judged.records.map((record) =>
        record.exchange === undefined ? record : { ...record, exchange: { ...record.exchange, status: wireStatus } },
      ),
    };
  }

  private judgeRouted(
    traffic: TrafficExchange,
    route: Route,
    credential: Credential,
    account: Account,
    exchange: Exchange,
  ): JudgedExchange {
    if (route.operation === 'createCustomer') {
      this.noteCustomer(exchange, account);
      const outside = 'customer creation, which the reference does not show';
      return {
        traffic,
        route,
        outside,
        records: [],
        clientFindings: outsideFindings(traffic, this.options.basePath, outside),
      };
    }
    const records: VerdictRecord[] = [];
    const judged = this.expectationOf(route, exchange, credential, account, traffic);
    for (const expectation of judged.expectations) records.push(...this.recordsOf(exchange, expectation, traffic));
    records.push(...this.accountData(exchange, credential, account, traffic));
    records.push(...this.refusalDiscloses(route, exchange, credential, traffic));
    records.push(...judged.extra.map((record) => ({ ...record, source: traffic.source })));
    if (credential.kind === 'valid') records.push(...this.identity(route, exchange, traffic));
    this.learn(route, exchange, account, credential, originOf(traffic));
    const clientFindings = clientFindingsOf(
      traffic,
      route.operation,
      records[0]?.exchange ?? {
        operation: route.operation,
        method: exchange.method,
        path: new URL(traffic.url).pathname,
        status: exchange.status,
      },
      this.options.credentialsRecorded,
    );
    const undecided = transientKind(exchange.status);
    const decided: VerdictRecord[] =
      undecided === undefined
        ? records
        : records.map(({ violations: _violations, lenient: _lenient, ...record }) => ({
            ...record,
            kind: undecided,
            violations: [],
            reason: `answered ${exchange.status}: ${undecided.replace('-', ' ')}, not judged`,
          }));
    // A 401 or 403 to a credential the judge cannot place (no keys given, or a recording without its Authorization
    // headers) is the server's word on that credential, which the traffic does not let any rule judge.
    const placed =
      credential.kind === 'unknown' && (exchange.status === 401 || exchange.status === 403)
        ? decided.map(({ violations: _violations, lenient: _lenient, ...record }) => ({
            ...record,
            kind: 'skipped' as const,
            violations: [],
            reason: `answered ${exchange.status} to a credential the traffic does not show or no key names: not judged`,
          }))
        : decided;
    const kept = this.options.documentedOnly
      ? placed.filter((record) => isRuleId(record.rule) && rule(record.rule).kind === 'documented')
      : placed;
    const input = judged.expectations.find((expectation) => expectation.kind === 'input');
    return {
      traffic,
      route,
      records: kept,
      clientFindings,
      ...(judged.inputClass ? { inputClass: judged.inputClass } : {}),
      ...(input?.kind === 'input'
        ? { input: { class: input.input.class, what: input.input.what, why: input.input.why } }
        : {}),
    };
  }

  /**
   * AUTH-REFUSED-NO-EFFECT: a read refused for its credential discloses nothing of the resource asked for (no object
   * in the answer carries two or more of its fields with its values), as the traffic showed the resource to its owner.
   */
  private refusalDiscloses(
    route: Route,
    exchange: Exchange,
    credential: Credential,
    traffic: TrafficExchange,
  ): VerdictRecord[] {
    if (credential.kind !== 'missing' && credential.kind !== 'invalid') return [];
    if (exchange.status < 400 || exchange.status >= 500 || traffic.incomplete !== undefined) return [];
    const resource = this.state.resources.get(`${route.operation} ${route.params.id ?? ''}`);
    if (resource === undefined) return [];
    const violations = disclosesNothingOf(exchange, resource);
    return [{ ...checkRecord('AUTH-REFUSED-NO-EFFECT', exchange, violations), source: traffic.source }];
  }

  /**
   * Judges an answer and keeps every rule's verdict as a record of this exchange. An input's verdict holds what
   * its accepted answer broke under the rules whose checks found it: each registered rule of the operation gets its
   * own record of it too (traffic has no other test that judges them), held where the answer kept it.
   */
  private recordsOf(exchange: Exchange, expectation: Expectation, traffic: TrafficExchange): VerdictRecord[] {
    const judgements = judgeAnswer(exchange, expectation, this.options.settings);
    // An answer whose body was only partly recorded is judged by its status and headers: what the body lacks was not
    // seen. A part of a representation (206) is judged by its status alone.
    const seen = (violation: Violation): boolean =>
      traffic.incomplete === undefined ||
      violation.location === 'status' ||
      (traffic.statusOnly === undefined && violation.location.startsWith('header '));
    const records = judgements.map((judgement) =>
      checkRecord(
        judgement.rule,
        exchange,
        judgement.violations.filter(seen),
        judgement.lenient === undefined ? {} : { lenient: judgement.lenient },
      ),
    );
    if (expectation.kind === 'input' && exchange.status >= 200 && exchange.status < 300 && !traffic.incomplete) {
      const violations = records[0]?.violations ?? [];
      for (const { rule: ruleId } of checksOf(exchange.operation)) {
        const found = violations
          .filter((violation) => violation.by === ruleId)
          .map(({ by: _by, ...violation }) => violation);
        records.push(checkRecord(ruleId, exchange, found));
      }
    }
    return records.map((record) => ({ ...record, source: traffic.source }));
  }

  private expectationOf(
    route: Route,
    exchange: Exchange,
    credential: Credential,
    account: Account,
    traffic: TrafficExchange,
  ): { expectations: Expectation[]; extra: VerdictRecord[]; inputClass?: string } {
    const operation = route.operation;
    if (credential.kind === 'missing') return { expectations: [exactly(unauthorisedRule(operation), 401)], extra: [] };
    if (credential.kind === 'invalid') {
      const sent = (headerValue(traffic.requestHeaders, 'authorization') ?? '').trim().split(/\s+/).at(-1) ?? '';
      const ruleId = this.state.tokens.has(sent)
        ? 'AUTH-TOKEN-NOT-A-KEY'
        : nearlyKey(sent, this.options.keys)
          ? 'AUTH-KEY-EXACT'
          : unauthorisedRule(operation);
      // AUTH-TOKEN-NOT-A-KEY is checked on the currency read; elsewhere a token as the credential is a wrong key.
      const applies = isRuleId(ruleId) && rule(ruleId).operations.includes(operation);
      return { expectations: [exactly(applies ? ruleId : unauthorisedRule(operation), 401)], extra: [] };
    }
    if (credential.kind === 'other-scheme') {
      const expectation = this.options.settings.strict
        ? refused('AUTH-BEARER-SCHEME')
        : notServerError('AUTH-BEARER-SCHEME');
      return { expectations: [expectation], extra: [] };
    }
    const operationExpectation = this.byOperation(route, exchange, account, traffic);
    return {
      expectations: [operationExpectation.expectation],
      extra: [
        ...(credential.kind === 'valid' ? this.keyAccepted(exchange, traffic) : []),
        ...(operationExpectation.extra ?? []),
      ],
      ...(operationExpectation.inputClass ? { inputClass: operationExpectation.inputClass } : {}),
    };
  }

  /**
   * AUTH-BEARER-ACCEPTED: the valid key in the Bearer scheme is not refused for its credential (401). A 403 is not
   * held against it here: traffic may address another account's resource, which a server may forbid.
   */
  private keyAccepted(exchange: Exchange, traffic: TrafficExchange): VerdictRecord[] {
    if (exchange.status === 403)
      return [{ ...checkRecord('AUTH-BEARER-ACCEPTED', exchange, []), source: traffic.source }];
    const [status] = judgeAnswer(exchange, authorised('AUTH-BEARER-ACCEPTED'), this.options.settings);
    return status === undefined
      ? []
      : [{ ...checkRecord(status.rule, exchange, status.violations), source: traffic.source }];
  }

  private byOperation(
    route: Route,
    exchange: Exchange,
    account: Account,
    traffic: TrafficExchange,
  ): { expectation: Expectation; inputClass?: string; extra?: VerdictRecord[] } {
    const open: Partial<Record<OperationId, string>> = {
      createTransaction: 'TXN-CREATE-OPEN-INPUT',
      sendTransaction: 'SEND-OPEN-INPUT',
    };
    const bodyRule = open[route.operation];
    if (traffic.requestIncomplete !== undefined && bodyRule !== undefined)
      // Its input cannot be classified: whatever it was, the server owes it no 5xx.
      return { expectation: notServerError(bodyRule), inputClass: 'not classified (the body was not kept whole)' };
    switch (route.operation) {
      case 'createTransaction':
        return this.creation(exchange, account, traffic.incomplete === undefined);
      case 'sendTransaction':
        return this.send(route, exchange, account);
      case 'getPaymentLink':
        return { expectation: this.link(route, account) };
      case 'deleteCustomer':
        return { expectation: this.deletion(route, account) };
      case 'getBalance':
        return { expectation: this.balance(route, account) };
      case 'getCurrency':
        return { expectation: this.currency(route, account) };
      default:
        return { expectation: notServerError('REQUEST-FORM-NOT-5XX') };
    }
  }

  private creation(
    exchange: Exchange,
    account: Account,
    complete: boolean,
  ): { expectation: Expectation; inputClass: string; extra: VerdictRecord[] } {
    const contentType = exchange.requestHeaders['content-type'];
    const body = classifyBody('create-transaction-body', exchange.requestBody, contentType, {}, this.options.pinned);
    if (body.kind === 'malformed')
      return { expectation: refused('MALFORMED-JSON-4XX'), inputClass: 'must-refuse', extra: [] };
    const strict = this.options.settings.strict;
    const extra = complete ? this.amountNotGiven(body, exchange, account) : [];
    const customerId = valueAtPointer(body.body, '/customer/id');
    let asRead = readAs;
    if (customerId !== undefined && body.input.class !== 'must-refuse') {
      // A customer the traffic did not show alive for this account may not exist: the creation may go either way.
      const known = this.state.customers.get(String(customerId));
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
          expectation: classified('CUSTOMER-REFERENCE-NOT-5XX', open, strict, readAs),
          inputClass: 'accept-or-refuse',
          extra,
        };
      }
    }
    return {
      expectation: classified(creationRule(body.input), body.input, strict, asRead),
      inputClass: body.input.class,
      extra,
    };
  }

  /**
   * TXN-CREATE-AMOUNT-EXACT for an amount read as "not given" (null, an array, an object: rules/money.ts), against
   * what the traffic showed of the same account's creation of the same body without an amount, when it showed one
   * first; a creation without an amount is kept for the ones after it (by the body's digest: its status and amount).
   */
  private amountNotGiven(body: { body: unknown; fields: ClassifiedInput[] }, exchange: Exchange, account: Account) {
    const value = valueAtPointer(body.body, amountPointer);
    if (value === undefined) {
      if (transientKind(exchange.status) === undefined && exchange.status >= 200 && exchange.status < 500)
        this.state.withoutAmount.set(bodyDigest(account, body.body), {
          status: exchange.status,
          json: { amount: valueAtPointer(exchange.json, amountPointer) },
        });
      return [];
    }
    const field = body.fields.find((candidate) => candidate.subject === amountPointer);
    if (field === undefined || !owesAnswerWithoutAmount(field, value)) return [];
    const twin = this.state.withoutAmount.get(bodyDigest(account, withoutAmount(body.body)));
    if (twin === undefined || exchange.status < 200 || exchange.status >= 300) return [];
    return [checkRecord('TXN-CREATE-AMOUNT-EXACT', exchange, notGivenAmountViolations(exchange, twin, field.what))];
  }

  private send(route: Route, exchange: Exchange, account: Account): { expectation: Expectation; inputClass: string } {
    const contentType = exchange.requestHeaders['content-type'];
    const body = classifyBody(
      'send-transaction-body',
      exchange.requestBody,
      contentType,
      { '/token': (value) => this.state.tokenFor(value) !== undefined },
      this.options.pinned,
    );
    if (body.kind === 'malformed') return { expectation: refused('MALFORMED-JSON-4XX'), inputClass: 'must-refuse' };
    // The token as the body was read: as JSON, or as a lenient parser read text beyond RFC 8259.
    const sentToken = valueAtPointer(body.body, '/token');
    const token = this.state.tokenFor(sentToken);
    if (sentToken === undefined || sentToken === null)
      return { expectation: notAccepted('SEND-TOKEN-REQUIRED'), inputClass: 'must-refuse' };
    // The integer of a token the traffic showed that starts with 0: another token, which may be refused or accepted.
    const zeroPadded = token === undefined ? this.state.tokenStartingWithZero(sentToken) : undefined;
    if (zeroPadded !== undefined && zeroPadded.account === account && typeof sentToken === 'number') {
      const amount = this.state.transactions.get(zeroPadded.transactionId)?.amount;
      return {
        expectation: classified(
          'SEND-TOKEN-INTEGER',
          anotherTokenInput(zeroPadded.token, sentToken),
          this.options.settings.strict,
          () => (amount === undefined ? {} : { amount }),
        ),
        inputClass: 'accept-or-refuse',
      };
    }
    if (token === undefined)
      // A token no answer of the traffic gave: it may still be one the target issued.
      return { expectation: either('SEND-OPEN-INPUT'), inputClass: 'unknown token' };
    if (token.account !== account) return { expectation: refused('ACCOUNT-ISOLATION-4XX'), inputClass: 'must-refuse' };
    const transaction = this.state.transactions.get(token.transactionId);
    const amount = transaction?.amount;
    let input = body.input;
    // The reference shows one mode (the target's own, configured) and says nothing of sending a token twice.
    if (input.class === 'must-accept' && (route.params.mode !== this.options.paymentMode || token.sent))
      input = {
        ...input,
        class: 'accept-or-refuse',
        why: token.sent ? 'a token already sent' : `a mode other than the configured ${this.options.paymentMode}`,
      };
    return {
      expectation: classified(sendRule(input), input, this.options.settings.strict, () =>
        amount === undefined ? {} : { amount },
      ),
      inputClass: input.class,
    };
  }

  private link(route: Route, account: Account): Expectation {
    const transaction = this.state.transactions.get(route.params.id ?? '');
    if (transaction === undefined)
      return this.exactId(route, (id) => this.state.transactions.has(id)) ?? either('UNKNOWN-ID-NOT-5XX');
    if (transaction.account !== account) return refused('ACCOUNT-ISOLATION-4XX');
    // A transaction already sent may no longer give a link (the reference does not say).
    return transaction.sent ? either('LINK-2XX') : accepted('LINK-2XX');
  }

  /**
   * ID-EXACT: a path id that is a known resource's id followed by other characters (4218abc, 4218;, 4218 and NUL)
   * is not that resource: it must be refused, whatever a number parser that stops early reads.
   */
  private exactId(route: Route, known: (id: string) => boolean): Expectation | undefined {
    const raw = route.params.id ?? '';
    const digits = /^[1-9]\d*/.exec(raw)?.[0];
    if (digits === undefined || digits === raw || !known(digits)) return undefined;
    return noting(refused('ID-EXACT'), `the id ${JSON.stringify(raw)} is ${digits} followed by other characters`);
  }

  private deletion(route: Route, account: Account): Expectation {
    const raw = route.params.id ?? '';
    const kind = customerIdClass(raw);
    if (kind === 'not-an-id')
      return this.exactId(route, (id) => this.state.customers.has(id)) ?? refused('CUSTOMER-ID-INTEGER');
    if (kind !== 'integer') return notServerError('CUSTOMER-ID-INTEGER');
    const customer = this.state.customers.get(raw);
    if (customer === undefined)
      return noting(either('CUSTOMER-DELETE-404'), 'an id no answer of the traffic gave: 204 or 404');
    if (customer.account !== account) return refused('ACCOUNT-ISOLATION-4XX');
    if (customer.deleted) return exactly('CUSTOMER-DELETE-GONE', 404);
    if (customer.named)
      return noting(either('CUSTOMER-DELETE-404'), 'a customer only named by a transaction: 204 or 404');
    return customer.touchedByOther ? exactly('ACCOUNT-ISOLATION-UNCHANGED', 204) : accepted('CUSTOMER-DELETE-204');
  }

  private balance(route: Route, account: Account): Expectation {
    const id = Number(route.params.id);
    const other: Account = account === 'first' ? 'second' : 'first';
    if (this.options.balanceIds[account] === id && String(id) === route.params.id)
      return accepted('BALANCE-2XX', { id });
    if (this.options.balanceIds[other] === id && String(id) === route.params.id)
      return notServerError('ACCOUNT-ISOLATION-4XX');
    return either('UNKNOWN-ID-NOT-5XX');
  }

  private currency(route: Route, account: Account): Expectation {
    const id = Number(route.params.id);
    if (account === 'first' && this.options.currencyId === id && String(id) === route.params.id)
      return accepted('CURRENCY-2XX', { id });
    return either('UNKNOWN-ID-NOT-5XX');
  }

  /**
   * ACCOUNT-DATA-OWN: an answer to one account carries no account_id the other account's answers showed; and a
   * read of the other account's balance holds nothing of it (ACCOUNT-ISOLATION-4XX).
   */
  private accountData(
    exchange: Exchange,
    credential: Credential,
    account: Account,
    traffic: TrafficExchange,
  ): VerdictRecord[] {
    if (credential.kind !== 'valid' || exchange.status < 200 || exchange.status >= 300 || traffic.incomplete) return [];
    const records: VerdictRecord[] = [];
    const operations: readonly OperationId[] = ['sendTransaction', 'getBalance', 'getCurrency'];
    const others = this.state.otherAccountIds(account);
    if (operations.includes(exchange.operation) && others.length > 0) {
      const violations: Violation[] = others.flatMap((id) => accountIdIsNot(exchange, JSON.parse(id) as unknown));
      records.push({ ...checkRecord('ACCOUNT-DATA-OWN', exchange, violations), source: traffic.source });
    }
    const other: Account = account === 'first' ? 'second' : 'first';
    const theirs = this.options.balanceIds[other];
    if (exchange.operation === 'getBalance' && theirs !== null && Number(exchange.path.split('/').at(-1)) === theirs) {
      const list = Array.isArray(exchange.json) ? (exchange.json as Array<{ id?: unknown } | null>) : [];
      const leaked = list.some((item) => item !== null && String(item.id) === String(theirs));
      records.push({
        ...checkRecord(
          'ACCOUNT-ISOLATION-4XX',
          exchange,
          leaked
            ? [
                {
                  location: 'body /*/id',
                  expected: "nothing of the other account's balance (a 4xx, or a 2xx without it)",
                  actual: `the balance ${theirs}`,
                },
              ]
            : [],
        ),
        source: traffic.source,
      });
    }
    return records;
  }

  /**
   * What earlier answers gave out is not given out again: a created transaction's id is its own (TXN-ID-UNIQUE),
   * and a link's token is its own transaction's (LINK-TOKEN-OWN). Ids are compared within one recording: a server
   * restarted between two HAR files may hand out the same ids again.
   */
  private identity(route: Route, exchange: Exchange, traffic: TrafficExchange): VerdictRecord[] {
    if (exchange.status < 200 || exchange.status >= 300 || traffic.incomplete !== undefined) return [];
    const json = exchange.json as { id?: unknown; token?: unknown } | undefined;
    const record = (ruleId: string, violations: Violation[]): VerdictRecord => ({
      ...checkRecord(ruleId, exchange, violations),
      source: traffic.source,
    });
    if (route.operation === 'createTransaction' && (typeof json?.id === 'number' || typeof json?.id === 'string')) {
      // A replay of a request with the same Idempotency-Key is the same transaction.
      if (headerValue(traffic.requestHeaders, 'idempotency-key') !== undefined) return [];
      const earlier = this.state.transactions.get(String(json.id));
      const reused = earlier !== undefined && earlier.origin === originOf(traffic);
      return [
        record(
          'TXN-ID-UNIQUE',
          reused
            ? [{ location: 'body /id', expected: 'an id no earlier creation was given', actual: String(json.id) }]
            : [],
        ),
      ];
    }
    if (route.operation === 'getPaymentLink' && typeof json?.token === 'string') {
      const earlier = this.state.tokens.get(json.token);
      const theirs = earlier !== undefined && earlier.transactionId !== route.params.id;
      const url = (json as { url?: unknown }).url;
      return [
        record('LINK-TOKEN-OWN', [
          ...(theirs
            ? [
                {
                  location: 'body /token',
                  expected:
                    `a token of the transaction ${route.params.id} ` +
                    `(this one was given for ${earlier.transactionId})`,
                  actual: json.token,
                },
              ]
            : []),
          // The check the suite's stateful sequences make, against the tokens the traffic showed.
          ...urlCarriesOwnToken(
            { transaction: route.params.id ?? '', token: json.token, url },
            this.tokensIn(typeof url === 'string' ? url : ''),
          ),
        ]),
      ];
    }
    return [];
  }

  /** The tokens the traffic gave out that a url holds, each with its transaction (looked up by the url's words). */
  private tokensIn(url: string): KnownLinkToken[] {
    const found: KnownLinkToken[] = [];
    for (const word of new Set(url.split(/[^A-Za-z0-9_.~-]+/))) {
      const known = this.state.tokens.get(word);
      if (known !== undefined) found.push({ transaction: known.transactionId, token: known.token });
    }
    return found;
  }

  private noteCustomer(exchange: Exchange, account: Account): void {
    const id = (exchange.json as { id?: unknown } | null)?.id;
    if (exchange.status >= 200 && exchange.status < 300 && (typeof id === 'number' || typeof id === 'string'))
      this.state.customers.set(String(id), { account, deleted: false, touchedByOther: false });
  }

  /** What the answer showed, for the exchanges after it. */
  private learn(route: Route, exchange: Exchange, account: Account, credential: Credential, origin: string): void {
    const ok = exchange.status >= 200 && exchange.status < 300;
    const json = exchange.json as Record<string, unknown> | unknown[] | undefined;
    if (credential.kind === 'valid' && ok && (route.operation === 'getBalance' || route.operation === 'getCurrency')) {
      this.state.noteAccountIds(account, json);
      this.state.noteResource(route.operation, route.params.id ?? '', json);
    }
    switch (route.operation) {
      case 'createTransaction': {
        const answer = json as { id?: unknown; amount?: unknown; customer_id?: unknown; customer?: { id?: unknown } };
        if (!ok || (typeof answer?.id !== 'number' && typeof answer?.id !== 'string')) return;
        // The amount the payer is owed to be charged: the one the client sent, as a plain integer; else as answered.
        const sent = sentAmount(exchange.requestBody);
        const amount = sent ?? (typeof answer.amount === 'number' ? answer.amount : undefined);
        this.state.transactions.set(String(answer.id), { account, origin, amount, linked: false, sent: false });
        const customer = answer.customer_id ?? answer.customer?.id;
        if (
          (typeof customer === 'number' || typeof customer === 'string') &&
          !this.state.customers.has(String(customer))
        ) {
          // A customer the request referenced by id may have been deleted since: only a new one is known alive.
          const referenced = valueAtPointer(parsedOrUndefined(exchange.requestBody), '/customer/id') !== undefined;
          this.state.customers.set(String(customer), {
            account,
            deleted: false,
            touchedByOther: false,
            ...(referenced ? { named: true as const } : {}),
          });
        }
        return;
      }
      case 'getPaymentLink': {
        const token = (json as { token?: unknown } | undefined)?.token;
        const id = route.params.id ?? '';
        const transaction = this.state.transactions.get(id);
        if (!ok || typeof token !== 'string' || transaction === undefined || transaction.account !== account) return;
        transaction.linked = true;
        this.state.tokens.set(token, { token, transactionId: id, account, sent: false });
        return;
      }
      case 'sendTransaction': {
        if (!ok || exchange.requestBody === undefined) return;
        let sent: unknown;
        try {
          sent = (JSON.parse(exchange.requestBody) as { token?: unknown }).token;
        } catch {
          return;
        }
        // A token of digits that starts with 0, sent as its integer and accepted, was sent too.
        const token = this.state.tokenFor(sent) ?? this.state.tokenStartingWithZero(sent);
        if (token === undefined || token.account !== account) return;
        token.sent = true;
        const transaction = this.state.transactions.get(token.transactionId);
        if (transaction) transaction.sent = true;
        return;
      }
      case 'deleteCustomer': {
        const customer = this.state.customers.get(route.params.id ?? '');
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
}

/** A body's digest, for an account: its JSON with the members of every object in name order. */
function bodyDigest(account: Account, body: unknown): string {
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

/** The amount a creation body carries as a JSON integer, if it does. */
function sentAmount(body: string | undefined): number | undefined {
  if (body === undefined) return undefined;
  try {
    const amount = (JSON.parse(body) as { amount?: unknown } | null)?.amount;
    return typeof amount === 'number' && Number.isSafeInteger(amount) ? amount : undefined;
  } catch {
    return undefined;
  }
}

/** What an accepted creation owes back: the body as the server read it (each reading of the classifier). */
const readAs = (reading: { kind: string; value?: unknown }): { read?: Record<string, unknown> } =>
  reading.kind === 'absent' ||
  reading.value === null ||
  typeof reading.value !== 'object' ||
  Array.isArray(reading.value)
    ? {}
    : { read: reading.value as Record<string, unknown> };
