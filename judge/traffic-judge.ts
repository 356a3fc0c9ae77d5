/**
 * The judge of traffic the suite did not make: each exchange, in order, is matched to its
 * operation and judged by the check registry (judgment/registry.ts) under the expectation
 * its request calls for (judgment/history-expectations.ts), exactly as the suite judges its own inputs: the
 * credential (no header, a wrong key, a known key in another scheme, a valid key), the input class of the body (must
 * accept, must refuse, accept or refuse, with --strict as in a run), and what the traffic showed earlier: the history
 * (judgment/history.ts) the registry's history checks read, as the suite's stateful tests do, and which each exchange
 * then adds to. A request body is read once, by the body classifier (judge/body-class.ts), for judging and for
 * learning. Every judgment is a verdict record whose source is the exchange; no rule is named here.
 */
import { operation, type OperationId } from '../contract/operations.ts';
import { isRuleId, rule } from '../contract/rules.ts';
import type { SchemaName } from '../contract/schemas.ts';
import type { Exchange } from '../http/exchange.ts';
import type { AnswerSettings } from '../judgment/answer-settings.ts';
import type { Violation } from '../judgment/checks.ts';
import type { Expectation } from '../judgment/expectations.ts';
import { History, otherAccount, type Asked } from '../judgment/history.ts';
import type { ClassifiedInput } from '../judgment/input-class.ts';
import { checksOf, judgeAnswer, judgeHistory, successStatus } from '../judgment/registry.ts';
import { isolationRule, otherBalanceLeaked } from '../judgment/rules/accounts.ts';
import {
  creationExpectation,
  credentialExpectation,
  deletionExpectation,
  linkExpectation,
  otherRequestExpectation,
  readExpectation,
  sendExpectation,
  unclassifiedBodyExpectation,
  validKeyJudgement,
  type ChosenExpectation,
  type ReadBody,
} from '../judgment/history-expectations.ts';
import { checkRecord } from '../judgment/verdict-message.ts';
import type { VerdictRecord } from '../judgment/verdict-record.ts';
import { classifyBody, readBody } from './body-class.ts';
import { clientFindingsOf, outsideFindings, type ClientFinding } from './client-findings.ts';
import { credentialOf, type Account, type Credential, type Keys } from './request-account.ts';
import { httpReading, Representations, routedMethod } from './http-semantics.ts';
import { basePathOf, relativePath, routeOf, type Route } from './traffic-routes.ts';
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

/** Almost a key: the same key with a few characters changed, added or cut, or in another case. */
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

/**
 * What a rate limit or a gateway's transient fault makes of an exchange: undecided, as the suite's own run has it
 * (its transport waits and retries them, then reports the target unavailable), never a non-conformance.
 */
function transientKind(status: number): 'rate-limited' | 'unavailable' | undefined {
  if (status === 429) return 'rate-limited';
  return status === 502 || status === 503 || status === 504 ? 'unavailable' : undefined;
}

/**
 * Why an exchange's records are not a verdict, if they are not: a rate limit or a gateway's fault (transient), or a
 * 401 or 403 to a credential the judge cannot place (no keys given, or a recording without its Authorization
 * headers), which is the server's word on that credential and no rule's to judge.
 */
function notJudgedBecause(
  status: number,
  credential: Credential,
): { kind: 'rate-limited' | 'unavailable' | 'skipped'; reason: string } | undefined {
  const transient = transientKind(status);
  if (transient !== undefined)
    return { kind: transient, reason: `answered ${status}: ${transient.replace('-', ' ')}, not judged` };
  if (credential.kind === 'unknown' && (status === 401 || status === 403))
    return {
      kind: 'skipped',
      reason: `answered ${status} to a credential the traffic does not show or no key names: not judged`,
    };
  return undefined;
}

/** The recording an exchange came from: its HAR file, or the proxy. */
function originOf(traffic: TrafficExchange): string {
  return traffic.source?.kind === 'har' ? `har:${traffic.source.file}` : (traffic.source?.kind ?? 'traffic');
}

