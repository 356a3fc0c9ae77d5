/**
 * Masking of secrets in anything the suite writes: headers, bodies, messages, curl lines.
 * Secrets are registered once (the configured key, and keys of the embedded mock); every
 * output path goes through redact().
 *
 * A target may echo the key in another form than the one sent: URL-encoded in a link,
 * JSON-escaped in a body, HTML-escaped in an error page, base64 inside a Basic credential
 * or a token, upper-cased by a case-insensitive store. Each registered secret is masked in
 * all of those forms (tests/unit/secrets.test.ts searches a run's files for each of them).
 */

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
  patterns = compile();
}

export function redact(text: string): string {
  let result = text;
  if (patterns.textual) result = result.replace(patterns.textual, mask);
  if (patterns.encoded) result = result.replace(patterns.encoded, mask);
  return result;
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
