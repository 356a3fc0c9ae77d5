/**
 * A text as every common stack reads it back: trimmed and normalized. An echo is held to it (a server may
 * trim and normalize what it keeps: judgment/rules/echoes.ts), and an input class reads a blank text by it.
 */

/**
 * White space by every common runtime's definition, as a character class: Unicode White_Space
 * (JavaScript, Go, .NET, Python), the BOM (JavaScript's trim), NUL (PHP's trim) and the
 * information separators U+001C to U+001F (Python's str.isspace), U+180E (older Unicode).
 */
const whiteSpace =
  '\\u0000\\t\\n\\v\\f\\r\\u001c-\\u001f \\u0085\\u00a0\\u1680\\u180e\\u2000-\\u200a\\u2028\\u2029' +
  '\\u202f\\u205f\\u3000\\ufeff';
const endWhiteSpace = new RegExp(`^[${whiteSpace}]+|[${whiteSpace}]+$`, 'gu');

/** A text as every stack's trim and normalization leave it: NFC, white space of any definition cut at the ends. */
export function canonicalText(value: string): string {
  return value.normalize('NFC').replace(endWhiteSpace, '');
}
