/**
 * generation/arbitraries.ts and generation/properties.ts: every value generated from a schema of
 * schemas/ validates against it with ajv, wrong-type values never do, and a property run
 * against a deliberately broken server fails with a seed, a path, a masked curl command,
 * and replays to the same minimal counterexample from that seed and path.
 *
 *   node --import tsx --test tests/unit/arbitraries.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { schemaDocuments, validateAgainst, validateInLayer, type SchemaName } from '../../contract/schemas.ts';
import {
  acceptedTransactionBody,
  arbitraryFor,
  oneWrongField,
  propertyPointers,
  schemaAt,
  wrongTypeFor,
} from '../../generation/arbitraries.ts';
import { holds, propertySettings, runProperty } from '../../generation/properties.ts';
import { bodyValueEquals } from '../../judgment/checks.ts';
import { registerSecret } from '../../settings/secrets.ts';
import { ConfigError } from '../../settings/config.ts';
import type { CreateTransactionBody } from '../../contract/types.ts';
import { fakeTestInfo } from './fake-test-info.ts';

const names = [...schemaDocuments.keys()] as SchemaName[];

test('every schema of schemas/ has an arbitrary', () => {
  assert.ok(names.length >= 15, `expected the 15 schemas, found ${names.length}`);
  for (const name of names) assert.doesNotThrow(() => arbitraryFor(name), name);
});

for (const name of names) {
  test(`values generated for ${name} validate against it in every layer (safe values)`, () => {
    fc.assert(
      fc.property(arbitraryFor(name), (value) => {
        assert.deepEqual(validateInLayer('safe', name, value), [], JSON.stringify(value).slice(0, 300));
      }),
      { numRuns: 300 },
    );
  });

  test(`wrong-type values for ${name} never validate against it`, () => {
    fc.assert(
      fc.property(wrongTypeFor(schemaAt(name, '')), (value) => {
        assert.notDeepEqual(validateAgainst(name, value), [], JSON.stringify(value));
      }),
      { numRuns: 200 },
    );
  });
}

test('one wrong field: every property of the request bodies, replaced by a wrong type, makes the body invalid', () => {
  for (const name of ['create-transaction-body', 'send-transaction-body', 'create-customer-body'] as const) {
    // custom_metadata is free-form inside: only its own type can be wrong.
    const pointers = propertyPointers(name);
    fc.assert(
      fc.property(oneWrongField(name, arbitraryFor(name), pointers), (wrong) => {
        assert.notDeepEqual(
          validateAgainst(name, wrong.body),
          [],
          `${name} ${wrong.pointer}=${JSON.stringify(wrong.value)}`,
        );
      }),
      { numRuns: 300 },
    );
  }
});

test('bodies a target accepts stay valid and carry the target values', () => {
  const target = {
    currencyIso: 'GNF',
    paymentMode: 'orange_gn',
    phoneNumber: '+224620000001',
    phoneCountry: 'GN',
    runId: 'cc-unit',
  };
  fc.assert(
    fc.property(acceptedTransactionBody<CreateTransactionBody>(target), (body) => {
      assert.deepEqual(validateInLayer('safe', 'create-transaction-body', body), []);
      assert.equal(body.currency.iso, 'GNF');
      assert.equal(body.custom_metadata?.collect_conformance_run, 'cc-unit');
      if (body.mode !== undefined) assert.equal(body.mode, 'orange_gn');
      assert.equal(body.customer?.id, undefined);
    }),
    { numRuns: 200 },
  );
});

test('unsupported keywords are refused, not ignored', async () => {
  const { derive } = await import('../../generation/arbitraries.ts');
  assert.throws(() => derive({ type: 'string', multipleOf: 2 } as never), /keyword "multipleOf"/);
});

test('property settings: defaults, and one-line ConfigErrors for bad values', () => {
  const defaults = propertySettings({});
  assert.equal(defaults.runs, 100);
  assert.equal(defaults.seed, undefined);
  assert.equal(propertySettings({ PCS_RUNS: '7', PCS_SEED: '-12', PCS_PATH: '3:1~AB:C' }).replayPath, 'AB:C');
  for (const env of [
    { PCS_RUNS: '0' },
    { PCS_RUNS: 'many' },
    { PCS_SEED: '1.5' },
    { PCS_PATH: '1:2' },
    { PCS_SEED: '1', PCS_PATH: 'x' },
    { PCS_PROPERTY_BUDGET_MS: '5' },
  ]) {
    assert.throws(
      () => propertySettings(env),
      (error: unknown) => error instanceof ConfigError && !error.message.includes('\n'),
      JSON.stringify(env),
    );
  }
});

// --- a property against a deliberately broken server ------------------------------------

const brokenKey = 'sk_sandbox_unit_broken_server_key_42';

/**
 * POST /v1/transactions echoes the body, but adds 1 to amounts
 * from 5000 up: the minimal counterexample has amount 5000.
 */
