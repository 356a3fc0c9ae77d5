/**
 * The operations of the Payment Collection Service API, as a table.
 *
 * This table and the JSON Schemas in schemas/ are the two inputs of specs/openapi.json
 * (lab/generate-openapi.ts), and the tests and the API client take their paths and
 * schema ids from here, so a path is written once.
 */

export type OperationId =
  | 'deleteCustomer'
  | 'createTransaction'
  | 'getPaymentLink'
  | 'sendTransaction'
  | 'getBalance'
  | 'getCurrency'
  | 'createCustomer';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface PathParameter {
  name: string;
  /** JSON Schema type of the parameter; the reference omits it for some ids (see description). */
  schema: { type: 'integer' | 'string' };
  description: string;
}

export interface DocumentedResponse {
  /** A status code, or '2XX' where the reference shows no success status. */
  status: string;
  description: string;
  /** Schema file name (without .schema.json) of the body, when a body is described. */
  schema?: string;
  /** 'documented' where the reference shows the status, 'inferred' for the suite's reading. */
  kind: 'documented' | 'inferred';
}

export interface Operation {
  id: OperationId;
  method: HttpMethod;
  /** Path relative to the base address (which ends in /v1), OpenAPI style. */
  path: string;
  summary: string;
  /** Heading of the reference section that documents it. */
  section: string;
  tag: 'Customers' | 'Transactions' | 'Balances' | 'Currencies';
  parameters: PathParameter[];
  /** Schema file name of the JSON request body, when there is one. */
  requestBody?: string;
  responses: DocumentedResponse[];
  /** True for operations the reference says exist but does not show (the suite's helpers). */
  undocumented?: boolean;
}

const unauthorised: DocumentedResponse = {
  status: '401',
  description: 'No valid secret key provided (shown for customer deletion; inferred for this operation).',
  kind: 'inferred',
};

export const operations: readonly Operation[] = [
  {
    id: 'deleteCustomer',
    method: 'DELETE',
    path: '/customers/{id}',
    summary: 'Delete a customer',
    section: 'Endpoints > 1. Delete a customer',
    tag: 'Customers',
    parameters: [{ name: 'id', schema: { type: 'integer' }, description: 'The customer ID.' }],
    responses: [
      { status: '204', description: 'Customer deleted; no body is described.', kind: 'documented' },
      { status: '401', description: 'No valid secret key provided.', kind: 'documented' },
      { status: '404', description: 'Customer not found.', kind: 'documented' },
    ],
  },
  {
    id: 'createTransaction',
    method: 'POST',
    path: '/transactions',
    summary: 'Create a transaction',
    section: 'Endpoints > 2. Create a transaction',
    tag: 'Transactions',
    parameters: [],
    requestBody: 'create-transaction-body',
    responses: [
      { status: '2XX', description: 'Transaction created successfully', schema: 'transaction', kind: 'documented' },
      unauthorised,
    ],
  },
  {
    id: 'getPaymentLink',
    method: 'POST',
    path: '/transactions/{id}/token',
    summary: 'Get the payment link for a transaction',
    section: 'Endpoints > 3. Get the payment link for a transaction',
    tag: 'Transactions',
    parameters: [{ name: 'id', schema: { type: 'integer' }, description: 'The transaction ID.' }],
    responses: [
      { status: '2XX', description: 'Token and payment link of the transaction.', schema: 'payment-link', kind: 'documented' },
      unauthorised,
    ],
  },
  {
    id: 'sendTransaction',
    method: 'POST',
    path: '/transactions/{mode}',
    summary: 'Send a transaction for payment',
    section: 'Endpoints > 4. Send a transaction for payment',
    tag: 'Transactions',
    parameters: [
      {
        name: 'mode',
        schema: { type: 'string' },
        description: 'The payment mode through which the transaction is sent (short mode names of mobile-money operators).',
      },
    ],
    requestBody: 'send-transaction-body',
    responses: [
      { status: '2XX', description: 'Transaction sent successfully', schema: 'payment-intent-list', kind: 'documented' },
      unauthorised,
    ],
  },
  {
    id: 'getBalance',
    method: 'GET',
    path: '/balances/{id}',
    summary: 'Get a balance',
    section: 'Endpoints > 5. Get a balance',
    tag: 'Balances',
    // The reference gives no type for this id; the Balance resource types its id as an integer.
    parameters: [{ name: 'id', schema: { type: 'integer' }, description: 'The balance ID.' }],
    responses: [
      { status: '2XX', description: 'A JSON array of balance objects.', schema: 'balance-list', kind: 'documented' },
      unauthorised,
    ],
  },
  {
    id: 'getCurrency',
    method: 'GET',
    path: '/currencies/{id}',
    summary: 'Get a currency',
    section: 'Endpoints > 6. Get a currency',
    tag: 'Currencies',
    parameters: [{ name: 'id', schema: { type: 'integer' }, description: 'The currency ID.' }],
    responses: [
      { status: '2XX', description: 'A list of currencies.', schema: 'currency-list', kind: 'documented' },
      unauthorised,
    ],
  },
  {
    id: 'createCustomer',
    method: 'POST',
    path: '/customers',
    summary: 'Create a customer (exists, not shown by the reference; used by the suite to obtain a customer it can delete)',
    section: 'What the service does',
    tag: 'Customers',
    parameters: [],
    requestBody: 'create-customer-body',
    responses: [
      { status: '2XX', description: 'The created customer (shape not shown; an integer id is expected).', schema: 'customer-record', kind: 'inferred' },
      unauthorised,
    ],
    undocumented: true,
  },
];

export function operation(id: OperationId): Operation {
  const found = operations.find((op) => op.id === id);
  if (!found) throw new Error(`unknown operation ${id}`);
  return found;
}

/** Fills an OpenAPI-style path template: operationPath('getBalance', { id: 3 }) is '/balances/3'. */
export function operationPath(id: OperationId, params: Record<string, string | number> = {}): string {
  return operation(id).path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`operation ${id}: missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}
