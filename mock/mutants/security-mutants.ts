/**
 * Mutants of who may do what, and of what the server owns: the defects an attacker or an auditor
 * finds (accounts that reach each other's resources, keys that are almost right, refused requests
 * that still act, ids read loosely, fields a client may set, clocks that disagree, a mode that is
 * not the path's). None of them shows in the shape of one answer. Each names the rule it breaks.
 */
import type { Socket } from 'node:net';
import type { OperationId } from '../../contract/operations.ts';
import {
  bodyObjects,
  isObject,
  isSuccess,
  mutant,
  otherAccountStore,
  type Mutant,
  type RequestContext,
} from './behaviour-hooks.ts';

const pathNumber = (c: RequestContext): number => Number((c.request.params as { id?: string }).id);

/** Servers that look a resource up in every account: the caller reaches the other account's. */
function isolationMutants(): Mutant[] {
  return [
    mutant(
      'deleteCustomer.isolation.any-account',
      'isolation',
      ['deleteCustomer'],
      'ACCOUNT-ISOLATION-4XX',
      "another account's customer is deleted (204)",
      () => ({
        preHandler: (c) => {
          const other = otherAccountStore(c);
          const id = pathNumber(c);
          if (!other || c.store.customers.has(id) || !other.customers.delete(id)) return undefined;
          return { status: 204, text: '' };
        },
      }),
    ),
    mutant(
      'deleteCustomer.isolation.refused-but-deleted',
      'isolation',
      ['deleteCustomer'],
      'ACCOUNT-ISOLATION-UNCHANGED',
      "another account's customer is deleted, though the answer is 404",
      () => ({
        preHandler: (c) => {
          const other = otherAccountStore(c);
          const id = pathNumber(c);
          if (other && !c.store.customers.has(id)) other.customers.delete(id);
          return undefined;
        },
      }),
    ),
    mutant(
      'getPaymentLink.isolation.any-account',
      'isolation',
      ['getPaymentLink'],
      'ACCOUNT-ISOLATION-4XX',
      "another account's transaction gets a payment link",
      () => ({
        preHandler: (c) => {
          const other = otherAccountStore(c);
          const id = pathNumber(c);
          if (!other || c.store.transactions.has(id) || !other.transactions.has(id)) return undefined;
          const token = other.tokenFor(id);
          return { status: 200, json: { token, url: `http://127.0.0.1/checkout/sandbox/${token}` } };
        },
      }),
    ),
    mutant(
      'sendTransaction.isolation.any-account',
      'isolation',
      ['sendTransaction'],
      'ACCOUNT-ISOLATION-4XX',
      "another account's token pays its transaction",
      () => ({
        preHandler: (c) => {
          const other = otherAccountStore(c);
          const body = c.request.body;
          if (!other || !isObject(body)) return undefined;
          const token = String(body.token);
          const id = other.tokens.get(token);
          const transaction = id === undefined || c.store.tokens.has(token) ? undefined : other.transactions.get(id);
          if (!transaction) return undefined;
          const mode = (c.request.params as { mode?: string }).mode ?? 'mtn';
          return { status: 200, json: [other.addIntent(transaction, mode, null)] };
        },
      }),
    ),
    mutant(
      'sendTransaction.isolation.token-spent-by-other',
      'isolation',
      ['sendTransaction'],
      'ACCOUNT-ISOLATION-UNCHANGED',
      'a token sent by another account is refused, but forgotten: its owner can no longer pay with it',
      () => ({
        preHandler: (c) => {
          const other = otherAccountStore(c);
          const body = c.request.body;
          if (other && isObject(body) && !c.store.tokens.has(String(body.token)))
            other.tokens.delete(String(body.token));
          return undefined;
        },
      }),
    ),
    mutant(
      'getBalance.isolation.any-account',
      'isolation',
      ['getBalance'],
      'ACCOUNT-ISOLATION-4XX',
      "another account's balance is returned",
      () => ({
        preHandler: (c) => {
          const other = otherAccountStore(c);
          const balance = other?.balances.get(pathNumber(c));
          if (!balance || c.store.balances.has(pathNumber(c))) return undefined;
          return { status: 200, json: [balance] };
        },
      }),
    ),
    mutant(
      'sendTransaction.isolation.other-account-id',
      'isolation',
      ['sendTransaction'],
      'ACCOUNT-DATA-OWN',
      "payment intents carry the other account's account_id (the caller's balances show its own)",
      () => ({
        onSend: (c) => {
          const other = otherAccountStore(c);
          if (!other || !isSuccess(c.status) || c.json === undefined) return undefined;
          for (const object of bodyObjects(c.json)) if ('account_id' in object) object.account_id = other.accountId;
          return { json: c.json };
        },
      }),
    ),
  ];
}

/** The credential in an Authorization header of the Bearer scheme, if any. */
const bearerKey = (c: RequestContext): string | undefined =>
  /^Bearer +(\S+) *$/i.exec(c.request.headers.authorization ?? '')?.[1];

/** A key check that also lets `accepts` through: the request is served as the caller whose key it resembles. */
function looseKey(name: string, description: string, accepts: (sent: string, own: string) => boolean): Mutant {
  return mutant(name, 'auth', 'all', 'AUTH-KEY-EXACT', description, () => ({
    onRequest: (c) => {
      const sent = bearerKey(c);
      if (sent === undefined || sent === c.keys.own) return;
      for (const own of [c.accounts.primary.key, c.accounts.second.key]) {
        if (c.environment === 'sandbox' && accepts(sent, own)) {
          c.request.headers.authorization = `Bearer ${own}`;
          return;
        }
      }
    },
  }));
}

