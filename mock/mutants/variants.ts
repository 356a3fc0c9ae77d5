/**
 * Conforming variants: the same mechanism as the mutants, serving behaviours that conform to
 * the reference but choose differently where it is silent (success codes of operations 2 to 6,
 * error bodies, extra fields, token and id formats, date-time renderings, lists holding more
 * than the requested element, Content-Type parameters). The suite must pass every one: a
 * failure is a false positive of the suite.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { OperationId } from '../../contract/operations.ts';
import { documentedResponses } from './contract.ts';
import { bodyObjects, isObject, isSuccess, type Behaviour, type Hooks, type ResponseContext, type Rewrite } from './hooks.ts';

function variant(name: string, operations: OperationId[] | 'all', description: string, create: () => Hooks): Behaviour {
  return { name, kind: 'variant', operator: 'conforming', operations, description, create };
}

/** The documented date-time fields of each operation's answer, from specs/openapi.json. */
function dateTimeFields(): Map<OperationId, string[]> {
  return new Map(
    documentedResponses().map((response) => [response.operation, response.fields.filter((field) => field.type === 'date-time').map((field) => field.name)]),
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
 */
function tokenAliases(alias: () => string): () => Hooks {
  return () => {
    const real = new Map<string, string>();
    const aliasOf = new Map<string, string>();
    return {
      preHandler: (c) => {
        const b = c.request.body;
        if (c.operation === 'sendTransaction' && isObject(b) && typeof b.token === 'string') b.token = real.get(b.token) ?? b.token;
      },
      onSend: (c) => {
        if (c.operation !== 'getPaymentLink' || !isSuccess(c.status) || !isObject(c.json) || typeof c.json.token !== 'string') return undefined;
        const token = c.json.token;
        let name = aliasOf.get(token);
        if (name === undefined) {
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
  const inwardText = (value: string): string => (/^\d{13,15}$/.test(value) && Number(value) >= offset ? String(Number(value) - offset) : value);
  return {
    preHandler: (c) => {
      const params = c.request.params as Record<string, string>;
      if (typeof params.id === 'string' && (c.operation === 'deleteCustomer' || c.operation === 'getPaymentLink')) params.id = inwardText(params.id);
      const b = c.request.body;
      if (c.operation === 'createTransaction' && isObject(b) && isObject(b.customer)) b.customer.id = inward(b.customer.id);
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

export function conformingVariants(): Behaviour[] {
  return [
    variant('variant.creation-200', ['createTransaction', 'createCustomer'], 'creations answered 200 instead of 201', () => ({
      onSend: (c) => (c.status === 201 ? { status: 200 } : undefined),
    })),
    variant('variant.invalid-input-422', 'all', 'invalid input answered 422 instead of 400', () => ({
      onSend: (c) => (c.status === 400 && isObject(c.json) && isObject(c.json.error) ? { status: 422, json: { error: { ...c.json.error, status: 422 } } } : undefined),
    })),
    variant(
      'variant.errors-other-shape',
      'all',
      'error bodies in another JSON shape: {"errors": [{"code", "detail"}]}',
      errorRewrite((_c, message, code) => ({ json: { errors: [{ code, detail: message }] } })),
    ),
    variant(
      'variant.errors-plain-text',
      'all',
      'error bodies as plain text',
      errorRewrite((_c, message) => ({ contentType: 'text/plain; charset=utf-8', text: message })),
    ),
    variant('variant.extra-fields', 'all', 'every object of a success body carries extra fields', () => ({
      onSend: (c) => {
        if (!isSuccess(c.status) || c.json === undefined) return undefined;
        for (const object of bodyObjects(c.json)) {
          object.object = c.operation;
          object.livemode = false;
          object.metadata = { source: 'variant', nested: { list: [1, 2] } };
        }
        return { json: c.json };
      },
    })),
    variant('variant.token-uuid', ['getPaymentLink', 'sendTransaction'], 'tokens are UUIDs (not digits)', tokenAliases(() => randomUUID())),
    variant(
      'variant.token-jwt',
      ['getPaymentLink', 'sendTransaction'],
      'tokens are JWT-like strings',
      tokenAliases(
        () =>
          `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify({ sub: randomBytes(6).toString('hex') })).toString('base64url')}.${randomBytes(16).toString('base64url')}`,
      ),
    ),
    variant('variant.ids-large', ['createTransaction', 'createCustomer', 'deleteCustomer', 'getPaymentLink'], 'transaction and customer ids beyond 32 bits', largeIds),
    variant('variant.date-time-offset', 'all', 'date-times written with a +01:00 offset', rewriteDates(withOffset)),
    variant('variant.date-time-no-fraction', 'all', 'date-times without a fraction of a second', rewriteDates((d) => `${d.toISOString().slice(0, 19)}Z`)),
    variant(
      'variant.date-time-microseconds',
      'all',
      'date-times with microseconds',
      rewriteDates((d) => `${d.toISOString().slice(0, 23)}${pad(d.getUTCMilliseconds() % 1000, 3)}Z`),
    ),
    variant('variant.lists-with-other-elements', ['getBalance', 'getCurrency'], 'GET-by-id arrays hold other elements besides the requested one', () => ({
      onSend: (c) => {
        if (!isSuccess(c.status) || !Array.isArray(c.json)) return undefined;
        const others = c.operation === 'getBalance' ? [...c.store.balances.values()] : [...c.store.currencies.values()];
        const asked = c.json as unknown[];
        return { json: [...others.filter((item) => !asked.some((a) => isObject(a) && a.id === item.id)), ...asked] };
      },
    })),
    variant('variant.send-several-intents', ['sendTransaction'], 'the send answer holds two payment intents', () => ({
      onSend: (c) =>
        isSuccess(c.status) && Array.isArray(c.json) && isObject(c.json[0])
          ? { json: [...c.json, { ...c.json[0], reference: `${String(c.json[0].reference)}_2` }] }
          : undefined,
    })),
    variant('variant.content-type-no-charset', 'all', 'Content-Type application/json without a charset parameter', () => ({
      onSend: (c) => (c.contentType?.startsWith('application/json') ? { contentType: 'application/json' } : undefined),
    })),
    variant('variant.content-type-upper-case', 'all', 'Content-Type written Application/JSON;charset=UTF-8', () => ({
      onSend: (c) => (c.contentType?.startsWith('application/json') ? { contentType: 'Application/JSON;charset=UTF-8' } : undefined),
    })),
  ];
}
