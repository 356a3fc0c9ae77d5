/**
 * A read by id answers an array (the reference's shape) that holds the element asked for:
 * BALANCE-CONTAINS-ID and CURRENCY-CONTAINS-ID.
 */
import { describeValue } from '../../contract/json-pointer.ts';
import type { Exchange } from '../../http/exchange.ts';
import type { Violation } from '../checks.ts';
import { registered, type RegisteredCheck } from './define.ts';

export function containsId(exchange: Pick<Exchange, 'json'>, id: number): Violation[] {
  const list = Array.isArray(exchange.json) ? (exchange.json as Array<{ id?: unknown } | null>) : [];
  const found = list.map((item) => item?.id);
  return found.includes(id)
    ? []
    : [
        {
          location: 'body /*/id',
          expected: `an element with id ${id}`,
          actual: `ids ${describeValue(found.slice(0, 20))}`,
        },
      ];
}

export const containsIdChecks = (): RegisteredCheck[] => [
  registered('BALANCE-CONTAINS-ID', ['getBalance'], (exchange, { id }) =>
    id === undefined ? undefined : containsId(exchange, id),
  ),
  registered('CURRENCY-CONTAINS-ID', ['getCurrency'], (exchange, { id }) =>
    id === undefined ? undefined : containsId(exchange, id),
  ),
];
