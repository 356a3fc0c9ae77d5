/**
 * Bounded copies of the bodies a proxy forwards, and a bounded decompressed copy of a compressed
 * one. The proxy forwards every byte; what it keeps for judging stops at a limit, so that a large
 * upload or download costs the proxy at most the limit, and a small compressed body that inflates
 * to gigabytes costs no more.
 */
import { constants, createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import type { Transform } from 'node:stream';
import type { SpilledBytes } from './spill-file.ts';

export const defaultCaptureLimit = 1024 * 1024;

export interface CapturedBody {
  /** The first bytes of the body, at most the capture limit. */
  bytes: Buffer;
  /** How many bytes passed in all. */
  size: number;
  /** Whether bytes stops short of the whole body (past the capture limit). */
  truncated: boolean;
  /** Set while the bytes wait in the spill file (bytes is then empty): where they are. */
  spilled?: SpilledBytes;
}

/**
 * The bytes in memory of their own, never a slice of a shared pool: such a buffer can be moved to
 * another thread (postMessage's transfer list) instead of copied.
 */
export function ownBuffer(bytes: Buffer): Buffer {
  if (
    bytes.byteOffset === 0 &&
    bytes.buffer.byteLength === bytes.length &&
    !(bytes.buffer instanceof SharedArrayBuffer)
  )
    return bytes;
  const own = Buffer.from(new ArrayBuffer(bytes.length));
  bytes.copy(own);
  return own;
}

export const emptyBody: CapturedBody = Object.freeze({ bytes: Buffer.alloc(0), size: 0, truncated: false });

/** Keeps the first `limit` bytes of what passes, and counts the rest. */
export class BodyCapture {
  readonly limit: number;
  size = 0;
  private kept = 0;
  private chunks: Buffer[] = [];

  constructor(limit: number) {
    this.limit = limit;
  }

  add(chunk: Buffer): void {
    this.size += chunk.length;
    const room = this.limit - this.kept;
    if (room <= 0) return;
    const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.chunks.push(part);
    this.kept += part.length;
  }

  /**
   * The capture, copied into a buffer of its own: the chunks a socket delivers are views of its
   * larger read buffers, which a kept view would hold in memory long after the exchange.
   */
  result(): CapturedBody {
    // Memory of its own (Buffer.concat may take a slice of node's shared pool): it is moved to the judge's thread.
    const bytes = Buffer.from(new ArrayBuffer(this.kept));
    let at = 0;
    for (const chunk of this.chunks) at += chunk.copy(bytes, at);
    this.chunks = [];
    return { bytes, size: this.size, truncated: this.size > this.kept };
  }
}

export interface DecodedBody {
  /** The decompressed bytes, at most the capture limit. */
  bytes: Buffer;
  /** Whether bytes stops short: the captured input was truncated, or the output reached the limit. */
  truncated: boolean;
  /** The codings removed, in the order they were removed (the reverse of Content-Encoding's). */
  codings: string[];
  /** Why decoding stopped early (a corrupt stream, a coding zlib has not), or null. */
  error: string | null;
}

type Coding = 'gzip' | 'deflate' | 'br';

/** Content-Encoding as the list of codings applied, in order; identity is no coding. */
export function contentCodings(header: string | undefined): string[] {
  if (header === undefined) return [];
  return header
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

function knownCoding(coding: string): Coding | null {
  if (coding === 'gzip' || coding === 'x-gzip') return 'gzip';
  if (coding === 'deflate' || coding === 'br') return coding;
  return null;
}

/**
 * "deflate" is the zlib format (RFC 9110 8.4.1.2), but servers have long sent raw deflate under
 * that name; a zlib stream starts with a header whose check bits make its first two bytes a multiple of 31.
 */
export function isZlibWrapped(bytes: Buffer): boolean {
  if (bytes.length < 2) return true;
  const first = bytes[0]!;
  return (first & 0x0f) === 8 && first >> 4 <= 7 && ((first << 8) | bytes[1]!) % 31 === 0;
}

function decompressor(coding: Coding, input: Buffer, lenient: boolean): Transform {
  // A truncated capture is decoded as far as it goes: flushing instead of finishing does not fail
  // on the missing end. A whole body is held to its end, so that a corrupt one says so.
  const flush = lenient ? constants.Z_SYNC_FLUSH : constants.Z_FINISH;
  if (coding === 'br')
    return createBrotliDecompress({
      finishFlush: lenient ? constants.BROTLI_OPERATION_FLUSH : constants.BROTLI_OPERATION_FINISH,
    });
  if (coding === 'gzip') return createGunzip({ finishFlush: flush });
  return isZlibWrapped(input) ? createInflate({ finishFlush: flush }) : createInflateRaw({ finishFlush: flush });
}

interface LayerResult {
  bytes: Buffer;
  truncated: boolean;
  error: string | null;
}

function decodeLayer(coding: Coding, input: Buffer, limit: number, lenient: boolean): Promise<LayerResult> {
  return new Promise((done) => {
    const stream = decompressor(coding, input, lenient);
    const chunks: Buffer[] = [];
    let kept = 0;
    let settled = false;
    const settle = (truncated: boolean, error: string | null): void => {
      if (settled) return;
      settled = true;
      done({ bytes: Buffer.concat(chunks, kept), truncated, error });
    };
    stream.on('data', (chunk: Buffer) => {
      if (settled) return;
      const room = limit - kept;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        kept += room;
        settle(true, null);
        stream.destroy();
        return;
      }
      chunks.push(chunk);
      kept += chunk.length;
    });
    stream.on('end', () => settle(false, null));
    stream.on('error', (error: Error) => settle(true, `${coding}: ${error.message}`));
    stream.end(input);
  });
}

/**
 * A decompressed copy of a captured body, when its Content-Encoding names codings; null when it
 * names none. Bounded by `limit` whatever the body inflates to.
 */
export async function decodeBody(
  body: CapturedBody,
  contentEncoding: string | undefined,
  limit: number,
): Promise<DecodedBody | null> {
  const codings = contentCodings(contentEncoding);
  if (codings.length === 0) return null;
  let bytes = body.bytes;
  let truncated = body.truncated;
  const removed: string[] = [];
  for (const coding of codings.reverse()) {
    const known = knownCoding(coding);
    if (known === null)
      return { bytes, truncated, codings: removed, error: `${coding}: not a coding the proxy decodes` };
    const layer = await decodeLayer(known, bytes, limit, truncated);
    removed.push(coding);
    bytes = layer.bytes;
    truncated ||= layer.truncated;
    if (layer.error !== null) return { bytes, truncated, codings: removed, error: layer.error };
  }
  return { bytes, truncated, codings: removed, error: null };
}
