/**
 * Where the bodies of exchanges waiting for the judge go when they would take more memory than the
 * queue's budget: one temporary file, written at its end and read back by offset when the exchange
 * is handed to the judge, so that a judge that falls behind costs disk, not memory, and nothing is
 * forgotten. The file is unlinked as soon as it is opened (only this process holds it: nothing is
 * left behind, whatever ends the process) and is created readable by its owner alone, since the
 * bodies it holds may carry secrets. Once nothing written is still waiting, it is cut back to
 * nothing. Past its byte budget it refuses more, and the queue holds new exchanges instead.
 */
import { closeSync, ftruncateSync, mkdtempSync, openSync, readSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A body moved to the spill file: where it is. */
export interface SpilledBytes {
  offset: number;
  length: number;
}

export class SpillFile {
  private readonly maxBytes: number;
  private fd: number | undefined;
  private end = 0;
  private outstanding = 0;
  /** Bytes written over the file's life, and the bodies. */
  written = 0;
  bodies = 0;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  private open(): number {
    if (this.fd !== undefined) return this.fd;
    const directory = mkdtempSync(join(tmpdir(), 'collect-conformance-spill-'));
    const path = join(directory, 'bodies');
    this.fd = openSync(path, 'w+', 0o600);
    unlinkSync(path);
    rmSync(directory, { recursive: true, force: true });
    return this.fd;
  }

  /** Bytes held now (written and not yet read back). */
  get held(): number {
    return this.end;
  }

  /** Writes the bytes at the end of the file; undefined when the file's budget would be passed. */
  write(bytes: Uint8Array): SpilledBytes | undefined {
    if (this.end + bytes.length > this.maxBytes) return undefined;
    const fd = this.open();
    let done = 0;
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, this.end + done);
    const spilled = { offset: this.end, length: bytes.length };
    this.end += bytes.length;
    this.outstanding++;
    this.written += bytes.length;
    this.bodies++;
    return spilled;
  }

  /** Reads a body back, and lets its place go: once nothing is outstanding the file is emptied. */
  take(spilled: SpilledBytes): Buffer {
    // Its own memory (never a pooled slice): it may be transferred to another thread.
    const bytes = Buffer.from(new ArrayBuffer(spilled.length));
    let done = 0;
    while (done < spilled.length) {
      const read = readSync(this.fd!, bytes, done, spilled.length - done, spilled.offset + done);
      if (read === 0) break;
      done += read;
    }
    this.outstanding--;
    if (this.outstanding === 0) {
      ftruncateSync(this.fd!, 0);
      this.end = 0;
    }
    return bytes;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.end = 0;
    this.outstanding = 0;
  }
}
