/**
 * Recorded traffic in HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), as browsers'
 * developer tools, Playwright's recordHar, mitmproxy, Charles and Fiddler write it: the entries in
 * their recorded order, as exchanges for the judge, read as a stream (har-stream.ts), so that a
 * recording of any size is judged in bounded memory. An entry that is no exchange is counted with
 * why: one whose request got no answer (no response, an aborted request), or one that cannot be read
 * (no method or URL, headers that are not a list, not JSON, too large); a file that is not a HAR at
 * all, or that is not a regular file (a directory, a FIFO, a device), is one line, at once.
 */
import { statSync } from 'node:fs';
import { harEntries, HarStructureError, maxEntryBytes, maxStringBytes, tooLongMarker } from './har-stream.ts';
import type { HeaderList, TrafficExchange } from './traffic-exchange.ts';

export class HarError extends Error {
  override name = 'HarError';
}

interface HarHeader {
  name?: unknown;
  value?: unknown;
}

interface HarEntry {
  startedDateTime?: unknown;
  time?: unknown;
  request?: { method?: unknown; url?: unknown; headers?: unknown; postData?: { text?: unknown; mimeType?: unknown } };
  response?: {
    status?: unknown;
    headers?: unknown;
    content?: { text?: unknown; encoding?: unknown; size?: unknown };
  };
}

export interface SkippedEntry {
  file: string;
  entry: number;
  why: string;
}

/**
 * An entry that is no exchange: `unanswered` when its request got no answer (counted, as the proxy counts
 * requests without an answer), else one that could not be read (not judged: the verdict is not a pass).
 */
export interface NotAnExchange extends SkippedEntry {
  unanswered: boolean;
}

const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/** A string of the entry that was too long to keep, as its size in bytes; undefined for any other value. */
function tooLong(value: unknown): number | undefined {
  return typeof value === 'string' && value.startsWith(tooLongMarker)
    ? Number(value.slice(tooLongMarker.length))
    : undefined;
}

function headersOf(value: unknown): HeaderList | undefined {
  if (!Array.isArray(value)) return undefined;
  const headers: Array<[string, string]> = [];
  for (const header of value as HarHeader[]) {
    if (typeof header?.name !== 'string' || typeof header.value !== 'string') return undefined;
    // HTTP/2 pseudo-headers (:authority, :path) describe the request line, not a header.
    if (!header.name.startsWith(':')) headers.push([header.name, header.value]);
  }
  return headers;
}

/** One entry as an exchange, or why it is none (and whether that is because its request got no answer). */
function exchangeOf(
  entry: HarEntry,
  file: string,
  index: number,
  order: number,
): TrafficExchange | { why: string; unanswered: boolean } {
  const request = entry.request;
  const response = entry.response;
  const unread = (why: string) => ({ why, unanswered: false });
  if (request === undefined || typeof request.method !== 'string' || typeof request.url !== 'string')
    return unread('no request method or URL');
  if (response === undefined || typeof response.status !== 'number') return { why: 'no response', unanswered: true };
  if (response.status === 0) return { why: 'no answer was received (status 0: aborted or blocked)', unanswered: true };
  const requestHeaders = headersOf(request.headers);
  const responseHeaders = headersOf(response.headers);
  if (requestHeaders === undefined || responseHeaders === undefined)
    return unread('headers that are not a list of name/value');
  const started = typeof entry.startedDateTime === 'string' ? Date.parse(entry.startedDateTime) : Number.NaN;
  if (Number.isNaN(started)) return unread('no startedDateTime');
  const text = response.content?.text;
  let responseBody = '';
  let incomplete: string | undefined;
  const longAnswer = tooLong(text);
  if (longAnswer !== undefined)
    incomplete = `the answer’s body (${megabytes(longAnswer)}) is longer than the ${megabytes(maxStringBytes)} read`;
  else if (typeof text === 'string')
    responseBody = response.content?.encoding === 'base64' ? Buffer.from(text, 'base64').toString('utf8') : text;
  else if (typeof response.content?.size === 'number' && response.content.size > 0)
    incomplete = 'the answer’s body was not recorded';
  const requestText = request.postData?.text;
  const longRequest = tooLong(requestText);
  return {
    index: order,
    source: { kind: 'har', file, entry: index },
    method: request.method,
    url: request.url,
    requestHeaders,
    requestBody: typeof requestText === 'string' && longRequest === undefined ? requestText : undefined,
    status: response.status,
    responseHeaders,
    responseBody,
    startedAt: started,
    endedAt: started + (typeof entry.time === 'number' && entry.time > 0 ? entry.time : 0),
    ...(incomplete === undefined ? {} : { incomplete }),
    ...(longRequest === undefined
      ? {}
      : {
          requestIncomplete:
            `the request’s body (${megabytes(longRequest)}) is longer than the ` + `${megabytes(maxStringBytes)} read`,
        }),
  };
}

