/**
 * Headers as a proxy sees them: a list of name/value pairs in the order and case they came in
 * (node's rawHeaders), and the split between end-to-end headers, which the proxy passes on, and
 * hop-by-hop ones, which describe one connection and are the proxy's own on each side.
 */

/** One header as it was written: its name in its own case, and its value. */
export type HeaderPair = readonly [name: string, value: string];

/**
 * RFC 9110 7.6.1 and RFC 9112: these describe the connection they travel on (its framing, its
 * persistence, an upgrade of it, the proxy's own credentials), so each side of a proxy has its own.
 * Trailer is not one of them (RFC 9110 6.6.2: it announces the trailer fields, which go end to end),
 * but it only means something in a chunked message: see withoutTrailerAnnouncement.
 */
const hopByHop = new Set(['connection', 'keep-alive', 'te', 'transfer-encoding', 'upgrade']);

export function isHopByHop(lowerCaseName: string): boolean {
  return hopByHop.has(lowerCaseName) || lowerCaseName.startsWith('proxy-');
}

/** node's rawHeaders ([name, value, name, value, ...]) as pairs, duplicates and case kept. */
export function headerPairs(raw: readonly string[]): HeaderPair[] {
  const pairs: HeaderPair[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i]!, raw[i + 1]!]);
  return pairs;
}

/** The first value of a header, whatever the case of its name. */
export function headerValue(pairs: readonly HeaderPair[], name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [key, value] of pairs) if (key.toLowerCase() === lower) return value;
  return undefined;
}

/**
 * The end-to-end headers of a message, as a flat raw list (what node's writeHead and request take
 * for names in their own case and duplicates): without the hop-by-hop headers, without the headers
 * its Connection header names (they are hop-by-hop for that message), and without the names in
 * `drop` (lower case).
 */
export function endToEndHeaders(raw: readonly string[], drop?: ReadonlySet<string>): string[] {
  let named: Set<string> | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() !== 'connection') continue;
    named ??= new Set();
    for (const name of raw[i + 1]!.split(',')) {
      const trimmed = name.trim().toLowerCase();
      if (trimmed !== '') named.add(trimmed);
    }
  }
  const kept: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const lower = raw[i]!.toLowerCase();
    if (isHopByHop(lower) || named?.has(lower) || drop?.has(lower)) continue;
    kept.push(raw[i]!, raw[i + 1]!);
  }
  return kept;
}

/** Pairs as the flat list node takes. */
export function flatHeaders(pairs: readonly HeaderPair[]): string[] {
  const flat: string[] = [];
  for (const [name, value] of pairs) flat.push(name, value);
  return flat;
}

/**
 * The flat list without its Trailer header: a message that is not sent chunked carries no trailer
 * section, and node refuses to write a Trailer header there.
 */
export function withoutTrailerAnnouncement(flat: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2)
    if (flat[i]!.toLowerCase() !== 'trailer') kept.push(flat[i]!, flat[i + 1]!);
  return kept;
}
