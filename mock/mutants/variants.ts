/**
 * Conforming variants: the same mechanism as the mutants, serving behaviours that conform to
 * the reference but choose differently where it is silent. They are derived from the gap
 * table (specs/gaps.json): every row has at least one variant that makes another choice than
 * the reference mock there (`gaps`), one choice at a time, and combined variants make several
 * at once. Each names, literally, the rules whose verdict its choice tests (`rules`): the rules
 * of its gap rows it exercises, and the rules whose tests meet its answers. The suite must pass
 * every one in its default mode: a failure is a false positive.
 *
 * Lenient variants (`strictKills`) accept what the reference leaves open only to a lenient
 * reading (null as "not given", coercion, another declared Content-Type, formats the prose
 * describes); --strict must fail them, naming that rule.
 *
 * Where a variant needs an independent reading of the reference (the coercing server), it
 * carries its own hand-written schema instead of reusing schemas/: the point of a variant is
 * to differ from the suite's own habits.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { domainToASCII } from 'node:url';
import { Ajv } from 'ajv';
import type { OperationId } from '../../contract/operations.ts';
import { rule } from '../../contract/rules.ts';
import { documentedResponses } from './contract.ts';
import { bodyObjects, errorJson, isObject, isSuccess, otherAccountStore } from './hooks.ts';
import type { Hooks, ResponseContext, Rewrite, Variant } from './hooks.ts';

interface VariantOptions {
  /** The rows of specs/gaps.json where the variant chooses differently. */
  gaps: string[];
  /** The rules whose verdict its choice tests, written out so that a search for a rule id finds the variant. */
  rules: string[];
  strictKills?: string;
}

function variant(
  name: string,
  options: VariantOptions,
  operations: OperationId[] | 'all',
  description: string,
  create: () => Hooks,
): Variant {
  for (const id of options.rules) rule(id); // an unknown id throws when the catalogue is built
  if (options.strictKills !== undefined && !options.rules.includes(options.strictKills)) {
    throw new Error(`mock/mutants: ${name}: strictKills ${options.strictKills} is not among its rules`);
  }
  const { gaps, rules, strictKills } = options;
  const lenient = strictKills === undefined ? {} : { strictKills };
  return { name, kind: 'variant', operator: 'conforming', operations, description, create, gaps, rules, ...lenient };
}

/** The documented date-time fields of each operation's answer, from specs/openapi.json. */
function dateTimeFields(): Map<OperationId, string[]> {
  return new Map(
    documentedResponses().map((response) => [
      response.operation,
      response.fields.filter((field) => field.type === 'date-time').map((field) => field.name),
    ]),
  );
}

function rewriteDates(render: (date: Date) => string): () => Hooks {
  const fields = dateTimeFields();
  return () => ({
    onSend: (c) => {
      const names = fields.get(c.operation) ?? [];
      if (!isSuccess(c.status) || names.length === 0 || c.json === undefined) return undefined;
      for (const object of bodyObjects(c.json)) {
        for (const name of names) {
          const value = object[name];
          if (typeof value === 'string') object[name] = render(new Date(value));
        }
      }
      return { json: c.json };
    },
  });
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** The same instant written in UTC+01:00. */
function withOffset(date: Date): string {
  const shifted = new Date(date.getTime() + 3_600_000);
  return `${shifted.toISOString().slice(0, 23)}+01:00`;
}

function errorRewrite(render: (context: ResponseContext, message: string, code: string) => Rewrite): () => Hooks {
  return () => ({
    onSend: (c) => {
      if (c.status < 400 || !isObject(c.json) || !isObject(c.json.error)) return undefined;
      return render(c, String(c.json.error.message), String(c.json.error.code));
    },
  });
}

/**
 * Tokens in another format: the link operation answers an alias, and the send operation maps
 * the alias back to the stored token (a service is free to choose its token format).
 * `fresh`: a new alias each time the link is asked; `keepOld`: earlier aliases stay valid.
 */
function tokenAliases(alias: () => string, options: { fresh?: boolean; keepOld?: boolean } = {}): () => Hooks {
  return () => {
    const real = new Map<string, string>();
    const aliasOf = new Map<string, string>();
    return {
      preHandler: (c) => {
        const b = c.request.body;
        if (
          c.operation === 'sendTransaction' &&
          isObject(b) &&
          (typeof b.token === 'string' || typeof b.token === 'number')
        ) {
          const mapped = real.get(String(b.token));
          // An alias no longer valid (or never issued) names nothing: the mock answers as for an unknown token.
          b.token = mapped ?? (options.fresh ? `revoked-${String(b.token)}` : b.token);
        }
      },
      onSend: (c) => {
        if (
          c.operation !== 'getPaymentLink' ||
          !isSuccess(c.status) ||
          !isObject(c.json) ||
          typeof c.json.token !== 'string'
        )
          return undefined;
        const token = c.json.token;
        let name = options.fresh ? undefined : aliasOf.get(token);
        if (name === undefined) {
          const previous = aliasOf.get(token);
          if (previous !== undefined && !options.keepOld) real.delete(previous);
          name = alias();
          aliasOf.set(token, name);
          real.set(name, token);
        }
        return { json: { ...c.json, token: name, url: String(c.json.url).replace(token, encodeURIComponent(name)) } };
      },
    };
  };
}

/** Ids far from the reference's ranges (beyond 32 bits): answers add an offset, requests remove it. */
function largeIds(): Hooks {
  const offset = 7_000_000_000_000;
  const inward = (value: unknown): unknown => (typeof value === 'number' && value >= offset ? value - offset : value);
  const inwardText = (value: string): string =>
    /^\d{13,15}$/.test(value) && Number(value) >= offset ? String(Number(value) - offset) : value;
  return {
    preHandler: (c) => {
      const params = c.request.params as Record<string, string>;
      if (typeof params.id === 'string' && (c.operation === 'deleteCustomer' || c.operation === 'getPaymentLink'))
        params.id = inwardText(params.id);
      const b = c.request.body;
      if (c.operation === 'createTransaction' && isObject(b) && isObject(b.customer))
        b.customer.id = inward(b.customer.id);
    },
    onSend: (c) => {
      if (!isSuccess(c.status) || !isObject(c.json)) return undefined;
      if ((c.operation === 'createTransaction' || c.operation === 'createCustomer') && typeof c.json.id === 'number') {
        return { json: { ...c.json, id: c.json.id + offset } };
      }
      return undefined;
    },
  };
}

/** Deletes, at any depth of a request body, the members that are null: a server that reads null as "not given". */
function dropNulls(value: unknown, keep: ReadonlySet<string>): void {
  if (Array.isArray(value)) for (const item of value) dropNulls(item, keep);
  else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (item === null && !keep.has(key)) delete value[key];
      else dropNulls(item, keep);
    }
  }
}