async function startBrokenServer(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      if (
        request.method !== 'POST' ||
        request.url !== '/v1/transactions' ||
        request.headers.authorization !== `Bearer ${brokenKey}`
      ) {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"status":404}}');
        return;
      }
      const body = JSON.parse(text) as CreateTransactionBody;
      const stamp = new Date().toISOString();
      const amount = body.amount >= 5000 ? body.amount + 1 : body.amount;
      response.writeHead(201, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          ...body,
          id: 1,
          reference: 'r',
          status: 'pending',
          amount,
          created_at: stamp,
          updated_at: stamp,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function failureOf(baseUrl: string, env: Record<string, string>): Promise<string> {
  const title = 'property: the broken server echoes the amount';
  try {
    await runProperty({
      testInfo: fakeTestInfo(title),
      env,
      echo: false,
      target: { baseUrl, secretKey: brokenKey, timeoutMs: 5000 },
      arbitrary: acceptedTransactionBody<CreateTransactionBody>({
        currencyIso: 'XOF',
        paymentMode: 'mtn',
        phoneNumber: '+22997000001',
        phoneCountry: 'BJ',
        runId: 'cc-unit',
      }),
      async predicate(body, client) {
        const exchange = await client.call('createTransaction', { body });
        holds('TXN-CREATE-ECHO', exchange, bodyValueEquals(exchange, '/amount', body.amount));
      },
    });
  } catch (error) {
    return (error as Error).message;
  }
  assert.fail('the property passed against a broken server');
}

const brokenServerTitle =
  'a property against a broken server fails with seed, path, masked curl and a replay command that reproduces it';
test(brokenServerTitle, async () => {
  registerSecret(brokenKey);
  const output = mkdtempSync(join(tmpdir(), 'cc-properties-'));
  const previousOutput = process.env.PCS_OUTPUT_DIR;
  process.env.PCS_OUTPUT_DIR = output;
  const server = await startBrokenServer();
  try {
    const first = await failureOf(server.baseUrl, { PCS_RUNS: '200' });
    assert.match(first, /^TXN-CREATE-ECHO \(documented\) violated by createTransaction: POST \/v1\/transactions → 201/);
    const seed = /seed: (-?\d+)/.exec(first)?.[1];
    const path = /path: (\S+)/.exec(first)?.[1];
    assert.ok(seed, `no seed in:\n${first}`);
    assert.ok(path && /^\d+(:\d+)*$/.test(path), `no path in:\n${first}`);
    assert.match(first, /curl -i -X POST '.*\/v1\/transactions' .*-H "Authorization: Bearer \$PCS_SECRET_KEY"/);
    assert.ok(!first.includes(brokenKey), 'the key leaked into the failure message');
    assert.match(
      first,
      new RegExp(
        `replay: PCS_SEED=${seed} PCS_PATH='${path}' ` +
          `npm run conformance -- --grep 'property: the broken server echoes the amount'`,
      ),
    );
    const counterexample = /minimal counterexample: (.*)/.exec(first)?.[1];
    assert.ok(counterexample, `no counterexample in:\n${first}`);
    // Shrinking reached the boundary of the bug.
    assert.match(counterexample, /"amount":5000[,}]/);

    const replayed = await failureOf(server.baseUrl, { PCS_SEED: seed, PCS_PATH: path });
    assert.equal(/minimal counterexample: (.*)/.exec(replayed)?.[1], counterexample);
    assert.match(replayed, /failed after 1 case\(s\)/);

    // One case at a time or eight in flight: the same seed gives the same failing case, path and minimum.
    const oneAtATime = await failureOf(server.baseUrl, { PCS_SEED: seed, PCS_IN_FLIGHT: '1', PCS_RUN_ID: 'one' });
    const inFlight = await failureOf(server.baseUrl, { PCS_SEED: seed, PCS_IN_FLIGHT: '8', PCS_RUN_ID: 'eight' });
    assert.equal(/path: (\S+)/.exec(inFlight)?.[1], /path: (\S+)/.exec(oneAtATime)?.[1]);
    assert.equal(
      /minimal counterexample: (.*)/.exec(inFlight)?.[1],
      /minimal counterexample: (.*)/.exec(oneAtATime)?.[1],
    );
    assert.match(inFlight, /failed after \d+ case\(s\), shrunk [1-9]\d* time\(s\)/);

    // The same rule failing again in the same run is reported as found, not shrunk again.
    const again = await failureOf(server.baseUrl, { PCS_SEED: seed, PCS_RUN_ID: 'eight' });
    assert.match(again, /not shrunk: TXN-CREATE-ECHO was shrunk already in this run/);
    assert.match(again, /shrunk 0 time\(s\)/);
    assert.match(again, /path: \d+\n/);

    const stats = readFileSync(join(output, 'property-stats.jsonl'), 'utf8').trim().split('\n');
    assert.equal(stats.length, 5);
    assert.ok((JSON.parse(stats[0]!) as { requests: number }).requests > 1);
  } finally {
    await server.close();
    if (previousOutput === undefined) delete process.env.PCS_OUTPUT_DIR;
    else process.env.PCS_OUTPUT_DIR = previousOutput;
  }
});
