/**
 * Boundary mutants: defects that safe values, one request at a time and short sequences never
 * show. A 5xx at each edge the suite explores (long, empty, padded or Unicode text, control
 * characters, zero, negative and large amounts, nested or wide metadata, URLs with queries,
 * ports, international hosts or percent-encoding, send-shape formats, large and odd path ids,
 * requests in other forms, customers that do not exist or no longer do); echoes corrupted at
 * an edge; ids and tokens handed out twice, and records lost, under concurrency; and state
 * forgotten after many requests. Each names the rule the suite reports it under.
 */
import type { OperationId } from '../../contract/operations.ts';
import {
  errorJson,
  isObject,
  isSuccess,
  mutant,
  type Mutant,
  type Hooks,
  type RequestContext,
} from './behaviour-hooks.ts';

const serverError = { status: 500, json: errorJson(500, 'internal_error', 'mutant: crashed on an edge value') };

/** A mutant that answers 500 to the requests `when` picks (before the handler runs). */
function crashesOn(
  name: string,
  operations: OperationId[],
  ruleId: string,
  description: string,
  when: (c: RequestContext) => boolean,
): Mutant {
  return mutant(name, 'edge-5xx', operations, ruleId, `answers 500 ${description}`, () => ({
    preHandler: (c) => (when(c) ? serverError : undefined),
  }));
}

const body = (c: RequestContext): Record<string, unknown> => (isObject(c.request.body) ? c.request.body : {});
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const param = (c: RequestContext, name: string): string =>
  String((c.request.params as Record<string, unknown>)[name] ?? '');
const codePoints = (value: string): number => [...value].length;
const depth = (value: unknown): number =>
  Array.isArray(value)
    ? 1 + Math.max(0, ...value.map(depth))
    : isObject(value)
      ? 1 + Math.max(0, ...Object.values(value).map(depth))
      : 0;
const url = (value: unknown): URL | undefined => {
  try {
    return typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    return undefined;
  }
};