/**
 * A server that validates bodies the way Fastify does by default: ajv with coerceTypes
 * 'array', against its own schema of the reference's request shapes (written here from the
 * reference, not taken from schemas/), answering 400 in Fastify's error shape when a body
 * does not fit even after coercion.
 */
function coercingServer(): Hooks {
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
  return {
    preHandler: (c) => {
      const validate =
        c.operation === 'createTransaction' ? creation : c.operation === 'sendTransaction' ? send : undefined;
      if (validate === undefined || c.request.body === undefined) return undefined;
      if (validate(c.request.body)) return undefined;
      const first = validate.errors?.[0];
      return {
        status: 400,
        json: {
          statusCode: 400,
          code: 'FST_ERR_VALIDATION',
          error: 'Bad Request',
          message: `body${first?.instancePath ?? ''} ${first?.message ?? 'is invalid'}`,
        },
      };
    },
  };
}

/** Refuses, with 422, inputs beyond a server's own bounds (the reference shows none). */
function bounds(
  check: (
    operation: OperationId,
    body: Record<string, unknown>,
    c: Parameters<NonNullable<Hooks['preHandler']>>[0],
  ) => string | undefined,
): () => Hooks {
  return () => ({
    preHandler: (c) => {
      const body = c.request.body;
      if (!isObject(body)) return undefined;
      const problem = check(c.operation, body, c);
      return problem === undefined ? undefined : { status: 422, json: errorJson(422, 'out_of_bounds', problem) };
    },
  });
}

const codePoints = (text: string): number => [...text].length;

function depth(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depth));
  if (isObject(value)) return 1 + Math.max(0, ...Object.values(value).map(depth));
  return 0;
}

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

/** Operations with an id in the path, and the collection that id is looked up in. */
const lookupBeforeAuth = (): Hooks => ({
  onRequest: (c) => {
    const id = Number((c.request.params as Record<string, unknown>).id);
    const collection =
      c.operation === 'deleteCustomer'
        ? c.store.customers
        : c.operation === 'getPaymentLink'
          ? c.store.transactions
          : c.operation === 'getBalance'
            ? c.store.balances
            : c.store.currencies;
    if (Number.isSafeInteger(id) && (collection as Map<number, unknown>).has(id)) return undefined;
    return { status: 404, json: errorJson(404, 'not_found', 'no such resource') };
  },
});

/** A body is JSON whatever its declared type: the declared Content-Type (or its absence) is ignored. */
const anyContentType = (): Hooks => ({
  onRequest: (c) => {
    const headers = c.request.headers;
    const hasBody = Number(headers['content-length'] ?? 0) > 0 || headers['transfer-encoding'] !== undefined;
    if (hasBody && !/^application\/json\b/i.test(headers['content-type'] ?? ''))
      headers['content-type'] = 'application/json';
  },
});

/** A server behind a proxy that closes every connection, a little slow. */
const connectionCloseLatency = (): Hooks => ({
  preHandler: () => new Promise<void>((resolve) => setTimeout(resolve, 1 + Math.floor(Math.random() * 3))),
  onSend: () => ({ headers: { connection: 'close' } }),
});

/**
 * A rate limiter that only a burst trips: 8 requests arriving within 20 ms get one 429 with
 * Retry-After: 1. At most one every 5 s, so that a run pays a second now and then, not minutes.
 */
const rateLimitBursts = (): Hooks => {
  const arrivals: number[] = [];
  let lastLimited = 0;
  return {
    onRequest: () => {
      const now = Date.now();
      arrivals.push(now);
      while (arrivals.length > 0 && arrivals[0]! < now - 20) arrivals.shift();
      if (arrivals.length < 8 || now - lastLimited < 5_000) return undefined;
      lastLimited = now;
      return {
        status: 429,
        headers: { 'retry-after': '1' },
        json: errorJson(429, 'rate_limited', 'too many requests at once: retry after 1 s'),
      };
    },
  };
};

// ---- the behaviours, one choice at a time --------------------------------------------------

const creation200 = (): Hooks => ({ onSend: (c) => (c.status === 201 ? { status: 200 } : undefined) });
const invalid422 = (): Hooks => ({
  onSend: (c) =>
    c.status === 400 && isObject(c.json) && isObject(c.json.error)
      ? { status: 422, json: { error: { ...c.json.error, status: 422 } } }
      : undefined,
});
const errorsOtherShape = errorRewrite((_c, message, code) => ({ json: { errors: [{ code, detail: message }] } }));
const jwtAlias = (): string => {
  const payload = Buffer.from(JSON.stringify({ sub: randomBytes(6).toString('hex') })).toString('base64url');
  return `eyJhbGciOiJIUzI1NiJ9.${payload}.${randomBytes(16).toString('base64url')}`;
};
const noCharset = (): Hooks => ({
  onSend: (c) => (c.contentType?.startsWith('application/json') ? { contentType: 'application/json' } : undefined),
});
const microseconds = rewriteDates((d) => `${d.toISOString().slice(0, 23)}${pad(d.getUTCMilliseconds() % 1000, 3)}Z`);

const nullAsAbsent = (): Hooks => ({
  preHandler: (c) => {
    const body = c.request.body;
    if (!isObject(body)) return undefined;
    // The send token is required by the reference: null stays null, and is refused.
    dropNulls(body, new Set(['token']));
    // "Not given" means the account's default where there is one: the default currency.
    if (c.operation === 'createTransaction' && body.currency === undefined) {
      const fallback = [...c.store.currencies.values()].find((currency) => currency.default);
      if (fallback) body.currency = { iso: fallback.iso };
    }
    return undefined;
  },
});

/**
 * null read as "not given", and a transaction then shows null for the description or
 * callback_url it was not given (the reference mock shows ""): the reference does not say what
 * a transaction carries for a field nobody gave.
 */
const unsetFieldsNull = (): Hooks => {
  const unset = new WeakSet<object>();
  const hooks = nullAsAbsent();
  return {
    preHandler: (c) => {
      const body = c.request.body;
      if (
        c.operation === 'createTransaction' &&
        isObject(body) &&
        (body.description === null || body.callback_url === null)
      )
        unset.add(c.request);
      return hooks.preHandler?.(c);
    },
    onSend: (c) => {
      if (c.operation !== 'createTransaction' || !isSuccess(c.status) || !isObject(c.json) || !unset.has(c.request))
        return undefined;
      for (const field of ['description', 'callback_url']) if (c.json[field] === '') c.json[field] = null;
      return { json: c.json };
    },
  };
};

