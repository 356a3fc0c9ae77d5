/**
 * JSON text as mainstream parsers read it with their defaults. RFC 8259 section 9 lets a parser accept
 * non-JSON forms or extensions, and several widespread ones do: a request body in such a form is read by a
 * server on that stack, refused by others. Each dialect below is one parser's documented default, with what it
 * reads beyond RFC 8259:
 *
 * - Ruby's json gem (2.x before 2.10; Rails' JSON params parser): comments, an unknown escape read as the
 *   character it escapes (`{"\escription": 1}` is `{"escription": 1}`);
 * - Python's json.loads (Flask's get_json, Starlette's request.json): NaN, Infinity and -Infinity;
 * - Gson's fromJson, lenient unless told otherwise: comments (`//`, `#`, `/* *\/`), single-quoted and unquoted
 *   names and strings, NaN and Infinity, `;` between members, `=` or `=>` after a name, an empty array element
 *   as null, leading zeros (an unquoted literal, whose int field parses its decimal digits);
 * - Newtonsoft Json.NET's JsonConvert: comments (`//`, `/* *\/`), single-quoted strings, unquoted names, a trailing
 *   comma in an object or an array, NaN and Infinity. It reads a leading zero as octal (0150 as 104): another
 *   value, so no reading, and not modelled;
 * - Go's encoding/json Decoder.Decode, as a handler calls it on a request body, and Jackson's ObjectMapper, whose
 *   FAIL_ON_TRAILING_TOKENS is off by default: the first JSON value, the text after it left unread.
 *
 * readJson(text, dialect) is that dialect's value of the text, or `unread` when it refuses it.
 */
import { isUnsafeIntegerText, standInFor } from '../contract/big-integers.ts';

export interface Extensions {
  /** `/* ... *\/` and `// ...` to the end of the line. */
  comments?: boolean;
  /** `# ...` to the end of the line. */
  hashComments?: boolean;
  /** A backslash before a character that is no JSON escape: that character. */
  unknownEscapes?: boolean;
  /** Strings and names between single quotes. */
  singleQuotes?: boolean;
  /** Names without quotes: Gson's literal characters, or Json.NET's identifier characters. */
  unquotedNames?: 'literal' | 'identifier';
  /** Values without quotes (Gson): a keyword, a number, or else a string. */
  unquotedValues?: boolean;
  /** `;` between members and elements, `=` or `=>` after a name (Gson). */
  gsonSeparators?: boolean;
  /** An empty array element read as null: `[1,,2]`, `[1,]` (Gson). */
  emptyElements?: boolean;
  /** A comma before `}` or `]` (Json.NET). */
  trailingCommas?: boolean;
  /** NaN, Infinity, -Infinity. */
  nonFinite?: boolean;
  /** Integers with leading zeros, read as their decimal digits. */
  leadingZeros?: boolean;
  /** Text after the first value, left unread. */
  trailingText?: boolean;
}

export interface Dialect {
  /** A short name: the parser. */
  name: string;
  /** Where it reads this way, for messages and docs. */
  source: string;
  extensions: Extensions;
}

export const dialects: readonly Dialect[] = [
  {
    name: "Ruby's json",
    source: "Ruby's json gem, Rails' JSON params parser: comments, an unknown escape read as its character",
    extensions: { comments: true, unknownEscapes: true },
  },
  {
    name: "Python's json",
    source: "Python's json.loads (Flask, Starlette, FastAPI): NaN, Infinity, -Infinity",
    extensions: { nonFinite: true },
  },
  {
    name: 'Gson',
    source:
      "Gson's fromJson, lenient by default: comments, single quotes, unquoted names and strings, NaN, " +
      'empty array elements as null, leading zeros as decimal digits',
    extensions: {
      comments: true,
      hashComments: true,
      singleQuotes: true,
      unquotedNames: 'literal',
      unquotedValues: true,
      gsonSeparators: true,
      emptyElements: true,
      nonFinite: true,
      leadingZeros: true,
    },
  },
  {
    name: 'Json.NET',
    source: "Newtonsoft Json.NET's JsonConvert: comments, single quotes, unquoted names, trailing commas, NaN",
    extensions: {
      comments: true,
      singleQuotes: true,
      unquotedNames: 'identifier',
      trailingCommas: true,
      nonFinite: true,
    },
  },
  {
    name: "Go's json.Decoder",
    source: "Go's encoding/json Decoder.Decode on a request body: the first value, the text after it unread",
    extensions: { trailingText: true },
  },
  {
    name: 'Jackson',
    source: "Jackson's ObjectMapper (FAIL_ON_TRAILING_TOKENS off by default): the first value, the rest unread",
    extensions: { trailingText: true },
  },
];

