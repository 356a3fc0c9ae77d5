/**
 * What a JSON text is before anything parses it, found by one scan of its characters: how deep its
 * arrays and objects nest (a body nested 100,000 levels deep costs one pass, never a deep recursion
 * in a parser, a validator or a serializer), and the first object that names a member twice. RFC 8259
 * section 4: the names within an object SHOULD be unique; where they are not, parsers differ (the
 * last one wins in JavaScript, the first in others, some refuse), so a reader of such an answer cannot
 * know which value the server meant.
 */
import { escapePointerToken } from './json-pointer.ts';

/** Nesting beyond this is not read further: no answer of this API comes near it, every recursion survives it. */
export const maxJsonDepth = 512;

export interface JsonTextScan {
  /** Nests deeper than the limit scanned for (the scan stopped there). */
  tooDeep: boolean;
  /** The first member named twice in one object: the object's JSON pointer, and the name. */
  duplicate?: { pointer: string; name: string };
}

interface Level {
  object: boolean;
  /** Objects: the names seen, and the last one (the member being read). Arrays: the index being read. */
  names?: Set<string>;
  key: string;
  index: number;
}

/** The name a JSON string literal holds (its escapes decoded). */
function nameOf(literal: string): string {
  if (!literal.includes('\\')) return literal.slice(1, -1);
  try {
    return JSON.parse(literal) as string;
  } catch {
    return literal.slice(1, -1);
  }
}

/** Whether a JSON text nests deeper than `limit` (outside strings). */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Scans a JSON text (well formed or not: what is not JSON is for the parser to say) for its nesting and its
 * first duplicate member name.
 */
export function scanJsonText(text: string, depthLimit: number = maxJsonDepth): JsonTextScan {
  const levels: Level[] = [];
  let expectingName = false;
  let duplicate: JsonTextScan['duplicate'];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: its end, escapes skipped.
      const start = i;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
      const level = levels.at(-1);
      if (expectingName && level?.object) {
        expectingName = false;
        const name = nameOf(text.slice(start, i + 1));
        if (duplicate === undefined && level.names!.has(name)) {
          const pointer = levels
            .slice(0, -1)
            .map((outer) => `/${outer.object ? escapePointerToken(outer.key) : outer.index}`)
            .join('');
          duplicate = { pointer, name };
        }
        level.names!.add(name);
        level.key = name;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (levels.length >= depthLimit) return { tooDeep: true, ...(duplicate ? { duplicate } : {}) };
      const object = c === 0x7b;
      levels.push(object ? { object, names: new Set(), key: '', index: 0 } : { object, key: '', index: 0 });
      expectingName = object;
    } else if (c === 0x7d || c === 0x5d) {
      levels.pop();
      expectingName = false;
    } else if (c === 0x2c) {
      const level = levels.at(-1);
      if (level?.object) expectingName = true;
      else if (level !== undefined) level.index++;
    }
  }
  return { tooDeep: false, ...(duplicate ? { duplicate } : {}) };
}
