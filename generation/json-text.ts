/**
 * Request bodies as JSON text off RFC 8259's grammar, in two modes of the same valid documents:
 *
 * - malformed: text no mainstream parser reads (cut short, a structural character replaced), checked against
 *   every dialect of judgment/json-dialects.ts;
 * - lenient: text some mainstream parser reads beyond RFC 8259 (a comment, an unknown escape, a trailing comma,
 *   single quotes, an unquoted name, leading zeros, NaN, text after the value), or an integer spelled with a
 *   fraction or an exponent (1500.0, 15e2: JSON, which typed parsers may refuse).
 *
 * Each lenient form is one edit of the compact text JSON.stringify writes, at a place a position picks among the
 * tokens it fits; its class is not decided here but computed from how each dialect reads the text
 * (judgment/text-class.ts).
 */
import fc from 'fast-check';
import { parseJson } from '../contract/big-integers.ts';
import { dialectReadings } from '../judgment/json-dialects.ts';

interface Token {
  kind: 'string' | 'number' | 'word' | 'punct';
  start: number;
  end: number;
  /** A string that names a member. */
  key: boolean;
  /** How many objects and arrays it is in (a top-level member's value: 1). */
  depth: number;
}

/** The tokens of compact JSON text (no white space outside strings, as JSON.stringify writes it). */
function tokensOf(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  let depth = 0;
  while (at < text.length) {
    const char = text[at]!;
    if (char === '"') {
      let end = at + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      tokens.push({ kind: 'string', start: at, end: end + 1, key: text[end + 1] === ':', depth });
      at = end + 1;
    } else if (/[-\d]/.test(char)) {
      const match = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;
      match.lastIndex = at;
      const token = match.exec(text)![0];
      tokens.push({ kind: 'number', start: at, end: at + token.length, key: false, depth });
      at += token.length;
    } else if (/[a-z]/.test(char)) {
      const word = /true|false|null/y;
      word.lastIndex = at;
      const token = word.exec(text)![0];
      tokens.push({ kind: 'word', start: at, end: at + token.length, key: false, depth });
      at += token.length;
    } else {
      if (char === '}' || char === ']') depth -= 1;
      tokens.push({ kind: 'punct', start: at, end: at + 1, key: false, depth });
      if (char === '{' || char === '[') depth += 1;
      at += 1;
    }
  }
  return tokens;
}

/** One edit of the text: its name, and the text it makes of the candidate a position picks (none fits: undefined). */
interface Form {
  name: string;
  edit(text: string, tokens: readonly Token[], pick: number): string | undefined;
}

const pickOf = <T>(candidates: readonly T[], pick: number): T | undefined =>
  candidates.length === 0 ? undefined : candidates[pick % candidates.length];
const insertAt = (text: string, at: number, inserted: string): string => text.slice(0, at) + inserted + text.slice(at);
const punct = (text: string, token: Token, chars: string): boolean =>
  token.kind === 'punct' && chars.includes(text[token.start]!);
/** Letters after which a backslash is no JSON escape (every letter but b, f, n, r, t, u). */
const plainLetter = /[ac-eg-mo-qsv-zA-Z]/;
const integerToken = (text: string, token: Token): boolean =>
  token.kind === 'number' && /^-?\d+$/.test(text.slice(token.start, token.end));

