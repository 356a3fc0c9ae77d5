/**
 * Concurrency: bursts of parallel creations and parallel link requests, checked for what an
 * identifier means. Every transaction created in a burst has its own id and none is lost (each
 * can be linked); every link its own token, a url that visibly carries a token carries its
 * own, and each token pays the transaction it was issued for. One request at a time never
 * shows an id or token handed out twice, or a record lost to a race.
 *
 * What an identifier means across exchanges is judged by the registry's history checks (TXN-ID-UNIQUE,
 * LINK-TOKEN-OWN), the same the stateful sequences and the judge of traffic apply: each answer of a burst
 * against the history of the burst's answers that arrived before it.
 *
 * Requests of a burst go out together on the keep-alive client (up to 16 sockets per worker),
 * still under the transport's rate limit (PCS_MAX_RPS). Amounts within a burst differ, so that
 * the intents of a send tell which transaction the token paid.
 */
import fc from 'fast-check';
import { test, requireWrites } from '../../../suite/fixtures.ts';
import { covers } from '../../../judgment/covers.ts';
import { accepted, noting } from '../../../judgment/expectations.ts';
import { bySuite, History } from '../../../judgment/history.ts';
import { acceptedTransactionBody } from '../../../generation/arbitraries.ts';
import { holdsAnswer, holdsHistory, needsAnswer, runProperty } from '../../../generation/properties.ts';
import { valueAtPointer } from '../../../contract/json-pointer.ts';
import { exactText } from '../../../contract/big-integers.ts';
import type { FastClient } from '../../../http/fast-client.ts';
import type { Exchange } from '../../../http/exchange.ts';
import type { Target } from '../../../settings/target.ts';
import type { CreateTransactionBody } from '../../../contract/types.ts';

/** Bursts of 2 to 12 creation bodies with distinct amounts. */
function burst(target: Target): fc.Arbitrary<CreateTransactionBody[]> {
  return fc.uniqueArray(acceptedTransactionBody<CreateTransactionBody>(target), {
    minLength: 2,
    maxLength: 12,
    selector: (body) => body.amount,
  });
}

interface Created {
  body: CreateTransactionBody;
  exchange: Exchange;
  id: number;
}

/** Creates every transaction of a burst at once; creation's own rules are preconditions here. */
async function createAll(client: FastClient, bodies: CreateTransactionBody[]): Promise<Created[]> {
  const exchanges = await Promise.all(bodies.map((body) => client.call('createTransaction', { body })));
  return exchanges.map((exchange, index) => {
    needsAnswer(exchange, accepted('TXN-CREATE-2XX', { read: { ...bodies[index]! } }));
    return { body: bodies[index]!, exchange, id: (exchange.json as { id: number }).id };
  });
}

/** Exchanges in the order their answers arrived (the order of the array where two arrived in the same ms). */
function inArrivalOrder<T>(entries: T[], exchangeOf: (entry: T) => Exchange): T[] {
  return entries
    .map((entry, index) => ({ entry, index, at: exchangeOf(entry).receivedAt ?? 0 }))
    .sort((a, b) => a.at - b.at || a.index - b.index)
    .map(({ entry }) => entry);
}

test.describe('properties: concurrency', () => {
  test(
    'property (concurrency): transactions created in a burst each get their own id, and none is lost',
    covers('TXN-ID-UNIQUE'),
    async ({ target }, testInfo) => {
      requireWrites(target);
      await runProperty({
        testInfo,
        target,
        runs: (settings) => Math.max(3, Math.ceil(settings.runs / 10)),
        arbitrary: burst(target),
        async predicate(bodies, client) {
          const created = await createAll(client, bodies);
          const history = new History();
          for (const entry of inArrivalOrder(created, (item) => item.exchange))
            holdsHistory(entry.exchange, bySuite({ sent: entry.body }), history);
          // None is lost: every transaction of the burst can be linked, all at once.
          const links = await Promise.all(
            created.map((entry) => client.call('getPaymentLink', { params: { id: entry.id } })),
          );
          for (const [index, link] of links.entries()) {
            holdsAnswer(
              link,
              noting(
                accepted('TXN-ID-UNIQUE'),
                `transaction ${exactText(created[index]!.id)} was created in the burst`,
              ),
            );
          }
        },
      });
    },
  );

  test(
    'property (concurrency): links asked in a burst give each transaction its own token, which pays that transaction',
    covers('LINK-TOKEN-OWN'),
    async ({ target }, testInfo) => {
      requireWrites(target);
      await runProperty({
        testInfo,
        target,
        runs: (settings) => Math.max(3, Math.ceil(settings.runs / 10)),
        arbitrary: burst(target),
        async predicate(bodies, client) {
          const created = await createAll(client, bodies);
          // The burst's transactions, as history learns them (their ids are the other test's rule).
          const history = new History();
          for (const entry of created) history.learn(entry.exchange, bySuite({ sent: entry.body }));
          const links = await Promise.all(
            created.map((entry) => client.call('getPaymentLink', { params: { id: entry.id } })),
          );
          const issued = links.map((link, index) => {
            needsAnswer(link, accepted('LINK-2XX'));
            return { transaction: created[index]!, link, token: valueAtPointer(link.json, '/token') };
          });
          // Each link's token and url against the tokens of the links answered before it.
          for (const entry of inArrivalOrder(issued, (item) => item.link))
            holdsHistory(entry.link, bySuite({ id: entry.transaction.id }), history);
          // Each token pays its own transaction: no intent carries the amount of another transaction of the burst.
          const sends = await Promise.all(
            issued.map((entry) =>
              client.call('sendTransaction', { params: { mode: target.paymentMode }, body: { token: entry.token } }),
            ),
          );
          sends.forEach((send, index) => {
            const entry = issued[index]!;
            holdsHistory(send, bySuite({ sent: { token: entry.token } }), history);
            needsAnswer(send, accepted('SEND-2XX', { amount: entry.transaction.body.amount }));
          });
        },
      });
    },
  );
});
