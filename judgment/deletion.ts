/**
 * Deleting what the run created is a request like any other, and is judged: a customer a test made (with safe or
 * edge values), deleted by the test that made it or by the cleanup after the run, exists, and CUSTOMER-DELETE-204
 * owes 204 for it. The least the suite holds such a deletion to is "never a 5xx": a server may refuse to delete a
 * customer a transaction names (a 4xx is its choice there), but an answer of 500 is a defect, whoever asked.
 */
import type { Violation } from './checks.ts';

/** The rule a deletion of a customer the run created is judged under. */
export const deletionRule = 'CUSTOMER-DELETE-204';

/** What a deletion of a customer the run created breaks: a 5xx (a 4xx is the target's choice here). */
export function deletionViolations(status: number): Violation[] {
  return status < 500
    ? []
    : [
        {
          location: 'status',
          expected:
            'not a 5xx (deleting a customer this run created: an existing customer, deleted with 204; ' +
            'a 4xx may refuse it, a 5xx never)',
          actual: String(status),
        },
      ];
}
