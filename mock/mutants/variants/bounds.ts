/**
 * Gap row bounds: units, bounds and size limits are not shown, so values of the documented type
 * beyond the safe ones may be refused: each variant refuses with 422 beyond a server's own bounds.
 */
import { isObject } from '../behaviour-hooks.ts';
import type { Hooks, Variant } from '../behaviour-hooks.ts';
import { bounds, variant } from './shared-choices.ts';

const codePoints = (text: string): number => [...text].length;

function depth(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depth));
  if (isObject(value)) return 1 + Math.max(0, ...Object.values(value).map(depth));
  return 0;
}

export const amountRange = bounds((operation, body) =>
  operation === 'createTransaction' && typeof body.amount === 'number' && (body.amount < 100 || body.amount > 1_000_000)
    ? 'amount: from 100 to 1,000,000'
    : undefined,
);

export const tightText = bounds((operation, body) => {
  if (operation === 'createTransaction') {
    const description = body.description;
    if (
      typeof description === 'string' &&
      (description !== description.trim() ||
        /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\ufeff]/.test(description))
    ) {
      return 'description: no white space at the ends, no control or invisible characters';
    }
  }
  if (operation === 'sendTransaction' && isObject(body.phone_number)) {
    const { number, country } = body.phone_number;
    if (typeof number === 'string' && !/^\+\d{6,15}$/.test(number))
      return 'phone_number.number: "+" and 6 to 15 digits';
    if (typeof country === 'string' && !/^[A-Z]{2}$/.test(country))
      return 'phone_number.country: two upper-case letters';
  }
  return undefined;
});

/** Top-level domains a root-zone check knows (a short list: a real one has some 1,500). */
const rootZone = new Set(['com', 'org', 'net', 'io', 'dev', 'app', 'fr', 'de', 'uk', 'bj', 'gn', 'sn', 'ci', 'tg']);
const hostLabel = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/** A host name of labels under a top-level domain of the root zone (no address literal, no port). */
function realHost(host: string): boolean {
  const labels = host.toLowerCase().split('.');
  return labels.length >= 2 && labels.every((label) => hostLabel.test(label)) && rootZone.has(labels.at(-1)!);
}

/** Django's URLField with its defaults and a root-zone check: http(s), a real host, at most 200 characters. */
function urlFieldRefuses(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (value.length > 200) return 'Ensure this field has no more than 200 characters.';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Enter a valid URL.';
  }
  const hostText = /^[a-z][a-z0-9+.-]*:\/\/([^/?#:]*)/i.exec(value)?.[1] ?? '';
  if (!['http:', 'https:'].includes(url.protocol) || url.port !== '' || !realHost(hostText))
    return 'Enter a valid URL.';
  return undefined;
}

/** validator.js's isEmail defaults and a root-zone check: a dot-atom local part of at most 64 characters. */
function emailRefuses(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const at = value.lastIndexOf('@');
  const [local, domain] = [value.slice(0, at), value.slice(at + 1)];
  const dotAtom = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
  return at > 0 && local.length <= 64 && dotAtom.test(local) && realHost(domain)
    ? undefined
    : 'Enter a valid email address.';
}

function validatorDefaults(): Hooks {
  const within = (value: unknown, length: number) => typeof value !== 'string' || [...value].length <= length;
  return {
    preHandler: (c) => {
      const body = c.request.body;
      if (!isObject(body)) return undefined;
      const problems: Record<string, string[]> = {};
      const note = (field: string, problem: string | undefined) => {
        if (problem !== undefined) problems[field] = [problem];
      };
      note('callback_url', urlFieldRefuses(body.callback_url));
      if (!within(body.description, 255)) note('description', 'Ensure this field has no more than 255 characters.');
      if (typeof body.amount === 'number' && Math.abs(body.amount) > 2 ** 31 - 1)
        note('amount', 'Ensure this value is less than or equal to 2147483647.');
      if (isObject(body.customer)) {
        note('customer.email', emailRefuses(body.customer.email));
        for (const name of ['firstname', 'lastname'])
          if (!within(body.customer[name], 255))
            note(`customer.${name}`, 'Ensure this field has no more than 255 characters.');
      }
      return Object.keys(problems).length === 0 ? undefined : { status: 400, json: problems };
    },
  };
}

export function boundsVariants(): Variant[] {
  return [
    variant({
      name: 'variant.validator-defaults',
      gaps: ['bounds'],
      rules: ['TXN-CREATE-OPEN-INPUT', 'TXN-CREATE-2XX'],
      operations: ['createTransaction'],
      description:
        "inputs held to validators' defaults, refused with 400 in Django REST framework's shape: URLField (200 " +
        'characters, a real host, no port), an e-mail validator, 255-character columns, a 32-bit amount',
      create: validatorDefaults,
    }),
    variant({
      name: 'variant.bounds-description-255',
      gaps: ['bounds'],
      rules: ['TXN-CREATE-OPEN-INPUT', 'TXN-CREATE-2XX'],
      operations: ['createTransaction'],
      description: 'descriptions over 255 characters refused with 422',
      create: bounds((operation, body) =>
        operation === 'createTransaction' && typeof body.description === 'string' && codePoints(body.description) > 255
          ? 'description: at most 255 characters'
          : undefined,
      ),
    }),
    variant({
      name: 'variant.bounds-amount-range',
      gaps: ['bounds'],
      rules: ['TXN-CREATE-OPEN-INPUT', 'TXN-CREATE-2XX'],
      operations: ['createTransaction'],
      description: 'amounts outside 100 to 1,000,000 refused with 422',
      create: amountRange,
    }),
    variant({
      name: 'variant.bounds-flat-metadata',
      gaps: ['bounds'],
      rules: ['TXN-CREATE-OPEN-INPUT', 'TXN-CREATE-2XX'],
      operations: ['createTransaction'],
      description:
        'custom_metadata refused with 422 unless flat (scalars only), at most 20 keys of at most 40 characters',
      create: bounds((operation, body) => {
        if (operation !== 'createTransaction' || !isObject(body.custom_metadata)) return undefined;
        const entries = Object.entries(body.custom_metadata);
        if (entries.length > 20 || entries.some(([key, value]) => codePoints(key) > 40 || depth(value) > 0))
          return 'custom_metadata: at most 20 flat entries';
        return undefined;
      }),
    }),
    variant({
      name: 'variant.bounds-unknown-customer-422',
      gaps: ['bounds', 'error-status'],
      rules: ['CUSTOMER-REFERENCE-NOT-5XX'],
      operations: ['createTransaction'],
      description: 'a transaction naming a customer id that does not exist refused with 422',
      create: bounds((operation, body, c) => {
        if (operation !== 'createTransaction' || !isObject(body.customer) || typeof body.customer.id !== 'number')
          return undefined;
        return c.store.customers.has(body.customer.id) ? undefined : 'customer.id: no such customer';
      }),
    }),
    variant({
      name: 'variant.bounds-tight-text',
      gaps: ['bounds', 'prose-constraints'],
      rules: ['TXN-CREATE-OPEN-INPUT', 'SEND-OPEN-INPUT', 'TXN-CREATE-2XX', 'SEND-PHONE-NUMBER-STRING'],
      operations: ['createTransaction', 'sendTransaction'],
      description:
        'descriptions with white space at the ends or invisible characters, ' +
        'and phone numbers or countries off the send shape, refused with 422',
      create: tightText,
    }),
  ];
}
