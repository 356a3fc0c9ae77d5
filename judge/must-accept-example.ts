/**
 * What a request owed acceptance looks like, per operation, as the traffic judge holds it: the
 * coverage of traffic says so beside a success rule the traffic never exercised, so that an SDK
 * maintainer whose requests were all "accept or refuse" sees which form would have exercised it.
 * The bodies are the input cases' valid body and the target's own values (the pinned currency,
 * payment mode and phone number); tests/unit/traffic-report.test.ts holds each body to the class
 * the judge gives it (must accept).
 */
import { stringifyJson } from '../contract/big-integers.ts';
import { inputCaseFiles } from '../contract/input-cases.ts';
import { operation as operationOf, type OperationId } from '../contract/operations.ts';

export interface TargetOwnValues {
  /** The pinned values of the target, by body pointer (judge/traffic-judge.ts JudgeOptions.pinned). */
  pinned: Readonly<Record<string, unknown>>;
  /** The payment mode a send is owed acceptance through. */
  paymentMode: string;
}

/** The token a send must carry to be owed acceptance, written where a body shows it. */
export const tokenPlaceholder = '<the token a link of this account gave, as it gave it>';

/** A creation body owed acceptance: the input cases' valid body, in the target's currency. */
export function mustAcceptCreation(values: TargetOwnValues): Record<string, unknown> {
  const valid = inputCaseFiles().find(
    (file) => file.schema === 'create-transaction-body' && file.valid !== undefined,
  )?.valid;
  const body = { ...((valid ?? {}) as Record<string, unknown>) };
  const iso = values.pinned['/currency/iso'];
  if (iso !== undefined) body.currency = { iso };
  return body;
}

/** A send body owed acceptance for `token`: the target's own phone number and country. */
export function mustAcceptSend(values: TargetOwnValues, token: string): Record<string, unknown> {
  return {
    token,
    phone_number: { number: values.pinned['/phone_number/number'], country: values.pinned['/phone_number/country'] },
  };
}

/** One line: the request an operation owes acceptance (a 2xx and a conforming answer), as the judge reads it. */
export function mustAcceptRequest(operation: OperationId, values: TargetOwnValues): string | undefined {
  const { method, path } = operationOf(operation);
  const request = `${method} ${path}`;
  switch (operation) {
    case 'createTransaction':
      return (
        `${request} ${stringifyJson(mustAcceptCreation(values))} with a valid key: every field of its documented ` +
        'type within the safe values, the currency the target’s own, and no customer by an id the traffic did not ' +
        'show alive for that account'
      );
    case 'sendTransaction':
      return (
        `${method} ${path.replace('{mode}', values.paymentMode)} ` +
        `${stringifyJson(mustAcceptSend(values, tokenPlaceholder))} with the key of the account that created the ` +
        'transaction, its token not sent before, through the configured payment mode (PCS_PAYMENT_MODE) with the ' +
        'target’s own phone number (PCS_PHONE_NUMBER, PCS_PHONE_COUNTRY)'
      );
    case 'getPaymentLink':
      return (
        `${request} with the key of the account that created the transaction (the traffic showed it), ` +
        'before it was sent'
      );
    case 'deleteCustomer':
      return (
        `${request} with the key of the account that created the customer (the traffic showed it), not deleted ` +
        'before and not only named by a transaction'
      );
    case 'getBalance':
      return `${request} of PCS_BALANCE_ID (or PCS_SECOND_BALANCE_ID) with its own account’s key`;
    case 'getCurrency':
      return `${request} of PCS_CURRENCY_ID with the first account’s key`;
    default:
      return undefined;
  }
}
