/**
 * Values at the edges of what the reference allows: the "boundary" mode of the arbitraries
 * (generation/arbitraries.ts), chosen by the schema's type and the format or pattern
 * its layers give a field. A server that crashes on extreme-but-valid input has a real bug,
 * and one that stores such input wrongly too; the suite's safe values never show either.
 *
 * Every arbitrary here shrinks towards its plainest case (the first constant, the shortest
 * text, the smallest number past a bound), so a failure at an edge is reported at the edge.
 */
import fc from 'fast-check';
import { standInFor } from '../contract/big-integers.ts';

/** Pieces of text of one kind each: mixed and repeated, they make the edge strings. */
export const textPieces = {
  ascii: 'Order 42',
  accents: 'déjà vu, ñandú, Ærø',
  cjk: '漢字テスト中文',
  rightToLeft: 'مرحبا שלום',
  combining: 'e\u0301 a\u0308 n\u0303',
  astral: '😀🇧🇯𝄞🂡',
  zeroWidth: 'a\u200bb\u200dc\ufeff',
  controls: '\u0001\u0007\u001b\u007f\u0085',
  nul: '\u0000',
  quotes: `"'\\\`<>&{}`,
  whitespace: ' \t\n\u00a0\u2028',
} as const;

const piece = fc.constantFrom(...Object.values(textPieces));
const blank = fc.constantFrom(' ', '  ', '\t', '\n', '\u00a0', ' \t\n ');

/**
 * Edge strings: empty, white space only, white space at the ends, Unicode of every kind
 * (accents, CJK, right-to-left, combining marks, characters beyond the Basic Multilingual
 * Plane), zero-width and control characters, NUL, quotes and backslashes, and lengths from a
 * few characters to 10,000.
 */
export const edgeText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', ' ', '\t\n', '\u00a0'),
  fc.array(piece, { minLength: 1, maxLength: 5 }).map((pieces) => pieces.join(' ')),
  fc
    .tuple(blank, fc.constantFrom('Order 42', textPieces.accents, textPieces.astral), blank)
    .map(([before, text, after]) => `${before}${text}${after}`),
  // Lengths past the common limits (121, 256, 1,024, 4,096...), of ASCII or of one piece repeated.
  fc
    .tuple(fc.integer({ min: 121, max: 10_000 }), fc.constantFrom('x', 'é', '漢', '😀'))
    .map(([length, unit]) => unit.repeat(length)),
);

/** Ways to move a plain e-mail address to an edge while keeping its local part (which carries the run id). */
const emailNudges: ReadonlyArray<(local: string, domain: string) => string> = [
  (local, domain) => `${local}+tag@${domain}`,
  (local, domain) => `${local}%25x@${domain}`,
  (local, domain) => `${local.toUpperCase()}@${domain.toUpperCase()}`,
  (local, domain) => `${local}.josé@${domain}`,
  (local) => `${local}@sub.example.co.uk`,
  (local) => `${local}@bücher.example`,
  (local) => `${local}@[127.0.0.1]`,
  (local, domain) => `${local.padEnd(64, 'x')}@${domain}`,
  (local, domain) => `${local}.o'brien@${domain}`,
];

/**
 * Edge e-mail addresses near plain ones: + and % in the local
 * part, upper case, long, Unicode, subdomains, an address literal.
 */
export function nudgedEmail(plain: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(plain, fc.nat({ max: emailNudges.length - 1 })).map(([address, index]) => {
    const at = address.lastIndexOf('@');
    return emailNudges[index]!(address.slice(0, at), address.slice(at + 1));
  });
}

/**
 * Edge URLs: query strings, fragments, explicit ports (default, others, one digit), percent-encoding,
 * internationalised host names, hosts without a top-level domain of the root zone, upper case, address
 * literals, dot segments, paths past 200 characters (Django's URLField) and past 1,000.
 */
export const edgeUrl: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('https', 'http', 'HTTPS'),
    fc.constantFrom(
      'example.com',
      'EXAMPLE.com',
      'bücher.example',
      '例え.テスト',
      '127.0.0.1',
      '[::1]',
      'api.sub.example.org',
      // Hosts without a top-level domain of the root zone, which validators that require one refuse.
      'shop.example',
      'localhost',
    ),
    fc.constantFrom('', ':8443', ':443', ':80', ':65535', ':8'),
    fc.constantFrom(
      '/cb',
      '/',
      '/a b',
      '/caf%C3%A9',
      '/très/bien',
      '/%2F%2F',
      '/./a/../cb',
      // Past Django's URLField (200 characters), past 1,000.
      `/${'x'.repeat(190)}`,
      '/x'.repeat(500),
    ),
    fc.constantFrom('', '?a=1&b=2', '?q=%20x+y', '?redirect=https%3A%2F%2Fexample.org%2F', '?'),
    fc.constantFrom('', '#frag', '#/route?x=1'),
  )
  .map(([scheme, host, port, path, query, fragment]) => `${scheme}://${host}${port}${path}${query}${fragment}`);

