/** The checks and the failure message every conformance test ends in. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  bodyIsEmpty,
  bodyMatchesSchema,
  bodyValueEquals,
  contentTypeIsJson,
  statusIs,
  statusIsClientError,
  statusIsNotServerError,
  statusIsNotSuccess,
  statusIsSuccess,
} from '../../judgment/checks.ts';
import { parseJsonBody, curlCommand, type Exchange } from '../../http/exchange.ts';
import { ruleFailureMessage } from '../../judgment/expect-rule.ts';
import { registerSecret, redact, redactHeaders } from '../../settings/secrets.ts';
import { covers } from '../../judgment/covers.ts';

function exchange(status: number, body: string, contentType = 'application/json; charset=utf-8'): Exchange {
  return {
    operation: 'createTransaction',
    method: 'POST',
    path: '/transactions',
    url: 'http://127.0.0.1:4010/v1/transactions',
    requestHeaders: { authorization: 'Bearer ***', 'content-type': 'application/json' },
    requestBody: '{"amount":1500}',
    status,
    responseHeaders: { 'content-type': contentType },
    bodyText: body,
    ...parseJsonBody(body),
    durationMs: 1,
  };
}

test('status checks', () => {
  assert.deepEqual(statusIs(exchange(204, ''), 204), []);
  assert.equal(statusIs(exchange(200, ''), 204)[0]?.actual, '200');
  assert.deepEqual(statusIsSuccess(exchange(201, '{}')), []);
  assert.equal(statusIsSuccess(exchange(302, '')).length, 1);
  assert.deepEqual(statusIsClientError(exchange(422, '{}')), []);
  assert.equal(statusIsClientError(exchange(500, '{}')).length, 1);
  assert.equal(statusIsClientError(exchange(200, '{}')).length, 1);
  assert.deepEqual(statusIsNotServerError(exchange(404, '')), []);
  assert.equal(statusIsNotServerError(exchange(503, '')).length, 1);
  assert.equal(statusIsNotSuccess(exchange(200, '{}')).length, 1);
  assert.deepEqual(statusIsNotSuccess(exchange(400, '{}')), []);
});

test('content type: application/json with or without parameters, any case', () => {
  assert.deepEqual(contentTypeIsJson(exchange(200, '{}', 'application/json')), []);
  assert.deepEqual(contentTypeIsJson(exchange(200, '{}', 'Application/JSON; charset=UTF-8')), []);
  assert.equal(contentTypeIsJson(exchange(200, '{}', 'text/plain'))[0]?.actual, '"text/plain"');
  assert.equal(contentTypeIsJson(exchange(200, '{}', 'application/jsonx')).length, 1);
});

test('body checks: empty, schema with pointers, values', () => {
  assert.deepEqual(bodyIsEmpty(exchange(204, '')), []);
  assert.equal(bodyIsEmpty(exchange(204, '{}')).length, 1);
  const notJson = bodyMatchesSchema(exchange(200, '<html>'), 'transaction');
  assert.equal(notJson[0]?.location, 'body');
  assert.match(notJson[0]!.actual, /not JSON/);
  const wrong = bodyMatchesSchema(exchange(201, '{"id":"7"}'), 'transaction');
  assert.ok(wrong.some((violation) => violation.location === 'body /id' && violation.actual === '"7" (string)'));
  assert.deepEqual(bodyValueEquals(exchange(201, '{"amount":1500}'), '/amount', 1500), []);
  const echo = bodyValueEquals(exchange(201, '{"amount":1501}'), '/amount', 1500)[0];
  assert.deepEqual(echo, {
    location: 'body /amount',
    expected: '1500 (number)',
    actual: '1501 (number)',
    actualType: 'number',
  });
  assert.equal(
    bodyValueEquals(exchange(201, '{"amount":"1500"}'), '/amount', 1500).length,
    1,
    'same digits, other JSON type',
  );
});

test('failure message names rule, kind, operation, request, pointer, expected, actual, and masks the key', () => {
  registerSecret('sk_sandbox_super_secret_value');
  const failed = exchange(201, '{"amount":1501}');
  failed.requestBody = redact('{"note":"sk_sandbox_super_secret_value"}');
  const message = ruleFailureMessage('TXN-CREATE-ECHO', failed, bodyValueEquals(failed, '/amount', 1500));
  assert.match(message, /^TXN-CREATE-ECHO \(documented\) violated by createTransaction: POST \/v1\/transactions → 201/);
  assert.match(message, /at body \/amount: expected 1500 \(number\), actual 1501 \(number\)/);
  assert.match(message, /reference: Endpoints > 2\. Create a transaction/);
  assert.match(
    message,
    new RegExp(
      String.raw`reproduce: curl -i -X POST 'http:\/\/127\.0\.0\.1:4010\/v1\/transactions' ` +
        String.raw`.*"Authorization: Bearer \$PCS_SECRET_KEY"`,
    ),
  );
  assert.ok(!message.includes('sk_sandbox_super_secret_value'));
});

test('redaction masks registered secrets and any Authorization credential', () => {
  registerSecret('sk_sandbox_other_secret');
  assert.equal(redact('key=sk_sandbox_other_secret;'), 'key=***;');
  assert.deepEqual(redactHeaders({ Authorization: 'Basic dXNlcjpwYXNz', 'x-echo': 'sk_sandbox_other_secret' }), {
    Authorization: 'Basic ***',
    'x-echo': '***',
  });
  const curl = curlCommand({
    method: 'GET',
    url: 'http://127.0.0.1/v1/balances/1',
    requestHeaders: { authorization: 'Bearer ***' },
    requestBody: undefined,
  });
  assert.equal(curl, `curl -i -X GET 'http://127.0.0.1/v1/balances/1' -H "Authorization: Bearer $PCS_SECRET_KEY"`);
});

test('covers(): tags and annotations from the catalogue; unknown ids and mixed kinds are refused', () => {
  const details = covers('LINK-TOKEN-STRING');
  assert.deepEqual(details.tag, ['@documented', '@LINK-TOKEN-STRING', '@quirk']);
  assert.deepEqual(covers('LINK-2XX').tag, ['@inferred', '@LINK-2XX']);
  assert.throws(() => covers('NO-SUCH-RULE'), /unknown rule id NO-SUCH-RULE/);
  assert.throws(() => covers('LINK-2XX', 'LINK-SCHEMA'), /different kinds/);
});