function credentialMutants(): Mutant[] {
  return [
    mutant(
      'all.auth.bare-key-5xx',
      'auth',
      'all',
      'AUTH-BEARER-SCHEME',
      'the valid key sent without the Bearer scheme crashes the key check (500)',
      () => ({
        onRequest: (c) =>
          c.request.headers.authorization === c.keys.own
            ? { status: 500, json: { error: { status: 500, code: 'internal_error', message: 'mutant: no scheme' } } }
            : undefined,
      }),
    ),
    looseKey('all.auth.key-prefix', 'a key that starts with the valid key is accepted', (sent, own) =>
      sent.startsWith(own),
    ),
    looseKey(
      'all.auth.key-truncated',
      'a key cut short (the first 8 or more characters of the valid key) is accepted',
      (sent, own) => sent.length >= 8 && own.startsWith(sent),
    ),
    looseKey(
      'all.auth.key-case-insensitive',
      'keys are compared without regard to letter case',
      (sent, own) => sent.toLowerCase() === own.toLowerCase(),
    ),
    looseKey(
      'all.auth.key-last-character-ignored',
      'the last character of the key is not compared',
      (sent, own) => sent.length === own.length && sent.slice(0, -1) === own.slice(0, -1),
    ),
    mutant(
      'all.auth.per-connection',
      'auth',
      'all',
      'AUTH-PER-REQUEST',
      'the key is checked on the first request of a keep-alive connection only',
      () => {
        const trusted = new WeakMap<Socket, string>();
        return {
          onRequest: (c) => {
            const socket = c.request.raw.socket;
            const sent = bearerKey(c);
            if (sent === c.accounts.primary.key || sent === c.accounts.second.key) trusted.set(socket, sent);
            else if (trusted.has(socket)) c.request.headers.authorization = `Bearer ${trusted.get(socket)}`;
          },
        };
      },
    ),
    mutant(
      'deleteCustomer.auth.refused-but-deleted',
      'auth',
      ['deleteCustomer'],
      'AUTH-REFUSED-NO-EFFECT',
      'a DELETE with a wrong or missing key answers 401 but deletes the customer',
      () => ({
        onRequest: (c) => {
          const sent = bearerKey(c);
          if (sent === c.accounts.primary.key || sent === c.accounts.second.key || c.environment !== 'sandbox') return;
          const id = pathNumber(c);
          c.accounts.primary.store.customers.delete(id);
          c.accounts.second.store.customers.delete(id);
        },
      }),
    ),
    mutant(
      'getBalance.auth.401-with-data',
      'auth',
      ['getBalance', 'getCurrency'],
      'AUTH-REFUSED-NO-EFFECT',
      'a 401 answer carries the resource it refused to show',
      () => ({
        onSend: (c) => {
          if (c.status !== 401 || !isObject(c.json)) return undefined;
          const id = pathNumber(c);
          const record = c.operation === 'getBalance' ? c.store.balances.get(id) : c.store.currencies.get(id);
          return record ? { json: { ...c.json, data: [record] } } : undefined;
        },
      }),
    ),
  ];
}

/** A path id read by a number parser that stops at the first character that is not a digit. */
function loosePathId(operation: OperationId): Mutant {
  return mutant(
    `${operation}.id-read-loosely`,
    'identifier',
    [operation],
    'ID-EXACT',
    'a path id is read up to its first non-digit (4218abc is 4218)',
    () => ({
      onRequest: (c) => {
        const params = c.request.params as { id?: string };
        const digits = /^(\d+)\D/.exec(params.id ?? '')?.[1];
        if (digits !== undefined) params.id = digits;
      },
    }),
  );
}

/** A creation that takes a field the server owns from the body (mass assignment). */
function massAssignment(field: 'id' | 'created_at' | 'status', description: string): Mutant {
  return mutant(
    `createTransaction.mass-assignment.${field}`,
    'mass-assignment',
    ['createTransaction'],
    'SERVER-OWNED-FIELDS',
    description,
    () => ({
      onSend: (c) => {
        const body = c.request.body;
        if (!isSuccess(c.status) || !isObject(c.json) || !isObject(body) || body[field] === undefined) return undefined;
        const json = { ...c.json, [field]: body[field] };
        if (field === 'created_at') json.updated_at = body[field];
        if (field === 'id' && typeof body.id === 'number' && typeof c.json.id === 'number') {
          // The new transaction takes the existing one's place: its id, and so its token.
          const created = c.store.transactions.get(c.json.id);
          if (created) c.store.transactions.set(body.id, { ...created, id: body.id });
        }
        return { json };
      },
    }),
  );
}

export function securityMutants(): Mutant[] {
  return [
    ...isolationMutants(),
    ...credentialMutants(),
    loosePathId('deleteCustomer'),
    loosePathId('getPaymentLink'),
    massAssignment('id', "a creation body's id is taken: the new transaction replaces the existing one"),
    massAssignment('created_at', "a creation body's created_at (and updated_at) are taken"),
    massAssignment('status', "a creation body's status is taken (a transaction created approved)"),
  ];
}
