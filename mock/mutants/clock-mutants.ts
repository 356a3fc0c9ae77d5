/**
 * Contract mutants of the clock family (judgment/rules/times.ts): answers whose times
 * disagree with the server's own clock (TIME-NOW) or with each other (TIME-ORDER).
 */
import type { OperationId } from '../../contract/operations.ts';
import { bodyObjects, isSuccess, mutant, type Mutant } from './behaviour-hooks.ts';

/** Every timestamp of a success body moved by `shift` (ms), or set by `set`. */
function clockMutant(
  name: string,
  operations: OperationId[],
  ruleId: string,
  description: string,
  change: (object: Record<string, unknown>) => void,
): Mutant {
  return mutant(name, 'clock', operations, ruleId, description, () => ({
    onSend: (c) => {
      if (!isSuccess(c.status) || c.json === undefined) return undefined;
      for (const object of bodyObjects(c.json)) change(object);
      return { json: c.json };
    },
  }));
}

const shifted = (value: unknown, ms: number): unknown =>
  typeof value === 'string' ? new Date(Date.parse(value) + ms).toISOString() : value;

export function clockMutants(): Mutant[] {
  return [
    clockMutant(
      'createTransaction.clock.hour-off',
      ['createTransaction'],
      'TIME-NOW',
      'created_at and updated_at an hour behind the server clock (local time written as UTC)',
      (object) => {
        object.created_at = shifted(object.created_at, -3_600_000);
        object.updated_at = shifted(object.updated_at, -3_600_000);
      },
    ),
    clockMutant(
      'sendTransaction.clock.hour-ahead',
      ['sendTransaction'],
      'TIME-NOW',
      "payment intents' created_at and updated_at an hour ahead of the server clock",
      (object) => {
        object.created_at = shifted(object.created_at, 3_600_000);
        object.updated_at = shifted(object.updated_at, 3_600_000);
      },
    ),
    clockMutant(
      'sendTransaction.clock.updated-before-created',
      ['sendTransaction'],
      'TIME-ORDER',
      "payment intents' updated_at a minute before their created_at",
      (object) => {
        object.updated_at = shifted(object.created_at, -60_000);
      },
    ),
    clockMutant(
      'sendTransaction.clock.zero-event-time',
      ['sendTransaction'],
      'TIME-ORDER',
      'events that did not happen written as the zero time 0001-01-01T00:00:00Z instead of null',
      (object) => {
        for (const name of ['approved_at', 'canceled_at', 'deleted_at'])
          if (object[name] === null) object[name] = '0001-01-01T00:00:00Z';
      },
    ),
    clockMutant(
      'getBalance.clock.updated-before-created',
      ['getBalance', 'getCurrency'],
      'TIME-ORDER',
      'balances and currencies updated a day before they were created',
      (object) => {
        object.updated_at = shifted(object.created_at, -86_400_000);
      },
    ),
  ];
}
