/**
 * getBalance: GET /balances/{id} and getCurrency: GET /currencies/{id} (reference:
 * Endpoints > 5 and 6). Both return a JSON array although one id is asked; the array may
 * hold more than the requested object but must contain it. The ids come from
 * PCS_BALANCE_ID and PCS_CURRENCY_ID: the reference has no list operation to find them.
 */
import { test, expectRule, precondition } from '../../support/fixtures.ts';
import { covers } from '../../support/judgment/covers.ts';
import { bodyMatchesSchema, contentTypeIsJson, statusIsNotServerError, statusIsSuccess } from '../../support/judgment/checks.ts';
import type { SchemaName } from '../../contract/schemas.ts';
import type { OperationId } from '../../contract/operations.ts';
import type { Target } from '../../support/lifecycle/target.ts';
import { unknownIntegerId } from '../../support/generation/ids.ts';

interface LookupCase {
  operation: OperationId;
  resource: string;
  variable: string;
  id: (target: Target) => number | null;
  schema: SchemaName;
  rules: { success: string; array: string; contains: string };
}

const cases: LookupCase[] = [
  {
    operation: 'getBalance',
    resource: 'balance',
    variable: 'PCS_BALANCE_ID',
    id: (target) => target.balanceId,
    schema: 'balance-list',
    rules: { success: 'BALANCE-2XX', array: 'BALANCE-ARRAY', contains: 'BALANCE-CONTAINS-ID' },
  },
  {
    operation: 'getCurrency',
    resource: 'currency',
    variable: 'PCS_CURRENCY_ID',
    id: (target) => target.currencyId,
    schema: 'currency-list',
    rules: { success: 'CURRENCY-2XX', array: 'CURRENCY-ARRAY', contains: 'CURRENCY-CONTAINS-ID' },
  },
];

for (const lookup of cases) {
  test.describe(`${lookup.operation}: GET /${lookup.resource === 'balance' ? 'balances' : 'currencies'}/{id}`, () => {
    const knownId = (target: Target): number => {
      const id = lookup.id(target);
      test.skip(id === null, `${lookup.variable} is not set: the reference has no list operation to find a ${lookup.resource} id`);
      return id!;
    };

    test(`an existing ${lookup.resource} is returned with a 2xx status`, covers(lookup.rules.success), async ({ api, target }) => {
      const exchange = await api.call(lookup.operation, { params: { id: knownId(target) } });
      expectRule(lookup.rules.success, exchange, statusIsSuccess(exchange));
    });

    test(`quirk: the response is a JSON array of ${lookup.resource} objects`, covers(lookup.rules.array), async ({ api, target }) => {
      const exchange = await api.call(lookup.operation, { params: { id: knownId(target) } });
      precondition(lookup.rules.success, exchange, statusIsSuccess(exchange));
      expectRule(lookup.rules.array, exchange, bodyMatchesSchema(exchange, lookup.schema));
    });

    test(`the array contains the requested ${lookup.resource}`, covers(lookup.rules.contains), async ({ api, target }) => {
      const id = knownId(target);
      const exchange = await api.call(lookup.operation, { params: { id } });
      precondition(lookup.rules.array, exchange, bodyMatchesSchema(exchange, lookup.schema));
      const ids = (exchange.json as Array<{ id: number }>).map((item) => item.id);
      expectRule(
        lookup.rules.contains,
        exchange,
        ids.includes(id) ? [] : [{ location: 'body /*/id', expected: `an element with id ${id}`, actual: `ids ${JSON.stringify(ids.slice(0, 20))}` }],
      );
    });

    test('the response declares Content-Type application/json', covers('JSON-CONTENT-TYPE'), async ({ api, target }) => {
      const exchange = await api.call(lookup.operation, { params: { id: knownId(target) } });
      precondition(lookup.rules.success, exchange, statusIsSuccess(exchange));
      expectRule('JSON-CONTENT-TYPE', exchange, contentTypeIsJson(exchange));
    });

    for (const [name, id] of [
      ['unknown', () => unknownIntegerId()],
      ['non-numeric', () => 'not-a-number'],
      ['negative', () => '-1'],
    ] as const) {
      test(`an ${name} ${lookup.resource} id never gives a 5xx`, covers('UNKNOWN-ID-NOT-5XX'), async ({ api }) => {
        const exchange = await api.call(lookup.operation, { params: { id: id() } });
        expectRule('UNKNOWN-ID-NOT-5XX', exchange, statusIsNotServerError(exchange));
      });
    }
  });
}
