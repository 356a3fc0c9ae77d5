/**
 * Gap row required-fields: which creation fields are required is not shown, so a field left
 * out, null or blank may be read as "not given" (lenient: --strict refuses null and missing).
 */
import { isObject, isSuccess } from '../behaviour-hooks.ts';
import type { Hooks, Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

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

export const nullAsAbsent = (): Hooks => ({
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

export function requiredFieldsVariants(): Variant[] {
  return [
    variant({
      name: 'variant.null-as-absent',
      gaps: ['required-fields'],
      rules: ['TXN-CREATE-OPEN-INPUT', 'SEND-OPEN-INPUT', 'SEND-TOKEN-REQUIRED'],
      strictKills: 'TXN-CREATE-OPEN-INPUT',
      operations: ['createTransaction', 'sendTransaction'],
      description: 'null read as "not given" in request bodies (the account\'s default currency when currency is null)',
      create: nullAsAbsent,
    }),
    variant({
      name: 'variant.unset-fields-null',
      gaps: ['required-fields'],
      rules: ['TXN-CREATE-OPEN-INPUT', 'SEND-OPEN-INPUT', 'TXN-CREATE-SCHEMA'],
      strictKills: 'TXN-CREATE-OPEN-INPUT',
      operations: ['createTransaction', 'sendTransaction'],
      description:
        'null read as "not given", and the transaction then shows ' +
        'null for a description or callback_url it was not given',
      create: unsetFieldsNull,
    }),
    variant({
      name: 'variant.empty-texts-null',
      gaps: ['required-fields', 'echo'],
      rules: ['TXN-CREATE-OPEN-INPUT', 'TXN-CREATE-ECHO'],
      operations: ['createTransaction'],
      description:
        'texts of a creation trimmed, and an empty one read as "not given" and ' +
        "shown as null (Laravel's TrimStrings and ConvertEmptyStringsToNull)",
      create: emptyTextsNull,
    }),
  ];
}
