/**
 * Variants that make several rows' choices at once, from the behaviours of those rows' modules:
 * a real server makes many of these choices together, and the suite must pass them together.
 */
import { rubyFloat } from '../../../judgment/string-casts.ts';
import { BadRequest } from '../../validation.ts';
import { isObject, type Hooks, type ResponseContext, type Rewrite, type Variant } from '../behaviour-hooks.ts';
import { readWith } from './lenient-json.ts';
import { amountRange, tightText } from './bounds.ts';
import { coercingServer } from './coercion.ts';
import { errorsOtherShape } from './error-body.ts';
import { invalid422 } from './error-status.ts';
import { eventFieldsAbsent } from './event-fields.ts';
import { largeIds } from './identifiers.ts';
import { lenientFormats } from './prose-constraints.ts';
import { nullAsAbsent } from './required-fields.ts';
import { noCharset } from './response-content-type.ts';
import { tokenAliases, variant } from './shared-choices.ts';
import { creation200 } from './success-status.ts';
import { microseconds } from './timestamps.ts';
import { jwtAlias } from './token-form.ts';

/** Several behaviours at once: request hooks in order (the first answer wins), answer rewrites chained. */
function combine(...factories: Array<() => Hooks>): () => Hooks {
  return () => {
    const all = factories.map((factory) => factory());
    return {
      onRequest: (c) => {
        for (const hooks of all) {
          const rewrite = hooks.onRequest?.(c);
          if (rewrite) return rewrite;
        }
        return undefined;
      },
      preHandler: async (c) => {
        for (const hooks of all) {
          const rewrite = await hooks.preHandler?.(c);
          if (rewrite) return rewrite;
        }
        return undefined;
      },
      onSend: (c) => {
        let current: ResponseContext = c;
        let merged: Rewrite | undefined;
        for (const hooks of all) {
          const rewrite = hooks.onSend?.(current);
          if (!rewrite) continue;
          const { json, text, headers, ...rest } = merged ?? {};
          merged = {
            ...rest,
            ...(rewrite.text === undefined && rewrite.json === undefined ? { json, text } : {}),
            ...rewrite,
            ...(headers || rewrite.headers ? { headers: { ...headers, ...rewrite.headers } } : {}),
          };
          let parsed: unknown = current.json;
          if (rewrite.text !== undefined) {
            try {
              parsed = JSON.parse(rewrite.text);
            } catch {
              parsed = undefined;
            }
          } else if (rewrite.json !== undefined) parsed = rewrite.json;
          current = {
            ...current,
            status: rewrite.status ?? current.status,
            contentType: rewrite.contentType === null ? undefined : (rewrite.contentType ?? current.contentType),
            text: rewrite.text ?? (rewrite.json !== undefined ? JSON.stringify(rewrite.json) : current.text),
            json: parsed,
          };
        }
        return merged;
      },
    };
  };
}

/** What Rails' strong parameters permit: a scalar, or a hash of permitted keys (`true`: any hash). */
type Permitted = 'scalar' | { [key: string]: Permitted } | true;

const creationPermits: Record<string, Permitted> = {
  description: 'scalar',
  amount: 'scalar',
  callback_url: 'scalar',
  mode: 'scalar',
  currency: { iso: 'scalar' },
  custom_metadata: true,
  customer: {
    id: 'scalar',
    email: 'scalar',
    firstname: 'scalar',
    lastname: 'scalar',
    phone_number: { number: 'scalar', country: 'scalar' },
  },
};
const sendPermits: Record<string, Permitted> = {
  token: 'scalar',
  phone_number: { number: 'scalar', country: 'scalar' },
};

/** Drops what `permit` filters out: a value of another kind than permitted, and keys not permitted at all. */
function permit(value: Record<string, unknown>, permits: Record<string, Permitted>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const permitted = permits[key];
    if (permitted === undefined) continue;
    if (permitted === 'scalar') {
      if (!isObject(item) && !Array.isArray(item)) kept[key] = item;
    } else if (isObject(item)) kept[key] = permitted === true ? item : permit(item, permitted);
  }
  return kept;
}

/** ActiveModel::Type::String's cast of what strong parameters keep in a text field: "t", "f", Ruby's to_s. */
function activeModelText(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : rubyFloat(value);
  return value;
}

/** An integer attribute validated with numericality: { only_integer: true }: digits taken, anything else refused. */
function railsAmount(value: unknown): unknown {
  if (value === undefined || value === null) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value) && Number.isSafeInteger(Number(value)))
    return Number(value);
  throw new BadRequest('amount must be an integer', 422, 'unprocessable_entity');
}

