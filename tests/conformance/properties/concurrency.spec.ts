/**
 * Concurrency: bursts of parallel creations and parallel link requests, checked for what an
 * identifier means. Every transaction created in a burst has its own id and none is lost (each
 * can be linked); every link its own token, a url that visibly carries a token carries its
 * own, and each token pays the transaction it was issued for. One request at a time never
 * shows an id or token handed out twice, or a record lost to a race.
 *
 * Requests of a burst go out together on the keep-alive client (up to 16 sockets per worker),
 * still under the transport's rate limit (PCS_MAX_RPS). Amounts within a burst differ, so that
 * the intents of a send tell which transaction the token paid.
 */
import fc from 'fast-check';
import { test, requireWrites } from '../../../suite/fixtures.ts';
import { covers } from '../../../judgment/covers.ts';
import type { Violation } from '../../../judgment/checks.ts';
import { accepted, noting } from '../../../judgment/expectations.ts';
import { acceptedTransactionBody } from '../../../generation/arbitraries.ts';
import { holds, holdsAnswer, needsAnswer, runProperty } from '../../../generation/properties.ts';
import { describeValue, valueAtPointer } from '../../../contract/json-pointer.ts';
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

/** The first value that two entries share, with both entries. */
function firstDuplicate<T>(entries: T[], key: (entry: T) => unknown): [T, T] | undefined {
  const seen = new Map<string, T>();
  for (const entry of entries) {
    const value = JSON.stringify(exactText(key(entry) as string | number));
    const earlier = seen.get(value);
    if (earlier !== undefined) return [earlier, entry];
    seen.set(value, entry);
  }
  return undefined;
}

/** Tokens long enough that finding one inside a url is no accident. */
const visible = (token: unknown): token is string => typeof token === 'string' && token.length >= 6;

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
          const duplicate = firstDuplicate(created, (entry) => entry.id);
          if (duplicate) {
            const [first, second] = duplicate;
            holds('TXN-ID-UNIQUE', second.exchange, [
              {
                location: 'body /id',
                expected:
                  `an id of its own (the transaction of amount ${second.body.amount}, ` +
                  `created in a burst of ${bodies.length})`,
                actual: `${exactText(second.id)}, also the id of the transaction of amount ${first.body.amount}`,
              },
            ]);
          }
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
          const links = await Promise.all(
            created.map((entry) => client.call('getPaymentLink', { params: { id: entry.id } })),
          );
          const issued = links.map((link, index) => {
            needsAnswer(link, accepted('LINK-2XX'));
            return {
              transaction: created[index]!,
              link,
              token: valueAtPointer(link.json, '/token'),
              url: valueAtPointer(link.json, '/url'),
            };
          });
          const duplicate = firstDuplicate(issued, (entry) => entry.token);
          if (duplicate) {
            const [first, second] = duplicate;
            holds('LINK-TOKEN-OWN', second.link, [
              {
                location: 'body /token',
                expected: `a token of its own (transaction ${exactText(second.transaction.id)})`,
                actual:
                  `${describeValue(second.token)}, ` +
                  `also the token of transaction ${exactText(first.transaction.id)}`,
              },
            ]);
          }
          for (const entry of issued) {
            const url = entry.url;
            if (typeof url !== 'string') continue;
            const other = issued.find(
              (candidate) =>
                candidate !== entry &&
                visible(candidate.token) &&
                url.includes(candidate.token) &&
                !(visible(entry.token) && url.includes(entry.token)),
            );
            if (other) {
              holds('LINK-TOKEN-OWN', entry.link, [
                {
                  location: 'body /url',
                  expected:
                    `a link of transaction ${exactText(entry.transaction.id)} ` +
                    `(its token ${describeValue(entry.token)})`,
                  actual:
                    `${describeValue(url)}, ` +
                    `which carries the token of transaction ${exactText(other.transaction.id)}`,
                },
              ]);
            }
          }
          // Each token pays its own transaction: the intents carry that transaction's amount.
          const sends = await Promise.all(
            issued.map((entry) =>
              client.call('sendTransaction', { params: { mode: target.paymentMode }, body: { token: entry.token } }),
            ),
          );
          sends.forEach((send, index) => {
            needsAnswer(send, accepted('SEND-2XX'));
            const amount = issued[index]!.transaction.body.amount;
            const wrong: Violation[] = (send.json as Array<{ amount?: unknown }>)
              .map((intent, position) => ({ intent, position }))
              .filter(({ intent }) => intent.amount !== amount)
              .map(({ intent, position }) => {
                const issuedFor = exactText(issued[index]!.transaction.id);
                const burstNote = created.some((entry) => entry.body.amount === intent.amount)
                  ? ' (the amount of another transaction of the burst)'
                  : '';
                return {
                  location: `body /${position}/amount`,
                  expected: `${amount} (the token was issued for transaction ${issuedFor})`,
                  actual: `${describeValue(intent.amount)}${burstNote}`,
                };
              });
            holds('LINK-TOKEN-OWN', send, wrong);
          });
        },
      });
    },
  );
});
