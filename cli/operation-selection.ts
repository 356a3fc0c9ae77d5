/**
 * --operation ID (repeatable): every test that calls the operation, property tests included.
 * --grep on a title finds an operation's example tests only; its property and stateful tests
 * are titled by what they generate. Every test tags the rules it checks (@RULE-ID), and every
 * rule names its operations (specs/rules.json), so the selection is the tests tagged with a
 * rule of the operation, or titled with its id.
 */
import { operations } from '../contract/operations.ts';
import { rules } from '../contract/rules.ts';
import { UsageError } from './args.ts';
import { operationList } from '../settings/selection-values.ts';

/** The operation ids of repeated or comma-separated --operation values, checked. */
export function parseOperations(values: readonly string[]): string[] {
  const parsed = operationList(values.join(','));
  if (!parsed.ok) throw new UsageError(`--operation: ${parsed.problem}`);
  return parsed.value;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The resource an operation's path names last (/balances/{id}: balance, balances), as test titles name it. */
export function resourceWords(id: string): string[] {
  const path = operations.find((candidate) => candidate.id === id)?.path ?? '';
  const segment =
    path
      .split('/')
      .filter((part) => part !== '' && !part.startsWith('{'))
      .at(-1) ?? id;
  return [segment.replace(/ies$/, 'y').replace(/s$/, ''), segment];
}

const tagOf = (ids: readonly string[]): string => `@(?:${ids.map(escapeRegExp).join('|')})(?=\\s|$)`;

/**
 * A regular expression (Playwright's --grep) matching the tests that call any of the operations:
 * tests tagged with a rule of these operations alone (stateful and property tests included),
 * tests whose title names an operation, and tests of a rule shared with other operations whose
 * title names the operation's resource ("random balance ids never give a 5xx").
 */
export function operationPattern(ids: readonly string[]): string {
  const concerned = rules.filter((rule) => rule.operations.some((id) => ids.includes(id)));
  const own = concerned.filter((rule) => rule.operations.every((id) => ids.includes(id))).map((rule) => rule.id);
  const shared = concerned.filter((rule) => !own.includes(rule.id)).map((rule) => rule.id);
  const alternatives = ids.map((id) => `\\b${escapeRegExp(id)}\\b`);
  if (own.length > 0) alternatives.unshift(tagOf(own));
  if (shared.length > 0) {
    const words = [...new Set(ids.flatMap(resourceWords))].map(escapeRegExp).join('|');
    // A word of a title, not of the spec file's name (balances-and-currencies.spec.ts), which the title path holds.
    alternatives.push(`(?=.*${tagOf(shared)})(?=.*\\b(?:${words})(?![\\w-]))`);
  }
  return alternatives.join('|');
}
