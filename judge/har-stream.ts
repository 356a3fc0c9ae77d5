/**
 * The entries of a HAR file, one at a time, read as a stream: memory holds one entry (and one chunk of
 * the file), never the file, so that a recording of millions of entries or many gigabytes is read in
 * bounded memory. One scan of the bytes follows JSON's strings and nesting to find `log.entries` and
 * the text of each of its elements, which JSON.parse then reads. A string longer than the judge reads
 * (a body of hundreds of megabytes) is replaced in that text by a marker with its size, so that its
 * entry is still read, and judged by its status and headers. A leading byte-order mark is skipped.
 */
import { createReadStream } from 'node:fs';

/** The longest string of an entry kept; a longer one becomes a marker (its entry is judged without it). */
export const maxStringBytes = 64 * 1024 * 1024;
/** The most bytes of one entry read (its long strings already cut): past it the entry is too large to read. */
export const maxEntryBytes = 256 * 1024 * 1024;

/** What replaces a string too long to keep, inside a JSON string: the size in bytes follows it. */
export const tooLongMarker = '\u0000collect-conformance: too long: ';
const markerJson = '\\u0000collect-conformance: too long: ';

export type RawEntry =
  | { index: number; text: string }
  /** An entry larger than maxEntryBytes even without its long strings: not read. */
  | { index: number; tooLarge: number };

/** The file's structure is not a HAR's (not JSON, no log.entries list): one line, naming the file. */
export class HarStructureError extends Error {
  override name = 'HarStructureError';
}

const Byte = {
  quote: 0x22,
  backslash: 0x5c,
  openObject: 0x7b,
  closeObject: 0x7d,
  openArray: 0x5b,
  closeArray: 0x5d,
  comma: 0x2c,
  colon: 0x3a,
} as const;

const isSpace = (byte: number): boolean => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/** The parts of one entry's text as it is read, with the long strings cut out. */
class EntryText {
  parts: Buffer[] = [];
  length = 0;
  skipped = 0;
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  push(part: Buffer): void {
    if (part.length === 0) return;
    if (this.length + part.length > this.limit) {
      this.skipped += part.length;
      return;
    }
    this.parts.push(part);
    this.length += part.length;
  }

  /** Cuts the text back to `length` bytes (a string that turned out too long is removed from its start). */
  cut(length: number): void {
    while (this.length > length) {
      const last = this.parts.at(-1)!;
      const extra = this.length - length;
      if (last.length <= extra) {
        this.parts.pop();
        this.length -= last.length;
      } else {
        this.parts[this.parts.length - 1] = last.subarray(0, last.length - extra);
        this.length -= extra;
      }
    }
  }

  take(): Buffer {
    const text = Buffer.concat(this.parts, this.length);
    this.parts = [];
    this.length = 0;
    this.skipped = 0;
    return text;
  }
}

/**
 * The entries of a HAR file, in their order. Throws HarStructureError when the file is not a HAR (its bytes end
 * inside a value, no log.entries list is found, text follows the document).
 */
export interface HarStreamLimits {
  maxStringBytes: number;
  maxEntryBytes: number;
  /** Bytes read at a time. */
  chunkBytes: number;
}

const defaultLimits: HarStreamLimits = { maxStringBytes, maxEntryBytes, chunkBytes: 1024 * 1024 };

