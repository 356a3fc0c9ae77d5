/**
 * Deleting what a run created, broken: a server that answers 500 to deleting a customer whose e-mail holds a `+` (a
 * query or a mail library that chokes on it), and one that answers 500 to deleting a customer a transaction names
 * (a foreign key the handler does not expect). The customers a test creates with edge values are deleted by that
 * test, and those left over by the cleanup after the run; both deletions are judged (judgment/deletion.ts).
 */
import { errorJson, mutant, type Mutant, type RequestContext } from './behaviour-hooks.ts';

const serverError = { status: 500, json: errorJson(500, 'internal_error', 'mutant: crashed deleting a customer') };

/** The customer a deletion names, in the caller's store. */
function customerOf(c: RequestContext): { id: number; email: string | null } | undefined {
  const id = Number((c.request.params as { id?: string }).id);
  return Number.isSafeInteger(id) ? c.store.customers.get(id) : undefined;
}

export function deletionMutants(): Mutant[] {
  return [
    mutant(
      'deleteCustomer.edge.plus-email-5xx',
      'edge-5xx',
      ['deleteCustomer'],
      'CUSTOMER-DELETE-204',
      'answers 500 to deleting a customer whose e-mail holds a "+"',
      () => ({ preHandler: (c) => (customerOf(c)?.email?.includes('+') ? serverError : undefined) }),
    ),
    mutant(
      'deleteCustomer.named-by-transaction-5xx',
      'edge-5xx',
      ['deleteCustomer'],
      'CUSTOMER-DELETE-204',
      'answers 500 to deleting a customer a transaction names',
      () => ({
        preHandler: (c) => {
          const customer = customerOf(c);
          if (customer === undefined) return undefined;
          for (const transaction of c.store.transactions.values())
            if (transaction.customer_id === customer.id) return serverError;
          return undefined;
        },
      }),
    ),
  ];
}