function railsServer(): Hooks {
  const textFields = ['description', 'callback_url', 'mode'];
  return {
    readBody: (text) => readWith(["Ruby's json"])(text),
    preHandler: (c) => {
      const body = c.request.body;
      if (!isObject(body)) return undefined;
      const kept = permit(body, c.operation === 'sendTransaction' ? sendPermits : creationPermits);
      if (c.operation === 'createTransaction') {
        for (const field of textFields) if (field in kept) kept[field] = activeModelText(kept[field]);
        if (isObject(kept.currency) && 'iso' in kept.currency) kept.currency.iso = activeModelText(kept.currency.iso);
        if ('amount' in kept) kept.amount = railsAmount(kept.amount);
      } else if (isObject(kept.phone_number)) {
        for (const field of ['number', 'country'])
          if (field in kept.phone_number) kept.phone_number[field] = activeModelText(kept.phone_number[field]);
      }
      for (const key of Object.keys(body)) delete body[key];
      Object.assign(body, kept);
      return undefined;
    },
  };
}

export function combinedVariants(): Variant[] {
  return [
    variant({
      name: 'variant.rails-defaults',
      gaps: ['coercion', 'lenient-json', 'money'],
      rules: [
        'TXN-CREATE-OPEN-INPUT',
        'SEND-OPEN-INPUT',
        'TXN-CREATE-ECHO',
        'TXN-CREATE-AMOUNT-EXACT',
        'MALFORMED-JSON-4XX',
      ],
      strictKills: 'TXN-CREATE-OPEN-INPUT',
      operations: ['createTransaction', 'sendTransaction'],
      description:
        "Rails' defaults: Ruby's json (comments, unknown escapes), strong parameters (a value of another kind " +
        'dropped as not given), ActiveModel\'s string cast (false as "f"), an integer amount validated (digits ' +
        'taken, a fraction refused)',
      create: railsServer,
    }),
    variant({
      name: 'variant.combined-lenient',
      gaps: [
        'required-fields',
        'coercion',
        'prose-constraints',
        'success-status',
        'error-status',
        'token-form',
        'response-content-type',
      ],
      rules: [
        'TXN-CREATE-OPEN-INPUT',
        'SEND-OPEN-INPUT',
        'SEND-TOKEN-REQUIRED',
        'TXN-CREATE-INVALID-4XX',
        'SEND-INVALID-4XX',
        'MALFORMED-JSON-4XX',
        'CUSTOMER-ID-INTEGER',
        'TXN-CREATE-2XX',
        'LINK-TOKEN-STRING',
        'SEND-TOKEN-AS-RETURNED',
        'SEND-TOKEN-INTEGER',
        'JSON-CONTENT-TYPE',
      ],
      strictKills: 'TXN-CREATE-OPEN-INPUT',
      operations: 'all',
      description:
        'null as "not given", coercion, lenient formats, 200 for creations, ' +
        '422 for invalid input, JWT-like tokens and no charset, at once',
      create: combine(
        nullAsAbsent,
        coercingServer,
        lenientFormats,
        creation200,
        invalid422,
        tokenAliases(jwtAlias),
        noCharset,
      ),
    }),
    variant({
      name: 'variant.combined-tight',
      gaps: ['bounds', 'error-body', 'timestamps', 'identifiers', 'event-fields'],
      rules: [
        'TXN-CREATE-OPEN-INPUT',
        'SEND-OPEN-INPUT',
        'TXN-CREATE-2XX',
        'SEND-PHONE-NUMBER-STRING',
        'TXN-CREATE-INVALID-4XX',
        'SEND-INVALID-4XX',
        'AUTH-DELETE-401',
        'AUTH-OTHERS-401',
        'TXN-CREATE-SCHEMA',
        'SEND-SCHEMA',
        'BALANCE-ARRAY',
        'CURRENCY-ARRAY',
        'SEND-INTENT-EVENT-TIMESTAMPS',
        'CUSTOMER-DELETE-204',
        'TXN-CREATE-CUSTOMER-KEPT',
      ],
      operations: 'all',
      description:
        'tight bounds and text checks refused with 422, errors in another shape, ' +
        'microsecond date-times, ids beyond 32 bits and intents without null event fields, at once',
      create: combine(tightText, amountRange, invalid422, errorsOtherShape, microseconds, largeIds, eventFieldsAbsent),
    }),
  ];
}
