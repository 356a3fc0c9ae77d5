/**
 * The operations of the reference, for one environment, as Fastify routes. Registered
 * once per base address (sandbox and live), each with its accounts: a key and a store each.
 * A request is served from the store of the account its key belongs to; another account's
 * resources do not exist for it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EnvironmentStore, CustomerRecord, TransactionRecord, PhoneNumberRecord } from './store.ts';
import {
  BadRequest,
  creationPhoneNumber,
  optionalString,
  pathId,
  requireObject,
  requiredInteger,
  sendPhoneNumber,
  sendToken,
  type JsonObject,
} from './validation.ts';

export interface EnvironmentOptions {
  /** The environment's primary account (its key and store). */
  store: EnvironmentStore;
  key: string;
  /** Other accounts of the same environment (the sandbox's second account). */
  otherAccounts?: Array<{ key: string; store: EnvironmentStore }>;
  /** Keys of the other environments, to say why they are refused here. */
  foreignKeys: Record<string, string>;
  /** Origin used to build payment-link URLs, read at request time (known after listen). */
  origin: () => string;
}

type IdParams = { id: string };
type ModeParams = { mode: string };

function transactionView(transaction: TransactionRecord): JsonObject {
  return { ...transaction };
}

function customerView(customer: CustomerRecord): JsonObject {
  return { ...customer };
}

/** The store of the account each authenticated request belongs to. */
const accountStores = new WeakMap<FastifyRequest, EnvironmentStore>();

/** The store a request is served from: its key's account (set by authenticate, which runs first). */
export function storeOf(request: FastifyRequest, fallback: EnvironmentStore): EnvironmentStore {
  return accountStores.get(request) ?? fallback;
}

