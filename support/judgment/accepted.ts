/**
 * What an accepted answer must be, per operation, for an input the target chose to accept:
 * a creation answers a Transaction carrying what was sent as the server read it; a send
 * answers payment intents of the transaction's amount. And the rule an input of each class is
 * judged under, so that every test names the same one for the same class.
 */
import { replaceAt } from '../../contract/schema-paths.ts';
import type { Exchange } from '../http/exchange.ts';
import { bodyMatchesSchema, eachElementValueEquals, type Violation } from './checks.ts';
import { echoedFields, echoViolations } from './echo.ts';
import { valueAtPointer } from '../../contract/json-pointer.ts';
import type { ClassifiedInput } from './input-class.ts';
import type { Reading } from './readings.ts';

/** A creation body as the server read it: the field at `pointer` replaced by the reading (removed when read as "not given"). */
export function bodyAsRead(sent: unknown, pointer: string, reading: Reading): Record<string, unknown> {
  const read = pointer === '' ? (reading.kind === 'absent' ? {} : reading.value) : replaceAt(sent, pointer, reading.kind === 'absent' ? undefined : reading.value);
  return read !== null && typeof read === 'object' && !Array.isArray(read) ? (read as Record<string, unknown>) : {};
}

/**
 * An accepted creation: a Transaction carrying amount, description and callback_url as read.
 * A field the server read as "not given" (sent as null, or left out) has no value to carry:
 * the reference does not say what a transaction shows for it, so null or absence passes there
 * (a value of the documented type, such as a default, passes too).
 */
export function acceptedTransaction(exchange: Exchange, read: Record<string, unknown>): Violation[] {
  // The echoed fields not given that the answer shows as null or leaves out: their schema violations are not ones.
  const unset = new Set(
    echoedFields.filter((field) => read[field] === undefined && valueAtPointer(exchange.json, `/${field}`) == null).map((field) => `body /${field}`),
  );
  return [...bodyMatchesSchema(exchange, 'transaction').filter((violation) => !unset.has(violation.location)), ...echoViolations(exchange, read)];
}

/** An accepted send: payment intents of the transaction's amount. */
export function acceptedIntents(exchange: Exchange, amount: number): Violation[] {
  return [...bodyMatchesSchema(exchange, 'payment-intent-list'), ...eachElementValueEquals(exchange, 'amount', amount)];
}

/** The rule a creation input of this class is judged under. */
export function creationRule(input: Pick<ClassifiedInput, 'class'>): 'TXN-CREATE-2XX' | 'TXN-CREATE-INVALID-4XX' | 'TXN-CREATE-OPEN-INPUT' {
  return input.class === 'must-accept' ? 'TXN-CREATE-2XX' : input.class === 'must-refuse' ? 'TXN-CREATE-INVALID-4XX' : 'TXN-CREATE-OPEN-INPUT';
}

/** The rule a send input of this class is judged under. */
export function sendRule(input: Pick<ClassifiedInput, 'class'>): 'SEND-2XX' | 'SEND-INVALID-4XX' | 'SEND-OPEN-INPUT' {
  return input.class === 'must-accept' ? 'SEND-2XX' : input.class === 'must-refuse' ? 'SEND-INVALID-4XX' : 'SEND-OPEN-INPUT';
}
