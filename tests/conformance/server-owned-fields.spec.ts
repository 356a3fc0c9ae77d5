/**
 * Server-owned fields are the server's (SERVER-OWNED-FIELDS; OWASP API3, mass assignment): a creation
 * body that also carries id, created_at, updated_at, status or reference may be refused or accepted;
 * accepted, the transaction gets a new id (the existing one it named is untouched: its token still
 * pays it, for its own amount), the server's own timestamps and the status the server gives every
 * new transaction.
 */
import { test, expectAnswer, expectRule } from '../../suite/fixtures.ts';
import { covers } from '../../judgment/covers.ts';
import { accepted, classified } from '../../judgment/expectations.ts';
import { describeValue } from '../../contract/json-pointer.ts';
import { transactionBody, sendPhoneNumber } from '../../generation/bodies.ts';
import { isSuccess, type Violation } from '../../judgment/checks.ts';
import type { ClassifiedInput } from '../../judgment/input-class.ts';

function serverOwned(field: string, value: unknown): ClassifiedInput {
  return {
    class: 'accept-or-refuse',
    strictRefuses: false,
    readings: [{ kind: 'as-sent', value }],
    what: `/${field} = ${describeValue(value)}`,
    why: 'a field the server owns; the reference does not say whether a creation refuses or ignores it',
  };
}

/** The answer's value at a field differs from what the body tried to set. */
function notTaken(answer: unknown, field: string, sent: unknown, expected: string): Violation[] {
  const actual = (answer as Record<string, unknown> | undefined)?.[field];
  return JSON.stringify(actual) === JSON.stringify(sent)
    ? [{ location: `body /${field}`, expected, actual: `${describeValue(actual)}, the value the body sent` }]
    : [];
}

test.describe('server-owned fields of a creation body', () => {
  test(
    "a creation that names an existing transaction's id creates another one, and the existing one still pays",
    covers('SERVER-OWNED-FIELDS'),
    async ({ api, target, createdTransaction, issuedLink }, testInfo) => {
      const sent = { ...transactionBody(target, testInfo.title), amount: createdTransaction.amount + 2 };
      const exchange = await api.call('createTransaction', { body: { ...sent, id: createdTransaction.id } });
      expectAnswer(
        exchange,
        classified('SERVER-OWNED-FIELDS', serverOwned('id', createdTransaction.id), target.strict, () => ({
          read: { ...sent },
        })),
      );
      if (isSuccess(exchange.status))
        expectRule(
          'SERVER-OWNED-FIELDS',
          exchange,
          notTaken(exchange.json, 'id', createdTransaction.id, 'a new id, not the existing transaction'),
          { soft: true },
        );
      const paid = await api.call('sendTransaction', {
        params: { mode: target.paymentMode },
        body: { token: issuedLink.token, phone_number: sendPhoneNumber(target) },
      });
      expectAnswer(paid, accepted('SERVER-OWNED-FIELDS', { amount: createdTransaction.amount }));
    },
  );

  const stamp = '2001-02-03T04:05:06Z';
  for (const [field, value] of [
    ['created_at', stamp],
    ['updated_at', stamp],
    ['status', 'approved'],
    ['reference', 'cc-reference-from-the-client'],
  ] as const) {
    test(
      field === 'reference'
        ? 'a creation body that sets reference is refused or accepted (a client reference may be kept)'
        : `a creation body that sets ${field} is refused or accepted with the server's own ${field}`,
      covers('SERVER-OWNED-FIELDS'),
      async ({ api, target, createdTransaction }, testInfo) => {
        const sent = transactionBody(target, testInfo.title);
        const exchange = await api.call('createTransaction', { body: { ...sent, [field]: value } });
        expectAnswer(
          exchange,
          classified('SERVER-OWNED-FIELDS', serverOwned(field, value), target.strict, () => ({ read: { ...sent } })),
        );
        if (!isSuccess(exchange.status) || field === 'reference') return; // a client's own reference may be kept
        // The status every new transaction gets, as a creation without the field shows it.
        const initial = (createdTransaction.exchange.json as { status?: unknown }).status;
        if (field === 'status' && JSON.stringify(initial) === JSON.stringify(value)) return;
        expectRule(
          'SERVER-OWNED-FIELDS',
          exchange,
          notTaken(
            exchange.json,
            field,
            value,
            field === 'status' ? `the initial status ${describeValue(initial)}` : "the server's own time",
          ),
        );
      },
    );
  }
});
