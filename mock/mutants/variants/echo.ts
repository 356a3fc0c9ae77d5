/**
 * Gap row echo: the reference types description and callback_url, it does not say how a server
 * stores them, so the answer may carry a form equivalent to what was sent.
 */
import { domainToASCII } from 'node:url';
import { isObject, isSuccess } from '../behaviour-hooks.ts';
import type { Hooks, Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

/**
 * The echo stored in the form another runtime writes: the description and the callback URL of a
 * created transaction as `description` and `url` leave them. Independent of the suite's own
 * normalization (judgment/rules/echoes.ts): each mimics one runtime's habit.
 */
function echoStoredAs(description: (text: string) => string, url: (text: string) => string): () => Hooks {
  return () => ({
    onSend: (c) => {
      if (!isSuccess(c.status) || !isObject(c.json)) return undefined;
      const json = { ...c.json };
      if (typeof json.description === 'string') json.description = description(json.description);
      if (typeof json.callback_url === 'string') json.callback_url = url(json.callback_url);
      return { json };
    },
  });
}

/** PHP's trim(): " \t\n\r\0\x0B" at both ends, nothing else (a no-break space stays). */
const phpTrim = (text: string): string => text.replace(/^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g, '');

/** Python's str.strip(): str.isspace() characters, among them U+001C to U+001F (not the BOM). */
const pythonSpace = '[\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const pythonStrip = (text: string): string => text.replace(new RegExp(`^${pythonSpace}+|${pythonSpace}+$`, 'gu'), '');

/** The scheme, host and rest of an absolute URL, split as a lenient parser would; undefined otherwise. */
function urlParts(text: string): { scheme: string; host: string; rest: string } | undefined {
  const parts = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(.*)$/su.exec(text);
  return parts ? { scheme: parts[1]!, host: parts[2]!, rest: parts[3]! } : undefined;
}

/** pydantic's HttpUrl: an internationalised host in punycode, the scheme's case kept. */
const pydanticUrl = (text: string): string => {
  const parts = urlParts(text.trim());
  if (!parts || /^[\x00-\x7f]*$/.test(parts.host)) return text;
  const ascii = domainToASCII(parts.host);
  return ascii === '' ? text : `${parts.scheme}://${ascii}${parts.rest}`;
};

/** Go's url.Parse(...).String(): the scheme in lower case, non-ASCII bytes of host and path percent-encoded. */
const goUrl = (text: string): string => {
  const parts = urlParts(text);
  if (!parts) return text;
  const encoded = (part: string): string =>
    part.replace(/[^\x21-\x7e]/gu, (character) => encodeURIComponent(character));
  return `${parts.scheme.toLowerCase()}://${encoded(parts.host)}${encoded(parts.rest)}`;
};

/** RFC 3986 6.2.2: scheme and host in lower case, unreserved characters decoded, percent-encoding in upper case. */
const rfc3986Url = (text: string): string => {
  const parts = urlParts(text);
  if (!parts) return text;
  const rest = parts.rest.replace(/%([0-9A-Fa-f]{2})/g, (_match, hex: string) => {
    const character = String.fromCharCode(Number.parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(character) ? character : `%${hex.toUpperCase()}`;
  });
  return `${parts.scheme.toLowerCase()}://${parts.host.toLowerCase()}${rest}`;
};

/** Go's strings.TrimSpace: Unicode White_Space at both ends (not the BOM, not U+001C to U+001F). */
const goSpace = '[\\t\\n\\v\\f\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const goTrimSpace = (text: string): string => text.replace(new RegExp(`^${goSpace}+|${goSpace}+$`, 'gu'), '');

export function echoVariants(): Variant[] {
  return [
    variant({
      name: 'variant.echo-php-forms',
      gaps: ['echo'],
      rules: ['TXN-CREATE-ECHO', 'TXN-CREATE-OPEN-INPUT'],
      operations: ['createTransaction'],
      description:
        "descriptions and callback URLs stored through PHP's trim() " +
        '(NUL and vertical tab stripped, a no-break space kept)',
      create: echoStoredAs(phpTrim, phpTrim),
    }),
    variant({
      name: 'variant.echo-python-forms',
      gaps: ['echo'],
      rules: ['TXN-CREATE-ECHO', 'TXN-CREATE-OPEN-INPUT'],
      operations: ['createTransaction'],
      description:
        "descriptions through Python's str.strip(), callback URLs as pydantic's HttpUrl writes them " +
        '(an internationalised host in punycode, the scheme as sent: HTTPS://xn--bcher-kva.example/cb)',
      create: echoStoredAs(pythonStrip, pydanticUrl),
    }),
    variant({
      name: 'variant.echo-go-forms',
      gaps: ['echo'],
      rules: ['TXN-CREATE-ECHO', 'TXN-CREATE-OPEN-INPUT'],
      operations: ['createTransaction'],
      description:
        "descriptions through Go's strings.TrimSpace, callback URLs as url.Parse(...).String() writes them " +
        '(lower-case scheme, non-ASCII host and path bytes percent-encoded)',
      create: echoStoredAs(goTrimSpace, goUrl),
    }),
    variant({
      name: 'variant.echo-nfd-rfc3986',
      gaps: ['echo'],
      rules: ['TXN-CREATE-ECHO', 'TXN-CREATE-OPEN-INPUT'],
      operations: ['createTransaction'],
      description:
        'descriptions stored in Unicode NFD, callback URLs normalised by RFC 3986 section 6.2.2 ' +
        '(scheme and host case, unreserved characters decoded, percent-encoding in upper case)',
      create: echoStoredAs((text) => text.normalize('NFD'), rfc3986Url),
    }),
    variant({
      name: 'variant.normalising-echo',
      gaps: ['echo'],
      rules: ['TXN-CREATE-ECHO', 'TXN-CREATE-OPEN-INPUT'],
      operations: ['createTransaction'],
      description: 'descriptions stored trimmed and in Unicode NFC, callback URLs as a URL parser writes them',
      create: () => ({
        onSend: (c) => {
          if (!isSuccess(c.status) || !isObject(c.json)) return undefined;
          const json = { ...c.json };
          if (typeof json.description === 'string') json.description = json.description.normalize('NFC').trim();
          if (typeof json.callback_url === 'string') {
            try {
              json.callback_url = new URL(json.callback_url).href;
            } catch {
              // not a URL: stored as sent
            }
          }
          return { json };
        },
      }),
    }),
  ];
}
