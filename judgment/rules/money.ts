/**
 * An amount of money is read exactly or not at all (TXN-CREATE-AMOUNT-EXACT). What names no number (null, an array,
 * an object) has one reading only where the reference leaves room: "not given", as a server reads null in a field it
 * does not require, or as Rails' strong parameters drop a value of another kind. Read so, it owes what "not given"
 * owes, which the server itself shows: the answer to the same body without an amount. A server that refuses that
 * body but accepted this one read the value as an amount (ajv's coercion makes null 0 and [1500] 1500); one that
 * accepts both gives both the same amount (Go's encoding/json and Jackson leave an absent or null int at 0 alike).
 * The test that sent the value sends the body without it and checks the two answers here, on answers it chose.
 */
import { describeValue, valueAtPointer } from '../../contract/json-pointer.ts';
import { replaceAt } from '../../contract/schema-paths.ts';
import { operation } from '../../contract/operations.ts';
import type { Exchange } from '../../http/exchange.ts';
import { isClientError, isSuccess, type Violation } from '../checks.ts';
import type { ClassifiedInput } from '../input-class.ts';
import { bodyDigest, type Asked, type History } from '../history.ts';
import { registeredWithHistory, type HistoryCheck } from './define.ts';

/** The pointer of the creation body's amount of money (the operations table's exactAmount role). */
export const amountPointer = operation('createTransaction').rules?.exactAmount?.pointer ?? '/amount';

/**
 * Whether an accepted creation that sent `value` at `input`'s field owes the answer to the same body without it: a
 * value sent for the amount whose only reading is "not given".
 */
export function owesAnswerWithoutAmount(input: Pick<ClassifiedInput, 'subject' | 'readings'>, value: unknown): boolean {
  return (
    value !== undefined &&
    input.subject === amountPointer &&
    input.readings.length > 0 &&
    input.readings.every((reading) => reading.kind === 'absent')
  );
}

/** The same creation body without its amount. */
export function withoutAmount(body: unknown): unknown {
  return replaceAt(body, amountPointer, undefined);
}

/**
 * TXN-CREATE-AMOUNT-EXACT for a value read as "not given" (`what`: the input in a few words): `accepted`, the
 * creation's 2xx answer, and `twin`, the answer to the same body without an amount. The twin refused, the value was
 * read as an amount; both accepted, they carry the same amount (or none).
 */
export function notGivenAmountViolations(
  accepted: Pick<Exchange, 'status' | 'json'>,
  twin: Pick<Exchange, 'status' | 'json'>,
  what: string,
): Violation[] {
  if (!isSuccess(accepted.status)) return [];
  const amount = valueAtPointer(accepted.json, amountPointer);
  if (isClientError(twin.status))
    return [
      {
        location: 'status',
        expected:
          `a 4xx, as for the same body without an amount (answered ${twin.status}): ${what} is no amount, ` +
          'and read as "not given" it is refused as that body is',
        actual: `${accepted.status}, a transaction of amount ${describeValue(amount)}`,
        subject: amountPointer,
      },
    ];
  // The body without an amount met a 5xx or another status: its own expectation judges it, nothing to compare.
  if (!isSuccess(twin.status)) return [];
  const twinAmount = valueAtPointer(twin.json, amountPointer);
  // No amount, absent or null, is the same "none" on both sides.
  if (JSON.stringify(amount ?? null) === JSON.stringify(twinAmount ?? null)) return [];
  return [
    {
      location: `body ${amountPointer}`,
      expected:
        `${describeValue(twinAmount)}, the amount the same body without one was given ` +
        `(${what} read as "not given")`,
      actual: describeValue(amount),
    },
  ];
}

/**
 * TXN-CREATE-AMOUNT-EXACT for an amount read as "not given" (null, an array, an object), against what history showed
 * of the same account's creation of the same body without an amount, when it showed one first.
 */
function amountNotGiven(exchange: Exchange, asked: Asked, history: History): Violation[] | undefined {
  if (asked.key !== 'valid' && asked.key !== 'unknown') return undefined;
  const value = valueAtPointer(asked.sent, amountPointer);
  const field = asked.fields?.find((candidate) => candidate.subject === amountPointer);
  if (field === undefined || !owesAnswerWithoutAmount(field, value) || !isSuccess(exchange.status)) return undefined;
  const twin = history.withoutAmount.get(bodyDigest(asked.account, withoutAmount(asked.sent)));
  return twin === undefined ? undefined : notGivenAmountViolations(exchange, twin, field.what);
}

export const moneyHistoryChecks = (): HistoryCheck[] => [
  registeredWithHistory('TXN-CREATE-AMOUNT-EXACT', ['createTransaction'], amountNotGiven),
];
