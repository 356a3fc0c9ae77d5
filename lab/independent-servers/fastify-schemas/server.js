// Sandbox implementation of the Payment Collection Service API (v1).
// Node 20 + Fastify 5, plain ESM, in-memory state, no outbound network calls.
import Fastify from 'fastify'
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'

const PORT = Number.parseInt(process.env.PORT ?? '4815', 10)
const HOST = '127.0.0.1'
const DEFECT = process.env.DEFECT ?? ''
const SECRET_KEY = process.env.SECRET_KEY || 'sk_sandbox_independent_fastify_0001'
const SECOND_SECRET_KEY = process.env.SECOND_SECRET_KEY || 'sk_sandbox_independent_fastify_0002'
const CHECKOUT_BASE = 'https://checkout.sandbox.invalid/pay/'

// ---------------------------------------------------------------------------
// In-memory store
// ---------------------------------------------------------------------------
const seededAt = new Date()

const accounts = [
  { id: 1, key: SECRET_KEY },
  { id: 2, key: SECOND_SECRET_KEY }
]

const balances = new Map()
const currencies = new Map()
for (const accountId of [1, 2]) {
  balances.set(accountId, {
    id: accountId,
    amount: 0,
    mode: 'mtn',
    account_id: accountId,
    created_at: seededAt,
    updated_at: seededAt
  })
  currencies.set(accountId, {
    id: accountId,
    iso: 'XOF', // internal: the Currency resource documents no iso field
    name: 'XOF',
    modes: ['mtn', 'moov'],
    prefix: '',
    suffix: 'FCFA',
    account_id: accountId,
    created_at: seededAt,
    updated_at: seededAt,
    default: true
  })
}

const customers = new Map() // id -> customer (global id sequence)
const transactions = new Map() // id -> transaction (global id sequence)
const tokens = new Map() // token -> transaction id
const intents = [] // payment intents (global id sequence)
const seq = { customer: 0, transaction: 0, intent: 0, paymentMethod: 0 }

const randomHex = (bytes) => randomBytes(bytes).toString('hex')

// Numeric-string token: satisfies both the documented "integer" typing in the
// send payload and the "string" token returned by the token operation.
// 15 digits stays inside Number.MAX_SAFE_INTEGER.
function newToken () {
  let token
  do {
    token = String(randomInt(1, 10)) + String(randomInt(0, 1e7)).padStart(7, '0') +
      String(randomInt(0, 1e7)).padStart(7, '0')
  } while (tokens.has(token))
  return token
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------
function httpError (statusCode, message) {
  const err = new Error(message)
  err.statusCode = statusCode
  return err
}

const digest = (s) => createHash('sha256').update(String(s)).digest()
const accountKeyDigests = accounts.map((a) => ({ id: a.id, digest: digest(a.key) }))

function accountForKey (key) {
  const d = digest(key)
  let found = null
  for (const a of accountKeyDigests) {
    if (timingSafeEqual(d, a.digest) && found === null) found = a.id
  }
  return found
}

// ---------------------------------------------------------------------------
// Schemas
// ---------------------------------------------------------------------------
const dateTime = { type: 'string', format: 'date-time' }
const nullableDateTime = { type: ['string', 'null'], format: 'date-time' }

const integerIdParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer' } }
}

const transactionResponse = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    reference: { type: 'string' },
    amount: { type: 'integer' },
    description: { type: ['string', 'null'] },
    callback_url: { type: ['string', 'null'] },
    status: { type: 'string' },
    created_at: dateTime,
    updated_at: dateTime
  }
}

const paymentIntentResponse = {
  type: 'object',
  properties: {
    reference: { type: 'string' },
    amount: { type: 'integer' },
    status: { type: 'string' },
    currency_id: { type: 'integer' },
    mode: { type: 'string' },
    last_error_code: { type: ['string', 'null'] },
    created_at: dateTime,
    updated_at: dateTime,
    approved_at: nullableDateTime,
    canceled_at: nullableDateTime,
    deleted_at: nullableDateTime,
    payment_method_id: { type: ['integer', 'null'] },
    transaction_key: { type: 'string' },
    account_id: { type: 'integer' }
  }
}

const balanceResponse = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    amount: { type: 'integer' },
    mode: { type: 'string' },
    account_id: { type: 'integer' },
    created_at: dateTime,
    updated_at: dateTime
  }
}

