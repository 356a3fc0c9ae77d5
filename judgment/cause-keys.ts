/**
 * The keys under which the violations of one defect meet (reporters/causes.ts groups them into
 * causes): the same field of an answer with the same kind of value found there, the same failure
 * of the shape, the same status found where another is owed. The suite's tests use them too, to
 * tell a cause another test of the run already reported from a new one.
 */
import { createHash } from 'node:crypto';
import { violationType, type Violation } from './checks.ts';

/** The part of an expectation that does not depend on the request: "type string (schema balance)" → "type string". */
export function expectedCore(expected: string): string {
  return (expected.split(';', 1)[0] ?? '').split(' (', 1)[0]!.trim();
}

/** A location without array indices: "body /0/created_at" and "body /created_at" are the same field. */
export function fieldOf(location: string): string {
  if (!location.startsWith('body')) return location;
  const isIndex = (part: string): boolean => part === '*' || (part !== '' && String(Number(part)) === part);
  const field = location
    .slice('body'.length)
    .trim()
    .split('/')
    .filter((part) => part !== '' && !isIndex(part))
    .join('/');
  return `/${field}`;
}

/**
 * The keys under which a violation meets others of the same cause: its field and the kind of value found
 * there, and the failure of the shape it is (or, for a status, the status found where another is owed).
 */
export function causeKeys(violation: Violation): string[] {
  const expected = expectedCore(violation.expected);
  if (violationType(violation) === 'status')
    return [
      `status ${expected} → ${violation.actual}${violation.subject === undefined ? '' : ` for ${violation.subject}`}`,
    ];
  const found = violation.actualType ?? violation.actual;
  const keys = [`field ${fieldOf(violation.location)} ${found}`];
  if (violationType(violation) === 'schema') keys.push(`shape ${expected} ${found}`);
  return keys;
}

/** The key that names a cause in every report: the first key of its first violation. */
export function causeSignature(violation: Violation): string {
  return causeKeys(violation)[0]!;
}

/** A short stable id of a violation's signature, as reports print it next to a failure ("cause 1a2b3c4d"). */
export function causeId(violation: Violation): string {
  return createHash('sha256').update(causeSignature(violation)).digest('hex').slice(0, 8);
}
