/**
 * Masking of secrets in anything the suite writes: headers, bodies, messages, curl lines.
 * Secrets are registered once (the configured key, and keys of the embedded mock); every
 * output path goes through redact(). Any text shaped like a key (sk_live_..., sk_sandbox_...,
 * sk_test_...) is masked too, registered or not; and credentials seen in traffic the suite did
 * not make (registerSeenSecret: any Authorization value, any key-shaped string) are masked
 * raw, URL-encoded, JSON-escaped and in base64, by a literal search whose cost does not grow
 * with their number (traffic may carry thousands of distinct wrong keys).
 *
 * A target may echo the key in another form than the one sent: URL-encoded in a link,
 * JSON-escaped in a body, HTML-escaped in an error page, base64 inside a Basic credential
 * or a token, upper-cased by a case-insensitive store. Each registered secret is masked in
 * all of those forms (tests/unit/secrets.test.ts searches a run's files for each of them).
 */

// Module state on purpose: one registry per process that every output path masks with, whoever registered the
// secret. Handing a masker to each writer instead would make a writer that forgot it leak, silently.
const secrets = new Set<string>();
export const mask = '***';

/** Base64 runs shorter than this are not masked on their own: a short run would hit unrelated text. */
const minimumBase64Run = 12;

interface Patterns {
  /** Raw, URL-encoded, JSON- or HTML-escaped forms, any letter case. */
  textual: RegExp | null;
  /** Base64 and base64url forms, at every alignment (case matters in base64). */
  encoded: RegExp | null;
}

let patterns: Patterns = { textual: null, encoded: null };
/** Set when a secret was registered since the patterns were compiled: they are compiled again when next used. */
let stale = false;

/**
 * Anything shaped like a key of this API's kind: two letters, the environment, and the rest (sk_live_x,
 * sk_sandbox_x, pk_test_x). Masked wherever it appears, registered or not.
 */
export const keyShaped = /(?<![A-Za-z0-9])[A-Za-z]{2}_(?:live|sandbox|test)_[A-Za-z0-9][A-Za-z0-9_+/=-]*/gi;

const escapeForRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/**
 * Every way one character of a secret may be written by an encoder:
 * itself, %XX (also double-encoded), \uXXXX, \c, &#N; and &#xH;.
 */
function characterForms(char: string): string {
  if (/^[A-Za-z0-9]$/.test(char)) return char;
  const bytes = [...Buffer.from(char, 'utf8')];
  const percent = bytes.map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  const code = char.codePointAt(0)!;
  const forms = [
    escapeForRegExp(char),
    escapeForRegExp(percent),
    escapeForRegExp(percent.replace(/%/g, '%25')),
    ...(code <= 0xffff ? [`\\\\u${code.toString(16).padStart(4, '0')}`] : []),
    `&#0*${code};`,
    `&#x0*${code.toString(16)};`,
  ];
  // JSON escapes a slash optionally (\/), and quotes and backslashes always.
  if (char === '/' || char === '"' || char === '\\') forms.push(`\\\\${escapeForRegExp(char)}`);
  const named: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
  if (named[char]) forms.push(named[char]);
  return `(?:${forms.join('|')})`;
}

function textualPattern(secret: string): string {
  return [...secret].map(characterForms).join('');
}

/**
 * The base64 of the secret's bytes from offset 0, 1 and 2, in whole 3-byte groups: one of them is a
 * substring of the base64 of any text holding the secret (base64("Bearer <key>"), "user:<key>"...).
 */
function base64Runs(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const runs = new Set<string>([bytes.toString('base64').replace(/=+$/, '')]);
  for (let start = 0; start < 3; start += 1) {
    const usable = Math.floor((bytes.length - start) / 3) * 3;
    const run = bytes.subarray(start, start + usable).toString('base64');
    if (run.length >= minimumBase64Run) runs.add(run);
  }
  for (const run of [...runs]) runs.add(run.replace(/\+/g, '-').replace(/\//g, '_'));
  return [...runs].filter((run) => run.length >= 4);
}

function compile(): Patterns {
  const list = [...secrets].sort((a, b) => b.length - a.length);
  if (list.length === 0) return { textual: null, encoded: null };
  const encoded = [...new Set(list.flatMap(base64Runs))].sort((a, b) => b.length - a.length).map(escapeForRegExp);
  return {
    textual: new RegExp(list.map(textualPattern).join('|'), 'gi'),
    encoded: encoded.length === 0 ? null : new RegExp(encoded.join('|'), 'g'),
  };
}

/**
 * Registers a value that must never be printed, in any of its
 * encoded forms. Values shorter than 4 characters are ignored.
 */
export function registerSecret(value: string | null | undefined): void {
  if (!value || value.length < 4 || secrets.has(value)) return;
  secrets.add(value);
  stale = true;
}

/** ASCII letters in lower case, every other character kept: the length never changes (unlike toLowerCase). */
const asciiLower = (text: string): string => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

/**
 * Secrets seen in traffic, in two tiers: those compiled into two patterns of literal forms (fast to search),
 * and those registered since, searched by a lookup of each position's first characters in a map (slower, but
 * costing nothing to add to). The pending ones are compiled in once they are as many as the compiled ones (or
 * have waited a thousand searches): however many credentials traffic shows, compiling costs O(n log n) in all.
 */
const anchor = 6;
const seen = new Set<string>();
let seenPatterns: { caseless: RegExp | null; exact: RegExp | null } = { caseless: null, exact: null };
let compiledSeen: string[] = [];
let pendingSeen: string[] = [];
let pendingAge = 0;
/** The pending secrets' forms compared without letter case (raw, URL- or JSON-escaped), by their first characters. */
let caseless = new Map<string, string[]>();
/** The pending secrets' forms compared exactly (base64 runs), by their first characters. */
let exact = new Map<string, string[]>();

function textualForms(value: string): string[] {
  return [...new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)])];
}

