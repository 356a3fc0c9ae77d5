/**
 * Conforming variants that read request bodies the way mainstream frameworks do by default, and that hold inputs to
 * mainstream validators' default bounds: the suite must pass every one in its default mode, and --strict must fail
 * the lenient ones (strictKills) under the rule of the open input they accept.
 *
 * - Rails: Ruby's json gem (comments, unknown escapes), strong parameters (a value of another kind than permitted is
 *   dropped as not given), ActiveModel's string cast (true as "t", a float as Ruby's to_s), an integer amount checked
 *   as a careful team checks it (digits taken, a fraction refused);
 * - lenient JSON parsers (Gson, Json.NET, Python's json, Go's json.Decoder): what each reads beyond RFC 8259;
 * - a strict integer field (Go's encoding/json, pydantic's StrictInt): 1500.0 refused, since it is not written as an
 *   integer; and an exact integer reading: "1000" and "1_000" as 1000, 1500.5 refused;
 * - validators' defaults (Django's URLField and EmailField, validator.js, a 255-character column, a 32-bit column).
 *
 * The JSON dialects are the suite's models of those parsers (support/judgment/json-dialects.ts), which
 * tests/integration/json-dialects.test.ts holds to the real parsers where they run.
 */
import type { OperationId } from '../../contract/operations.ts';
import { rule } from '../../contract/rules.ts';
import { dialects, readJson, unread, type Dialect } from '../../support/judgment/json-dialects.ts';
import { rubyFloat } from '../../support/judgment/string-casts.ts';
import { BadRequest } from '../validation.ts';
import { isObject, type Hooks, type Variant } from './hooks.ts';

interface VariantOptions {
  gaps: string[];
  rules: string[];
  strictKills?: string;
}

function variant(
  name: string,
  options: VariantOptions,
  operations: OperationId[],
  description: string,
  create: () => Hooks,
): Variant {
  for (const id of options.rules) rule(id); // an unknown id throws when the catalogue is built
  const lenient = options.strictKills === undefined ? {} : { strictKills: options.strictKills };
  return {
    name,
    kind: 'variant',
    operator: 'conforming',
    operations,
    description,
    create,
    gaps: options.gaps,
    rules: options.rules,
    ...lenient,
  };
}

const dialect = (name: string): Dialect => {
  const found = dialects.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`mock/mutants: no JSON dialect ${name}`);
  return found;
};

/** A body read by the first of the dialects that reads it, or refused as a parser refuses text it cannot read. */
function readWith(names: readonly string[]): (text: string) => unknown {
  const readers = names.map(dialect);
  return (text) => {
    for (const reader of readers) {
      const value = readJson(text, reader);
      if (value !== unread) return value;
    }
    throw new BadRequest('the request body is not JSON this server reads', 400, 'invalid_json');
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

/** The amount as the raw text writes it: a fraction or an exponent (1500.0, 15e2) is no integer to a typed parser. */
const amountToken = /"amount"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/;

function strictIntegerAmount(): Hooks {
  return {
    readBody: (text) => {
      const spelled = amountToken.exec(text)?.[1];
      if (spelled !== undefined && /[.eE]/.test(spelled))
        throw new BadRequest(`amount must be an integer, got ${spelled}`, 422, 'unprocessable_entity');
      return undefined;
    },
  };
}

function exactAmountReadings(): Hooks {
  return {
    preHandler: (c) => {
      const body = c.request.body;
      if (!isObject(body) || typeof body.amount !== 'string') return undefined;
      // Python's int() of a text: white space around it, a sign, digit separators; never a fraction.
      const digits = body.amount.trim();
      if (/^[+-]?\d+(?:_\d+)*$/.test(digits) && Number.isSafeInteger(Number(digits.replace(/_/g, ''))))
        body.amount = Number(digits.replace(/_/g, ''));
      return undefined;
    },
  };
}

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

export function readingVariants(): Variant[] {
  const create: OperationId[] = ['createTransaction'];
  return [
    variant(
      'variant.rails-defaults',
      {
        gaps: ['coercion', 'lenient-json', 'money'],
        rules: [
          'TXN-CREATE-OPEN-INPUT',
          'SEND-OPEN-INPUT',
          'TXN-CREATE-ECHO',
          'TXN-CREATE-AMOUNT-EXACT',
          'MALFORMED-JSON-4XX',
        ],
        strictKills: 'TXN-CREATE-OPEN-INPUT',
      },
      ['createTransaction', 'sendTransaction'],
      "Rails' defaults: Ruby's json (comments, unknown escapes), strong parameters (a value of another kind dropped " +
        'as not given), ActiveModel\'s string cast (false as "f"), an integer amount validated (digits taken, ' +
        'a fraction refused)',
      railsServer,
    ),
    variant(
      'variant.lenient-json-parsers',
      {
        gaps: ['lenient-json'],
        rules: ['TXN-CREATE-OPEN-INPUT', 'SEND-OPEN-INPUT', 'MALFORMED-JSON-4XX'],
        strictKills: 'TXN-CREATE-OPEN-INPUT',
      },
      ['createTransaction', 'sendTransaction'],
      "bodies read by the first lenient parser that reads them: Gson's, Json.NET's, Python's json, Go's json.Decoder",
      () => ({ readBody: readWith(['Gson', 'Json.NET', "Python's json", "Go's json.Decoder"]) }),
    ),
    variant(
      'variant.amount-strict-integer',
      { gaps: ['money'], rules: ['TXN-CREATE-OPEN-INPUT', 'TXN-CREATE-AMOUNT-EXACT'] },
      create,
      "a strict integer amount (Go's encoding/json, pydantic's StrictInt): 1500.0 and 15e2 refused with 422, " +
        'as a fraction is',
      strictIntegerAmount,
    ),
    variant(
      'variant.amount-exact-readings',
      {
        gaps: ['money', 'coercion'],
        rules: ['TXN-CREATE-OPEN-INPUT', 'TXN-CREATE-AMOUNT-EXACT', 'TXN-CREATE-ECHO'],
        strictKills: 'TXN-CREATE-OPEN-INPUT',
      },
      create,
      'an amount read exactly: "1000", " 1000 " and "1_000" as 1000, 1000.0 as 1000; a fraction refused',
      exactAmountReadings,
    ),
    variant(
      'variant.validator-defaults',
      { gaps: ['bounds'], rules: ['TXN-CREATE-OPEN-INPUT', 'TXN-CREATE-2XX'] },
      create,
      "inputs held to validators' defaults, refused with 400 in Django REST framework's shape: URLField (200 " +
        'characters, a real host, no port), an e-mail validator, 255-character columns, a 32-bit amount',
      validatorDefaults,
    ),
  ];
}
