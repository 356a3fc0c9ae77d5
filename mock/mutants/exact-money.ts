/**
 * Money read lossily: a server that accepts an amount with a fraction and keeps another integer. pydantic 1's int(),
 * Jackson's ACCEPT_FLOAT_AS_INT (on by default) and ActiveModel's integer cast truncate 1500.5 to 1500; a decimal
 * column rounded into an integer makes it 1501. Either way the payer is charged another amount than the one sent:
 * no reading keeps 1500.5 as an integer, so the suite requires a refusal (TXN-CREATE-AMOUNT-EXACT).
 */
import { isObject, mutant, type Mutant } from './hooks.ts';

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

export function exactMoneyMutants(): Mutant[] {
  return [
    keepsAnotherAmount('truncated', "truncated, as pydantic 1's int() and Jackson read it", Math.trunc),
    keepsAnotherAmount('rounded', 'rounded to the nearest integer, as a decimal column cast to an integer', Math.round),
  ];
}