function encodedForms(value: string): string[] {
  return base64Runs(value).filter((run) => run.length >= minimumBase64Run);
}

function index(map: Map<string, string[]>, form: string): void {
  if (form.length < anchor) return;
  const key = form.slice(0, anchor);
  const list = map.get(key);
  if (list === undefined) map.set(key, [form]);
  else if (!list.includes(form)) list.push(form);
}

/**
 * Registers a credential seen in traffic (any Authorization value, any key-shaped string): masked from now on, in
 * every output, raw (any letter case), URL-encoded, JSON-escaped and in base64 at every alignment.
 */
export function registerSeenSecret(value: string | null | undefined): void {
  // Shorter values are no credential worth the name, and would be found by chance in any text.
  if (!value || value.length < 8 || seen.has(value) || secrets.has(value)) return;
  seen.add(value);
  pendingSeen.push(value);
  for (const form of textualForms(value)) index(caseless, asciiLower(form));
  for (const run of encodedForms(value)) index(exact, run);
}

function compileSeen(): void {
  compiledSeen = [...compiledSeen, ...pendingSeen];
  pendingSeen = [];
  pendingAge = 0;
  caseless = new Map();
  exact = new Map();
  const byLength = (a: string, b: string): number => b.length - a.length;
  const textual = [...new Set(compiledSeen.flatMap(textualForms))].sort(byLength).map(escapeForRegExp);
  const encoded = [...new Set(compiledSeen.flatMap(encodedForms))].sort(byLength).map(escapeForRegExp);
  seenPatterns = {
    caseless: textual.length === 0 ? null : new RegExp(textual.join('|'), 'gi'),
    exact: encoded.length === 0 ? null : new RegExp(encoded.join('|'), 'g'),
  };
}

/** The text with the pending secrets' forms masked: one pass, a map lookup at each position. */
function maskPending(text: string): string {
  if (pendingSeen.length === 0 || text.length < anchor) return text;
  const lower = asciiLower(text);
  let result = '';
  let copied = 0;
  for (let at = 0; at + anchor <= text.length; ) {
    let end = at;
    for (const form of caseless.get(lower.slice(at, at + anchor)) ?? [])
      if (form.length > end - at && lower.startsWith(form, at)) end = at + form.length;
    for (const form of exact.get(text.slice(at, at + anchor)) ?? [])
      if (form.length > end - at && text.startsWith(form, at)) end = at + form.length;
    if (end === at) {
      at++;
      continue;
    }
    result += `${text.slice(copied, at)}${mask}`;
    copied = end;
    at = end;
  }
  return copied === 0 ? text : result + text.slice(copied);
}

/** The text with every seen secret's forms masked. */
function maskSeen(text: string): string {
  if (pendingSeen.length > 0 && (pendingSeen.length >= compiledSeen.length || ++pendingAge > 1000)) compileSeen();
  let result = text;
  if (seenPatterns.caseless) result = result.replace(seenPatterns.caseless, mask);
  if (seenPatterns.exact) result = result.replace(seenPatterns.exact, mask);
  return maskPending(result);
}

export function redact(text: string): string {
  if (stale) {
    patterns = compile();
    stale = false;
  }
  let result = text;
  if (patterns.textual) result = result.replace(patterns.textual, mask);
  if (patterns.encoded) result = result.replace(patterns.encoded, mask);
  result = maskSeen(result);
  return result.replace(keyShaped, mask);
}

/** An Authorization header value with the credential masked, whatever it holds. */
export function maskAuthorization(value: string): string {
  const match = /^(\S+)(\s+)(.*)$/.exec(value);
  return match ? `${match[1]}${match[2]}${mask}` : mask;
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    result[name] = name.toLowerCase() === 'authorization' ? maskAuthorization(value) : redact(value);
  }
  return result;
}
