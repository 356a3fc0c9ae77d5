/**
 * Money read lossily: a server that accepts an amount with a fraction and keeps another integer. pydantic 1's int(),
 * Jackson's ACCEPT_FLOAT_AS_INT (on by default) and ActiveModel's integer cast truncate 1500.5 to 1500; a decimal
 * column rounded into an integer makes it 1501. Either way the payer is charged another amount than the one sent:
 * no reading keeps 1500.5 as an integer, so the suite requires a refusal (TXN-CREATE-AMOUNT-EXACT). A value that is
 * no number read as one is the same defect: a coercing validator (ajv's coerceTypes, Fastify's default) charges 1
 * for true, 1500 for [1500], 0 for null.
 */
import { isObject, isSuccess, mutant, type Mutant } from './behaviour-hooks.ts';

/** The amount of the request, when it names a number with a fraction (a JSON number, or the text of one). */
function fractionalAmount(body: unknown): number | undefined {
  if (!isObject(body)) return undefined;
  const { amount } = body;
  const number =
    typeof amount === 'number' ? amount : typeof amount === 'string' && amount.trim() !== '' ? Number(amount) : NaN;
  return Number.isFinite(number) && !Number.isInteger(number) ? number : undefined;
}

function keepsAnotherAmount(name: string, how: string, integer: (amount: number) => number): Mutant {
  return mutant(
    `createTransaction.amount.fraction-${name}`,
    'lossy-reading',
    ['createTransaction'],
    'TXN-CREATE-AMOUNT-EXACT',
    `an amount with a fraction is accepted ${how} (1500.5 as ${integer(1500.5)})`,
    () => ({
      preHandler: (c) => {
        const amount = fractionalAmount(c.request.body);
        if (amount !== undefined && isObject(c.request.body)) c.request.body.amount = integer(amount);
      },
    }),
  );
}

/**
 * A coercing validator's amount: a value that names no number read as one, as ajv with coerceTypes 'array' (Fastify's
 * default body validation) reads it. `read` gives the amount it makes of the body's amount, or undefined to leave it.
 */
function coercesAmount(name: string, how: string, read: (amount: unknown) => number | undefined): Mutant {
  return mutant(
    `createTransaction.amount.${name}`,
    'coercion',
    ['createTransaction'],
    'TXN-CREATE-AMOUNT-EXACT',
    `an amount that is not a number is accepted ${how}, as ajv's coercion (Fastify's default) reads it`,
    () => ({
      preHandler: (c) => {
        const body = c.request.body;
        if (!isObject(body)) return;
        const amount = read(body.amount);
        if (amount !== undefined) body.amount = amount;
      },
    }),
  );
}

/** A one-element array of a number or of digits, read as that element's number. */
function element(amount: unknown): number | undefined {
  if (!Array.isArray(amount) || amount.length !== 1) return undefined;
  const [item] = amount as unknown[];
  if (typeof item === 'number') return item;
  return typeof item === 'string' && /^\d{1,15}$/.test(item) ? Number(item) : undefined;
}

/**
 * null read as 0, by a server that keeps transactions of amount 0 (the reference shows no bound). The reference mock
 * refuses amounts below 1, so the request is handed on with an amount it takes, and the transaction is then given
 * the 0 the server read: in its answer and in what its payment intents later carry.
 */
function nullAsZero(): Mutant {
  return mutant(
    'createTransaction.amount.null-as-0',
    'coercion',
    ['createTransaction'],
    'TXN-CREATE-AMOUNT-EXACT',
    "an amount null is accepted as 0 (ajv's coercion, with no minimum), where a body without amount is refused",
    () => {
      const readAsZero = new WeakSet<object>();
      return {
        preHandler: (c) => {
          const body = c.request.body;
          if (!isObject(body) || body.amount !== null) return;
          readAsZero.add(c.request);
          body.amount = 1;
        },
        onSend: (c) => {
          if (!readAsZero.has(c.request) || !isSuccess(c.status) || !isObject(c.json)) return undefined;
          const record = typeof c.json.id === 'number' ? c.store.transactions.get(c.json.id) : undefined;
          if (record) record.amount = 0;
          return { json: { ...c.json, amount: 0 } };
        },
      };
    },
  );
}

export function exactMoneyMutants(): Mutant[] {
  return [
    keepsAnotherAmount('truncated', "truncated, as pydantic 1's int() and Jackson read it", Math.trunc),
    keepsAnotherAmount('rounded', 'rounded to the nearest integer, as a decimal column cast to an integer', Math.round),
    coercesAmount('true-as-1', '(true as 1)', (amount) => (amount === true ? 1 : undefined)),
    coercesAmount('array-as-element', '(a one-element array as its element: [1500] as 1500)', element),
    nullAsZero(),
  ];
}
