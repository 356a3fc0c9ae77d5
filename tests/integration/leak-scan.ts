/**
 * Where a secret could leak, and in which forms: the files a run wrote (every file under a directory)
 * and the forms a secret takes when written (raw, in either case, URL-encoded, JSON-escaped, and base64
 * and base64url at every alignment, so that base64("canary:") or a Basic credential is found too).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every form in which the canary could be written: a hit on any of them is a leak. */
export function needles(secret: string): Map<string, string> {
  const forms = new Map<string, string>([
    ['raw', secret],
    ['lower case', secret.toLowerCase()],
    ['upper case', secret.toUpperCase()],
    ['URL-encoded', encodeURIComponent(secret)],
    ['JSON-escaped', JSON.stringify(secret).slice(1, -1).replace(/\//g, '\\/')],
  ]);
  const bytes = Buffer.from(secret, 'utf8');
  for (let start = 0; start < 3; start += 1) {
    // The base64 of the canary's bytes from `start`, in whole 3-byte groups: a substring of the base64 of any
    // text that contains the canary at a position ≡ -start (mod 3), e.g. base64("canary:") or "Basic ..." values.
    const usable = Math.floor((bytes.length - start) / 3) * 3;
    const encoded = bytes.subarray(start, start + usable).toString('base64');
    forms.set(`base64 (alignment ${start})`, encoded);
    forms.set(`base64url (alignment ${start})`, encoded.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

/** Every file under a directory, its subdirectories included. */
export function filesUnder(root: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) files.push(...filesUnder(path));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}
