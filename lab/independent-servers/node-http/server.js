// Sandbox implementation of the Payment Collection Service API (v1).
// Node 20, node:http only, in-memory state. See README.md for choices.
import http from 'node:http';
import crypto from 'node:crypto';

const PORT = Number.parseInt(process.env.PORT || '4812', 10);
const HOST = '127.0.0.1';
const DEFECT = process.env.DEFECT || '';
const MAX_BODY = 1024 * 1024;
const MAX_AMOUNT = Number.MAX_SAFE_INTEGER;
const CHECKOUT_BASE = 'https://checkout.sandbox.invalid/pay/';

// ---------------------------------------------------------------- state
const bootTime = new Date().toISOString();

const accounts = [
  { id: 1, key: process.env.SECRET_KEY || 'sk_sandbox_independent_nodehttp_0001' },
  { id: 2, key: process.env.SECOND_SECRET_KEY || 'sk_sandbox_independent_nodehttp_0002' },
];

const balances = new Map(); // id -> balance
const currencies = new Map(); // id -> currency (internal, with iso)
for (const acc of accounts) {
  balances.set(acc.id, {
    id: acc.id, amount: 0, mode: 'sandbox', account_id: acc.id,
    created_at: bootTime, updated_at: bootTime,
  });
  currencies.set(acc.id, {
    id: acc.id, iso: 'XOF', name: 'Franc CFA (BCEAO)', modes: ['mtn', 'moov'],
    prefix: '', suffix: 'F CFA', account_id: acc.id,
    created_at: bootTime, updated_at: bootTime, default: true,
  });
}

const customers = new Map(); // id -> customer (deleted ones are removed)
const transactions = new Map(); // id -> internal transaction
const tokens = new Map(); // token string -> transaction id
const paymentMethods = new Map(); // "account|mode|number|country" -> id
let seqCustomer = 0;
let seqTransaction = 0;
let seqPaymentMethod = 0;

// ---------------------------------------------------------------- helpers
function send(req, res, status, body, extraHeaders = {}) {
  const headers = { ...extraHeaders }; // Node adds Connection: keep-alive itself
  if (status === 204 || body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  headers['Content-Type'] = 'application/json; charset=utf-8';
  headers['Transfer-Encoding'] = 'chunked';
  res.writeHead(status, headers);
  const buf = Buffer.from(JSON.stringify(body), 'utf8');
  if (req.method === 'HEAD') { res.end(); return; }
  const mid = Math.max(1, Math.floor(buf.length / 2));
  res.write(buf.subarray(0, mid));
  res.end(buf.subarray(mid));
}

const notFound = (req, res) => send(req, res, 404, { error: 'not_found' });
const unprocessable = (req, res, errors) => send(req, res, 422, { errors });

function addError(errors, field, msg) {
  (errors[field] ||= []).push(msg);
}

function isPlainObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function authenticate(req) {
  const h = req.headers['authorization'];
  if (h === undefined) {
    return DEFECT === 'no-auth' ? accounts[0] : null;
  }
  const m = /^Bearer +(\S+) *$/i.exec(h);
  if (!m) return null;
  const given = Buffer.from(m[1]);
  for (const acc of accounts) {
    const want = Buffer.from(acc.key);
    if (given.length === want.length && crypto.timingSafeEqual(given, want)) return acc;
  }
  return null;
}

function parseId(s) {
  if (!/^\d{1,15}$/.test(s)) return null;
  const n = Number.parseInt(s, 10);
  return n > 0 ? n : null;
}

function isJsonContentType(req) {
  const ct = req.headers['content-type'];
  if (!ct) return false;
  return ct.split(';')[0].trim().toLowerCase() === 'application/json';
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    let tooBig = false;
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY) { tooBig = true; return; }
      chunks.push(c);
    });
    req.on('end', () => resolve(tooBig ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

// Reads a JSON object body. Returns the object, or undefined after answering.
async function jsonBody(req, res) {
  if (!isJsonContentType(req)) {
    req.resume();
    send(req, res, 415, { error: 'unsupported_media_type' });
    return undefined;
  }
  const text = await readBody(req);
  if (text === null) { send(req, res, 413, { error: 'payload_too_large' }); return undefined; }
  if (text.trim() === '') return {};
  let data;
  try { data = JSON.parse(text); } catch {
    send(req, res, 400, { error: 'bad_request' });
    return undefined;
  }
  if (!isPlainObject(data)) { send(req, res, 400, { error: 'bad_request' }); return undefined; }
  return data;
}

// Rails-like integer casting. Returns { value } or { error }.
function castInteger(v) {
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) return { error: "can't be blank" };
  let n;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return { error: 'is not a number' };
    if (!Number.isInteger(v)) return { error: 'must be an integer' };
    n = v;
  } else if (typeof v === 'string') {
    const s = v.trim();
    if (/^[+-]?\d+$/.test(s)) n = Number(s);
    else if (s !== '' && Number.isFinite(Number(s)) && !/^0[xbo]/i.test(s)) return { error: 'must be an integer' };
    else return { error: 'is not a number' };
  } else {
    return { error: 'is not a number' };
  }
  return { value: n };
}

