/**
 * Mutants of behaviour, generated per operation of specs/openapi.json where an operator
 * applies: statuses, authentication, Content-Type, 5xx for invalid input, forgotten state,
 * broken echoes and broken quirks. Each names the rule it breaks: literally, or, for the
 * families generated per operation, through the role the rule fills in the operations table
 * (operationRules(op).success, .unauthorised, .invalidInput: contract/operations.ts).
 */
import { operationRules, type OperationId } from '../../contract/operations.ts';
import { rule } from '../../contract/rules.ts';
import type { CustomerRecord } from '../store.ts';
import { documentedResponse, documentedResponses } from './documented-responses.ts';
import { errorJson, isObject, isSuccess, syntheticIntent } from './behaviour-hooks.ts';
import type { Hooks, Mutant, RequestContext } from './behaviour-hooks.ts';

const bearer = /^Bearer +(\S+) *$/i;

function refuse(message: string): { status: number; json: unknown } {
  return { status: 400, json: errorJson(400, 'invalid_request', message) };
}

function body(context: RequestContext): Record<string, unknown> {
  return isObject(context.request.body) ? context.request.body : {};
}

function errorCode(json: unknown): string | undefined {
  if (!isObject(json) || !isObject(json.error)) return undefined;
  return typeof json.error.code === 'string' ? json.error.code : undefined;
}

function mutant(
  name: string,
  operator: string,
  operations: OperationId[],
  ruleId: string,
  description: string,
  create: () => Hooks,
  equivalent?: string,
): Mutant {
  rule(ruleId);
  return {
    name,
    kind: 'mutant',
    operator,
    operations,
    rule: ruleId,
    description,
    create,
    ...(equivalent ? { equivalent } : {}),
  };
}

/** The documented operations (the customer helper is not part of the reference). */
function documentedOperations(): OperationId[] {
  return documentedResponses()
    .filter((response) => !response.undocumented)
    .map((response) => response.operation);
}

function statusMutants(): Mutant[] {
  const list: Mutant[] = [];
  const del = 'deleteCustomer';
  list.push(
    mutant(
      `${del}.status.204-to-200-with-body`,
      'status',
      [del],
      operationRules(del).success,
      'a deleted customer answered 200 with a JSON body instead of 204',
      () => ({
        onSend: (c) =>
          c.status === 204
            ? { status: 200, contentType: 'application/json; charset=utf-8', json: { deleted: true } }
            : undefined,
      }),
    ),
    mutant(
      `${del}.status.404-to-204`,
      'status',
      [del],
      'CUSTOMER-DELETE-404',
      'an unknown customer "deleted" with 204',
      () => ({
        onSend: (c) => (c.status === 404 ? { status: 204, text: '' } : undefined),
      }),
    ),
    mutant(
      `${del}.status.404-to-200`,
      'status',
      [del],
      'CUSTOMER-DELETE-404',
      'an unknown customer answered 200 with an empty object',
      () => ({
        onSend: (c) => (c.status === 404 ? { status: 200, json: {} } : undefined),
      }),
    ),
    mutant(
      `${del}.status.invalid-id-to-204`,
      'status',
      [del],
      'CUSTOMER-ID-INTEGER',
      'a customer id that is not an integer answered 204',
      () => ({
        onSend: (c) => (c.status === 400 ? { status: 204, text: '' } : undefined),
      }),
    ),
    mutant(
      `${del}.id.format-suffix`,
      'invalid-accepted',
      [del],
      'CUSTOMER-ID-INTEGER',
      'a fraction read as its integer part: "12.5" deletes customer 12 (a router that takes ".5" for a format suffix)',
      () => ({
        preHandler: (c) => {
          const params = c.request.params as { id?: string };
          const integerPart = /^(\d+)\.[^/]*$/.exec(params.id ?? '');
          if (integerPart) params.id = integerPart[1];
        },
      }),
    ),
  );
  for (const op of documentedOperations()) {
    if (documentedResponse(op).status !== '2XX') continue;
    const success = operationRules(op).success;
    list.push(
      mutant(`${op}.status.success-to-400`, 'status', [op], success, `${op} does its work but answers 400`, () => ({
        onSend: (c) =>
          isSuccess(c.status) ? { status: 400, json: errorJson(400, 'invalid_request', 'mutant: refused') } : undefined,
      })),
    );
  }
  return list;
}

