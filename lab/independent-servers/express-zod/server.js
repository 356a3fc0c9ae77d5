// Independent sandbox implementation of the Payment Collection Service API (v1).
// Express 5 + zod 4, plain ESM, in-memory storage, no build step.
import crypto from 'node:crypto';
import express from 'express';
import { z } from 'zod';

const PORT = Number(process.env.PORT) || 4804;
const HOST = '127.0.0.1';
const DEFECT = process.env.DEFECT || '';

// ---------------------------------------------------------------------------
// In-memory data
// ---------------------------------------------------------------------------
const bootTime = new Date().toISOString();

const accounts = [
  { id: 1, secretKey: process.env.SECRET_KEY || 'sk_sandbox_independent_express_0001' },
  { id: 2, secretKey: process.env.SECOND_SECRET_KEY || 'sk_sandbox_independent_express_0002' },
];

const balances = new Map([
  [1, { id: 1, amount: 0, mode: 'sandbox', account_id: 1, created_at: bootTime, updated_at: bootTime }],
  [2, { id: 2, amount: 0, mode: 'sandbox', account_id: 2, created_at: bootTime, updated_at: bootTime }],
]);

const currencies = new Map(
  [1, 2].map((id) => [
    id,
    {
      id,
      name: 'West African CFA franc',
      iso: 'XOF',
      modes: ['mtn', 'moov'],
      prefix: null,
      suffix: 'F CFA',
      account_id: id,
      created_at: bootTime,
      updated_at: bootTime,
      default: true,
    },
  ]),
);

const customers = new Map(); // id -> customer
const transactions = new Map(); // id -> transaction (internal record)
const tokens = new Map(); // token -> transaction id
const intents = new Map(); // id -> payment intent

let nextCustomerId = 1;
let nextTransactionId = 1;
let nextIntentId = 1;
let nextPaymentMethodId = 1;

const now = () => new Date().toISOString();
const randomRef = (prefix) => `${prefix}${crypto.randomBytes(6).toString('hex').toUpperCase()}`;

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------
class HttpError extends Error {
  constructor(status, message, extra) {
    super(message);
    this.status = status;
    this.extra = extra;
  }
}

function validationError(zodError) {
  return new HttpError(400, 'Validation failed', { issues: zodError.issues });
}

function parse(schema, value) {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

const idParam = z
  .string()
  .regex(/^[1-9][0-9]*$/, 'Must be a positive integer')
  .transform(Number);

function stripQuery(url) {
  // DEFECT drop-callback-query: lose the "?..." part (keep any fragment)
  const q = url.indexOf('?');
  if (q === -1) return url;
  const h = url.indexOf('#', q);
  return url.slice(0, q) + (h === -1 ? '' : url.slice(h));
}

function publicTransaction(t) {
  return {
    id: t.id,
    reference: t.reference,
    amount: t.amount,
    description: t.description,
    callback_url: t.callback_url,
    status: t.status,
    currency_id: t.currency_id,
    customer_id: t.customer_id,
    mode: t.mode,
    custom_metadata: t.custom_metadata,
    created_at: t.created_at,
    updated_at: t.updated_at,
  };
}

// ---------------------------------------------------------------------------
// Schemas
// ---------------------------------------------------------------------------
const phoneNumberSchema = z.object({
  number: z.union([
    z.string().regex(/^\+?[0-9]{4,15}$/, 'Must be a phone number (digits, optional leading +)'),
    z.int().nonnegative(),
  ]),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'Must be a two-letter country code')
    .transform((s) => s.toUpperCase()),
});

const customerSchema = z.object({
  id: z.int().positive().optional(),
  email: z.email().optional(),
  firstname: z.string().optional(),
  lastname: z.string().optional(),
  phone_number: phoneNumberSchema.optional(),
});

const createTransactionSchema = z.object({
  description: z.string().optional(),
  amount: z.int().positive(),
  currency: z.object({ iso: z.string().min(1) }).optional(),
  callback_url: z.url({ protocol: /^https?$/ }).optional(),
  custom_metadata: z.record(z.string(), z.unknown()).optional(),
  customer: customerSchema.optional(),
  mode: z.string().min(1).optional(),
});

const sendTransactionSchema = z.object({
  token: z.union([z.string().min(1), z.int()]),
  phone_number: phoneNumberSchema.optional(),
});

// ---------------------------------------------------------------------------
// App
// ---------------------------------------------------------------------------
const app = express();
const v1 = express.Router();

// Authentication: Authorization: Bearer <secret key>
function authenticate(req, res, next) {
  const header = req.get('authorization');
  if (header === undefined && DEFECT === 'no-auth') {
    req.account = accounts[0];
    return next();
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header || '');
  const account = match && accounts.find((a) => a.secretKey === match[1]);
  if (!account) {
    res.set('WWW-Authenticate', 'Bearer');
    return next(new HttpError(401, 'No valid secret key provided'));
  }
  req.account = account;
  return next();
}

v1.use(authenticate);
v1.use(express.json());

// 1. Delete a customer
v1.delete('/customers/:id', (req, res) => {
  const id = parse(idParam, req.params.id);
  const customer = customers.get(id);
  if (!customer || customer.account_id !== req.account.id) {
    if (DEFECT === 'delete-500') throw new Error('customer lookup failed');
    throw new HttpError(404, 'Customer not found');
  }
  customers.delete(id);
  res.status(204).end();
});

