/**
 * Requests in flight (http/in-flight.ts) and cases in flight
 * (generation/concurrent-cases.ts): the limit auto chooses, PCS_IN_FLIGHT's values, results
 * in the items' order, the lowest failing index whatever the timing, and the cases drawn for a
 * seed being the ones fast-check runs for it (what makes a path printed by a run in flight replay).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  autoLimit,
  inFlightSetting,
  inOrderInFlight,
  medianRoundTripMs,
  noteRoundTrip,
  resetInFlight,
} from '../../http/in-flight.ts';
import { casesInFlight } from '../../generation/concurrent-cases.ts';
import { ConfigError, defaultWorkers, workersSetting } from '../../settings/config.ts';
import { probeDistance, workersForRoundTrip } from '../../settings/round-trip-probe.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('auto keeps one in flight near the target and more as the round trip grows, up to the pool', () => {
  assert.equal(autoLimit(undefined), 1);
  assert.equal(autoLimit(0.4), 1);
  assert.equal(autoLimit(2.9), 1);
  assert.equal(autoLimit(3), 2);
  assert.equal(autoLimit(10), 5);
  assert.equal(autoLimit(40), 16);
  assert.equal(autoLimit(5000), 16);
  // Rate limited: a request may wait a whole Retry-After, the others go on.
  assert.equal(autoLimit(0.4, true), 8);
  assert.equal(autoLimit(40, true), 16);
});

test('the median round trip ignores retried requests', () => {
  resetInFlight();
  for (const ms of [40, 41, 39, 42, 38]) noteRoundTrip(ms);
  noteRoundTrip(3000, 2);
  assert.equal(medianRoundTripMs(), 40);
  resetInFlight();
  assert.equal(medianRoundTripMs(), undefined);
});

test('PCS_IN_FLIGHT: auto or 1 to 64; anything else is a configuration error', () => {
  assert.deepEqual(inFlightSetting({}), { kind: 'auto' });
  assert.deepEqual(inFlightSetting({ PCS_IN_FLIGHT: ' auto ' }), { kind: 'auto' });
  assert.deepEqual(inFlightSetting({ PCS_IN_FLIGHT: '8' }), { kind: 'fixed', limit: 8 });
  for (const wrong of ['0', '65', '-1', '2.5', 'many', '1e1'])
    assert.throws(() => inFlightSetting({ PCS_IN_FLIGHT: wrong }), ConfigError, wrong);
});

test('items in flight give their results in order, never more at once than the limit', async () => {
  let active = 0;
  let most = 0;
  const items = Array.from({ length: 40 }, (_, index) => index);
  const results = await inOrderInFlight(
    items,
    () => 6,
    async (item) => {
      active++;
      most = Math.max(most, active);
      await sleep((item * 7) % 5);
      active--;
      return item * 2;
    },
  );
  assert.deepEqual(
    results,
    items.map((item) => item * 2),
  );
  assert.ok(most <= 6 && most > 1, `at most ${most} at once`);
});

test('the failure of the lowest index is thrown, whichever ended first', async () => {
  await assert.rejects(
    inOrderInFlight(
      [0, 1, 2, 3, 4, 5],
      () => 6,
      async (item) => {
        // The higher index fails first in time.
        await sleep(item === 2 ? 30 : 1);
        if (item === 2 || item === 4) throw new Error(`item ${item}`);
        return item;
      },
    ),
    /item 2/,
  );
});

test('cases drawn for a seed are the cases fast-check runs for that seed, examples first', () => {
  const arbitrary = fc.record({ amount: fc.integer({ min: 100, max: 10_000 }), note: fc.string() });
  const example = { amount: 5000, note: 'example' };
  for (const seed of [1, -42, 2 ** 31 - 1]) {
    const drawn = fc.sample(arbitrary, { examples: [example], numRuns: 30, seed });
    const ran: unknown[] = [];
    fc.check(
      fc.property(arbitrary, (value) => {
        ran.push(value);
      }),
      { examples: [[example]], numRuns: 30, seed },
    );
    assert.equal(JSON.stringify(drawn), JSON.stringify(ran), `seed ${seed}`);
  }
});

test('command sequences drawn for a seed are the sequences fast-check runs for that seed', () => {
  class Step implements fc.Command<object, object> {
    readonly n: number;
    constructor(n: number) {
      this.n = n;
    }
    check = () => true;
    run = () => undefined;
    toString = () => `step(${this.n})`;
  }
  const arbitrary = fc.commands([fc.integer({ min: 0, max: 9 }).map((n) => new Step(n))], { maxCommands: 20 });
  const drawn = fc.sample(arbitrary, { numRuns: 20, seed: 99 }).map((commands) => [...commands].join(','));
  const ran: string[] = [];
  fc.check(
    fc.property(arbitrary, (commands) => {
      ran.push([...commands].join(','));
    }),
    { numRuns: 20, seed: 99 },
  );
  assert.deepEqual(drawn, ran);
});

test('cases in flight report the lowest failing index, its case and path, whatever the timing', async () => {
  const drawn = Array.from({ length: 50 }, (_, index) => [index] as [number]);
  const found = await casesInFlight(
    drawn,
    7,
    async (value) => {
      await sleep(value === 11 ? 25 : (value * 13) % 4);
      return value === 11 || value === 17 ? { error: new Error(`case ${value}`) } : undefined;
    },
    10_000,
    () => assert.fail('the budget was not spent'),
    () => 8,
  );
  assert.equal(found.failedIndex, 11);
  assert.equal(found.details.counterexamplePath, '11');
  assert.deepEqual(found.details.counterexample, [11]);
  assert.equal(found.details.numRuns, 12);
  assert.equal(found.details.seed, 7);
  assert.equal(found.details.failed, true);
});

test('cases in flight stop at their budget, and say so when no case had ended', async () => {
  let stopped = false;
  const found = await casesInFlight(
    [[1], [2], [3]] as Array<[number]>,
    1,
    async () => {
      await sleep(60);
      return undefined;
    },
    20,
    () => (stopped = true),
    () => 1,
  );
  assert.equal(stopped, true);
  assert.equal(found.details.failed, false);
  assert.equal(found.details.interrupted, true);
  assert.equal(found.stoppedInFirstCase, true);
});

test('a far target gets more workers unless PCS_WORKERS says otherwise', () => {
  assert.equal(workersForRoundTrip(undefined), undefined);
  assert.equal(workersForRoundTrip(0.5), undefined);
  assert.equal(workersForRoundTrip(9.9), undefined);
  assert.equal(workersForRoundTrip(40), 4);
  assert.equal(workersSetting({ COLLECT_CONFORMANCE_AUTO_WORKERS: '4' }), 4);
  assert.equal(workersSetting({ COLLECT_CONFORMANCE_AUTO_WORKERS: '4', PCS_WORKERS: '3' }), 3);
  assert.equal(workersSetting({ COLLECT_CONFORMANCE_AUTO_WORKERS: 'x' }), defaultWorkers);
});

/** A loopback server that answers 401 after delayMs, as a target that far away would. */
async function targetAt(delayMs: number): Promise<{ baseUrl: string; close: () => void }> {
  const server = createServer((_request, response) => setTimeout(() => response.writeHead(401).end(), delayMs));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

test("a target's distance: its round trip beyond this machine's own; 40 ms away is far, loopback is not", async () => {
  const far = await targetAt(40);
  const near = await targetAt(0);
  try {
    const farMs = await probeDistance(far.baseUrl);
    assert.ok(farMs !== undefined && farMs >= 30, `40 ms away measured ${farMs} ms`);
    assert.equal(workersForRoundTrip(farMs), 4);
    // A server of this machine answering at once is no distance, however slow the machine is at the moment.
    const nearMs = await probeDistance(near.baseUrl);
    assert.ok(nearMs !== undefined && nearMs < 30, `loopback measured ${nearMs} ms`);
    assert.equal(await probeDistance('http://127.0.0.1:9/v1'), undefined, 'nothing listening: not measured');
  } finally {
    far.close();
    near.close();
  }
});