function authMutants(): Mutant[] {
  const list: Mutant[] = [];
  for (const op of documentedOperations()) {
    const ruleId = operationRules(op).unauthorised;
    list.push(
      mutant(
        `${op}.auth.missing-key-accepted`,
        'auth',
        [op],
        ruleId,
        `${op} served without an Authorization header`,
        () => ({
          onRequest: (c) => {
            if (c.request.headers.authorization === undefined) c.request.headers.authorization = `Bearer ${c.keys.own}`;
          },
        }),
      ),
      mutant(
        `${op}.auth.wrong-key-accepted`,
        'auth',
        [op],
        ruleId,
        `${op} served for a bearer key that is not the account's`,
        () => ({
          onRequest: (c) => {
            const key = bearer.exec(c.request.headers.authorization ?? '')?.[1];
            if (key !== undefined && key !== c.keys.own && key !== c.keys.foreign && !c.store.tokens.has(key)) {
              c.request.headers.authorization = `Bearer ${c.keys.own}`;
            }
          },
        }),
      ),
      mutant(
        `${op}.auth.malformed-header-accepted`,
        'auth',
        [op],
        ruleId,
        `${op} served for an Authorization header that is not "Bearer <key>"`,
        () => ({
          onRequest: (c) => {
            const header = c.request.headers.authorization;
            if (header !== undefined && !bearer.test(header)) c.request.headers.authorization = `Bearer ${c.keys.own}`;
          },
        }),
      ),
      mutant(
        `${op}.auth.403-instead-of-401`,
        'auth',
        [op],
        ruleId,
        `${op} answers 403 where the key is missing or invalid`,
        () => ({
          onSend: (c) =>
            c.status === 401 ? { status: 403, json: errorJson(403, 'forbidden', 'mutant: forbidden') } : undefined,
        }),
      ),
      mutant(
        `${op}.auth.valid-key-refused`,
        'auth',
        [op],
        'AUTH-BEARER-ACCEPTED',
        `${op} refuses the account's own key with 401`,
        () => ({
          onRequest: (c) => {
            if (bearer.exec(c.request.headers.authorization ?? '')?.[1] === c.keys.own)
              c.request.headers.authorization = 'Bearer mutant-refused';
          },
        }),
      ),
    );
  }
  const all = documentedOperations();
  list.push(
    mutant(
      'auth.foreign-environment-key-accepted',
      'auth',
      all,
      'ENV-KEY-SCOPED',
      "the other environment's key is accepted",
      () => ({
        onRequest: (c) => {
          if (bearer.exec(c.request.headers.authorization ?? '')?.[1] === c.keys.foreign)
            c.request.headers.authorization = `Bearer ${c.keys.own}`;
        },
      }),
    ),
    mutant(
      'auth.transaction-token-accepted-as-key',
      'auth',
      all,
      'AUTH-TOKEN-NOT-A-KEY',
      'a transaction token is accepted as the secret key',
      () => ({
        onRequest: (c) => {
          const key = bearer.exec(c.request.headers.authorization ?? '')?.[1];
          if (key !== undefined && c.store.tokens.has(key)) c.request.headers.authorization = `Bearer ${c.keys.own}`;
        },
      }),
    ),
  );
  return list;
}