function randomHex(bytes) { return crypto.randomBytes(bytes).toString('hex'); }

function newToken() {
  for (;;) {
    const first = crypto.randomInt(1, 10);
    let t = String(first);
    for (let i = 0; i < 11; i += 1) t += String(crypto.randomInt(0, 10));
    if (!tokens.has(t)) return t;
  }
}

function publicTransaction(t) {
  return {
    id: t.id, reference: t.reference, amount: t.amount, description: t.description,
    callback_url: t.callback_url, status: t.status, created_at: t.created_at, updated_at: t.updated_at,
  };
}

function publicCurrency(c) {
  return {
    id: c.id, name: c.name, iso: c.iso, modes: [...c.modes], prefix: c.prefix, suffix: c.suffix,
    account_id: c.account_id, created_at: c.created_at, updated_at: c.updated_at, default: c.default,
  };
}

function accountCurrency(acc) {
  for (const c of currencies.values()) if (c.account_id === acc.id) return c;
  return null;
}

function baseUrl(req) {
  const host = req.headers.host || `${HOST}:${PORT}`;
  return `http://${host}`;
}

// ---------------------------------------------------------------- handlers
function deleteCustomer(req, res, acc, idStr) {
  req.resume();
  const id = parseId(idStr);
  const c = id && customers.get(id);
  if (!c || c.account_id !== acc.id) {
    if (DEFECT === 'delete-500') return send(req, res, 500, { error: 'internal_server_error' });
    return notFound(req, res);
  }
  customers.delete(id);
  return send(req, res, 204);
}

function validateCustomer(acc, cust, errors) {
  // Returns a function that materialises the customer (called only when valid), or null.
  if (cust === undefined || cust === null) return null;
  if (!isPlainObject(cust)) { addError(errors, 'customer', 'is invalid'); return null; }
  if (cust.id !== undefined && cust.id !== null) {
    const r = castInteger(cust.id);
    if (r.error || r.value <= 0) { addError(errors, 'customer.id', 'is invalid'); return null; }
    const existing = customers.get(r.value);
    if (!existing || existing.account_id !== acc.id) { addError(errors, 'customer', 'must exist'); return null; }
    return () => existing;
  }
  const fields = {};
  let any = false;
  for (const f of ['email', 'firstname', 'lastname']) {
    const v = cust[f];
    if (v === undefined || v === null) { fields[f] = null; continue; }
    if (typeof v !== 'string') { addError(errors, `customer.${f}`, 'is invalid'); continue; }
    if (f === 'email' && v !== '' && !/^[^@\s]+@[^@\s]+$/.test(v)) { addError(errors, 'customer.email', 'is invalid'); continue; }
    fields[f] = v === '' ? null : v;
    if (fields[f] !== null) any = true;
  }
  fields.phone_number = null;
  const pn = cust.phone_number;
  if (pn !== undefined && pn !== null) {
    if (!isPlainObject(pn)
      || !((typeof pn.number === 'string' && pn.number.trim() !== '') || (typeof pn.number === 'number' && Number.isInteger(pn.number) && pn.number > 0))
      || !(pn.country === undefined || pn.country === null || typeof pn.country === 'string')) {
      addError(errors, 'customer.phone_number', 'is invalid');
    } else {
      fields.phone_number = { number: pn.number, country: pn.country ?? null };
      any = true;
    }
  }
  if (!any && !errors['customer.email'] && !errors['customer.firstname'] && !errors['customer.lastname'] && !errors['customer.phone_number']) {
    addError(errors, 'customer', "can't be blank");
    return null;
  }
  return () => {
    seqCustomer += 1;
    const now = new Date().toISOString();
    const c = { id: seqCustomer, account_id: acc.id, ...fields, created_at: now, updated_at: now };
    customers.set(c.id, c);
    return c;
  };
}