// 2. Create a transaction
v1.post('/transactions', (req, res) => {
  const body = parse(createTransactionSchema, req.body);
  const accountId = req.account.id;
  const accountCurrencies = [...currencies.values()].filter((c) => c.account_id === accountId);

  let currency;
  if (body.currency) {
    currency = accountCurrencies.find((c) => c.iso === body.currency.iso.toUpperCase());
    if (!currency) {
      throw new HttpError(400, `Unsupported currency: ${body.currency.iso}`);
    }
  } else {
    currency = accountCurrencies.find((c) => c.default);
  }

  if (body.mode !== undefined && !currency.modes.includes(body.mode)) {
    throw new HttpError(400, `Mode ${body.mode} is not available for currency ${currency.iso}`);
  }

  let customerId = null;
  if (body.customer) {
    if (body.customer.id !== undefined) {
      const existing = customers.get(body.customer.id);
      if (!existing || existing.account_id !== accountId) {
        throw new HttpError(404, 'Customer not found');
      }
      customerId = existing.id;
    } else {
      const ts = now();
      const customer = {
        id: nextCustomerId++,
        email: body.customer.email ?? null,
        firstname: body.customer.firstname ?? null,
        lastname: body.customer.lastname ?? null,
        phone_number: body.customer.phone_number ?? null,
        account_id: accountId,
        created_at: ts,
        updated_at: ts,
      };
      customers.set(customer.id, customer);
      customerId = customer.id;
    }
  }

  let callbackUrl = body.callback_url ?? null;
  if (callbackUrl !== null && DEFECT === 'drop-callback-query') callbackUrl = stripQuery(callbackUrl);

  const ts = now();
  const transaction = {
    id: nextTransactionId++,
    reference: randomRef('TRX-'),
    amount: DEFECT === 'amount-plus-one' ? body.amount + 1 : body.amount,
    description: body.description ?? null,
    callback_url: callbackUrl,
    status: 'pending',
    currency_id: currency.id,
    customer_id: customerId,
    mode: body.mode ?? null,
    custom_metadata: body.custom_metadata ?? null,
    account_id: accountId,
    token: null,
    created_at: ts,
    updated_at: ts,
  };
  transactions.set(transaction.id, transaction);
  res.status(201).json(publicTransaction(transaction));
});

// 3. Get the payment link for a transaction
v1.post('/transactions/:id/token', (req, res) => {
  const id = parse(idParam, req.params.id);
  const transaction = transactions.get(id);
  if (!transaction || transaction.account_id !== req.account.id) {
    throw new HttpError(404, 'Transaction not found');
  }
  if (!transaction.token) {
    transaction.token = crypto.randomBytes(20).toString('hex');
    tokens.set(transaction.token, transaction.id);
  }
  const url = `${req.protocol}://${req.get('host')}/checkout/${transaction.token}`;
  res.status(200).json({ token: transaction.token, url });
});

// 4. Send a transaction for payment
v1.post('/transactions/:mode', (req, res) => {
  const body = parse(sendTransactionSchema, req.body);
  const mode = req.params.mode;

  const transactionId = tokens.get(String(body.token));
  const transaction = transactionId !== undefined ? transactions.get(transactionId) : undefined;
  if (!transaction || transaction.account_id !== req.account.id) {
    throw new HttpError(404, 'Transaction not found for this token');
  }

  const currency = currencies.get(transaction.currency_id);
  if (!currency.modes.includes(mode)) {
    throw new HttpError(400, `Mode ${mode} is not available for currency ${currency.iso}`);
  }

  const ts = now();
  const intent = {
    id: nextIntentId++,
    reference: randomRef('PI-'),
    amount: transaction.amount,
    status: 'pending',
    currency_id: currency.id,
    mode,
    last_error_code: null,
    created_at: ts,
    updated_at: ts,
    approved_at: null,
    canceled_at: null,
    deleted_at: null,
    payment_method_id: body.phone_number ? nextPaymentMethodId++ : null,
    transaction_key: crypto.randomUUID(),
    transaction_id: transaction.id,
    account_id: req.account.id,
  };
  intents.set(intent.id, intent);
  res.status(200).json([intent]);
});

// 5. Get a balance
v1.get('/balances/:id', (req, res) => {
  const id = parse(idParam, req.params.id);
  const balance = balances.get(id);
  if (!balance || balance.account_id !== req.account.id) {
    throw new HttpError(404, 'Balance not found');
  }
  res.status(200).json([balance]);
});

// 6. Get a currency
v1.get('/currencies/:id', (req, res) => {
  const id = parse(idParam, req.params.id);
  const currency = currencies.get(id);
  if (!currency || currency.account_id !== req.account.id) {
    throw new HttpError(404, 'Currency not found');
  }
  res.status(200).json([currency]);
});

app.use('/v1', v1);

// Unknown routes
app.use((req, res, next) => {
  next(new HttpError(404, `Cannot ${req.method} ${req.path}`));
});

// JSON error handler
// eslint-disable-next-line no-unused-vars
app.use((err, req, res, next) => {
  let status = err.status || err.statusCode || 500;
  if (status < 400 || status > 599) status = 500;
  let message = err.message;
  if (err.type === 'entity.parse.failed') message = 'Malformed JSON body';
  if (status >= 500) message = 'Internal Server Error';
  if (res.headersSent) return next(err);
  res.status(status).json({ message, ...(err instanceof HttpError && err.extra ? err.extra : {}) });
});

app.listen(PORT, HOST, () => {
  console.log(`Sandbox listening on http://${HOST}:${PORT}/v1${DEFECT ? ` (DEFECT=${DEFECT})` : ''}`);
});