/** What readJson answers for a text the dialect refuses. */
export const unread: unique symbol = Symbol('unread');

class Unreadable extends Error {}

const escapes: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
/** Characters that end Gson's unquoted literals. */
const literalEnd = new Set([...'/\\;#={}[]:,', ' ', '\t', '\f', '\r', '\n']);
const jsonWhitespace = new Set([' ', '\t', '\n', '\r']);

/** A key set as data, never as the object's prototype (`__proto__` is a name like any other in JSON). */
function setKey(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

class Reader {
  private at = 0;
  private readonly text: string;
  private readonly ext: Extensions;

  constructor(text: string, ext: Extensions) {
    this.text = text;
    this.ext = ext;
  }

  read(): unknown {
    const value = this.value();
    this.space();
    if (this.at < this.text.length && !this.ext.trailingText) throw new Unreadable();
    return value;
  }

  private peek(offset = 0): string {
    return this.text[this.at + offset] ?? '';
  }

  private space(): void {
    for (;;) {
      const char = this.peek();
      if (jsonWhitespace.has(char)) this.at += 1;
      else if (this.ext.comments && this.text.startsWith('/*', this.at)) {
        const end = this.text.indexOf('*/', this.at + 2);
        if (end < 0) throw new Unreadable();
        this.at = end + 2;
      } else if (
        (this.ext.comments && this.text.startsWith('//', this.at)) ||
        (this.ext.hashComments && char === '#')
      ) {
        const end = this.text.indexOf('\n', this.at);
        this.at = end < 0 ? this.text.length : end + 1;
      } else return;
    }
  }

  private value(): unknown {
    this.space();
    const char = this.peek();
    if (char === '{') return this.object();
    if (char === '[') return this.array();
    if (char === '"' || (char === "'" && this.ext.singleQuotes)) return this.string(char);
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.text.startsWith(word, this.at) && !this.continuesLiteral(word.length)) {
        this.at += word.length;
        return value;
      }
    }
    if (this.ext.nonFinite) {
      for (const [word, value] of [
        ['NaN', Number.NaN],
        ['Infinity', Number.POSITIVE_INFINITY],
        ['-Infinity', Number.NEGATIVE_INFINITY],
      ] as const) {
        if (this.text.startsWith(word, this.at) && !this.continuesLiteral(word.length)) {
          this.at += word.length;
          return value;
        }
      }
    }
    const number = this.number();
    if (number !== undefined) return number;
    if (this.ext.unquotedValues) return this.literal();
    throw new Unreadable();
  }

  /** True when an unquoted literal would go on after `length` characters (Gson reads `trueish` as a string). */
  private continuesLiteral(length: number): boolean {
    const next = this.peek(length);
    return this.ext.unquotedValues === true && next !== '' && !literalEnd.has(next);
  }

  private number(): number | undefined {
    const pattern = this.ext.leadingZeros ? /-?\d+(\.\d+)?([eE][+-]?\d+)?/y : /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
    pattern.lastIndex = this.at;
    const match = pattern.exec(this.text);
    if (match === null || this.continuesLiteral(match[0].length)) return undefined;
    const token = match[0];
    this.at += token.length;
    const digits = token.replace(/^(-?)0+(?=\d)/, '$1');
    return isUnsafeIntegerText(digits) ? standInFor(digits) : Number(digits);
  }

  private literal(): string {
    const start = this.at;
    while (this.at < this.text.length && !literalEnd.has(this.peek())) this.at += 1;
    if (this.at === start) throw new Unreadable();
    return this.text.slice(start, this.at);
  }

  private string(quote: string): string {
    this.at += 1;
    let out = '';
    for (;;) {
      const char = this.peek();
      if (char === '') throw new Unreadable();
      this.at += 1;
      if (char === quote) return out;
      if (char < ' ') throw new Unreadable();
      if (char !== '\\') {
        out += char;
        continue;
      }
      const escaped = this.peek();
      this.at += 1;
      if (escaped === 'u') {
        const hex = this.text.slice(this.at, this.at + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new Unreadable();
        out += String.fromCharCode(Number.parseInt(hex, 16));
        this.at += 4;
      } else if (escapes[escaped] !== undefined) out += escapes[escaped];
      else if (escaped === "'" && quote === "'") out += "'";
      else if (this.ext.unknownEscapes && escaped !== '' && escaped >= ' ') out += escaped;
      else throw new Unreadable();
    }
  }

  private name(): string {
    const char = this.peek();
    if (char === '"' || (char === "'" && this.ext.singleQuotes)) return this.string(char);
    if (this.ext.unquotedNames === 'literal') return this.literal();
    if (this.ext.unquotedNames === 'identifier') {
      const match = /[A-Za-z_$][A-Za-z0-9_$]*/y;
      match.lastIndex = this.at;
      const found = match.exec(this.text);
      if (found !== null) {
        this.at += found[0].length;
        return found[0];
      }
    }
    throw new Unreadable();
  }

  /** A member or element separator: `,`, or `;` with Gson's separators. */
  private separator(): boolean {
    const char = this.peek();
    if (char === ',' || (char === ';' && this.ext.gsonSeparators)) {
      this.at += 1;
      return true;
    }
    return false;
  }

  private object(): Record<string, unknown> {
    this.at += 1;
    const object: Record<string, unknown> = {};
    this.space();
    if (this.peek() === '}') {
      this.at += 1;
      return object;
    }
    for (;;) {
      this.space();
      const key = this.name();
      this.space();
      if (this.peek() === ':') this.at += 1;
      else if (this.ext.gsonSeparators && this.peek() === '=') this.at += this.peek(1) === '>' ? 2 : 1;
      else throw new Unreadable();
      setKey(object, key, this.value());
      this.space();
      if (this.separator()) {
        this.space();
        if (this.peek() === '}' && this.ext.trailingCommas) {
          this.at += 1;
          return object;
        }
        continue;
      }
      if (this.peek() === '}') {
        this.at += 1;
        return object;
      }
      throw new Unreadable();
    }
  }

  private array(): unknown[] {
    this.at += 1;
    const array: unknown[] = [];
    this.space();
    if (this.peek() === ']') {
      this.at += 1;
      return array;
    }
    for (;;) {
      this.space();
      const char = this.peek();
      if (this.ext.emptyElements && (char === ',' || char === ';' || char === ']')) array.push(null);
      else array.push(this.value());
      this.space();
      if (this.separator()) {
        this.space();
        if (this.peek() === ']' && (this.ext.trailingCommas || this.ext.emptyElements)) {
          if (this.ext.emptyElements && !this.ext.trailingCommas) array.push(null);
          this.at += 1;
          return array;
        }
        continue;
      }
      if (this.peek() === ']') {
        this.at += 1;
        return array;
      }
      throw new Unreadable();
    }
  }
}

/** The value a dialect reads from the text, or `unread`. */
export function readJson(text: string, dialect: Pick<Dialect, 'extensions'>): unknown {
  try {
    return new Reader(text, dialect.extensions).read();
  } catch (error) {
    if (error instanceof Unreadable) return unread;
    throw error;
  }
}

/** Each dialect that reads the text, with the value it reads. */
export function dialectReadings(text: string): Array<{ dialect: Dialect; value: unknown }> {
  return dialects.flatMap((dialect) => {
    const value = readJson(text, dialect);
    return value === unread ? [] : [{ dialect, value }];
  });
}