async function createTransaction(req, res, acc) {
  const body = await jsonBody(req, res);
  if (body === undefined) return;
  const errors = {};
  const currency = accountCurrency(acc);

  // amount
  let amount = null;
  const a = castInteger(body.amount);
  if (a.error) addError(errors, 'amount', a.error);
  else if (a.value <= 0) addError(errors, 'amount', 'must be greater than 0');
  else if (a.value > MAX_AMOUNT) addError(errors, 'amount', `must be less than or equal to ${MAX_AMOUNT}`);
  else amount = a.value;

  // currency
  let currencyId = null;
  if (body.currency === undefined || body.currency === null) addError(errors, 'currency', "can't be blank");
  else if (!isPlainObject(body.currency)) addError(errors, 'currency', 'is invalid');
  else {
    const iso = body.currency.iso;
    if (iso === undefined || iso === null || (typeof iso === 'string' && iso.trim() === '')) addError(errors, 'currency.iso', "can't be blank");
    else if (typeof iso !== 'string' || !currency || currency.iso !== iso) addError(errors, 'currency.iso', 'is invalid');
    else currencyId = currency.id;
  }

  // description
  let description = null;
  if (body.description !== undefined && body.description !== null) {
    if (typeof body.description !== 'string') addError(errors, 'description', 'is invalid');
    else if (body.description.trim() !== '') description = body.description;
  }

  // callback_url
  let callbackUrl = null;
  const cb = body.callback_url;
  if (cb !== undefined && cb !== null && cb !== '') {
    let u = null;
    if (typeof cb === 'string') { try { u = new URL(cb); } catch { u = null; } }
    if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) addError(errors, 'callback_url', 'is invalid');
    else {
      if (DEFECT === 'drop-callback-query') u.search = '';
      callbackUrl = u.href;
    }
  }

  // custom_metadata
  let metadata = null;
  if (body.custom_metadata !== undefined && body.custom_metadata !== null) {
    if (!isPlainObject(body.custom_metadata)) addError(errors, 'custom_metadata', 'is invalid');
    else metadata = body.custom_metadata;
  }

  // mode (optional)
  let mode = null;
  if (body.mode !== undefined && body.mode !== null && body.mode !== '') {
    if (typeof body.mode !== 'string' || !currency || !currency.modes.includes(body.mode)) addError(errors, 'mode', 'is not included in the list');
    else mode = body.mode;
  }

  // customer
  const makeCustomer = validateCustomer(acc, body.customer, errors);

  if (Object.keys(errors).length > 0) return unprocessable(req, res, errors);

  const customer = makeCustomer ? makeCustomer() : null;
  if (DEFECT === 'amount-plus-one') amount += 1;
  seqTransaction += 1;
  const now = new Date().toISOString();
  const t = {
    id: seqTransaction, account_id: acc.id, reference: `trx_${randomHex(8)}`, amount, description,
    callback_url: callbackUrl, status: 'pending', currency_id: currencyId, mode,
    customer_id: customer ? customer.id : null, custom_metadata: metadata, token: null,
    created_at: now, updated_at: now,
  };
  transactions.set(t.id, t);
  return send(req, res, 201, publicTransaction(t), { Location: `${baseUrl(req)}/v1/transactions/${t.id}` });
}

function createToken(req, res, acc, idStr) {
  req.resume();
  const id = parseId(idStr);
  const t = id && transactions.get(id);
  if (!t || t.account_id !== acc.id) return notFound(req, res);
  if (!t.token) {
    t.token = newToken();
    tokens.set(t.token, t.id);
  }
  const url = CHECKOUT_BASE + t.token;
  return send(req, res, 201, { token: t.token, url }, { Location: url });
}