export async function* harEntries(file: string, limits: Partial<HarStreamLimits> = {}): AsyncGenerator<RawEntry> {
  const { maxStringBytes: stringLimit, maxEntryBytes: entryLimit, chunkBytes } = { ...defaultLimits, ...limits };
  const stack: number[] = [];
  /** The member name being read at depth 1 and 2 (log, entries), and whether a name comes next at each depth. */
  const names: string[] = [];
  let expectingName = false;
  let inString = false;
  let escaped = false;
  let stringIsName = false;
  let name = '';
  /** Inside log.entries: the depth of the array, else -1; whether its entries were found at all. */
  let entriesDepth = -1;
  let found = false;
  let ended = false;
  let first = true;
  let index = 0;
  /** The entry being read: its text, where it started in this chunk, where its current string started. */
  let entry: EntryText | undefined;
  let segmentStart = 0;
  let stringStartLength = -1;
  /** Where the current string's opening quote is, in bytes from the start of the file. */
  let stringStart = 0;
  let longString = false;
  let position = 0;

  const newEntry = (): EntryText => new EntryText(entryLimit);
  const finishEntry = (chunk: Buffer, end: number): RawEntry => {
    const current = entry!;
    current.push(chunk.subarray(segmentStart, end));
    entry = undefined;
    const skipped = current.skipped;
    const text = current.take();
    return skipped > 0
      ? { index: index++, tooLarge: text.length + skipped }
      : { index: index++, text: text.toString('utf8') };
  };

  const stream = createReadStream(file, { highWaterMark: chunkBytes });
  for await (const data of stream) {
    let chunk = data as Buffer;
    if (first) {
      first = false;
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) chunk = chunk.subarray(3);
    }
    segmentStart = 0;
    const ready: RawEntry[] = [];
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (inString) {
        if (entry !== undefined && !longString && position + i - stringStart > stringLimit) {
          // Too long to keep: the string goes from its opening quote on, the marker takes its place at its end.
          longString = true;
          entry.push(chunk.subarray(segmentStart, i));
          entry.cut(stringStartLength);
        }
        if (escaped) escaped = false;
        else if (byte === Byte.backslash) escaped = true;
        else if (byte === Byte.quote) {
          inString = false;
          if (longString) {
            longString = false;
            entry!.push(Buffer.from(`"${markerJson}${position + i - stringStart - 1}`, 'latin1'));
            segmentStart = i;
          }
          if (stringIsName) {
            names[stack.length] = name;
            stringIsName = false;
          }
        } else if (stringIsName && name.length < 64) name += String.fromCharCode(byte);
        continue;
      }
      if (isSpace(byte)) continue;
      if (ended)
        throw new HarStructureError(`not JSON: text follows the end of the document (at byte ${position + i})`);
      const depth = stack.length;
      if (depth === entriesDepth && entry === undefined && byte !== Byte.comma && byte !== Byte.closeArray) {
        entry = newEntry();
        segmentStart = i;
      }
      if (byte === Byte.quote) {
        inString = true;
        stringIsName = expectingName && depth <= 2;
        expectingName = false;
        name = '';
        if (entry !== undefined) {
          stringStartLength = entry.length + (i - segmentStart);
          stringStart = position + i;
        }
      } else if (byte === Byte.openObject || byte === Byte.openArray) {
        if (
          byte === Byte.openArray &&
          depth === 2 &&
          stack[0] === Byte.openObject &&
          stack[1] === Byte.openObject &&
          names[1] === 'log' &&
          names[2] === 'entries'
        ) {
          entriesDepth = 3;
          found = true;
        }
        stack.push(byte);
        expectingName = byte === Byte.openObject;
      } else if (byte === Byte.closeObject || byte === Byte.closeArray) {
        if (depth === entriesDepth && byte === Byte.closeArray) {
          if (entry !== undefined) ready.push(finishEntry(chunk, i));
          entriesDepth = -1;
        }
        const open = stack.pop();
        if (open !== (byte === Byte.closeObject ? Byte.openObject : Byte.openArray))
          throw new HarStructureError(`not JSON: a bracket that closes nothing (at byte ${position + i})`);
        if (stack.length === 0) ended = true;
        expectingName = false;
      } else if (byte === Byte.comma) {
        if (depth === entriesDepth && entry !== undefined) ready.push(finishEntry(chunk, i));
        expectingName = stack.at(-1) === Byte.openObject;
      } else if (byte === Byte.colon) expectingName = false;
    }
    if (entry !== undefined && !longString) entry.push(chunk.subarray(segmentStart));
    position += chunk.length;
    yield* ready;
  }
  if (stack.length > 0 || inString)
    throw new HarStructureError(`not JSON: it ends inside a value (after ${position} bytes: cut short?)`);
  if (!found) throw new HarStructureError('not a HAR file: no log.entries list');
}
