/**
 * Volume: what goes wrong only after many requests. Three hundred transactions (and, with a
 * larger PCS_RUNS, sixty to six hundred more per case) are created one after another (several in
 * flight when the target is far away: http/in-flight.ts), then
 * each is linked, the oldest first, then each token is sent, the oldest first: a service that
 * forgets records or tokens once enough newer ones exist (a cache taken for a store, a capped
 * table) loses the oldest. The failure names the transaction and how many were created after it.
 */
import fc from 'fast-check';
import { test, requireWrites } from '../../../suite/fixtures.ts';
import { covers } from '../../../judgment/covers.ts';
import { accepted, noting } from '../../../judgment/expectations.ts';
import { acceptedTransactionBody } from '../../../generation/arbitraries.ts';
import { holdsAnswer, needsAnswer, runProperty } from '../../../generation/properties.ts';
import { exactText } from '../../../contract/big-integers.ts';
import type { CreateTransactionBody } from '../../../contract/types.ts';

test.describe('properties: volume', () => {
  test(
    'property (volume): every one of many transactions stays linkable, and every token issued stays payable',
    covers('LINK-2XX', 'SEND-2XX'),
    async ({ target }, testInfo) => {
      requireWrites(target);
      await runProperty({
        testInfo,
        target,
        // Every run meets one of 300 transactions (a cache of a hundred or two taken for a store shows there);
        // larger PCS_RUNS add random counts up to 600.
        examples: [fc.sample(acceptedTransactionBody<CreateTransactionBody>(target), { numRuns: 300, seed: 7 })],
        runs: (settings) => Math.max(0, Math.ceil(settings.runs / 100) - 1),
        arbitrary: fc.array(acceptedTransactionBody<CreateTransactionBody>(target), { minLength: 60, maxLength: 600 }),
        async predicate(bodies, client) {
          // Each stage in flight as the round trip calls for (client.each), in the stage's order: the oldest
          // are still sent first, and a failure names the oldest record that failed.
          const ids = await client.each(bodies, async (body) => {
            const created = await client.call('createTransaction', { body });
            needsAnswer(created, accepted('TXN-CREATE-2XX', { read: { ...body } }));
            return (created.json as { id: number }).id;
          });
          const tokens = await client.each(ids, async (id, index) => {
            const link = await client.call('getPaymentLink', { params: { id } });
            const createdAfter = bodies.length - index - 1;
            const age = `transaction ${exactText(id)} was created ${createdAfter} creation(s) before the last`;
            holdsAnswer(link, noting(accepted('LINK-2XX'), age), { prerequisite: true });
            return (link.json as { token: unknown }).token;
          });
          await client.each(tokens, async (token, index) => {
            const send = await client.call('sendTransaction', {
              params: { mode: target.paymentMode },
              body: { token },
            });
            const age =
              `the token of transaction ${exactText(ids[index]!)}, ` +
              `issued ${tokens.length - index - 1} link(s) before the last`;
            holdsAnswer(send, noting(accepted('SEND-2XX', { amount: bodies[index]!.amount }), age));
          });
        },
      });
    },
  );
});