/** Integers beyond JavaScript's exact range, as stand-ins that the suite writes back as their exact digits. */
const beyondSafe = fc
  .constantFrom(
    '9007199254740993',
    '9223372036854775807',
    '18446744073709551616',
    '100000000000000000000',
    '-9223372036854775808',
  )
  .map((digits) => standInFor(digits));

/**
 * Edge integers: 0, ±1, the 32-bit bounds and just past them, 2^32, the largest exact
 * JavaScript integer, and integers beyond it (kept exact: contract/big-integers.ts).
 */
export function edgeInteger(minimum?: number, maximum?: number): fc.Arbitrary<number> {
  const within = (value: number): boolean =>
    (minimum === undefined || value >= minimum) && (maximum === undefined || value <= maximum);
  const named = [
    0,
    1,
    -1,
    2 ** 31 - 1,
    2 ** 31,
    -(2 ** 31),
    -(2 ** 31) - 1,
    2 ** 32,
    2 ** 53 - 1,
    -(2 ** 53 - 1),
  ].filter(within);
  const options: Array<fc.Arbitrary<number>> = [];
  if (named.length > 0) options.push(fc.constantFrom(...named));
  options.push(fc.integer({ min: minimum ?? -(2 ** 31), max: maximum ?? 2 ** 31 - 1 }));
  if (maximum === undefined) options.push(beyondSafe.filter(within));
  return fc.oneof(...options);
}

/** Keys of free-form objects at the edge: non-ASCII, long, empty, with dots, slashes or dollars, prototype names. */
const edgeKey = fc.oneof(
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 8 }),
  fc.constantFrom(
    'clé',
    '键',
    '😀',
    'ключ',
    'a.b',
    'a/b',
    '$where',
    ' padded ',
    '',
    'k'.repeat(300),
    '__proto__',
    'constructor',
  ),
);

/**
 * Edge free-form objects (custom_metadata): empty, nested objects and arrays (bounded depth),
 * many keys, keys at the edge.
 */
export const edgeObject: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.constant({}),
  fc.dictionary(edgeKey, fc.jsonValue({ maxDepth: 4 }), { maxKeys: 6 }),
  fc
    .integer({ min: 20, max: 400 })
    .map((count) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`key_${index}`, index]))),
  fc.integer({ min: 5, max: 30 }).map((levels) => {
    let value: unknown = 'leaf';
    for (let level = 0; level < levels; level++) value = level % 2 === 0 ? { nested: value } : [value];
    return { deep: value };
  }),
);

/** Ways to move a string just off a pattern it meets: case, length, spaces, a sign dropped. */
const nudges: ReadonlyArray<(value: string) => string> = [
  (value) => value.toLowerCase(),
  (value) => `${value}${value.slice(-1) || 'X'}`,
  (value) => value.slice(1),
  (value) => ` ${value} `,
  (value) => value.replace(/^\+/, ''),
  (value) => (value.length > 3 ? `${value.slice(0, 4)} ${value.slice(4, 6)} ${value.slice(6)}` : `${value} `),
  (value) => value.replace(/^\+/, '00'),
  (value) => value.toUpperCase().split('').reverse().join(''),
];

/** Neighbours of safe values of a field whose layers give it a pattern (a country code, a phone number). */
export function nudged(safe: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(safe, fc.nat({ max: nudges.length - 1 })).map(([value, index]) => nudges[index]!(value));
}

/**
 * Edge path ids that are not a plain positive integer up to 2^53 − 1: zero, leading zeros (of
 * an id that names nothing), integers beyond JavaScript's exact range, beyond 64 bits, twenty
 * digits and more. As text: they travel in the path as written.
 */
export const edgeOddId: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('0', '00', '-1', '18446744073709551616', '123456789012345678901234567890'),
  fc.bigInt({ min: 2n ** 31n, max: 2n ** 40n }).map((id) => `000${id}`),
  fc.bigInt({ min: 2n ** 64n, max: 2n ** 70n }).map(String),
);

