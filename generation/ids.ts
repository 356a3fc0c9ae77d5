/**
 * Identifiers that name nothing on the target. The suite never hard-codes ids: unknown
 * ones are drawn at random from a range a real service is very unlikely to have reached,
 * and that still fits a 32-bit signed column (a larger id could fail for its size rather
 * than for not existing).
 */
import { randomBytes, randomInt } from 'node:crypto';

export function unknownIntegerId(): number {
  return randomInt(2_000_000_000, 2_147_483_000);
}

export function unknownToken(): string {
  return `0${randomInt(10 ** 9, 10 ** 12 - 1)}${randomBytes(2).readUInt16BE(0)}`;
}
