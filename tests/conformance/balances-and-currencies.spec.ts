/**
 * getBalance: GET /balances/{id} and getCurrency: GET /currencies/{id} (reference:
 * Endpoints > 5 and 6). Both return a JSON array although one id is asked; the array may
 * hold more than the requested object but must contain it. The ids come from
 * PCS_BALANCE_ID and PCS_CURRENCY_ID: the reference has no list operation to find them.
 */
import { test, expectAnswer } from '../../suite/fixtures.ts';
import { covers } from '../../judgment/covers.ts';
import { accepted, notServerError } from '../../judgment/expectations.ts';
import type { OperationId } from '../../contract/operations.ts';
import type { Target } from '../../settings/target.ts';
import { unknownIntegerId } from '../../generation/ids.ts';

interface LookupCase {
  operation: OperationId;
  resource: string;
  variable: string;
  id: (target: Target) => number | null;
  rules: { success: string; array: string; contains: string };
}

const cases: LookupCase[] = [
  {
    operation: 'getBalance',
    resource: 'balance',
    variable: 'PCS_BALANCE_ID',
    id: (target) => target.balanceId,
    rules: { success: 'BALANCE-2XX', array: 'BALANCE-ARRAY', contains: 'BALANCE-CONTAINS-ID' },
  },
  {
    operation: 'getCurrency',
    resource: 'currency',
    variable: 'PCS_CURRENCY_ID',
    id: (target) => target.currencyId,
    rules: { success: 'CURRENCY-2XX', array: 'CURRENCY-ARRAY', contains: 'CURRENCY-CONTAINS-ID' },
  },
];

for (const lookup of cases) {
  test.describe(`${lookup.operation}: GET /${lookup.resource === 'balance' ? 'balances' : 'currencies'}/{id}`, () => {
    const knownId = (target: Target): number => {
      const id = lookup.id(target);
      test.skip(
        id === null,
        `${lookup.variable} is not set: the reference has no list operation to find a ${lookup.resource} id`,
      );
      return id!;
    };

    // The registry (judgment/registry.ts) judges every answer to a known id: the array's shape, that it
    // contains the id asked for, and the Content-Type. Each test is the one whose title names that rule.
    for (const [title, rule] of [
      [`an existing ${lookup.resource} is returned with a 2xx status`, lookup.rules.success],
      [`quirk: the response is a JSON array of ${lookup.resource} objects`, lookup.rules.array],
      [`the array contains the requested ${lookup.resource}`, lookup.rules.contains],
      ['the response declares Content-Type application/json', 'JSON-CONTENT-TYPE'],
      [`the ${lookup.resource}'s updated_at is not before its created_at`, 'TIME-ORDER'],
    ] as const) {
      test(title, covers(rule), async ({ api, target }) => {
        const id = knownId(target);
        const exchange = await api.call(lookup.operation, { params: { id } });
        expectAnswer(exchange, accepted(lookup.rules.success, { id }));
      });
    }

    for (const [name, id] of [
      // With its article: "an non-numeric" read wrong in every report.
      ['an unknown', () => unknownIntegerId()],
      ['a non-numeric', () => 'not-a-number'],
      ['a negative', () => '-1'],
    ] as const) {
      test(`${name} ${lookup.resource} id never gives a 5xx`, covers('UNKNOWN-ID-NOT-5XX'), async ({ api }) => {
        const exchange = await api.call(lookup.operation, { params: { id: id() } });
        expectAnswer(exchange, notServerError('UNKNOWN-ID-NOT-5XX'));
      });
    }
  });
}
