/**
 * What the variants of more than one gap row share: the declaration of a variant with its
 * load-time checks, the documented date-time fields, token aliases and a server's own bounds.
 * A helper that serves one row lives in that row's module.
 */
import type { OperationId } from '../../../contract/operations.ts';
import { rule } from '../../../contract/rules.ts';
import { documentedResponses } from '../documented-responses.ts';
import { errorJson, isObject, isSuccess } from '../behaviour-hooks.ts';
import type { Hooks, Variant } from '../behaviour-hooks.ts';

export interface VariantDeclaration {
  /** Stable name: passed as the mock's mutant option or in the x-pcs-mutant header. */
  name: string;
  /** The rows of specs/gaps.json where the variant chooses differently; the first is the row whose module holds it. */
  gaps: string[];
  /** The rules whose verdict its choice tests, written out so that a search for a rule id finds the variant. */
  rules: string[];
  /** Lenient variants: the rule (one of `rules`) --strict must fail them under. */
  strictKills?: string;
  /** Operations whose requests it touches; 'all' for every one. */
  operations: OperationId[] | 'all';
  description: string;
  create: () => Hooks;
}

export function variant(declaration: VariantDeclaration): Variant {
  const { name, gaps, rules, strictKills, operations, description, create } = declaration;
  for (const id of rules) rule(id); // an unknown id throws when the catalogue is built
  if (strictKills !== undefined && !rules.includes(strictKills)) {
    throw new Error(`mock/mutants: ${name}: strictKills ${strictKills} is not among its rules`);
  }
  const lenient = strictKills === undefined ? {} : { strictKills };
  return { name, kind: 'variant', operator: 'conforming', operations, description, create, gaps, rules, ...lenient };
}

/** The documented date-time fields of each operation's answer, from specs/openapi.json. */
export function dateTimeFields(): Map<OperationId, string[]> {
  return new Map(
    documentedResponses().map((response) => [
      response.operation,
      response.fields.filter((field) => field.type === 'date-time').map((field) => field.name),
    ]),
  );
}

/**
 * Tokens in another format: the link operation answers an alias, and the send operation maps
 * the alias back to the stored token (a service is free to choose its token format).
 * `fresh`: a new alias each time the link is asked; `keepOld`: earlier aliases stay valid.
 */
export function tokenAliases(alias: () => string, options: { fresh?: boolean; keepOld?: boolean } = {}): () => Hooks {
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

/** Refuses, with 422, inputs beyond a server's own bounds (the reference shows none). */
export function bounds(
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