/** A synchronous hook (no promise per request): the key is checked on every request (npm run bench). */
function authenticate(options: EnvironmentOptions) {
  const check = keyCheck(options);
  return (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void => {
    try {
      accountStores.set(request, check(request.headers.authorization));
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  };
}

function keyCheck(options: EnvironmentOptions) {
  const accounts = new Map([
    [options.key, options.store],
    ...(options.otherAccounts ?? []).map((a) => [a.key, a.store] as const),
  ]);
  return (header: string | undefined): EnvironmentStore => {
    if (header === undefined) {
      throw new BadRequest('no secret key provided: send Authorization: Bearer <secret key>', 401, 'unauthorized');
    }
    const match = /^Bearer +(\S+) *$/i.exec(header);
    if (!match)
      throw new BadRequest('malformed Authorization header: expected "Bearer <secret key>"', 401, 'unauthorized');
    const key = match[1];
    const store = key === undefined ? undefined : accounts.get(key);
    if (store) return store;
    for (const [environment, foreign] of Object.entries(options.foreignKeys)) {
      if (key === foreign)
        throw new BadRequest(
          `this key belongs to the ${environment} environment, not ${options.store.environment}`,
          401,
          'unauthorized',
        );
    }
    throw new BadRequest('invalid secret key', 401, 'unauthorized');
  };
}

function newCustomerFields(
  body: JsonObject,
  where: string,
): Omit<CustomerRecord, 'id' | 'account_id' | 'created_at' | 'updated_at'> {
  const email = optionalString(body, 'email', where);
  const firstname = optionalString(body, 'firstname', where);
  const lastname = optionalString(body, 'lastname', where);
  // null is not "not given" here: the reference mock reads the reference strictly (it passes --strict).
  const phone: PhoneNumberRecord | null =
    body.phone_number === undefined ? null : creationPhoneNumber(body.phone_number, `${where}phone_number`);
  return { email: email ?? null, firstname: firstname ?? null, lastname: lastname ?? null, phone_number: phone };
}

export function environmentRoutes(options: EnvironmentOptions) {
  const account = (request: FastifyRequest): EnvironmentStore => storeOf(request, options.store);
  return async function register(app: FastifyInstance): Promise<void> {
    app.addHook('onRequest', authenticate(options));

    // Not shown by the reference, but said to exist: the suite uses it to get a customer it can delete.
    app.post('/customers', async (request, reply) => {
      const store = account(request);
      const body = requireObject(request.body, 'the request body');
      const fields = newCustomerFields(body, '');
      if (fields.email === null) throw new BadRequest('email is required');
      const customer = store.addCustomer(fields);
      return reply.code(201).send(customerView(customer));
    });

    app.delete<{ Params: IdParams }>('/customers/:id', async (request, reply) => {
      const store = account(request);
      const id = pathId(request.params.id, 'the customer id');
      if (!store.customers.delete(id)) throw new BadRequest(`customer ${id} not found`, 404, 'not_found');
      return reply.code(204).send();
    });

    app.post('/transactions', async (request, reply) => {
      const store = account(request);
      const body = requireObject(request.body, 'the request body');
      const amount = requiredInteger(body, 'amount');
      if (amount < 1) throw new BadRequest('amount must be a positive integer');
      const description = optionalString(body, 'description') ?? '';
      const callbackUrl = optionalString(body, 'callback_url') ?? '';
      // The reference mock reads "URL to receive transaction updates" strictly: a scheme and an address.
      if (callbackUrl !== '' && !/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/?#]+\S*$/.test(callbackUrl))
        throw new BadRequest('callback_url must be an absolute URL');
      const currencyField = body.currency;
      if (currencyField === undefined) throw new BadRequest('currency is required');
      const currencyObject = requireObject(currencyField, 'currency');
      const iso = optionalString(currencyObject, 'iso', 'currency.');
      if (iso === undefined) throw new BadRequest('currency.iso is required');
      const currency = store.currencyByIso(iso);
      if (!currency) throw new BadRequest(`currency ${iso} is not enabled on this account`, 422, 'unknown_currency');
      let metadata: JsonObject = {};
      if (body.custom_metadata !== undefined) {
        metadata = requireObject(body.custom_metadata, 'custom_metadata');
      }
      const mode = optionalString(body, 'mode') ?? null;
      if (mode === '') throw new BadRequest('mode must name a payment mode');
      let customerId: number | null = null;
      if (body.customer !== undefined) {
        const customerObject = requireObject(body.customer, 'customer');
        if (customerObject.id !== undefined) {
          const id = requiredInteger(customerObject, 'id', 'customer.');
          if (!store.customers.has(id)) throw new BadRequest(`customer ${id} not found`, 404, 'not_found');
          customerId = id;
        } else {
          customerId = store.addCustomer(newCustomerFields(customerObject, 'customer.')).id;
        }
      }
      const transaction = store.addTransaction({
        amount,
        description,
        callback_url: callbackUrl,
        currency_id: currency.id,
        customer_id: customerId,
        mode,
        custom_metadata: metadata,
      });
      return reply.code(201).send(transactionView(transaction));
    });

    app.post<{ Params: IdParams }>('/transactions/:id/token', async (request) => {
      const store = account(request);
      const id = pathId(request.params.id, 'the transaction id');
      if (!store.transactions.has(id)) throw new BadRequest(`transaction ${id} not found`, 404, 'not_found');
      const token = store.tokenFor(id);
      return { token, url: `${options.origin()}/checkout/${store.environment}/${token}` };
    });

    app.post<{ Params: ModeParams }>('/transactions/:mode', async (request) => {
      const store = account(request);
      const mode = request.params.mode;
      if (!store.modes.has(mode))
        throw new BadRequest(`unknown payment mode "${mode.slice(0, 40)}"`, 404, 'unknown_mode');
      const body = requireObject(request.body, 'the request body');
      const token = sendToken(body);
      const phone = body.phone_number === undefined ? null : sendPhoneNumber(body.phone_number);
      const transactionId = store.tokens.get(token);
      const transaction = transactionId === undefined ? undefined : store.transactions.get(transactionId);
      if (!transaction) throw new BadRequest('no transaction has this token', 404, 'not_found');
      const intent = store.addIntent(transaction, mode, phone);
      return [intent];
    });

    app.get<{ Params: IdParams }>('/balances/:id', async (request) => {
      const store = account(request);
      const id = pathId(request.params.id, 'the balance id');
      const balance = store.balances.get(id);
      if (!balance) throw new BadRequest(`balance ${id} not found`, 404, 'not_found');
      return [balance];
    });

    app.get<{ Params: IdParams }>('/currencies/:id', async (request) => {
      const store = account(request);
      const id = pathId(request.params.id, 'the currency id');
      const currency = store.currencies.get(id);
      if (!currency) throw new BadRequest(`currency ${id} not found`, 404, 'not_found');
      return [currency];
    });

    // Unknown paths under this base address: 404 after authentication, in the same error shape.
    app.setNotFoundHandler(async (request) => {
      throw new BadRequest(
        `no operation ${request.method} ${request.url.split('?')[0]?.slice(0, 100) ?? ''}`,
        404,
        'not_found',
      );
    });
  };
}