/**
 * Refuses at once what cannot be a recording to read: a missing file, a directory, and anything that is not a
 * regular file (a FIFO or a device would be read once, or never end).
 */
export function checkHarFile(file: string): void {
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(file);
  } catch (error) {
    throw new HarError(
      `${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  if (stats.isDirectory()) throw new HarError(`${file}: is a directory, not a HAR file`);
  if (!stats.isFile())
    throw new HarError(`${file}: is not a regular file (a FIFO, a device or a socket): give a HAR file saved on disk`);
}

export type HarItem =
  | { kind: 'exchange'; exchange: TrafficExchange }
  | { kind: 'not-an-exchange'; entry: NotAnExchange };

/** A failure to read a file, in one line naming it. */
function readFailure(file: string, error: unknown): HarError {
  if (error instanceof HarStructureError) return new HarError(`${file}: ${error.message}`);
  const code = (error as NodeJS.ErrnoException).code;
  return new HarError(`${file}: cannot be read (${code ?? (error as Error).message})`);
}

/** The items of several HAR files, in their recorded order, file after file; `order` counts the exchanges. */
export async function* harItems(files: readonly string[]): AsyncGenerator<HarItem> {
  let order = 0;
  for (const file of files) {
    try {
      for await (const raw of harEntries(file)) {
        // An entry that is no exchange is counted with its reason, never dropped.
        const notAnExchange = (why: string): HarItem => ({
          kind: 'not-an-exchange',
          entry: { file, entry: raw.index, unanswered: false, why },
        });
        if ('tooLarge' in raw) {
          yield notAnExchange(
            `an entry of ${megabytes(raw.tooLarge)}, more than the ${megabytes(maxEntryBytes)} read of one`,
          );
          continue;
        }
        let entry: unknown;
        try {
          entry = JSON.parse(raw.text);
        } catch (error) {
          yield notAnExchange(`not JSON (${(error as Error).message.slice(0, 120)})`);
          continue;
        }
        const found = exchangeOf(
          entry !== null && typeof entry === 'object' ? (entry as HarEntry) : {},
          file,
          raw.index,
          order,
        );
        if ('why' in found) yield { kind: 'not-an-exchange', entry: { file, entry: raw.index, ...found } };
        else {
          order++;
          yield { kind: 'exchange', exchange: found };
        }
      }
    } catch (error) {
      throw readFailure(file, error);
    }
  }
}

/** What the judge must know before the first entry: when the recording began, and whether it carries credentials. */
export interface HarSurvey {
  /** The earliest startedDateTime, epoch milliseconds (Date.now() for a recording without one). */
  earliest: number;
  /** True when at least one request carries an Authorization header (a HAR exported with its credentials). */
  credentialsRecorded: boolean;
  entries: number;
}

/** One pass over the files for what the judge needs first; a file that is not a HAR is a HarError, before judging. */
export async function surveyHarFiles(
  files: readonly string[],
  stopped: () => boolean = () => false,
): Promise<HarSurvey> {
  let earliest = Number.POSITIVE_INFINITY;
  let credentialsRecorded = false;
  let entries = 0;
  for await (const item of harItems(files)) {
    if (stopped()) break;
    entries++;
    if (item.kind !== 'exchange') continue;
    if (item.exchange.startedAt < earliest) earliest = item.exchange.startedAt;
    credentialsRecorded ||= item.exchange.requestHeaders.some(([name]) => name.toLowerCase() === 'authorization');
  }
  return {
    earliest: Number.isFinite(earliest) ? Math.min(earliest, Date.now()) : Date.now(),
    credentialsRecorded,
    entries,
  };
}