/**
 * A Laravel-style server: every text of a creation trimmed, and an empty one read as "not given"
 * (TrimStrings and ConvertEmptyStringsToNull); the transaction then shows null for a description
 * or callback_url it was given empty.
 */
const emptyTextsNull = (): Hooks => {
  const emptied = new WeakMap<object, string[]>();
  return {
    preHandler: (c) => {
      const body = c.request.body;
      if (c.operation !== 'createTransaction' || !isObject(body)) return undefined;
      const fields: string[] = [];
      for (const field of ['description', 'callback_url']) {
        const value = body[field];
        if (typeof value !== 'string') continue;
        if (value.trim() === '') {
          delete body[field];
          fields.push(field);
        } else body[field] = value.trim();
      }
      if (fields.length > 0) emptied.set(c.request, fields);
      return undefined;
    },
    onSend: (c) => {
      const fields = emptied.get(c.request);
      if (!fields || !isSuccess(c.status) || !isObject(c.json)) return undefined;
      for (const field of fields) c.json[field] = null;
      return { json: c.json };
    },
  };
};

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

const lenientFormats = (): Hooks => ({
  preHandler: (c) => {
    const body = c.request.body;
    if (!isObject(body)) return undefined;
    if (c.operation === 'sendTransaction' && isObject(body.phone_number)) {
      const phone = body.phone_number;
      // Country codes in any case and of two or three letters; phone numbers with spaces or dashes.
      if (typeof phone.country === 'string' && /^[A-Za-z]{2,3}$/.test(phone.country))
        phone.country = phone.country.slice(0, 2).toUpperCase();
      if (typeof phone.number === 'string') phone.number = phone.number.replace(/[\s.-]/g, '');
    }
    if (c.operation === 'createTransaction' && isObject(body.currency) && typeof body.currency.iso === 'string')
      body.currency.iso = body.currency.iso.toUpperCase();
    return undefined;
  },
});

/** Values a record does not have yet, null or left out: payment_method_id before a phone number, currency affixes. */
function notYetValues(form: 'null' | 'absent'): () => Hooks {
  const unset = (object: Record<string, unknown>, field: string): void => {
    if (form === 'null') object[field] = null;
    else delete object[field];
  };
  return () => ({
    onSend: (c) => {
      if (!isSuccess(c.status) || !Array.isArray(c.json)) return undefined;
      if (c.operation === 'sendTransaction') {
        const body = c.request.body;
        if (isObject(body) && body.phone_number !== undefined && body.phone_number !== null) return undefined;
        for (const intent of bodyObjects(c.json)) unset(intent, 'payment_method_id');
      } else {
        for (const currency of bodyObjects(c.json)) {
          unset(currency, 'prefix');
          if (form === 'absent') unset(currency, 'suffix');
        }
      }
      return { json: c.json };
    },
  });
}

/**
 * The echo stored in the form another runtime writes (gap row echo): the description and the
 * callback URL of a created transaction as `description` and `url` leave them. Independent of the
 * suite's own normalization (support/judgment/echo.ts): each mimics one runtime's habit.
 */
function echoStoredAs(description: (text: string) => string, url: (text: string) => string): () => Hooks {
  return () => ({
    onSend: (c) => {
      if (!isSuccess(c.status) || !isObject(c.json)) return undefined;
      const json = { ...c.json };
      if (typeof json.description === 'string') json.description = description(json.description);
      if (typeof json.callback_url === 'string') json.callback_url = url(json.callback_url);
      return { json };
    },
  });
}

/** PHP's trim(): " \t\n\r\0\x0B" at both ends, nothing else (a no-break space stays). */
const phpTrim = (text: string): string => text.replace(/^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g, '');

/** Python's str.strip(): str.isspace() characters, among them U+001C to U+001F (not the BOM). */
const pythonSpace = '[\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const pythonStrip = (text: string): string => text.replace(new RegExp(`^${pythonSpace}+|${pythonSpace}+$`, 'gu'), '');

/** The scheme, host and rest of an absolute URL, split as a lenient parser would; undefined otherwise. */
function urlParts(text: string): { scheme: string; host: string; rest: string } | undefined {
  const parts = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(.*)$/su.exec(text);
  return parts ? { scheme: parts[1]!, host: parts[2]!, rest: parts[3]! } : undefined;
}

/** pydantic's HttpUrl: an internationalised host in punycode, the scheme's case kept. */
const pydanticUrl = (text: string): string => {
  const parts = urlParts(text.trim());
  if (!parts || /^[\x00-\x7f]*$/.test(parts.host)) return text;
  const ascii = domainToASCII(parts.host);
  return ascii === '' ? text : `${parts.scheme}://${ascii}${parts.rest}`;
};

/** Go's url.Parse(...).String(): the scheme in lower case, non-ASCII bytes of host and path percent-encoded. */
const goUrl = (text: string): string => {
  const parts = urlParts(text);
  if (!parts) return text;
  const encoded = (part: string): string =>
    part.replace(/[^\x21-\x7e]/gu, (character) => encodeURIComponent(character));
  return `${parts.scheme.toLowerCase()}://${encoded(parts.host)}${encoded(parts.rest)}`;
};

