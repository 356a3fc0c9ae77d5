/**
 * Gap row coercion: the reference does not say whether a value of another JSON type may be read
 * as the documented one (lenient: --strict refuses it).
 *
 * The coercing server carries its own hand-written schema instead of reusing schemas/: it needs
 * an independent reading of the reference, since the point of a variant is to differ from the
 * suite's own habits.
 */
import { Ajv } from 'ajv';
import { isObject } from '../behaviour-hooks.ts';
import type { Hooks, Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

/**
 * A server that validates bodies the way Fastify does by default: ajv with coerceTypes
 * 'array', against its own schema of the reference's request shapes (written here from the
 * reference, not taken from schemas/), answering 400 in Fastify's error shape when a body
 * does not fit even after coercion. Its amount is guarded before coercion, as money must be:
 * Fastify's default alone would charge 1 for true (mock/mutants/exact-money-mutants.ts).
 */
export function coercingServer(): Hooks {
  const ajv = new Ajv({ coerceTypes: 'array', useDefaults: true, allErrors: false, strict: false });
  const phone = (numberType: string | string[]) => ({
    type: 'object',
    properties: { number: { type: numberType }, country: { type: 'string' } },
  });
  const creation = ajv.compile({
    type: 'object',
    properties: {
      description: { type: 'string' },
      amount: { type: 'integer' },
      currency: { type: 'object', properties: { iso: { type: 'string' } } },
      callback_url: { type: 'string' },
      custom_metadata: { type: 'object' },
      customer: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          email: { type: 'string' },
          firstname: { type: 'string' },
          lastname: { type: 'string' },
          phone_number: phone(['integer', 'string']),
        },
      },
      mode: { type: 'string' },
    },
  });
  const send = ajv.compile({
    type: 'object',
    required: ['token'],
    properties: { token: { type: ['integer', 'string'] }, phone_number: phone('string') },
  });
  const invalid = (message: string) => ({
    status: 400,
    json: { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message },
  });
  return {
    preHandler: (c) => {
      const validate =
        c.operation === 'createTransaction' ? creation : c.operation === 'sendTransaction' ? send : undefined;
      if (validate === undefined || c.request.body === undefined) return undefined;
      // Money is checked before coercion (a preValidation hook): coerced, true would be charged 1, [1500] 1500 and
      // "0x10" 16. A number, or a text of decimal digits, goes on to be coerced.
      const amount = isObject(c.request.body) ? c.request.body.amount : undefined;
      const money =
        amount === undefined ||
        typeof amount === 'number' ||
        (typeof amount === 'string' && /^\s*\d+\s*$/.test(amount));
      if (c.operation === 'createTransaction' && !money && amount !== null)
        return invalid('body/amount must be integer');
      if (validate(c.request.body)) return undefined;
      const first = validate.errors?.[0];
      return invalid(`body${first?.instancePath ?? ''} ${first?.message ?? 'is invalid'}`);
    },
  };
}

/**
 * A server written in PHP: a JSON array where an object is expected
 * is the keyed array it decodes to ([] is {}, [1] is {"0": 1}).
 */
const arraysAsObjects = (): Hooks => ({
  preHandler: (c) => {
    const body = c.request.body;
    if (!isObject(body)) return undefined;
    for (const field of ['custom_metadata', 'currency', 'phone_number']) {
      const value = body[field];
      if (Array.isArray(value))
        body[field] = Object.fromEntries(value.map((element: unknown, index: number) => [String(index), element]));
    }
    return undefined;
  },
});

export function coercionVariants(): Variant[] {
  return [
    variant({
      name: 'variant.arrays-as-objects',
      gaps: ['coercion'],
      rules: ['TXN-CREATE-OPEN-INPUT', 'SEND-OPEN-INPUT'],
      strictKills: 'TXN-CREATE-OPEN-INPUT',
      operations: ['createTransaction', 'sendTransaction'],
      description:
        'a JSON array where an object is expected read as the keyed ' +
        'object a PHP decoder makes of it ([] as {}, [1] as {"0": 1})',
      create: arraysAsObjects,
    }),
    variant({
      name: 'variant.coerce-numeric-strings',
      gaps: ['coercion'],
      rules: ['TXN-CREATE-OPEN-INPUT', 'SEND-OPEN-INPUT'],
      strictKills: 'TXN-CREATE-OPEN-INPUT',
      operations: ['createTransaction', 'sendTransaction'],
      description:
        'an amount sent as a string of digits read as that integer, ' +
        'a send phone number sent as a JSON number read as its digits',
      create: () => ({
        preHandler: (c) => {
          const body = c.request.body;
          if (!isObject(body)) return undefined;
          if (c.operation === 'createTransaction' && typeof body.amount === 'string' && /^\d{1,15}$/.test(body.amount))
            body.amount = Number(body.amount);
          if (
            c.operation === 'sendTransaction' &&
            isObject(body.phone_number) &&
            typeof body.phone_number.number === 'number'
          )
            body.phone_number.number = String(body.phone_number.number);
          return undefined;
        },
      }),
    }),
    variant({
      name: 'variant.coercing-server',
      gaps: ['coercion', 'required-fields'],
      rules: [
        'TXN-CREATE-OPEN-INPUT',
        'SEND-OPEN-INPUT',
        'TXN-CREATE-INVALID-4XX',
        'SEND-INVALID-4XX',
        'SEND-TOKEN-REQUIRED',
      ],
      strictKills: 'TXN-CREATE-OPEN-INPUT',
      operations: ['createTransaction', 'sendTransaction'],
      description:
        "bodies validated and coerced as Fastify does by default (ajv coerceTypes 'array'): " +
        '"1000" read as 1000, numbers as strings, one-element arrays as their element; an amount that is not a ' +
        'number or decimal digits (a boolean, an array, an object, "0x10") refused before coercion',
      create: coercingServer,
    }),
  ];
}