function edgeCrashes(): Mutant[] {
  const plainCallback =
    /^https?:\/\/[a-z0-9.-]+(\/[a-z0-9._~-]+)+(\?[a-z0-9._~-]+=[a-z0-9._~-]+(&[a-z0-9._~-]+=[a-z0-9._~-]+)*)?$/;
  const create: OperationId[] = ['createTransaction'];
  const send: OperationId[] = ['sendTransaction'];
  const description = (c: RequestContext): string | undefined => text(body(c).description);
  const callback = (c: RequestContext): string | undefined => text(body(c).callback_url);
  const amount = (c: RequestContext): number | undefined =>
    typeof body(c).amount === 'number' ? (body(c).amount as number) : undefined;
  const metadata = (c: RequestContext): Record<string, unknown> | undefined =>
    isObject(body(c).custom_metadata) ? (body(c).custom_metadata as Record<string, unknown>) : undefined;
  const customer = (c: RequestContext): Record<string, unknown> | undefined =>
    isObject(body(c).customer) ? (body(c).customer as Record<string, unknown>) : undefined;
  const phone = (c: RequestContext): Record<string, unknown> | undefined =>
    isObject(body(c).phone_number) ? (body(c).phone_number as Record<string, unknown>) : undefined;
  const open = 'TXN-CREATE-OPEN-INPUT';
  return [
    crashesOn(
      'createTransaction.edge.long-description-5xx',
      create,
      open,
      'for a description over 255 characters',
      (c) => (description(c) ?? '').length > 0 && codePoints(description(c)!) > 255,
    ),
    crashesOn(
      'createTransaction.edge.empty-description-5xx',
      create,
      open,
      'for an empty or blank description',
      (c) => description(c) !== undefined && description(c)!.trim() === '',
    ),
    crashesOn(
      'createTransaction.edge.padded-description-5xx',
      create,
      open,
      'for a description with white space at the ends',
      (c) => description(c) !== undefined && description(c)!.trim() !== '' && description(c) !== description(c)!.trim(),
    ),
    crashesOn(
      'createTransaction.edge.astral-description-5xx',
      create,
      open,
      'for a description with characters beyond the Basic Multilingual Plane (emoji)',
      (c) => /[\u{10000}-\u{10ffff}]/u.test(description(c) ?? ''),
    ),
    crashesOn(
      'createTransaction.edge.non-ascii-description-5xx',
      create,
      open,
      'for a description with accents, CJK, right-to-left text or combining marks',
      /* biome-ignore lint/suspicious/noMisleadingCharacterClass: combining marks are matched on their own,
         as a server meets them */
      (c) => /[\u00c0-\u024f\u0300-\u036f\u0590-\u06ff\u3040-\u9fff]/u.test(description(c) ?? ''),
    ),
    crashesOn(
      'createTransaction.edge.control-description-5xx',
      create,
      open,
      'for a description with NUL, control or zero-width characters',
      (c) => /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u200b-\u200d\ufeff]/u.test(description(c) ?? ''),
    ),
    crashesOn(
      'createTransaction.edge.quote-description-5xx',
      create,
      open,
      'for a description with quotes or backslashes',
      (c) => /["'\\`]/.test(description(c) ?? ''),
    ),
    crashesOn('createTransaction.edge.amount-zero-5xx', create, open, 'for an amount of 0', (c) => amount(c) === 0),
    crashesOn(
      'createTransaction.edge.amount-negative-5xx',
      create,
      open,
      'for a negative amount',
      (c) => (amount(c) ?? 0) < 0,
    ),
    crashesOn(
      'createTransaction.edge.amount-32-bit-5xx',
      create,
      open,
      'for an amount of 2^31 or more',
      (c) => (amount(c) ?? 0) >= 2 ** 31,
    ),
    crashesOn(
      'createTransaction.edge.nested-metadata-5xx',
      create,
      open,
      'for custom_metadata with nested objects or arrays',
      (c) => depth(metadata(c)) > 1,
    ),
    crashesOn(
      'createTransaction.edge.wide-metadata-5xx',
      create,
      open,
      'for custom_metadata with more than 50 keys',
      (c) => Object.keys(metadata(c) ?? {}).length > 50,
    ),
    crashesOn(
      'createTransaction.edge.metadata-keys-5xx',
      create,
      open,
      'for custom_metadata keys that are not plain ASCII words',
      (c) => Object.keys(metadata(c) ?? {}).some((key) => !/^[\x21-\x7e]{1,64}$/.test(key)),
    ),
    crashesOn(
      'createTransaction.edge.callback-query-5xx',
      create,
      open,
      'for a callback URL with a query string or a fragment',
      (c) => /[?#]/.test(callback(c) ?? '') && !plainCallback.test(callback(c) ?? ''),
    ),
    crashesOn(
      'createTransaction.edge.callback-port-5xx',
      create,
      open,
      'for a callback URL with an explicit port',
      (c) => /^[a-z]+:\/\/(\[[^\]]*\]|[^/:?#]*):\d+/i.test(callback(c) ?? ''),
    ),
    crashesOn(
      'createTransaction.edge.callback-idn-5xx',
      create,
      open,
      'for a callback URL with an internationalised host name',
      (c) => /^[a-z]+:\/\/[^/]*[^\x00-\x7f]/i.test(callback(c) ?? ''),
    ),
    crashesOn(
      'createTransaction.edge.callback-encoded-5xx',
      create,
      open,
      'for a callback URL with percent-encoding',
      (c) => /%[0-9a-f]{2}/i.test(callback(c) ?? ''),
    ),
    crashesOn(
      'createTransaction.edge.customer-email-5xx',
      create,
      open,
      'for an inline customer e-mail with + or %',
      (c) => /[+%]/.test(text(customer(c)?.email) ?? ''),
    ),
    crashesOn(
      'createTransaction.edge.customer-name-5xx',
      create,
      open,
      'for inline customer names that are not printable ASCII',
      (c) =>
        [customer(c)?.firstname, customer(c)?.lastname].some(
          (name) => typeof name === 'string' && !/^[\x20-\x7e]+$/.test(name),
        ),
    ),
    crashesOn(
      'createTransaction.edge.customer-phone-string-5xx',
      create,
      open,
      'for an inline customer phone number sent as a string',
      (c) => {
        const phoneNumber = customer(c)?.phone_number;
        return isObject(phoneNumber) && typeof phoneNumber.number === 'string';
      },
    ),
    crashesOn(
      'sendTransaction.edge.lower-case-country-5xx',
      send,
      'SEND-OPEN-INPUT',
      'for a country code not in upper case',
      (c) => typeof phone(c)?.country === 'string' && phone(c)!.country !== String(phone(c)!.country).toUpperCase(),
    ),
    crashesOn(
      'sendTransaction.edge.phone-format-5xx',
      send,
      'SEND-OPEN-INPUT',
      'for a phone number with spaces or without +',
      (c) => typeof phone(c)?.number === 'string' && !/^\+\d+$/.test(String(phone(c)!.number)),
    ),
    crashesOn(
      'deleteCustomer.edge.large-id-5xx',
      ['deleteCustomer'],
      'CUSTOMER-DELETE-404',
      'for a customer id of 2^31 or more',
      (c) => /^\d+$/.test(param(c, 'id')) && Number(param(c, 'id')) >= 2 ** 31,
    ),
    crashesOn(
      'deleteCustomer.edge.odd-id-5xx',
      ['deleteCustomer'],
      'CUSTOMER-ID-INTEGER',
      'for a customer id of 0, with leading zeros, or negative',
      (c) => /^(0\d*|-\d+)$/.test(param(c, 'id')),
    ),
    crashesOn(
      'getPaymentLink.edge.long-id-5xx',
      ['getPaymentLink'],
      'LINK-UNKNOWN-TXN-4XX',
      'for a transaction id of 16 digits or more',
      (c) => /^\d{16,}$/.test(param(c, 'id')),
    ),
    crashesOn(
      'getBalance.edge.long-id-5xx',
      ['getBalance'],
      'UNKNOWN-ID-NOT-5XX',
      'for a balance id of 16 digits or more',
      (c) => /^-?\d{16,}$/.test(param(c, 'id')),
    ),
    crashesOn(
      'getCurrency.edge.long-id-5xx',
      ['getCurrency'],
      'UNKNOWN-ID-NOT-5XX',
      'for a currency id of 16 digits or more',
      (c) => /^-?\d{16,}$/.test(param(c, 'id')),
    ),
    crashesOn(
      'createTransaction.reference.unknown-customer-5xx',
      create,
      'CUSTOMER-REFERENCE-NOT-5XX',
      'for a customer id that does not exist',
      (c) => typeof customer(c)?.id === 'number' && !c.store.customers.has(customer(c)!.id as number),
    ),
    crashesOn(
      'getPaymentLink.reference.deleted-customer-5xx',
      ['getPaymentLink'],
      'CUSTOMER-REFERENCE-NOT-5XX',
      'for the link of a transaction whose customer was deleted',
      (c) => {
        const transaction = c.store.transactions.get(Number(param(c, 'id')));
        return (
          transaction !== undefined &&
          transaction.customer_id !== null &&
          !c.store.customers.has(transaction.customer_id)
        );
      },
    ),
  ];
}

const everyOperation: OperationId[] = [
  'deleteCustomer',
  'createTransaction',
  'getPaymentLink',
  'sendTransaction',
  'getBalance',
  'getCurrency',
];

function requestFormCrashes(): Mutant[] {
  const form = 'REQUEST-FORM-NOT-5XX';
  return [
    crashesOn(
      'all.request.accept-5xx',
      everyOperation,
      form,
      'when Accept is not exactly application/json (*/*, a list, none)',
      (c) => c.request.headers.accept !== 'application/json',
    ),
    crashesOn('all.request.query-string-5xx', everyOperation, form, 'when the URL carries a query string', (c) =>
      c.request.url.includes('?'),
    ),
    crashesOn('all.request.trailing-slash-5xx', everyOperation, form, 'when the path ends in a slash', (c) =>
      /\/(\?|$)/.test(c.request.url),
    ),
    crashesOn(
      'all.request.content-type-parameters-5xx',
      ['createTransaction', 'sendTransaction'],
      form,
      'when the JSON body is declared with parameters or in another case ' +
        '(application/json; charset=utf-8, Application/JSON)',
      (c) => {
        const declared = c.request.headers['content-type'];
        return declared !== undefined && declared !== 'application/json';
      },
    ),
  ];
}

function echoCorruption(): Mutant[] {
  const corrupt = (name: string, description: string, change: (json: Record<string, unknown>) => void): Mutant =>
    mutant(
      `createTransaction.echo-edge.${name}`,
      'echo-edge',
      ['createTransaction'],
      'TXN-CREATE-OPEN-INPUT',
      `the created transaction carries ${description}`,
      () => ({
        onSend: (c) => {
          if (!isSuccess(c.status) || !isObject(c.json)) return undefined;
          const json = { ...c.json };
          change(json);
          return { json };
        },
      }),
    );
  return [
    corrupt('astral-replaced', 'characters beyond the Basic Multilingual Plane replaced by U+FFFD', (json) => {
      if (typeof json.description === 'string')
        json.description = json.description.replace(/[\u{10000}-\u{10ffff}]/gu, '\ufffd');
    }),
    corrupt('long-text-truncated', 'descriptions cut to 255 characters', (json) => {
      if (typeof json.description === 'string') json.description = [...json.description].slice(0, 255).join('');
    }),
    corrupt('query-dropped', 'callback URLs without their query string', (json) => {
      const parsed = url(json.callback_url);
      if (parsed && parsed.search !== '') json.callback_url = String(json.callback_url).replace(/\?[^#]*/, '');
    }),
    corrupt('amount-32-bit-wrap', 'amounts of 2^31 or more wrapped around to 32 bits', (json) => {
      if (typeof json.amount === 'number' && json.amount >= 2 ** 31 && Number.isSafeInteger(json.amount))
        json.amount = json.amount | 0;
    }),
    corrupt('control-stripped', 'descriptions with NUL and control characters removed', (json) => {
      if (typeof json.description === 'string')
        json.description = json.description.replace(/[\u0000-\u0008\u000e-\u001f\u007f]/g, '');
    }),
  ];
}

/** A payment path that handles large amounts otherwise than the creation did: seen only when an edge amount is sent. */
function largeAmountPayments(): Mutant[] {
  const intents = (name: string, description: string, change: (amount: number) => number): Mutant =>
    mutant(
      `sendTransaction.edge.${name}`,
      'echo-edge',
      ['sendTransaction'],
      'SEND-AMOUNT-MATCHES',
      `payment intents carry ${description}`,
      () => ({
        onSend: (c) => {
          if (!isSuccess(c.status) || !Array.isArray(c.json)) return undefined;
          return {
            json: c.json.map((intent: unknown) =>
              isObject(intent) && typeof intent.amount === 'number'
                ? { ...intent, amount: change(intent.amount) }
                : intent,
            ),
          };
        },
      }),
    );
  return [
    intents('fee-above-a-million', 'a 1 % fee added to amounts above 1,000,000', (amount) =>
      amount > 1_000_000 ? amount + Math.round(amount / 100) : amount,
    ),
    intents(
      'amount-through-float32',
      'amounts rounded through a 32-bit float (odd amounts above 2^24 change)',
      (amount) => Math.fround(amount),
    ),
  ];
}

/**
 * Requests that overlap: each request takes a tick when it arrives and one when it is answered;
 * a request answered after another one arrived and before it was answered overlapped it. One
 * request at a time never overlaps another.
 */
function overlapping(
  name: string,
  operation: OperationId,
  ruleId: string,
  description: string,
  onOverlap: (
    c: Parameters<NonNullable<Hooks['onSend']>>[0],
    previous: Record<string, unknown>,
  ) => Record<string, unknown> | undefined,
): Mutant {
  return mutant(name, 'concurrency', [operation], ruleId, description, () => {
    let tick = 0;
    const arrived = new WeakMap<object, number>();
    let lastAnswer: { tick: number; json: Record<string, unknown> } | undefined;
    return {
      onRequest: (c) => {
        arrived.set(c.request, ++tick);
      },
      // The time a storage call takes: requests sent together are in flight together.
      preHandler: () => new Promise<void>((resolve) => setTimeout(resolve, 3)),
      onSend: (c) => {
        if (!isSuccess(c.status) || !isObject(c.json)) return undefined;
        const start = arrived.get(c.request) ?? tick;
        const previous = lastAnswer !== undefined && lastAnswer.tick > start ? lastAnswer.json : undefined;
        const json = previous === undefined ? undefined : onOverlap(c, previous);
        lastAnswer = { tick: ++tick, json: json ?? c.json };
        return json === undefined ? undefined : { json };
      },
    };
  });
}

function concurrencyMutants(): Mutant[] {
  return [
    overlapping(
      'createTransaction.concurrency.duplicate-ids',
      'createTransaction',
      'TXN-ID-UNIQUE',
      'transactions created while another was in flight get its id',
      (c, previous) => ({ ...(c.json as Record<string, unknown>), id: previous.id }),
    ),
    overlapping(
      'createTransaction.concurrency.lost',
      'createTransaction',
      'TXN-ID-UNIQUE',
      'a transaction created while another was in flight makes the other one lost',
      (c, previous) => {
        if (typeof previous.id === 'number') c.store.transactions.delete(previous.id);
        return undefined;
      },
    ),
    overlapping(
      'getPaymentLink.concurrency.shared-token',
      'getPaymentLink',
      'LINK-TOKEN-OWN',
      "links asked while another was in flight get the other transaction's token",
      (_c, previous) => ({ ...previous }),
    ),
  ];
}

/** A store that forgets the oldest of what the mutant saw created once `keep` newer ones exist. */
function forgetting(
  name: string,
  operation: OperationId,
  observedBy: OperationId,
  ruleId: string,
  keep: number,
  description: string,
  forget: (c: RequestContext, json: Record<string, unknown>) => void,
): Mutant {
  // It touches `observedBy` too (doing nothing there): the rule it breaks is that operation's.
  return mutant(name, 'state-after-many', [operation, observedBy], ruleId, description, () => {
    const seen: Array<Record<string, unknown>> = [];
    return {
      onSend: (c) => {
        if (c.operation !== operation || !isSuccess(c.status) || !isObject(c.json)) return undefined;
        seen.push(c.json);
        while (seen.length > keep) forget(c, seen.shift()!);
        return undefined;
      },
    };
  });
}

function stateMutants(): Mutant[] {
  return [
    forgetting(
      'createTransaction.state.forgotten-after-40',
      'createTransaction',
      'getPaymentLink',
      'LINK-2XX',
      40,
      'transactions are forgotten once 40 newer ones exist',
      (c, json) => {
        if (typeof json.id === 'number') c.store.transactions.delete(json.id);
      },
    ),
    forgetting(
      'getPaymentLink.state.tokens-forgotten-after-25',
      'getPaymentLink',
      'sendTransaction',
      'SEND-TOKEN-AS-RETURNED',
      25,
      'tokens are forgotten once 25 newer ones were issued',
      (c, json) => {
        if (typeof json.token === 'string') c.store.tokens.delete(json.token);
      },
    ),
  ];
}

export function boundaryMutants(): Mutant[] {
  return [
    ...edgeCrashes(),
    ...requestFormCrashes(),
    ...echoCorruption(),
    ...largeAmountPayments(),
    ...concurrencyMutants(),
    ...stateMutants(),
  ];
}