function contentTypeMutants(): Mutant[] {
  return documentedOperations().map((op) => {
    const response = documentedResponse(op);
    return mutant(
      `${op}.content-type.text-plain`,
      'content-type',
      [op],
      'JSON-CONTENT-TYPE',
      `${op} success answered with Content-Type text/plain`,
      () => ({ onSend: (c) => (isSuccess(c.status) ? { contentType: 'text/plain; charset=utf-8' } : undefined) }),
      response.schemaName === undefined
        ? `the documented answer of ${op} (${response.status}) has no body, ` +
            `and a response without a body carries no Content-Type to get wrong`
        : undefined,
    );
  });
}

function serverErrorMutants(): Mutant[] {
  const list = documentedOperations().map((op) =>
    mutant(
      `${op}.invalid-input-5xx`,
      'server-error',
      [op],
      operationRules(op).invalidInput,
      `${op} answers 500 where it refused invalid input with a 4xx`,
      () => ({
        onSend: (c) =>
          c.status >= 400 && c.status < 500 && c.status !== 401
            ? { status: 500, json: errorJson(500, 'internal_error', 'mutant') }
            : undefined,
      }),
    ),
  );
  // Malformed JSON specifically: Fastify's parser errors, turned into a 500.
  for (const op of documentedOperations().filter((id) => rule('MALFORMED-JSON-4XX').operations.includes(id))) {
    list.push(
      mutant(
        `${op}.malformed-json-5xx`,
        'server-error',
        [op],
        'MALFORMED-JSON-4XX',
        `${op} answers 500 to a body that is not JSON`,
        () => ({
          onSend: (c) =>
            errorCode(c.json)?.startsWith('FST_ERR_CTP')
              ? { status: 500, json: errorJson(500, 'internal_error', 'mutant') }
              : undefined,
        }),
      ),
    );
  }
  return list;
}

function stateMutants(): Mutant[] {
  return [
    mutant(
      'deleteCustomer.state.delete-forgotten',
      'state',
      ['deleteCustomer'],
      'CUSTOMER-DELETE-GONE',
      'a deleted customer is kept: it can be deleted again',
      () => {
        const kept = new WeakMap<object, CustomerRecord>();
        return {
          preHandler: (c) => {
            const id = Number((c.request.params as { id?: string }).id);
            const customer = c.store.customers.get(id);
            if (customer) kept.set(c.request, customer);
          },
          onSend: (c) => {
            const customer = kept.get(c.request);
            if (c.status === 204 && customer) c.store.customers.set(customer.id, customer);
          },
        };
      },
    ),
    mutant(
      'getPaymentLink.state.token-not-stored',
      'state',
      ['getPaymentLink'],
      'SEND-TOKEN-AS-RETURNED',
      'the issued token is not stored, so the send operation does not know it',
      () => ({
        onSend: (c) => {
          if (isSuccess(c.status) && isObject(c.json) && typeof c.json.token === 'string')
            c.store.tokens.delete(c.json.token);
        },
      }),
    ),
  ];
}

function echoMutants(): Mutant[] {
  const echo = (field: string, change: (value: unknown) => unknown, description: string): Mutant =>
    mutant(
      `createTransaction.echo.${field}`,
      'echo',
      ['createTransaction'],
      'TXN-CREATE-ECHO',
      `the created transaction carries ${description}`,
      () => ({
        onSend: (c) =>
          isSuccess(c.status) && isObject(c.json) ? { json: { ...c.json, [field]: change(c.json[field]) } } : undefined,
      }),
    );
  return [
    echo('amount', (value) => (typeof value === 'number' ? value + 1 : 1), 'an amount one more than sent'),
    echo('description', (value) => `${String(value)} (edited)`, 'another description than sent'),
    echo('callback_url', () => 'https://example.com/another-callback', 'another callback_url than sent'),
    mutant(
      'sendTransaction.echo.amount',
      'echo',
      ['sendTransaction'],
      'SEND-AMOUNT-MATCHES',
      "the payment intent's amount differs from the transaction's",
      () => ({
        onSend: (c) =>
          isSuccess(c.status) && Array.isArray(c.json)
            ? {
                json: c.json.map((intent: unknown) =>
                  isObject(intent) && typeof intent.amount === 'number'
                    ? { ...intent, amount: intent.amount * 2 }
                    : intent,
                ),
              }
            : undefined,
      }),
    ),
  ];
}

