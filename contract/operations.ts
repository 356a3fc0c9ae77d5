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

/**
 * The rules every answer of an operation owes, by role, named literally: the check registry
 * (judgment/registry.ts) applies them to every exchange of the operation, and the
 * mutants that break a role (mock/mutants/) take their rule from here. One place per fact:
 * a rule renamed in specs/rules.json fails the unit test that checks these ids exist.
 */
export interface OperationRules {
  /** The success status a valid request is owed (204, or any 2xx where the reference shows none). */
  success: string;
  /** The documented shape of the success answer; for an operation with no body, the rule that says so. */
  shape: string;
  /** A request without a valid secret key is refused with 401. */
  unauthorised: string;
  /** A successful answer with a body declares Content-Type application/json (operations with a body). */
  contentType?: string;
  /** Input this operation must refuse is refused with a 4xx, never a 5xx. */
  invalidInput: string;
  /**
   * An amount of money in the request body (its pointer), and the rule under which a value of it that names no
   * integer exactly (1500.5) is refused: no lossless reading makes it one, and accepting it charges another amount.
   */
  exactAmount?: { pointer: string; rule: string };
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
  /** The rules its answers owe, by role (absent for the undocumented helper operations). */
  rules?: OperationRules;
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
    rules: {
      success: 'CUSTOMER-DELETE-204',
      shape: 'CUSTOMER-DELETE-204',
      unauthorised: 'AUTH-DELETE-401',
      invalidInput: 'CUSTOMER-ID-INTEGER',
    },
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
    rules: {
      success: 'TXN-CREATE-2XX',
      shape: 'TXN-CREATE-SCHEMA',
      unauthorised: 'AUTH-OTHERS-401',
      contentType: 'JSON-CONTENT-TYPE',
      invalidInput: 'TXN-CREATE-INVALID-4XX',
      exactAmount: { pointer: '/amount', rule: 'TXN-CREATE-AMOUNT-EXACT' },
    },
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
      {
        status: '2XX',
        description: 'Token and payment link of the transaction.',
        schema: 'payment-link',
        kind: 'documented',
      },
      unauthorised,
    ],
    rules: {
      success: 'LINK-2XX',
      shape: 'LINK-SCHEMA',
      unauthorised: 'AUTH-OTHERS-401',
      contentType: 'JSON-CONTENT-TYPE',
      invalidInput: 'LINK-UNKNOWN-TXN-4XX',
    },
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
        description:
          'The payment mode through which the transaction is sent (short mode names of mobile-money operators).',
      },
    ],
    requestBody: 'send-transaction-body',
    responses: [
      {
        status: '2XX',
        description: 'Transaction sent successfully',
        schema: 'payment-intent-list',
        kind: 'documented',
      },
      unauthorised,
    ],
    rules: {
      success: 'SEND-2XX',
      shape: 'SEND-SCHEMA',
      unauthorised: 'AUTH-OTHERS-401',
      contentType: 'JSON-CONTENT-TYPE',
      invalidInput: 'SEND-INVALID-4XX',
    },
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
    rules: {
      success: 'BALANCE-2XX',
      shape: 'BALANCE-ARRAY',
      unauthorised: 'AUTH-OTHERS-401',
      contentType: 'JSON-CONTENT-TYPE',
      invalidInput: 'UNKNOWN-ID-NOT-5XX',
    },
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
    rules: {
      success: 'CURRENCY-2XX',
      shape: 'CURRENCY-ARRAY',
      unauthorised: 'AUTH-OTHERS-401',
      contentType: 'JSON-CONTENT-TYPE',
      invalidInput: 'UNKNOWN-ID-NOT-5XX',
    },
  },
  {
    id: 'createCustomer',
    method: 'POST',
    path: '/customers',
    summary:
      'Create a customer (exists, not shown by the reference; used by the suite to obtain a customer it can delete)',
    section: 'What the service does',
    tag: 'Customers',
    parameters: [],
    requestBody: 'create-customer-body',
    responses: [
      {
        status: '2XX',
        description: 'The created customer (shape not shown; an integer id is expected).',
        schema: 'customer-record',
        kind: 'inferred',
      },
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
/** The operation's path with its parameters percent-encoded (with `encode` false, as given: ID-EXACT's `4218;`). */
export function operationPath(id: OperationId, params: Record<string, string | number> = {}, encode = true): string {
  return operation(id).path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`operation ${id}: missing path parameter ${name}`);
    return encode ? encodeURIComponent(String(value)) : String(value);
  });
}

/** The rules an operation's answers owe, by role; an error for the undocumented helper operations. */
export function operationRules(id: OperationId): OperationRules {
  const found = operation(id).rules;
  if (!found) throw new Error(`operation ${id} is not documented by the reference: its answers owe no rules`);
  return found;
}