/**
 * Edge path ids from 2^53 to 2^64 − 1: integers a service with 64-bit ids (signed or not) may
 * have given out, so a target may know them. Never a 5xx; otherwise what the target says of
 * the id (it existed, it does not, it is out of its range) is its own.
 */
export const edgeLargeId: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '9007199254740993',
    '9223372036854775807',
    '9223372036854775808',
    '12345678901234567890',
    '18446744073709551615',
  ),
  fc.bigInt({ min: 2n ** 53n, max: 2n ** 64n - 1n }).map(String),
);

/** Whether a path id is a plain integer (no leading zero) from 2^53 to 2^64 − 1 (edgeLargeId). */
export function isLargeId(id: string | number): boolean {
  const text = String(id);
  return /^[1-9]\d{15,19}$/.test(text) && BigInt(text) >= 2n ** 53n && BigInt(text) < 2n ** 64n;
}

/**
 * A path id a common integer parser reads as an integer although it is not one in plain decimal: leading
 * zeros, a + sign, white space around it, digit separators, digits of another script (Python's int(), which
 * pydantic and FastAPI apply to a path id; Go's strconv.Atoi takes the sign and the zeros). Such an id names
 * the customer of that number to such a server: 204 or a 4xx, never a 5xx.
 */
export function readsAsInteger(id: string | number): boolean {
  const text = String(id);
  if (/^[1-9]\d*$/.test(text)) return false;
  return /^\s*\+?\p{Nd}+(?:_\p{Nd}+)*\s*$/u.test(text) && /[1-9\p{Nd}]/u.test(text.replace(/0/g, ''));
}

/** Edge path ids that are plain positive integers a service is unlikely to have reached, up to 2^53 − 1. */
export const edgeUnknownId: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 32 + 1, 2 ** 53 - 1),
  fc.integer({ min: 2 ** 31, max: 2 ** 53 - 1 }),
);

/**
 * One representative value of every edge each kind explores, run before the random cases (fast-check
 * examples), so that every edge is met in every run whatever PCS_RUNS says; the random cases then mix
 * and vary them.
 */
export const edgeExamples = {
  text: [
    '',
    ' ',
    '\t\n',
    ' Order 42 ',
    'x'.repeat(256),
    'x'.repeat(10_000),
    '漢'.repeat(300),
    textPieces.accents,
    textPieces.cjk,
    textPieces.rightToLeft,
    textPieces.combining,
    textPieces.astral,
    `Order ${textPieces.zeroWidth}`,
    `Order ${textPieces.controls}`,
    `Order ${textPieces.nul} 42`,
    textPieces.quotes,
  ],
  integer: () => [
    0,
    -1,
    1,
    2 ** 31 - 1,
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 32,
    2 ** 53 - 1,
    standInFor('9007199254740993'),
    standInFor('9223372036854775807'),
    standInFor('18446744073709551616'),
  ],
  url: [
    'https://example.com/cb?a=1&b=2',
    'https://example.com/cb#frag',
    'https://example.com:8443/cb',
    'http://example.com:80/cb',
    'https://example.com:443/cb',
    'https://example.com/caf%C3%A9/a%20b',
    'https://bücher.example/cb',
    'https://例え.テスト/cb',
    'HTTPS://EXAMPLE.com/Cb',
    'https://127.0.0.1/cb',
    'https://[::1]:8443/cb',
    'https://shop.example/cb',
    'http://localhost/cb',
    'https://example.com:8/cb',
    `https://example.com/${'x'.repeat(190)}`,
    `https://example.com${'/x'.repeat(500)}`,
  ],
  object: [
    {},
    { order: { id: 42, lines: [{ sku: 'a', qty: 1 }, null, [true]] } },
    Array.from({ length: 30 }).reduce<Record<string, unknown>>((value) => ({ nested: value }), { leaf: true }),
    Object.fromEntries(Array.from({ length: 400 }, (_, index) => [`key_${index}`, index])),
    { clé: 1, 键: 2, '😀': 3, 'a.b': 4, 'a/b': 5, $where: 6, '': 7 },
    JSON.parse('{"__proto__":1,"constructor":"x"}') as Record<string, unknown>,
  ] as Array<Record<string, unknown>>,
} as const;

/** Every nudge of one safe value of a pattern field. */
export function nudgeExamples(value: string): string[] {
  return [...new Set(nudges.map((nudge) => nudge(value)))];
}

/** Every e-mail nudge of one plain address. */
export function emailExamples(address: string): string[] {
  const at = address.lastIndexOf('@');
  return emailNudges.map((nudge) => nudge(address.slice(0, at), address.slice(at + 1)));
}