function quirkMutants(): Mutant[] {
  const send = 'sendTransaction';
  const create = 'createTransaction';
  const refuseWhen = (
    name: string,
    op: OperationId,
    ruleId: string,
    description: string,
    when: (b: Record<string, unknown>) => boolean,
  ): Mutant =>
    mutant(name, 'quirk', [op], ruleId, description, () => ({
      preHandler: (c) => (when(body(c)) ? refuse(`mutant: ${description}`) : undefined),
    }));
  const phoneNumber = (value: unknown): unknown => (isObject(value) ? value.number : undefined);
  return [
    refuseWhen(
      `${send}.quirk.string-token-refused`,
      send,
      'SEND-TOKEN-AS-RETURNED',
      'a token sent as a string is refused',
      (b) => typeof b.token === 'string',
    ),
    refuseWhen(
      `${send}.quirk.integer-token-refused`,
      send,
      'SEND-TOKEN-INTEGER',
      'a token sent as an integer is refused',
      (b) => typeof b.token === 'number',
    ),
    refuseWhen(
      `${send}.quirk.string-phone-number-refused`,
      send,
      'SEND-PHONE-NUMBER-STRING',
      'phone_number.number sent as a string is refused',
      (b) => typeof phoneNumber(b.phone_number) === 'string',
    ),
    refuseWhen(
      `${create}.quirk.mode-refused`,
      create,
      'TXN-CREATE-MODE-ACCEPTED',
      'a creation body carrying mode is refused',
      (b) => b.mode !== undefined,
    ),
    refuseWhen(
      `${create}.quirk.numeric-phone-number-refused`,
      create,
      'TXN-CREATE-PHONE-NUMBER-NUMERIC',
      'customer.phone_number.number sent as a number is refused',
      (b) => isObject(b.customer) && typeof phoneNumber(b.customer.phone_number) === 'number',
    ),
    refuseWhen(
      `${create}.customer-by-id-refused`,
      create,
      'TXN-CREATE-CUSTOMER-BY-ID',
      'a customer referenced by id alone is refused',
      (b) => isObject(b.customer) && b.customer.id !== undefined && Object.keys(b.customer).length === 1,
    ),
    mutant(
      `${send}.quirk.integer-token-lossy`,
      'quirk',
      [send],
      'SEND-TOKEN-INTEGER',
      'a token sent as a JSON integer is read through a 32-bit float (a float32 field, a FLOAT column): its digits ' +
        'come back as another number (6208307154 as 6208307200), which names no token',
      () => ({
        preHandler: (c) => {
          const sent = body(c);
          if (typeof sent.token === 'number') sent.token = Math.fround(sent.token);
        },
      }),
    ),
    mutant(
      `${create}.customer.id-stripped`,
      'reference',
      [create],
      'TXN-CREATE-CUSTOMER-KEPT',
      'customer.id dropped by a validator that strips keys it does not know: the transaction gets a new blank ' +
        'customer, named in the answer, instead of the one referenced',
      () => ({
        preHandler: (c) => {
          const customer = body(c).customer;
          if (isObject(customer) && customer.id !== undefined) delete customer.id;
        },
      }),
    ),
    mutant(
      `${send}.quirk.token-not-required`,
      'quirk',
      [send],
      'SEND-TOKEN-REQUIRED',
      'a send body without token is accepted',
      () => ({
        preHandler: (c) =>
          isObject(c.request.body) && c.request.body.token === undefined
            ? { status: 200, json: [syntheticIntent(100, (c.request.params as { mode: string }).mode)] }
            : undefined,
      }),
    ),
  ];
}

