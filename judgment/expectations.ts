/**
 * What a test says of its request: the rule its answer is judged under and the outcome it allows
 * (must accept, must refuse, accept or refuse, an exact status), with what the answer owes back
 * (the context). The registry (judgment/registry.ts) judges an answer against it.
 */
import type { ClassifiedInput } from './input-class.ts';
import type { Reading } from './readings.ts';

/** What a test knows of its request that an answer owes back. */
export interface AnswerContext {
  /** createTransaction: the body as the server read it (fields read as "not given" left out). */
  read?: Record<string, unknown>;
  /** createTransaction: the id of an existing customer the body referenced (customer.id), which the answer keeps. */
  customerId?: number;
  /** sendTransaction: the amount of the transaction sent, which every payment intent carries. */
  amount?: number;
  /** getBalance, getCurrency: the id asked for, which the array contains. */
  id?: number;
}

/** The outcome a request allows, and what an accepted answer owes. */
export type Outcome =
  /** Must accept: the operation's success status, then every registered check of the answer. */
  | { kind: 'accepted'; context: AnswerContext }
  /** Exactly this status (the statuses the reference shows: 204, 401, 404). */
  | { kind: 'status'; status: number }
  /** Must refuse: a 4xx, never a 2xx or a 5xx. */
  | { kind: 'refused' }
  /** Never accepted: any status but a 2xx (the reference says only that the request is invalid). */
  | { kind: 'not-accepted' }
  /** A valid request with a valid key: not refused for its credential (any status but 401 and 403). */
  | { kind: 'authorised' }
  /** Accept or refuse, where an accepted answer has no documented content: never a 5xx. */
  | { kind: 'not-server-error' }
  /** Accept or refuse a valid request: never a 5xx, and an accepted answer owes every registered check. */
  | { kind: 'either'; context: AnswerContext }
  /** An input of a known class (judgment/outcome.ts): accepted, its answer owes the checks as read. */
  | { kind: 'input'; input: ClassifiedInput; strict: boolean; context: (reading: Reading) => AnswerContext };

/** What a request was: the rule its answer's status is judged under, the outcome it allows, and a note. */
export type Expectation = Outcome & {
  rule: string;
  /** What the status violation adds: what was sent, what else the rule allows. */
  note?: string;
};

/** The same expectation, with a note its status violation carries (what was sent, what else the rule allows). */
export const noting = (expectation: Expectation, note: string | undefined): Expectation =>
  note === undefined ? expectation : { ...expectation, note };

export const accepted = (rule: string, context: AnswerContext = {}): Expectation => ({
  kind: 'accepted',
  rule,
  context,
});
export const exactly = (rule: string, status: number): Expectation => ({ kind: 'status', rule, status });
export const refused = (rule: string): Expectation => ({ kind: 'refused', rule });
export const authorised = (rule: string): Expectation => ({ kind: 'authorised', rule });
export const notAccepted = (rule: string): Expectation => ({ kind: 'not-accepted', rule });
export const notServerError = (rule: string): Expectation => ({ kind: 'not-server-error', rule });
export const either = (rule: string, context: AnswerContext = {}): Expectation => ({ kind: 'either', rule, context });
export const classified = (
  rule: string,
  input: ClassifiedInput,
  strict: boolean,
  context: (reading: Reading) => AnswerContext = () => ({}),
): Expectation => ({ kind: 'input', rule, input, strict, context });