/** How history reads a credential: a known key in the Bearer scheme, in another form, refused, or not placed. */
function keyOf(credential: Credential): Asked['key'] {
  if (credential.kind === 'missing' || credential.kind === 'invalid') return 'refused';
  return credential.kind;
}

/** A request body as the classifier read it (classified where its class decides the expectation). */
interface ClassifiedBody {
  read?: ReadBody;
  sent: unknown;
  fields?: readonly ClassifiedInput[];
}

export class TrafficJudge {
  /** What the traffic showed so far, which the history checks and the expectations read. */
  readonly history = new History();
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

  /** The request as history reads it: whose, naming what, sending what (the body as the classifier read it). */
  private asked(
    traffic: TrafficExchange,
    route: Route,
    credential: Credential,
    account: Account,
    body: { sent: unknown; fields?: readonly ClassifiedInput[] } | undefined,
  ): Asked {
    return {
      account,
      key: keyOf(credential),
      origin: originOf(traffic),
      ...(route.params.id === undefined ? {} : { id: route.params.id }),
      ...(body === undefined ? {} : { sent: body.sent }),
      ...(body?.fields === undefined ? {} : { fields: body.fields }),
      ...(headerValue(traffic.requestHeaders, 'idempotency-key') === undefined ? {} : { replay: true }),
      ...(traffic.incomplete === undefined ? {} : { incomplete: true }),
    };
  }