function acceptedInvalidMutants(): Mutant[] {
  const send = 'sendTransaction';
  const link = 'getPaymentLink';
  const otherOf = <T extends { id: number }>(items: Iterable<T>, id: number): T | undefined =>
    [...items].find((item) => item.id !== id);
  const containsMutant = (op: 'getBalance' | 'getCurrency', ruleId: string): Mutant =>
    mutant(
      `${op}.contains.other-element`,
      'identity',
      [op],
      ruleId,
      `${op} answers with another element than the one asked`,
      () => ({
        onSend: (c) => {
          if (!isSuccess(c.status)) return undefined;
          const id = Number((c.request.params as { id?: string }).id);
          const other =
            op === 'getBalance' ? otherOf(c.store.balances.values(), id) : otherOf(c.store.currencies.values(), id);
          return other ? { json: [other] } : undefined;
        },
      }),
    );
  return [
    mutant(
      `${send}.unknown-token-accepted`,
      'invalid-accepted',
      [send],
      'SEND-UNKNOWN-TOKEN-4XX',
      'a token that was never issued is accepted',
      () => ({
        onSend: (c) =>
          c.status === 404 && errorCode(c.json) === 'not_found'
            ? { status: 200, json: [syntheticIntent(100, (c.request.params as { mode: string }).mode)] }
            : undefined,
      }),
    ),
    mutant(
      `${link}.unknown-transaction-accepted`,
      'invalid-accepted',
      [link],
      'LINK-UNKNOWN-TXN-4XX',
      'a transaction that does not exist gets a link',
      () => ({
        onSend: (c) =>
          c.status === 404
            ? { status: 200, json: { token: '123456789012', url: 'https://pay.example.com/checkout/123456789012' } }
            : undefined,
      }),
    ),
    mutant(
      `${link}.url.relative`,
      'value',
      [link],
      'LINK-URL-ABSOLUTE',
      'the payment link url is a relative path',
      () => ({
        onSend: (c) =>
          isSuccess(c.status) && isObject(c.json) && typeof c.json.url === 'string'
            ? { json: { ...c.json, url: new URL(c.json.url).pathname } }
            : undefined,
      }),
    ),
    containsMutant('getBalance', 'BALANCE-CONTAINS-ID'),
    containsMutant('getCurrency', 'CURRENCY-CONTAINS-ID'),
  ];
}

/**
 * Intents whose status says the event happened but whose timestamp of it is missing, null or
 * not a date-time (SEND-INTENT-EVENT-TIMESTAMPS). The reference mock sends intents "sent" and
 * "failed" (with a phone number, by the amount's parity), so each is observable.
 */
function eventMutants(): Mutant[] {
  const send = 'sendTransaction';
  const onIntents = (name: string, description: string, change: (intent: Record<string, unknown>) => void): Mutant =>
    mutant(`${send}.event.${name}`, 'event', [send], 'SEND-INTENT-EVENT-TIMESTAMPS', description, () => ({
      onSend: (c) => {
        if (!isSuccess(c.status) || !Array.isArray(c.json)) return undefined;
        for (const intent of c.json) if (isObject(intent)) change(intent);
        return { json: c.json };
      },
    }));
  return [
    onIntents('sent-without-approved-at', 'an intent in status sent has approved_at null', (intent) => {
      if (intent.status === 'sent') intent.approved_at = null;
    }),
    onIntents('failed-without-canceled-at', 'an intent in status failed carries no canceled_at', (intent) => {
      if (intent.status === 'failed') delete intent.canceled_at;
    }),
    onIntents(
      'sent-at-set-on-the-wrong-field',
      'an intent in status sent has its time in canceled_at instead of approved_at',
      (intent) => {
        if (intent.status === 'sent') {
          intent.canceled_at = intent.approved_at;
          intent.approved_at = null;
        }
      },
    ),
  ];
}

export function behaviourMutants(): Mutant[] {
  return [
    ...eventMutants(),
    ...statusMutants(),
    ...authMutants(),
    ...contentTypeMutants(),
    ...serverErrorMutants(),
    ...stateMutants(),
    ...echoMutants(),
    ...quirkMutants(),
    ...acceptedInvalidMutants(),
  ];
}