const currencyResponse = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    modes: { type: 'array', items: { type: 'string' } },
    prefix: { type: 'string' },
    suffix: { type: 'string' },
    account_id: { type: 'integer' },
    created_at: dateTime,
    updated_at: dateTime,
    default: { type: 'boolean' }
  }
}

const createTransactionBody = {
  type: 'object',
  required: ['amount', 'currency'],
  additionalProperties: false,
  properties: {
    description: { type: 'string' },
    amount: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    currency: {
      type: 'object',
      required: ['iso'],
      properties: { iso: { type: 'string', minLength: 1 } }
    },
    callback_url: { type: 'string', format: 'uri' },
    custom_metadata: { type: 'object' },
    customer: {
      type: 'object',
      additionalProperties: false,
      anyOf: [{ required: ['id'] }, { required: ['email'] }],
      properties: {
        id: { type: 'integer' },
        email: { type: 'string', format: 'email' },
        firstname: { type: 'string' },
        lastname: { type: 'string' },
        phone_number: {
          type: 'object',
          additionalProperties: false,
          properties: {
            // Documented as a number here; integers are coerced to strings by
            // ajv so both 97000001 and "+22997000001" are accepted.
            number: { type: 'string' },
            country: { type: 'string' }
          }
        }
      }
    },
    mode: { type: 'string', minLength: 1 }
  }
}

