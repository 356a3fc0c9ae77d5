// Dredd hooks for npm run bench:peers (lab/peers/tools.ts). What a user of Dredd writes for this API:
// chain the ids a request needs from earlier responses, and skip the documented error responses,
// which Dredd would otherwise request with valid credentials and expect as success.
const hooks = require('hooks');

let state = {};

hooks.beforeAll((_transactions, done) => {
  state = {};
  done();
});

hooks.beforeEach((transaction, done) => {
  if (!String(transaction.expected.statusCode).startsWith('2')) {
    transaction.skip = true;
    return done();
  }
  const { method } = transaction.request;
  const replaceId = (pattern, value) => {
    if (value === undefined) return;
    transaction.request.uri = transaction.request.uri.replace(pattern, (_, prefix) => `${prefix}${value}`);
    transaction.fullPath = transaction.fullPath.replace(pattern, (_, prefix) => `${prefix}${value}`);
  };
  if (method === 'DELETE' && /\/customers\/\d+$/.test(transaction.request.uri))
    replaceId(/(\/customers\/)\d+$/, state.customerId);
  if (method === 'POST' && /\/transactions\/\d+\/token$/.test(transaction.request.uri))
    replaceId(/(\/transactions\/)\d+(?=\/token$)/, state.transactionId);
  if (method === 'POST' && /\/transactions\/mtn$/.test(transaction.request.uri) && state.token !== undefined) {
    const body = JSON.parse(transaction.request.body);
    body.token = state.token;
    transaction.request.body = JSON.stringify(body);
  }
  done();
});

hooks.afterEach((transaction, done) => {
  let body;
  try {
    body = JSON.parse(transaction.real?.body);
  } catch {
    return done();
  }
  const uri = transaction.request.uri;
  if (transaction.request.method === 'POST' && /\/customers$/.test(uri) && body) state.customerId = body.id;
  if (transaction.request.method === 'POST' && /\/transactions$/.test(uri) && body) state.transactionId = body.id;
  if (transaction.request.method === 'POST' && /\/token$/.test(uri) && body) state.token = body.token;
  done();
});