/** RFC 3986 6.2.2: scheme and host in lower case, unreserved characters decoded, percent-encoding in upper case. */
const rfc3986Url = (text: string): string => {
  const parts = urlParts(text);
  if (!parts) return text;
  const rest = parts.rest.replace(/%([0-9A-Fa-f]{2})/g, (_match, hex: string) => {
    const character = String.fromCharCode(Number.parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(character) ? character : `%${hex.toUpperCase()}`;
  });
  return `${parts.scheme.toLowerCase()}://${parts.host.toLowerCase()}${rest}`;
};

/** Go's strings.TrimSpace: Unicode White_Space at both ends (not the BOM, not U+001C to U+001F). */
const goSpace = '[\\t\\n\\v\\f\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const goTrimSpace = (text: string): string => text.replace(new RegExp(`^${goSpace}+|${goSpace}+$`, 'gu'), '');

/** Another account's resource answers 403 where the reference mock answers 404. */
function foreignResources403(): Hooks {
  return {
    onSend: (c) => {
      const other = otherAccountStore(c);
      if (c.status !== 404 || other === undefined) return undefined;
      const id = Number((c.request.params as { id?: string }).id);
      const body = c.request.body;
      const token = isObject(body) ? String(body.token) : '';
      const foreign =
        (c.operation === 'deleteCustomer' && other.customers.has(id)) ||
        (c.operation === 'getPaymentLink' && other.transactions.has(id)) ||
        (c.operation === 'getBalance' && other.balances.has(id)) ||
        (c.operation === 'sendTransaction' && other.tokens.has(token));
      return foreign
        ? { status: 403, json: errorJson(403, 'forbidden', 'this resource belongs to another account') }
        : undefined;
    },
  };
}

/** Every timestamp of an answer, and its Date header, `ms` ahead of the real clock. */
function clockAhead(ms: number): () => Hooks {
  const fields = dateTimeFields();
  return () => ({
    onSend: (c) => {
      const headers = { date: new Date(Date.now() + ms).toUTCString() };
      const names = fields.get(c.operation) ?? [];
      if (!isSuccess(c.status) || names.length === 0 || c.json === undefined) return { headers };
      for (const object of bodyObjects(c.json)) {
        for (const name of names) {
          const value = object[name];
          if (typeof value === 'string') object[name] = new Date(Date.parse(value) + ms).toISOString();
        }
      }
      return { json: c.json, headers };
    },
  });
}

const eventFieldsAbsent = (): Hooks => ({
  onSend: (c) => {
    if (c.operation !== 'sendTransaction' || !isSuccess(c.status) || !Array.isArray(c.json)) return undefined;
    for (const intent of bodyObjects(c.json)) {
      for (const field of ['approved_at', 'canceled_at', 'deleted_at', 'last_error_code'])
        if (intent[field] === null) delete intent[field];
    }
    return { json: c.json };
  },
});

const tightText = bounds((operation, body) => {
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

export function conformingVariants(): Variant[] {
  return [
    // Success status codes of operations 2 to 6: not shown.
    variant(
      'variant.creation-200',
      { gaps: ['success-status'], rules: ['TXN-CREATE-2XX'] },
      ['createTransaction', 'createCustomer'],
      'creations answered 200 instead of 201',
      creation200,
    ),
    variant(
      'variant.link-201',
      { gaps: ['success-status'], rules: ['LINK-2XX'] },
      ['getPaymentLink'],
      'the payment link answered 201 (a token was created)',
      () => ({
        onSend: (c) => (c.status === 200 ? { status: 201 } : undefined),
      }),
    ),
    variant(
      'variant.send-202-scheduled',
      { gaps: ['success-status', 'event-fields'], rules: ['SEND-2XX', 'SEND-SCHEMA', 'SEND-INTENT-EVENT-TIMESTAMPS'] },
      ['sendTransaction'],
      'sends answered 202 with every intent scheduled (no event yet)',
      () => ({
        onSend: (c) => {
          if (!isSuccess(c.status) || !Array.isArray(c.json)) return undefined;
          const intents = c.json.map((intent) =>
            isObject(intent)
              ? {
                  ...intent,
                  status: 'scheduled',
                  approved_at: null,
                  canceled_at: null,
                  deleted_at: null,
                  last_error_code: null,
                }
              : intent,
          );
          return { status: 202, json: intents };
        },
      }),
    ),
    variant(
      'variant.reads-203',
      { gaps: ['success-status'], rules: ['BALANCE-2XX', 'CURRENCY-2XX'] },
      ['getBalance', 'getCurrency'],
      'reads answered 203 (from a cache)',
      () => ({
        onSend: (c) => (c.status === 200 ? { status: 203 } : undefined),
      }),
    ),

    // Error responses and error bodies: not shown.
    variant(
      'variant.invalid-input-422',
      {
        gaps: ['error-status'],
        rules: [
          'TXN-CREATE-INVALID-4XX',
          'SEND-INVALID-4XX',
          'SEND-TOKEN-REQUIRED',
          'MALFORMED-JSON-4XX',
          'CUSTOMER-ID-INTEGER',
        ],
      },
      'all',
      'invalid input answered 422 instead of 400',
      invalid422,
    ),
    variant(
      'variant.unknown-ids-400',
      {
        gaps: ['error-status', 'unknown-ids'],
        rules: ['LINK-UNKNOWN-TXN-4XX', 'SEND-UNKNOWN-TOKEN-4XX', 'UNKNOWN-ID-NOT-5XX', 'CUSTOMER-REFERENCE-NOT-5XX'],
      },
      ['getPaymentLink', 'sendTransaction', 'getBalance', 'getCurrency', 'createTransaction'],
      'unknown resources (other than a customer to delete) answered 400 instead of 404',
      () => ({
        onSend: (c) =>
          c.status === 404 && isObject(c.json) && isObject(c.json.error)
            ? { status: 400, json: { error: { ...c.json.error, status: 400 } } }
            : undefined,
      }),
    ),
    variant(
      'variant.errors-other-shape',
      {
        gaps: ['error-body', 'environments', 'token-not-key'],
        rules: [
          'AUTH-DELETE-401',
          'AUTH-OTHERS-401',
          'ENV-KEY-SCOPED',
          'AUTH-TOKEN-NOT-A-KEY',
          'CUSTOMER-DELETE-404',
          'TXN-CREATE-INVALID-4XX',
          'SEND-INVALID-4XX',
          'LINK-UNKNOWN-TXN-4XX',
          'SEND-UNKNOWN-TOKEN-4XX',
        ],
      },
      'all',
      'error bodies in another JSON shape: {"errors": [{"code", "detail"}]}',
      errorsOtherShape,
    ),
    variant(
      'variant.errors-plain-text',
      {
        gaps: ['error-body'],
        rules: [
          'AUTH-DELETE-401',
          'AUTH-OTHERS-401',
          'ENV-KEY-SCOPED',
          'AUTH-TOKEN-NOT-A-KEY',
          'CUSTOMER-DELETE-404',
          'TXN-CREATE-INVALID-4XX',
          'SEND-INVALID-4XX',
          'LINK-UNKNOWN-TXN-4XX',
          'SEND-UNKNOWN-TOKEN-4XX',
        ],
      },
      'all',
      'error bodies as plain text',
      errorRewrite((_c, message) => ({ contentType: 'text/plain; charset=utf-8', text: message })),
    ),

    // Authentication: the valid key in other forms.
    variant(
      'variant.auth-key-other-forms',
      {
        gaps: ['auth-elsewhere'],
        rules: [
          'AUTH-DELETE-401',
          'AUTH-OTHERS-401',
          'AUTH-BEARER-ACCEPTED',
          'AUTH-BEARER-SCHEME',
          'AUTH-KEY-EXACT',
          'AUTH-PER-REQUEST',
          'AUTH-REFUSED-NO-EFFECT',
        ],
        strictKills: 'AUTH-BEARER-SCHEME',
      },
      'all',
      'the valid key is also accepted without a scheme or with another one ("Token <key>")',
      () => ({
        onRequest: (c) => {
          const header = c.request.headers.authorization;
          if (header === undefined) return;
          const key = /^(?:Token\s+)?(\S+)$/i.exec(header)?.[1];
          if (key === c.keys.own) c.request.headers.authorization = `Bearer ${key}`;
        },
      }),
    ),

    // Required fields, coercion, the prose's formats.
    variant(
      'variant.null-as-absent',
      {
        gaps: ['required-fields'],
        rules: ['TXN-CREATE-OPEN-INPUT', 'SEND-OPEN-INPUT', 'SEND-TOKEN-REQUIRED'],
        strictKills: 'TXN-CREATE-OPEN-INPUT',
      },
      ['createTransaction', 'sendTransaction'],
      'null read as "not given" in request bodies (the account\'s default currency when currency is null)',
      nullAsAbsent,
    ),
    variant(
      'variant.unset-fields-null',
      {
        gaps: ['required-fields'],
        rules: ['TXN-CREATE-OPEN-INPUT', 'SEND-OPEN-INPUT', 'TXN-CREATE-SCHEMA'],
        strictKills: 'TXN-CREATE-OPEN-INPUT',
      },
      ['createTransaction', 'sendTransaction'],
      'null read as "not given", and the transaction then shows ' +
        'null for a description or callback_url it was not given',
      unsetFieldsNull,
    ),
    variant(
      'variant.empty-texts-null',
      { gaps: ['required-fields', 'echo'], rules: ['TXN-CREATE-OPEN-INPUT', 'TXN-CREATE-ECHO'] },
      ['createTransaction'],
      'texts of a creation trimmed, and an empty one read as "not given" and ' +
        "shown as null (Laravel's TrimStrings and ConvertEmptyStringsToNull)",
      emptyTextsNull,
    ),
    variant(
      'variant.arrays-as-objects',
      { gaps: ['coercion'], rules: ['TXN-CREATE-OPEN-INPUT', 'SEND-OPEN-INPUT'], strictKills: 'TXN-CREATE-OPEN-INPUT' },
      ['createTransaction', 'sendTransaction'],
      'a JSON array where an object is expected read as the keyed ' +
        'object a PHP decoder makes of it ([] as {}, [1] as {"0": 1})',
      arraysAsObjects,
    ),
    variant(
      'variant.coerce-numeric-strings',
      { gaps: ['coercion'], rules: ['TXN-CREATE-OPEN-INPUT', 'SEND-OPEN-INPUT'], strictKills: 'TXN-CREATE-OPEN-INPUT' },
      ['createTransaction', 'sendTransaction'],
      'an amount sent as a string of digits read as that integer, ' +
        'a send phone number sent as a JSON number read as its digits',
      () => ({
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
    ),
    variant(
      'variant.coercing-server',
      {
        gaps: ['coercion', 'required-fields'],
        rules: [
          'TXN-CREATE-OPEN-INPUT',
          'SEND-OPEN-INPUT',
          'TXN-CREATE-INVALID-4XX',
          'SEND-INVALID-4XX',
          'SEND-TOKEN-REQUIRED',
        ],
        strictKills: 'TXN-CREATE-OPEN-INPUT',
      },
      ['createTransaction', 'sendTransaction'],
      "bodies validated and coerced as Fastify does by default (ajv coerceTypes 'array'): " +
        '"1000" read as 1000, numbers as strings, one-element arrays as their element',
      coercingServer,
    ),
    variant(
      'variant.lenient-formats',
      {
        gaps: ['prose-constraints'],
        rules: ['SEND-OPEN-INPUT', 'TXN-CREATE-OPEN-INPUT'],
        strictKills: 'SEND-OPEN-INPUT',
      },
      ['createTransaction', 'sendTransaction'],
      'country codes in any case and of three letters, phone numbers with spaces, lower-case currency codes accepted',
      lenientFormats,
    ),

    // Bounds the reference does not show: a server's own, refused with 422.
    variant(
      'variant.bounds-description-255',
      { gaps: ['bounds'], rules: ['TXN-CREATE-OPEN-INPUT', 'TXN-CREATE-2XX'] },
      ['createTransaction'],
      'descriptions over 255 characters refused with 422',
      bounds((operation, body) =>
        operation === 'createTransaction' && typeof body.description === 'string' && codePoints(body.description) > 255
          ? 'description: at most 255 characters'
          : undefined,
      ),
    ),
    variant(
      'variant.bounds-amount-range',
      { gaps: ['bounds'], rules: ['TXN-CREATE-OPEN-INPUT', 'TXN-CREATE-2XX'] },
      ['createTransaction'],
      'amounts outside 100 to 1,000,000 refused with 422',
      bounds((operation, body) =>
        operation === 'createTransaction' &&
        typeof body.amount === 'number' &&
        (body.amount < 100 || body.amount > 1_000_000)
          ? 'amount: from 100 to 1,000,000'
          : undefined,
      ),
    ),
    variant(
      'variant.bounds-flat-metadata',
      { gaps: ['bounds'], rules: ['TXN-CREATE-OPEN-INPUT', 'TXN-CREATE-2XX'] },
      ['createTransaction'],
      'custom_metadata refused with 422 unless flat (scalars only), at most 20 keys of at most 40 characters',
      bounds((operation, body) => {
        if (operation !== 'createTransaction' || !isObject(body.custom_metadata)) return undefined;
        const entries = Object.entries(body.custom_metadata);
        if (entries.length > 20 || entries.some(([key, value]) => codePoints(key) > 40 || depth(value) > 0))
          return 'custom_metadata: at most 20 flat entries';
        return undefined;
      }),
    ),
    variant(
      'variant.bounds-unknown-customer-422',
      { gaps: ['bounds', 'error-status'], rules: ['CUSTOMER-REFERENCE-NOT-5XX'] },
      ['createTransaction'],
      'a transaction naming a customer id that does not exist refused with 422',
      bounds((operation, body, c) => {
        if (operation !== 'createTransaction' || !isObject(body.customer) || typeof body.customer.id !== 'number')
          return undefined;
        return c.store.customers.has(body.customer.id) ? undefined : 'customer.id: no such customer';
      }),
    ),
    variant(
      'variant.bounds-tight-text',
      {
        gaps: ['bounds', 'prose-constraints'],
        rules: ['TXN-CREATE-OPEN-INPUT', 'SEND-OPEN-INPUT', 'TXN-CREATE-2XX', 'SEND-PHONE-NUMBER-STRING'],
      },
      ['createTransaction', 'sendTransaction'],
      'descriptions with white space at the ends or invisible characters, ' +
        'and phone numbers or countries off the send shape, refused with 422',
      tightText,
    ),

    // How the echo is stored.
    variant(
      'variant.echo-php-forms',
      { gaps: ['echo'], rules: ['TXN-CREATE-ECHO', 'TXN-CREATE-OPEN-INPUT'] },
      ['createTransaction'],
      "descriptions and callback URLs stored through PHP's trim() " +
        '(NUL and vertical tab stripped, a no-break space kept)',
      echoStoredAs(phpTrim, phpTrim),
    ),
    variant(
      'variant.echo-python-forms',
      { gaps: ['echo'], rules: ['TXN-CREATE-ECHO', 'TXN-CREATE-OPEN-INPUT'] },
      ['createTransaction'],
      "descriptions through Python's str.strip(), callback URLs as pydantic's HttpUrl writes them " +
        '(an internationalised host in punycode, the scheme as sent: HTTPS://xn--bcher-kva.example/cb)',
      echoStoredAs(pythonStrip, pydanticUrl),
    ),
    variant(
      'variant.echo-go-forms',
      { gaps: ['echo'], rules: ['TXN-CREATE-ECHO', 'TXN-CREATE-OPEN-INPUT'] },
      ['createTransaction'],
      "descriptions through Go's strings.TrimSpace, callback URLs as url.Parse(...).String() writes them " +
        '(lower-case scheme, non-ASCII host and path bytes percent-encoded)',
      echoStoredAs(goTrimSpace, goUrl),
    ),
    variant(
      'variant.echo-nfd-rfc3986',
      { gaps: ['echo'], rules: ['TXN-CREATE-ECHO', 'TXN-CREATE-OPEN-INPUT'] },
      ['createTransaction'],
      'descriptions stored in Unicode NFD, callback URLs normalised by RFC 3986 section 6.2.2 ' +
        '(scheme and host case, unreserved characters decoded, percent-encoding in upper case)',
      echoStoredAs((text) => text.normalize('NFD'), rfc3986Url),
    ),
    variant(
      'variant.normalising-echo',
      { gaps: ['echo'], rules: ['TXN-CREATE-ECHO', 'TXN-CREATE-OPEN-INPUT'] },
      ['createTransaction'],
      'descriptions stored trimmed and in Unicode NFC, callback URLs as a URL parser writes them',
      () => ({
        onSend: (c) => {
          if (!isSuccess(c.status) || !isObject(c.json)) return undefined;
          const json = { ...c.json };
          if (typeof json.description === 'string') json.description = json.description.normalize('NFC').trim();
          if (typeof json.callback_url === 'string') {
            try {
              json.callback_url = new URL(json.callback_url).href;
            } catch {
              // not a URL: stored as sent
            }
          }
          return { json };
        },
      }),
    ),

    // Representations of answers.
    variant(
      'variant.date-time-offset',
      {
        gaps: ['timestamps'],
        rules: ['TXN-CREATE-SCHEMA', 'SEND-SCHEMA', 'BALANCE-ARRAY', 'CURRENCY-ARRAY', 'SEND-INTENT-EVENT-TIMESTAMPS'],
      },
      'all',
      'date-times written with a +01:00 offset',
      rewriteDates(withOffset),
    ),
    variant(
      'variant.date-time-no-fraction',
      {
        gaps: ['timestamps'],
        rules: ['TXN-CREATE-SCHEMA', 'SEND-SCHEMA', 'BALANCE-ARRAY', 'CURRENCY-ARRAY', 'SEND-INTENT-EVENT-TIMESTAMPS'],
      },
      'all',
      'date-times without a fraction of a second',
      rewriteDates((d) => `${d.toISOString().slice(0, 19)}Z`),
    ),
    variant(
      'variant.date-time-microseconds',
      {
        gaps: ['timestamps'],
        rules: ['TXN-CREATE-SCHEMA', 'SEND-SCHEMA', 'BALANCE-ARRAY', 'CURRENCY-ARRAY', 'SEND-INTENT-EVENT-TIMESTAMPS'],
      },
      'all',
      'date-times with microseconds',
      microseconds,
    ),
    variant(
      'variant.extra-fields',
      {
        gaps: ['extra-fields'],
        rules: ['TXN-CREATE-SCHEMA', 'LINK-SCHEMA', 'SEND-SCHEMA', 'BALANCE-ARRAY', 'CURRENCY-ARRAY'],
      },
      'all',
      'every object of a success body carries extra fields',
      () => ({
        onSend: (c) => {
          if (!isSuccess(c.status) || c.json === undefined) return undefined;
          for (const object of bodyObjects(c.json)) {
            object.object = c.operation;
            object.livemode = false;
            object.metadata = { source: 'variant', nested: { list: [1, 2] } };
          }
          return { json: c.json };
        },
      }),
    ),
    variant(
      'variant.extra-nested-objects',
      {
        gaps: ['extra-fields'],
        rules: ['TXN-CREATE-SCHEMA', 'LINK-SCHEMA', 'SEND-SCHEMA', 'BALANCE-ARRAY', 'CURRENCY-ARRAY'],
      },
      'all',
      'success bodies carry deeply nested extra objects and arrays of objects',
      () => ({
        onSend: (c) => {
          if (!isSuccess(c.status) || c.json === undefined) return undefined;
          for (const object of bodyObjects(c.json)) {
            object.links = [
              { rel: 'self', href: `https://api.example.com/${c.operation}` },
              { rel: 'account', href: null },
            ];
            object._meta = {
              trace: { spans: [{ id: 1, children: [{ id: 2, tags: { a: [true, null, { deep: 'x' }] } }] }] },
            };
          }
          return { json: c.json };
        },
      }),
    ),
    variant(
      'variant.intent-event-fields-absent',
      { gaps: ['event-fields'], rules: ['SEND-SCHEMA', 'SEND-INTENT-EVENT-TIMESTAMPS'] },
      ['sendTransaction'],
      'payment intents leave out approved_at, canceled_at, deleted_at and last_error_code until their event',
      eventFieldsAbsent,
    ),
    // Who may do what: another account's resources refused with 403, the server's own fields refused.
    variant(
      'variant.foreign-resources-403',
      {
        gaps: ['account-isolation'],
        rules: ['ACCOUNT-ISOLATION-4XX', 'ACCOUNT-ISOLATION-UNCHANGED', 'ACCOUNT-DATA-OWN'],
      },
      ['deleteCustomer', 'getPaymentLink', 'sendTransaction', 'getBalance'],
      'a resource of another account answers 403 Forbidden (it exists, but not for the caller), not 404',
      foreignResources403,
    ),
    variant(
      'variant.server-owned-fields-refused',
      { gaps: ['server-owned-fields'], rules: ['SERVER-OWNED-FIELDS', 'TXN-CREATE-2XX'] },
      ['createTransaction'],
      'a creation body carrying id, created_at, updated_at or status refused with 422 (a strict schema)',
      bounds((operation, body) =>
        operation === 'createTransaction' && ['id', 'created_at', 'updated_at', 'status'].some((key) => key in body)
          ? 'id, created_at, updated_at and status are set by the server'
          : undefined,
      ),
    ),
    variant(
      'variant.client-reference-kept',
      { gaps: ['server-owned-fields'], rules: ['SERVER-OWNED-FIELDS', 'TXN-CREATE-SCHEMA'] },
      ['createTransaction'],
      "a creation body's reference kept as the transaction's reference (a merchant reference)",
      () => ({
        onSend: (c) => {
          const body = c.request.body;
          if (!isSuccess(c.status) || !isObject(c.json) || !isObject(body) || typeof body.reference !== 'string')
            return undefined;
          return { json: { ...c.json, reference: body.reference } };
        },
      }),
    ),
    variant(
      'variant.clock-ten-minutes-ahead',
      { gaps: ['clock'], rules: ['TIME-NOW', 'TIME-ORDER', 'TXN-CREATE-SCHEMA', 'SEND-SCHEMA'] },
      'all',
      "a server whose clock is ten minutes ahead of the suite's: its timestamps and its Date header agree",
      clockAhead(600_000),
    ),
    variant(
      'variant.only-configured-mode',
      { gaps: ['currency-modes'], rules: ['SEND-INTENT-MODE', 'SEND-2XX'] },
      ['sendTransaction'],
      'sends through any mode but mtn refused with 422 (a sandbox that enables one operator)',
      () => ({
        preHandler: (c) => {
          const mode = (c.request.params as { mode?: string }).mode;
          if (mode === 'mtn' || mode === undefined || !c.store.modes.has(mode)) return undefined;
          return { status: 422, json: errorJson(422, 'mode_disabled', `mode ${mode} is not enabled in this sandbox`) };
        },
      }),
    ),

    // Values that do not exist yet (gap row not-yet-values): lenient, --strict requires them.
    variant(
      'variant.not-yet-values-null',
      { gaps: ['not-yet-values'], rules: ['SEND-SCHEMA', 'CURRENCY-ARRAY'], strictKills: 'SEND-SCHEMA' },
      ['sendTransaction', 'getCurrency'],
      'payment intents of a send without a phone number show payment_method_id null (no method known yet), ' +
        'and currencies show prefix null (none), ' +
        'as Go structs with pointer fields and pydantic Optional fields write them',
      notYetValues('null'),
    ),
    variant(
      'variant.not-yet-values-absent',
      { gaps: ['not-yet-values'], rules: ['SEND-SCHEMA', 'CURRENCY-ARRAY'], strictKills: 'CURRENCY-ARRAY' },
      ['sendTransaction', 'getCurrency'],
      'payment intents of a send without a phone number leave payment_method_id out, ' +
        'and currencies leave out prefix and suffix (omitempty)',
      notYetValues('absent'),
    ),
    variant(
      'variant.other-status-values',
      { gaps: ['status-values'], rules: ['TXN-CREATE-SCHEMA', 'SEND-SCHEMA'] },
      ['createTransaction', 'sendTransaction'],
      'status values other than the documented examples ("initiated" transactions, "processing" intents)',
      () => ({
        onSend: (c) => {
          if (!isSuccess(c.status) || c.json === undefined) return undefined;
          for (const object of bodyObjects(c.json)) {
            if (object.status === 'pending')
              object.status = c.operation === 'createTransaction' ? 'initiated' : 'processing';
          }
          return { json: c.json };
        },
      }),
    ),
    variant(
      'variant.currency-affixes',
      { gaps: ['currency-affixes'], rules: ['CURRENCY-ARRAY'] },
      ['getCurrency'],
      'currencies with a non-empty prefix and an empty suffix',
      () => ({
        onSend: (c) => {
          if (!isSuccess(c.status) || !Array.isArray(c.json)) return undefined;
          for (const currency of bodyObjects(c.json)) {
            currency.prefix = '₣ ';
            currency.suffix = '';
          }
          return { json: c.json };
        },
      }),
    ),
    variant(
      'variant.ids-large',
      { gaps: ['identifiers'], rules: ['TXN-CREATE-SCHEMA', 'CUSTOMER-DELETE-204', 'LINK-2XX'] },
      ['createTransaction', 'createCustomer', 'deleteCustomer', 'getPaymentLink'],
      'transaction and customer ids beyond 32 bits',
      largeIds,
    ),
    variant(
      'variant.lists-with-other-elements',
      {
        gaps: ['get-by-id-array'],
        rules: ['BALANCE-ARRAY', 'CURRENCY-ARRAY', 'BALANCE-CONTAINS-ID', 'CURRENCY-CONTAINS-ID'],
      },
      ['getBalance', 'getCurrency'],
      'GET-by-id arrays hold other elements besides the requested one',
      () => ({
        onSend: (c) => {
          if (!isSuccess(c.status) || !Array.isArray(c.json)) return undefined;
          const others =
            c.operation === 'getBalance' ? [...c.store.balances.values()] : [...c.store.currencies.values()];
          const asked = c.json as unknown[];
          return { json: [...others.filter((item) => !asked.some((a) => isObject(a) && a.id === item.id)), ...asked] };
        },
      }),
    ),
    variant(
      'variant.send-several-intents',
      { gaps: ['send-array'], rules: ['SEND-SCHEMA', 'SEND-AMOUNT-MATCHES'] },
      ['sendTransaction'],
      'the send answer holds two payment intents',
      () => ({
        onSend: (c) =>
          isSuccess(c.status) && Array.isArray(c.json) && isObject(c.json[0])
            ? { json: [...c.json, { ...c.json[0], reference: `${String(c.json[0].reference)}_2` }] }
            : undefined,
      }),
    ),

    // Tokens and links.
    variant(
      'variant.token-uuid',
      {
        gaps: ['token-form'],
        rules: ['LINK-TOKEN-STRING', 'SEND-TOKEN-AS-RETURNED', 'SEND-TOKEN-INTEGER', 'LINK-TOKEN-OWN'],
      },
      ['getPaymentLink', 'sendTransaction'],
      'tokens are UUIDs (not digits)',
      tokenAliases(() => randomUUID()),
    ),
    variant(
      'variant.token-jwt',
      {
        gaps: ['token-form'],
        rules: ['LINK-TOKEN-STRING', 'SEND-TOKEN-AS-RETURNED', 'SEND-TOKEN-INTEGER', 'LINK-TOKEN-OWN'],
      },
      ['getPaymentLink', 'sendTransaction'],
      'tokens are JWT-like strings',
      tokenAliases(jwtAlias),
    ),
    variant(
      'variant.token-new-each-time',
      { gaps: ['link-twice'], rules: ['LINK-SCHEMA', 'SEND-TOKEN-AS-RETURNED', 'LINK-TOKEN-OWN'] },
      ['getPaymentLink', 'sendTransaction'],
      'asking the link again issues a new token and revokes the earlier one',
      tokenAliases(() => `tok_${randomBytes(9).toString('hex')}`, { fresh: true }),
    ),
    variant(
      'variant.token-new-each-time-all-valid',
      { gaps: ['link-twice'], rules: ['LINK-SCHEMA', 'SEND-TOKEN-AS-RETURNED', 'LINK-TOKEN-OWN'] },
      ['getPaymentLink', 'sendTransaction'],
      'asking the link again issues a new token; earlier ones stay valid',
      tokenAliases(() => `tok_${randomBytes(9).toString('hex')}`, { fresh: true, keepOld: true }),
    ),
    variant(
      'variant.payment-url-deep-link',
      { gaps: ['payment-url'], rules: ['LINK-URL-ABSOLUTE', 'LINK-TOKEN-OWN'] },
      ['getPaymentLink'],
      "the payment link is a mobile app's deep link (momo://pay/<token>)",
      () => ({
        onSend: (c) =>
          isSuccess(c.status) && isObject(c.json) && typeof c.json.token === 'string'
            ? { json: { ...c.json, url: `momo://pay/${encodeURIComponent(c.json.token)}` } }
            : undefined,
      }),
    ),

    // Order of checks, declared Content-Types and the transport.
    variant(
      'variant.lookup-before-auth',
      { gaps: ['auth-order'], rules: ['AUTH-DELETE-401', 'AUTH-OTHERS-401'] },
      ['deleteCustomer', 'getPaymentLink', 'getBalance', 'getCurrency'],
      'the resource is looked up before the key is checked: an unknown id gets 404 whatever the key',
      lookupBeforeAuth,
    ),
    variant(
      'variant.any-content-type',
      {
        gaps: ['request-content-type'],
        rules: ['TXN-CREATE-OPEN-INPUT', 'SEND-OPEN-INPUT', 'MALFORMED-JSON-4XX'],
        strictKills: 'TXN-CREATE-OPEN-INPUT',
      },
      ['createTransaction', 'sendTransaction', 'createCustomer'],
      'every body is parsed as JSON, whatever Content-Type it declares (or none)',
      anyContentType,
    ),
    variant(
      'variant.connection-close-latency',
      { gaps: ['transport'], rules: ['TXN-ID-UNIQUE', 'LINK-TOKEN-OWN', 'LINK-2XX', 'SEND-2XX'] },
      'all',
      'every answer closes its connection (Connection: close) after a few milliseconds of latency',
      connectionCloseLatency,
    ),
    variant(
      'variant.rate-limit-bursts',
      { gaps: ['transport'], rules: ['TXN-ID-UNIQUE', 'LINK-TOKEN-OWN'] },
      'all',
      'a burst (8 requests within 20 ms) gets one 429 with Retry-After: 1, at most once every 5 s',
      rateLimitBursts,
    ),

    // The customer helper (not shown by the reference).
    variant(
      'variant.no-customer-creation',
      {
        gaps: ['customer-creation'],
        rules: ['CUSTOMER-DELETE-204', 'CUSTOMER-DELETE-GONE', 'TXN-CREATE-CUSTOMER-BY-ID'],
      },
      ['createCustomer'],
      'POST /customers does not exist (404): tests that need a customer are skipped',
      () => ({
        preHandler: () => ({ status: 404, json: errorJson(404, 'not_found', 'no operation POST /customers') }),
      }),
    ),
    variant(
      'variant.customer-creation-envelope',
      {
        gaps: ['customer-creation'],
        rules: ['CUSTOMER-DELETE-204', 'CUSTOMER-DELETE-GONE', 'TXN-CREATE-CUSTOMER-BY-ID'],
      },
      ['createCustomer'],
      'the created customer answered inside an envelope: {"data": {...}}',
      () => ({
        onSend: (c) => (isSuccess(c.status) && isObject(c.json) ? { json: { data: c.json } } : undefined),
      }),
    ),

    // Unknown ids on reads.
    variant(
      'variant.unknown-reads-empty-array',
      { gaps: ['unknown-ids', 'account-isolation'], rules: ['UNKNOWN-ID-NOT-5XX', 'ACCOUNT-ISOLATION-4XX'] },
      ['getBalance', 'getCurrency'],
      'an unknown balance or currency id answered 200 with an empty array',
      () => ({
        onSend: (c) =>
          c.status === 404 ? { status: 200, contentType: 'application/json; charset=utf-8', json: [] } : undefined,
      }),
    ),

    // Content-Type of answers.
    variant(
      'variant.content-type-no-charset',
      { gaps: ['response-content-type'], rules: ['JSON-CONTENT-TYPE'] },
      'all',
      'Content-Type application/json without a charset parameter',
      noCharset,
    ),
    variant(
      'variant.content-type-upper-case',
      { gaps: ['response-content-type'], rules: ['JSON-CONTENT-TYPE'] },
      'all',
      'Content-Type written Application/JSON;charset=UTF-8',
      () => ({
        onSend: (c) =>
          c.contentType?.startsWith('application/json') ? { contentType: 'Application/JSON;charset=UTF-8' } : undefined,
      }),
    ),

    // Several choices at once.
    variant(
      'variant.combined-lenient',
      {
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
      },
      'all',
      'null as "not given", coercion, lenient formats, 200 for creations, ' +
        '422 for invalid input, JWT-like tokens and no charset, at once',
      combine(nullAsAbsent, coercingServer, lenientFormats, creation200, invalid422, tokenAliases(jwtAlias), noCharset),
    ),
    variant(
      'variant.combined-tight',
      {
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
        ],
      },
      'all',
      'tight bounds and text checks refused with 422, errors in another shape, ' +
        'microsecond date-times, ids beyond 32 bits and intents without null event fields, at once',
      combine(
        tightText,
        bounds((operation, body) =>
          operation === 'createTransaction' &&
          typeof body.amount === 'number' &&
          (body.amount < 100 || body.amount > 1_000_000)
            ? 'amount: from 100 to 1,000,000'
            : undefined,
        ),
        invalid422,
        errorsOtherShape,
        microseconds,
        largeIds,
        eventFieldsAbsent,
      ),
    ),
  ];
}
