/**
 * The replay line and the curl lines work where they are printed: the
 * user's own command with seed, path and title added; the key read from the variable the
 * user chose.
 *
 *   node --import tsx --test tests/unit/replay-command.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { invocationPrefix, recordedInvocation, replayLine } from '../../generation/replay-command.ts';
import { curlCommand } from '../../http/exchange.ts';
import { buildRequest, type Auth } from '../../http/outgoing-request.ts';

test('the replay keeps the flags the user gave and adds seed, path and the test', () => {
  const line = replayLine(
    {
      prefix: 'npx collect-conformance',
      args: ['--base-url', 'http://127.0.0.1:4010/v1', '--secret-key-env', 'HOLD_KEY', '--strict'],
    },
    -42,
    '3:1:0',
    'property: a \\(b\\)',
  );
  assert.equal(
    line,
    'npx collect-conformance --base-url http://127.0.0.1:4010/v1 --secret-key-env HOLD_KEY --strict ' +
      "--seed -42 --path 3:1:0 --grep 'property: a \\(b\\)'",
  );
});

test('the seed, path, grep, shard and --list the user gave are replaced; arguments after -- stay after it', () => {
  const line = replayLine(
    {
      prefix: 'npm run conformance --',
      args: [
        '--seed=1',
        '--path',
        '9',
        '--grep',
        'TXN',
        '--shard',
        '2/3',
        '--list',
        '--',
        '--shard=2/3',
        '-g',
        'x',
        'a.spec.ts',
      ],
    },
    7,
    '1:2~AAA=',
    't',
  );
  assert.equal(line, "npm run conformance -- --seed 7 --path '1:2~AAA=' --grep t -- a.spec.ts");
});

test('how the user started the command: npm run conformance in a checkout, npx once installed', () => {
  assert.equal(invocationPrefix({ npm_lifecycle_event: 'conformance' }, false), 'npm run conformance --');
  assert.equal(invocationPrefix({ npm_command: 'exec' }, true), 'npx collect-conformance');
  assert.equal(invocationPrefix({}, true), 'npx collect-conformance');
  assert.equal(invocationPrefix({}, false), 'npm run conformance --');
});

test('the recorded invocation is read back, and ignored when malformed', () => {
  const recorded = { prefix: 'npx collect-conformance', args: ['--strict'] };
  assert.deepEqual(recordedInvocation({ COLLECT_CONFORMANCE_INVOCATION: JSON.stringify(recorded) }), recorded);
  assert.equal(recordedInvocation({ COLLECT_CONFORMANCE_INVOCATION: '{"prefix":1}' }), undefined);
  assert.equal(recordedInvocation({ COLLECT_CONFORMANCE_INVOCATION: 'not json' }), undefined);
  assert.equal(recordedInvocation({}), undefined);
});

test('curl names the variable the key was read from', () => {
  const exchange = {
    method: 'GET',
    url: 'http://127.0.0.1/v1/balances/1',
    requestHeaders: { authorization: 'Bearer ***' },
    requestBody: undefined,
  };
  assert.equal(
    curlCommand(exchange, 'HOLD_KEY'),
    `curl -i -X GET 'http://127.0.0.1/v1/balances/1' -H "Authorization: Bearer $HOLD_KEY"`,
  );
  assert.match(curlCommand(exchange), /\$PCS_SECRET_KEY/);
});

test("curl replays another account's key from its variable, and never the valid key for a wrong one", () => {
  const request = (keyVariable: string | null) => ({
    method: 'GET',
    url: 'http://127.0.0.1/v1/balances/11',
    requestHeaders: { authorization: 'Bearer ***' },
    requestBody: undefined,
    keyVariable,
  });
  assert.match(
    curlCommand(request('PCS_SECOND_SECRET_KEY'), 'HOLD_KEY'),
    /"Authorization: Bearer \$PCS_SECOND_SECRET_KEY"/,
  );
  const wrong = curlCommand(request(null), 'HOLD_KEY');
  assert.doesNotMatch(wrong, /HOLD_KEY/, 'a wrong or almost-right key is not replayed as the valid one');
  assert.match(wrong, /'authorization: Bearer \*\*\*'/);
});

test('a request records which credential it carried', () => {
  const built = (auth: Auth) => buildRequest('getBalance', { params: { id: 1 }, auth }, 'http://h/v1', 'sk_key');
  assert.equal(built({ kind: 'key' }).keyVariable, undefined);
  assert.equal(built({ kind: 'header', value: 'Bearer sk_key' }).keyVariable, undefined);
  assert.equal(
    built({ kind: 'header', value: 'Bearer sk_other', replayAs: 'PCS_SECOND_SECRET_KEY' }).keyVariable,
    'PCS_SECOND_SECRET_KEY',
  );
  assert.equal(built({ kind: 'header', value: 'Bearer sk_key0' }).keyVariable, null);
});