const sendTransactionBody = {
  type: 'object',
  required: ['token'],
  additionalProperties: false,
  properties: {
    // Documented as integer; the token operation returns a (numeric) string.
    // Both forms are accepted: ajv coerces an integer to its string form.
    token: { type: 'string', minLength: 1 },
    phone_number: {
      type: 'object',
      required: ['number', 'country'],
      additionalProperties: false,
      properties: {
        number: { type: 'string', pattern: '^\\+?[0-9]{4,15}$' },
        country: { type: 'string', pattern: '^[A-Z]{2}$' }
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------
const app = Fastify({ logger: false })

// Accept an empty body sent with Content-Type: application/json (bodyless
// POST operations such as the token operation); otherwise Fastify's default
// JSON parser (with its default prototype-poisoning protection) is used.
const defaultJsonParser = app.getDefaultJsonParser('error', 'error')
app.removeContentTypeParser('application/json')
app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
  if (body.trim() === '') return done(null, undefined)
  defaultJsonParser(req, body, done)
})

// Bearer authentication.
app.decorateRequest('accountId', 0)
app.addHook('onRequest', async (request, reply) => {
  const header = request.headers.authorization
  if (header === undefined && DEFECT === 'no-auth') {
    request.accountId = 1
    return
  }
  const match = typeof header === 'string' ? /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header) : null
  const accountId = match ? accountForKey(match[1]) : null
  if (accountId === null) {
    reply.header('WWW-Authenticate', 'Bearer')
    throw httpError(401, 'No valid secret key provided')
  }
  request.accountId = accountId
})

app.register(async (v1) => {
  // 1. Delete a customer
  v1.delete('/customers/:id', {
    schema: {
      params: integerIdParams,
      response: { 204: { type: 'null' } }
    }
  }, async (request, reply) => {
    const customer = customers.get(request.params.id)
    if (!customer || customer.account_id !== request.accountId || customer.deleted_at) {
      if (DEFECT === 'delete-500') throw new Error('Unexpected failure while deleting customer')
      throw httpError(404, 'Customer not found')
    }
    customer.deleted_at = new Date()
    customer.updated_at = customer.deleted_at
    return reply.code(204).send()
  })

  // 2. Create a transaction
  v1.post('/transactions', {
    schema: {
      body: createTransactionBody,
      response: { 201: transactionResponse }
    }
  }, async (request, reply) => {
    const body = request.body
    const accountId = request.accountId

    const currency = [...currencies.values()].find(
      (c) => c.account_id === accountId && c.iso === body.currency.iso
    )
    if (!currency) throw httpError(400, `Unknown currency iso: ${body.currency.iso}`)

    let customer = null
    if (body.customer) {
      if (body.customer.id !== undefined) {
        customer = customers.get(body.customer.id)
        if (!customer || customer.account_id !== accountId || customer.deleted_at) {
          throw httpError(404, 'Customer not found')
        }
      } else {
        const now = new Date()
        customer = {
          id: ++seq.customer,
          email: body.customer.email,
          firstname: body.customer.firstname ?? null,
          lastname: body.customer.lastname ?? null,
          phone_number: body.customer.phone_number ?? null,
          account_id: accountId,
          created_at: now,
          updated_at: now,
          deleted_at: null
        }
        customers.set(customer.id, customer)
      }
    }

    let callbackUrl = body.callback_url ?? null
    if (callbackUrl !== null && DEFECT === 'drop-callback-query') {
      callbackUrl = callbackUrl.replace(/\?[^#]*/, '')
    }

    const now = new Date()
    const transaction = {
      id: ++seq.transaction,
      reference: 'trx_' + randomHex(12),
      amount: DEFECT === 'amount-plus-one' ? body.amount + 1 : body.amount,
      description: body.description ?? null,
      callback_url: callbackUrl,
      status: 'pending',
      mode: body.mode ?? null,
      custom_metadata: body.custom_metadata ?? null,
      currency_id: currency.id,
      customer_id: customer ? customer.id : null,
      account_id: accountId,
      token: null,
      created_at: now,
      updated_at: now
    }
    transactions.set(transaction.id, transaction)
    return reply.code(201).send(transaction)
  })

  // 3. Get the payment link for a transaction
  v1.post('/transactions/:id/token', {
    schema: {
      params: integerIdParams,
      response: {
        200: {
          type: 'object',
          properties: { token: { type: 'string' }, url: { type: 'string' } }
        }
      }
    }
  }, async (request) => {
    const transaction = transactions.get(request.params.id)
    if (!transaction || transaction.account_id !== request.accountId) {
      throw httpError(404, 'Transaction not found')
    }
    if (transaction.token === null) {
      transaction.token = newToken()
      tokens.set(transaction.token, transaction.id)
    }
    return { token: transaction.token, url: CHECKOUT_BASE + transaction.token }
  })

  // 4. Send a transaction for payment
  v1.post('/transactions/:mode', {
    schema: {
      params: {
        type: 'object',
        required: ['mode'],
        properties: { mode: { type: 'string', minLength: 1 } }
      },
      body: sendTransactionBody,
      response: { 200: { type: 'array', items: paymentIntentResponse } }
    }
  }, async (request) => {
    const accountId = request.accountId
    const transactionId = tokens.get(request.body.token)
    const transaction = transactionId === undefined ? undefined : transactions.get(transactionId)
    if (!transaction || transaction.account_id !== accountId) {
      throw httpError(404, 'Transaction not found')
    }
    const currency = currencies.get(transaction.currency_id)
    const mode = request.params.mode
    if (!currency.modes.includes(mode)) {
      throw httpError(400, `Mode ${mode} is not available for this transaction's currency`)
    }

    let paymentMethodId = null
    if (request.body.phone_number) paymentMethodId = ++seq.paymentMethod

    const now = new Date()
    const intent = {
      id: ++seq.intent,
      reference: 'pi_' + randomHex(12),
      amount: transaction.amount,
      status: 'pending',
      currency_id: currency.id,
      mode,
      last_error_code: null,
      created_at: now,
      updated_at: now,
      approved_at: null,
      canceled_at: null,
      deleted_at: null,
      payment_method_id: paymentMethodId,
      phone_number: request.body.phone_number ?? null,
      transaction_key: randomHex(16),
      transaction_id: transaction.id,
      account_id: accountId
    }
    intents.push(intent)
    return [intent]
  })

  // 5. Get a balance
  v1.get('/balances/:id', {
    schema: {
      params: integerIdParams,
      response: { 200: { type: 'array', items: balanceResponse } }
    }
  }, async (request) => {
    const balance = balances.get(request.params.id)
    if (!balance || balance.account_id !== request.accountId) {
      throw httpError(404, 'Balance not found')
    }
    return [balance]
  })

  // 6. Get a currency
  v1.get('/currencies/:id', {
    schema: {
      params: integerIdParams,
      response: { 200: { type: 'array', items: currencyResponse } }
    }
  }, async (request) => {
    const currency = currencies.get(request.params.id)
    if (!currency || currency.account_id !== request.accountId) {
      throw httpError(404, 'Currency not found')
    }
    return [currency]
  })
}, { prefix: '/v1' })

try {
  await app.listen({ port: PORT, host: HOST })
} catch (err) {
  console.error(err)
  process.exit(1)
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    app.close().then(() => process.exit(0), () => process.exit(1))
  })
}
