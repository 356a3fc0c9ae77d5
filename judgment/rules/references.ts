/**
 * References kept (TXN-CREATE-CUSTOMER-KEPT): a creation that referenced an existing customer by id and was
 * accepted names that customer wherever its answer names one. The reference does not list a customer among the
 * Transaction's fields, so an answer may name none (and conforms); but one that names a customer says which customer
 * the transaction belongs to, and another one than the request referenced contradicts it: a validator that strips
 * unknown keys drops customer.id, and the server makes a new blank customer of what is left.
 *
 * An answer names its customer as `customer_id`, as `customer.id` (an expanded object) or as `customer` itself (an
 * id, Stripe's style); null names none. Ids are compared as integers, in any JSON form that writes one (4217 or
 * "4217", as 64-bit ids are often written). The customer's other fields are not compared: a server may normalise an
 * e-mail's case or a phone number's format, and referencing by id alone sent none of them.
 */
import { describeValue } from '../../contract/json-pointer.ts';
import { exactText } from '../../contract/big-integers.ts';
import type { Exchange } from '../../http/exchange.ts';
import type { Violation } from '../checks.ts';
import { registered, type RegisteredCheck } from './define.ts';

/** The places an answer may name its customer's id, by JSON pointer, with the id found there. */
export function namedCustomerIds(json: unknown): Array<{ pointer: string; id: unknown }> {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return [];
  const answer = json as Record<string, unknown>;
  const named: Array<{ pointer: string; id: unknown }> = [];
  if (answer.customer_id !== undefined && answer.customer_id !== null)
    named.push({ pointer: '/customer_id', id: answer.customer_id });
  const customer = answer.customer;
  if (customer !== null && typeof customer === 'object' && !Array.isArray(customer)) {
    const id = (customer as Record<string, unknown>).id;
    if (id !== undefined && id !== null) named.push({ pointer: '/customer/id', id });
  } else if (typeof customer === 'number' || (typeof customer === 'string' && /^\d+$/.test(customer.trim())))
    // A bare id in place of the object; a text that is not digits (a name) is not an id.
    named.push({ pointer: '/customer', id: customer });
  return named;
}

/** The decimal digits of an integer id in any JSON form that writes one (a number, or a text of digits). */
function idDigits(id: unknown): string | undefined {
  if (typeof id === 'number') return Number.isInteger(id) ? exactText(id) : undefined;
  if (typeof id === 'string' && /^\s*\d+\s*$/.test(id)) return BigInt(id.trim()).toString();
  return undefined;
}

/** TXN-CREATE-CUSTOMER-KEPT: every customer id the answer names is `customerId`, the one the request referenced. */
export function customerKeptViolations(exchange: Pick<Exchange, 'json'>, customerId: number): Violation[] {
  const sent = exactText(customerId);
  return namedCustomerIds(exchange.json)
    .filter(({ id }) => idDigits(id) !== sent)
    .map(({ pointer, id }) => ({
      location: `body ${pointer}`,
      expected: `${sent}, the customer the request referenced by id (or no customer named at all)`,
      actual: describeValue(id),
    }));
}

export const referenceChecks = (): RegisteredCheck[] => [
  registered('TXN-CREATE-CUSTOMER-KEPT', ['createTransaction'], (exchange, { customerId }) =>
    customerId === undefined ? undefined : customerKeptViolations(exchange, customerId),
  ),
];