export const lenientForms: readonly Form[] = [
  {
    name: 'a /* comment */',
    edit: (text, tokens, pick) => {
      const after = pickOf(
        tokens.filter((token) => punct(text, token, '{[,:')),
        pick,
      );
      return after && insertAt(text, after.end, '/* collect-conformance */');
    },
  },
  {
    name: 'a // comment',
    edit: (text, tokens, pick) => {
      const after = pickOf(
        tokens.filter((token) => punct(text, token, '{[,')),
        pick,
      );
      return after && insertAt(text, after.end, '// collect-conformance\n');
    },
  },
  {
    name: 'a # comment',
    edit: (text, tokens, pick) => {
      const after = pickOf(
        tokens.filter((token) => punct(text, token, '{,')),
        pick,
      );
      return after && insertAt(text, after.end, '# collect-conformance\n');
    },
  },
  {
    name: 'an unknown escape before a letter',
    edit: (text, tokens, pick) => {
      const places = tokens
        .filter((token) => token.kind === 'string')
        .flatMap((token) =>
          [...text.slice(token.start + 1, token.end - 1)].flatMap((char, index) => {
            const at = token.start + 1 + index;
            return plainLetter.test(char) && text[at - 1] !== '\\' ? [at] : [];
          }),
        );
      const at = pickOf(places, pick);
      return at === undefined ? undefined : insertAt(text, at, '\\');
    },
  },
  {
    // A character of a name replaced by a backslash that escapes the next one: {"\escription": ...}.
    name: 'an unknown escape replacing a character of a name',
    edit: (text, tokens, pick) => {
      const places = tokens
        .filter((token) => token.key)
        .flatMap((token) =>
          Array.from({ length: token.end - token.start - 3 }, (_, index) => token.start + 1 + index).filter(
            (at) => text[at] !== '\\' && text[at - 1] !== '\\' && plainLetter.test(text[at + 1]!),
          ),
        );
      const at = pickOf(places, pick);
      return at === undefined ? undefined : `${text.slice(0, at)}\\${text.slice(at + 1)}`;
    },
  },
  {
    name: 'a trailing comma',
    edit: (text, tokens, pick) => {
      const closing = pickOf(
        tokens.filter(
          (token, index) => punct(text, token, '}]') && index > 0 && !punct(text, tokens[index - 1]!, '{['),
        ),
        pick,
      );
      return closing && insertAt(text, closing.start, ',');
    },
  },
  {
    name: 'single quotes',
    edit: (text, tokens, pick) => {
      const quoted = pickOf(
        tokens.filter((token) => token.kind === 'string' && !/['\\]/.test(text.slice(token.start, token.end))),
        pick,
      );
      return (
        quoted &&
        `${text.slice(0, quoted.start)}'${text.slice(quoted.start + 1, quoted.end - 1)}'${text.slice(quoted.end)}`
      );
    },
  },
  {
    name: 'an unquoted name',
    edit: (text, tokens, pick) => {
      const name = pickOf(
        tokens.filter((token) => token.key && /^"[A-Za-z_$][A-Za-z0-9_$]*"$/.test(text.slice(token.start, token.end))),
        pick,
      );
      return name && text.slice(0, name.start) + text.slice(name.start + 1, name.end - 1) + text.slice(name.end);
    },
  },
  {
    name: 'leading zeros',
    edit: (text, tokens, pick) => {
      const number = pickOf(
        tokens.filter((token) => integerToken(text, token) && text[token.start] !== '-'),
        pick,
      );
      return number && insertAt(text, number.start, '00');
    },
  },
  {
    // Where the body documents a number (the amount): free-form metadata has no number a reading could keep.
    name: 'NaN or Infinity for a number',
    edit: (text, tokens, pick) => {
      const number = pickOf(
        tokens.filter((token) => token.kind === 'number' && token.depth === 1),
        pick,
      );
      const word = ['NaN', 'Infinity', '-Infinity'][pick % 3]!;
      return number && text.slice(0, number.start) + word + text.slice(number.end);
    },
  },
  {
    name: 'text after the value',
    edit: (text, _tokens, pick) => text + ['}', ' x', '{}', '\n{"collect_conformance":1}'][pick % 4]!,
  },
  {
    name: 'an integer spelled with a fraction or an exponent',
    edit: (text, tokens, pick) => {
      const number = pickOf(
        tokens.filter((token) => integerToken(text, token)),
        pick,
      );
      if (number === undefined) return undefined;
      const digits = text.slice(number.start, number.end);
      const spellings = [`${digits}.0`, `${digits}e0`, `${digits}.00E+0`];
      return text.slice(0, number.start) + spellings[pick % spellings.length]! + text.slice(number.end);
    },
  },
];

/** True for text JSON.parse reads (RFC 8259's grammar). */
export function isJson(text: string): boolean {
  try {
    parseJson(text);
    return true;
  } catch {
    return false;
  }
}

/** Text no mainstream parser reads: JSON cut short, or one character replaced, and no dialect reading what is left. */
export function malformedText(text: string): fc.Arbitrary<string> {
  const cut = fc.integer({ min: 1, max: Math.max(1, text.length - 1) }).map((at) => text.slice(0, at));
  const replaced = fc
    .tuple(fc.nat({ max: text.length - 1 }), fc.constantFrom('{', '}', '"', ',', ':', '[', '\\', "'", 'x'))
    .map(([at, char]) => text.slice(0, at) + char + text.slice(at + 1));
  return fc.oneof(cut, replaced).filter((broken) => !isJson(broken) && dialectReadings(broken).length === 0);
}

export interface LenientText {
  text: string;
  /** The form it was given (lenientForms' name). */
  form: string;
}

/** Whether an edit made text some parser reads: JSON (a spelled integer) or a dialect's extension. */
const readable = (candidate: string | undefined): candidate is string =>
  candidate !== undefined && (isJson(candidate) || dialectReadings(candidate).length > 0);

/** Text some mainstream parser reads beyond RFC 8259, or an integer spelled otherwise: one form, at one place. */
export function lenientText(text: string): fc.Arbitrary<LenientText> {
  const tokens = tokensOf(text);
  return fc
    .tuple(fc.constantFrom(...lenientForms), fc.nat({ max: 10_000 }))
    .map(([form, pick]) => ({ text: form.edit(text, tokens, pick), form: form.name }))
    .filter((candidate): candidate is LenientText => readable(candidate.text));
}

/** One text of each lenient form that fits the text (the first place each fits), for the examples a run starts with. */
export function lenientExamples(text: string): LenientText[] {
  const tokens = tokensOf(text);
  return lenientForms.flatMap((form) => {
    const edited = form.edit(text, tokens, 0);
    return readable(edited) ? [{ text: edited, form: form.name }] : [];
  });
}