async function sendTransaction(req, res, acc, mode) {
  const body = await jsonBody(req, res);
  if (body === undefined) return;
  const errors = {};
  const currency = accountCurrency(acc);

  if (!currency || !currency.modes.includes(mode)) addError(errors, 'mode', 'is not included in the list');

  let txn = null;
  const tok = body.token;
  if (tok === undefined || tok === null || tok === '') addError(errors, 'token', "can't be blank");
  else {
    let key = null;
    if (typeof tok === 'string' && /^\d+$/.test(tok)) key = tok;
    else if (typeof tok === 'number' && Number.isSafeInteger(tok) && tok > 0) key = String(tok);
    const tid = key !== null ? tokens.get(key) : undefined;
    const t = tid !== undefined ? transactions.get(tid) : undefined;
    if (!t || t.account_id !== acc.id) addError(errors, 'token', 'is invalid');
    else txn = t;
  }

  let phone = null;
  const pn = body.phone_number;
  if (pn !== undefined && pn !== null) {
    if (!isPlainObject(pn)) addError(errors, 'phone_number', 'is invalid');
    else {
      let num = pn.number;
      if (typeof num === 'number' && Number.isSafeInteger(num) && num > 0) num = String(num);
      if (num === undefined || num === null || num === '') addError(errors, 'phone_number.number', "can't be blank");
      else if (typeof num !== 'string' || !/^\+?\d{6,15}$/.test(num)) addError(errors, 'phone_number.number', 'is invalid');
      const country = pn.country;
      if (country === undefined || country === null || country === '') addError(errors, 'phone_number.country', "can't be blank");
      else if (typeof country !== 'string' || !/^[A-Z]{2}$/.test(country)) addError(errors, 'phone_number.country', 'is invalid');
      if (!errors['phone_number.number'] && !errors['phone_number.country']) phone = { number: num, country };
    }
  }

  if (Object.keys(errors).length > 0) return unprocessable(req, res, errors);

  let paymentMethodId = null;
  if (phone) {
    const k = `${acc.id}|${mode}|${phone.number}|${phone.country}`;
    if (!paymentMethods.has(k)) { seqPaymentMethod += 1; paymentMethods.set(k, seqPaymentMethod); }
    paymentMethodId = paymentMethods.get(k);
  }
  const now = new Date().toISOString();
  const intent = {
    reference: `pi_${randomHex(8)}`,
    amount: txn.amount,
    status: 'pending',
    currency_id: txn.currency_id,
    mode,
    last_error_code: null,
    created_at: now,
    updated_at: now,
    approved_at: null,
    canceled_at: null,
    deleted_at: null,
    payment_method_id: paymentMethodId,
    transaction_key: randomHex(16),
    account_id: acc.id,
  };
  return send(req, res, 202, [intent]);
}

function getBalance(req, res, acc, idStr) {
  req.resume();
  const id = parseId(idStr);
  const b = id && balances.get(id);
  if (!b || b.account_id !== acc.id) return notFound(req, res);
  return send(req, res, 200, [{ ...b }]);
}

function getCurrency(req, res, acc, idStr) {
  req.resume();
  const id = parseId(idStr);
  const c = id && currencies.get(id);
  if (!c || c.account_id !== acc.id) return notFound(req, res);
  return send(req, res, 200, [publicCurrency(c)]);
}

// ---------------------------------------------------------------- routing
async function handle(req, res) {
  let path;
  try { path = new URL(req.url, 'http://localhost').pathname; } catch { path = '/'; }
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  if (!(path === '/v1' || path.startsWith('/v1/'))) { req.resume(); return notFound(req, res); }

  const acc = authenticate(req);
  if (!acc) {
    req.resume();
    return send(req, res, 401, { error: 'unauthorized' }, { 'WWW-Authenticate': 'Bearer realm="sandbox"' });
  }

  const seg = path.split('/').slice(2).map((s) => { try { return decodeURIComponent(s); } catch { return s; } });
  const m = req.method;

  if (seg.length === 2 && seg[0] === 'customers' && m === 'DELETE') return deleteCustomer(req, res, acc, seg[1]);
  if (seg.length === 1 && seg[0] === 'transactions' && m === 'POST') return createTransaction(req, res, acc);
  if (seg.length === 3 && seg[0] === 'transactions' && seg[2] === 'token' && m === 'POST') return createToken(req, res, acc, seg[1]);
  if (seg.length === 2 && seg[0] === 'transactions' && m === 'POST') return sendTransaction(req, res, acc, seg[1]);
  if (seg.length === 2 && seg[0] === 'balances' && m === 'GET') return getBalance(req, res, acc, seg[1]);
  if (seg.length === 2 && seg[0] === 'currencies' && m === 'GET') return getCurrency(req, res, acc, seg[1]);
  req.resume();
  return notFound(req, res);
}

const server = http.createServer((req, res) => {
  handle(req, res).catch(() => {
    if (!res.headersSent) send(req, res, 500, { error: 'internal_server_error' });
    else res.destroy();
  });
});
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
server.listen(PORT, HOST);

const shutdown = () => { server.close(() => process.exit(0)); server.closeAllConnections(); };
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
