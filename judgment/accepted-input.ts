/**
 * An input the target chose to accept, as it read it (what a creation's answer then owes back is
 * the registry's: judgment/registry.ts), and the rule an input of each class is judged
 * under, so that every test names the same one for the same class.
 */
import { replaceAt } from '../contract/schema-paths.ts';
import type { ClassifiedInput } from './input-class.ts';
import type { Reading } from './readings.ts';

/**
 * A creation body as the server read it: the field at `pointer`
 * replaced by the reading (removed when read as "not given").
 */
export function bodyAsRead(sent: unknown, pointer: string, reading: Reading): Record<string, unknown> {
  const read =
    pointer === ''
      ? reading.kind === 'absent'
        ? {}
        : reading.value
      : replaceAt(sent, pointer, reading.kind === 'absent' ? undefined : reading.value);
  return read !== null && typeof read === 'object' && !Array.isArray(read) ? (read as Record<string, unknown>) : {};
}

/** The rule a creation input of this class is judged under (a refusal owed under a rule of its own names it). */
export function creationRule(input: Pick<ClassifiedInput, 'class' | 'refusedUnder'>): string {
  return input.class === 'must-accept'
    ? 'TXN-CREATE-2XX'
    : input.class === 'must-refuse'
      ? (input.refusedUnder ?? 'TXN-CREATE-INVALID-4XX')
      : 'TXN-CREATE-OPEN-INPUT';
}

/** The rule a send input of this class is judged under (a refusal owed under a rule of its own names it). */
export function sendRule(input: Pick<ClassifiedInput, 'class' | 'refusedUnder'>): string {
  return input.class === 'must-accept'
    ? 'SEND-2XX'
    : input.class === 'must-refuse'
      ? (input.refusedUnder ?? 'SEND-INVALID-4XX')
      : 'SEND-OPEN-INPUT';
}
