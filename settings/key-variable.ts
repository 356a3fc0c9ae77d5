/**
 * The name of the variable a key is read from (--secret-key-env NAME): a key is never a flag, so
 * the flag names a variable. What was given there is quoted back only when it is plainly a name:
 * the key itself pasted in its place (`--secret-key-env sk_sandbox_...`) must not be printed.
 */
import { looksLikeKey } from './setting-values.ts';

const variableName = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/** The problem with a value given where a variable's name belongs; undefined for a name. */
export function variableNameProblem(text: string): string | undefined {
  const expected = 'expects the NAME of an environment variable holding the key';
  if (looksLikeKey(text)) return `${expected}; the value given looks like a key itself (not shown)`;
  if (!variableName.test(text))
    return `${expected}; the value given is not a variable name (not shown: it may be a secret)`;
  return undefined;
}

/** A name a message may print: upper-case letters, digits and underscores, as variables are named. */
export function isPlainVariableName(text: string): boolean {
  return /^[A-Z_][A-Z0-9_]{0,63}$/.test(text) && !looksLikeKey(text);
}