  /**
   * The request body, read once for judging and for learning, when it was kept whole: classified (judge/body-class.ts)
   * where its class decides the expectation (a creation or a send with a key that is not refused), else only read as
   * the classifier reads it.
   */
  private readRequestBody(route: Route, credential: Credential, traffic: TrafficExchange): ClassifiedBody | undefined {
    const schema = operation(route.operation).requestBody as SchemaName | undefined;
    if (schema === undefined || traffic.requestIncomplete !== undefined) return undefined;
    const text = traffic.requestBody;
    const judged = route.operation === 'createTransaction' || route.operation === 'sendTransaction';
    if (!judged || (credential.kind !== 'valid' && credential.kind !== 'unknown')) {
      return { sent: readBody(text) };
    }
    const usable: Record<string, (value: unknown) => boolean> =
      route.operation === 'sendTransaction' ? { '/token': (value) => this.history.tokenFor(value) !== undefined } : {};
    const contentType = headerValue(traffic.requestHeaders, 'content-type');
    const body = classifyBody(schema, text, contentType, usable, this.options.pinned);
    return body.kind === 'malformed'
      ? { read: body, sent: undefined }
      : { read: body, sent: body.body, fields: body.fields };
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
    const schema = operation(route.operation).requestBody;
    const sent =
      schema === undefined || traffic.requestIncomplete !== undefined ? undefined : readBody(traffic.requestBody);
    this.history.learn(
      exchange,
      this.asked(traffic, route, credential, account, sent === undefined ? undefined : { sent }),
    );
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
    const body = this.readRequestBody(route, credential, traffic);
    const asked = this.asked(traffic, route, credential, account, body);
    if (route.operation === 'createCustomer') {
      this.history.learn(exchange, asked);
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
    const chosen = this.expectationOf(route, credential, account, traffic, body);
    if (chosen.expectation !== undefined) records.push(...this.recordsOf(exchange, chosen.expectation, traffic));
    if (credential.kind === 'valid') {
      const keyJudgement = validKeyJudgement(exchange, this.options.settings);
      if (keyJudgement !== undefined)
        records.push(this.record(keyJudgement.rule, exchange, keyJudgement.violations, traffic));
      records.push(...this.otherBalance(exchange, account, traffic));
    }
    // Rules across exchanges: judged against what the traffic showed before this exchange, which it then adds to.
    for (const judgement of judgeHistory(exchange, asked, this.history))
      records.push(this.record(judgement.rule, exchange, judgement.violations, traffic));
    this.history.learn(exchange, asked);
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
    const unjudged = notJudgedBecause(exchange.status, credential);
    const decided: VerdictRecord[] =
      unjudged === undefined
        ? records
        : records.map(({ violations: _violations, lenient: _lenient, ...record }) => ({
            ...record,
            ...unjudged,
            violations: [],
          }));
    const kept = this.options.documentedOnly
      ? decided.filter((record) => isRuleId(record.rule) && rule(record.rule).kind === 'documented')
      : decided;
    const input = chosen.expectation;
    return {
      traffic,
      route,
      records: kept,
      clientFindings,
      ...(chosen.inputClass ? { inputClass: chosen.inputClass } : {}),
      ...(input?.kind === 'input'
        ? { input: { class: input.input.class, what: input.input.what, why: input.input.why } }
        : {}),
    };
  }

  private record(ruleId: string, exchange: Exchange, violations: Violation[], traffic: TrafficExchange): VerdictRecord {
    return { ...checkRecord(ruleId, exchange, violations), source: traffic.source };
  }

  /** A read of the other account's balance, answered 2xx to a valid key, holds nothing of it. */
  private otherBalance(exchange: Exchange, account: Account, traffic: TrafficExchange): VerdictRecord[] {
    const theirs = this.options.balanceIds[otherAccount(account)];
    if (exchange.operation !== 'getBalance' || theirs === null || traffic.incomplete !== undefined) return [];
    if (exchange.status < 200 || exchange.status >= 300) return [];
    if (Number(exchange.path.split('/').at(-1)) !== theirs) return [];
    return [this.record(isolationRule, exchange, otherBalanceLeaked(exchange, theirs), traffic)];
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

  /**
   * The expectation a request is owed (judgment/history-expectations.ts): by its credential, then by its operation,
   * its body's class and what the traffic showed; none for a deletion a history check judges.
   */
  private expectationOf(
    route: Route,
    credential: Credential,
    account: Account,
    traffic: TrafficExchange,
    body: ClassifiedBody | undefined,
  ): { expectation?: Expectation; inputClass?: string } {
    const id = route.operation;
    const strict = this.options.settings.strict;
    if (credential.kind === 'missing') return { expectation: credentialExpectation(id, credential, strict) };
    if (credential.kind === 'invalid') {
      const sent = (headerValue(traffic.requestHeaders, 'authorization') ?? '').trim().split(/\s+/).at(-1) ?? '';
      const invalid = {
        kind: 'invalid' as const,
        token: this.history.tokens.has(sent),
        nearly: nearlyKey(sent, this.options.keys),
      };
      return { expectation: credentialExpectation(id, invalid, strict) };
    }
    if (credential.kind === 'other-scheme') return { expectation: credentialExpectation(id, credential, strict) };
    if (traffic.requestIncomplete !== undefined) {
      const unclassified = unclassifiedBodyExpectation(id);
      if (unclassified !== undefined) return unclassified;
    }
    return this.byOperation(id, route, account, body);
  }

  private byOperation(
    id: OperationId,
    route: Route,
    account: Account,
    body: ClassifiedBody | undefined,
  ): ChosenExpectation | { expectation?: Expectation } {
    const strict = this.options.settings.strict;
    const raw = route.params.id ?? '';
    switch (id) {
      case 'createTransaction':
        return creationExpectation(body!.read!, this.history, account, strict);
      case 'sendTransaction':
        return sendExpectation(
          body!.read!,
          this.history,
          account,
          { sent: route.params.mode, configured: this.options.paymentMode },
          strict,
        );
      case 'getPaymentLink':
        return { expectation: linkExpectation(this.history, account, raw) };
      case 'deleteCustomer': {
        const expectation = deletionExpectation(this.history, account, raw);
        return expectation === undefined ? {} : { expectation };
      }
      case 'getBalance':
        return { expectation: readExpectation(id, account, route.params.id, this.options.balanceIds) };
      case 'getCurrency':
        return {
          expectation: readExpectation(id, account, route.params.id, { first: this.options.currencyId, second: null }),
        };
      default:
        return { expectation: otherRequestExpectation() };
    }
  }
}
