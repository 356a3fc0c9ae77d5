/**
 * Recorded traffic in HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), as browsers'
 * developer tools, Playwright's recordHar, mitmproxy and Charles write it: the entries in their
 * recorded order, as exchanges for the judge. An entry that cannot be judged (no response, an
 * aborted request, a body that is not text) is listed with why, and skipped; a file that is not
 * a HAR at all is one line.
 */
import { readFileSync } from 'node:fs';
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

export interface HarTraffic {
  exchanges: TrafficExchange[];
  skipped: SkippedEntry[];
  /** True when at least one request carries an Authorization header (a HAR exported with its credentials). */
  credentialsRecorded: boolean;
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

/** One entry as an exchange, or why it cannot be judged. */
function exchangeOf(entry: HarEntry, file: string, index: number, order: number): TrafficExchange | string {
  const request = entry.request;
  const response = entry.response;
  if (request === undefined || typeof request.method !== 'string' || typeof request.url !== 'string')
    return 'no request method or URL';
  if (response === undefined || typeof response.status !== 'number') return 'no response';
  if (response.status === 0) return 'no answer was received (status 0: aborted or blocked)';
  const requestHeaders = headersOf(request.headers);
  const responseHeaders = headersOf(response.headers);
  if (requestHeaders === undefined || responseHeaders === undefined) return 'headers that are not a list of name/value';
  const started = typeof entry.startedDateTime === 'string' ? Date.parse(entry.startedDateTime) : Number.NaN;
  if (Number.isNaN(started)) return 'no startedDateTime';
  const text = response.content?.text;
  let responseBody = '';
  let incomplete: string | undefined;
  if (typeof text === 'string')
    responseBody = response.content?.encoding === 'base64' ? Buffer.from(text, 'base64').toString('utf8') : text;
  else if (typeof response.content?.size === 'number' && response.content.size > 0)
    incomplete = 'the answer’s body was not recorded';
  const requestText = request.postData?.text;
  return {
    index: order,
    source: { kind: 'har', file, entry: index },
    method: request.method,
    url: request.url,
    requestHeaders,
    requestBody: typeof requestText === 'string' ? requestText : undefined,
    status: response.status,
    responseHeaders,
    responseBody,
    startedAt: started,
    endedAt: started + (typeof entry.time === 'number' && entry.time > 0 ? entry.time : 0),
    ...(incomplete === undefined ? {} : { incomplete }),
  };
}

/** The exchanges of several HAR files, in their recorded order, file after file. */
export function readHarFiles(files: readonly string[]): HarTraffic {
  const exchanges: TrafficExchange[] = [];
  const skipped: SkippedEntry[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new HarError(
        `${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
    let document: { log?: { entries?: unknown } };
    try {
      document = JSON.parse(text) as typeof document;
    } catch (error) {
      throw new HarError(`${file}: not a HAR file: not JSON (${(error as Error).message.slice(0, 120)})`);
    }
    const entries = document?.log?.entries;
    if (!Array.isArray(entries)) throw new HarError(`${file}: not a HAR file: no log.entries list`);
    entries.forEach((entry: HarEntry, index) => {
      const found = exchangeOf(entry ?? {}, file, index, exchanges.length);
      if (typeof found === 'string') skipped.push({ file, entry: index, why: found });
      else exchanges.push(found);
    });
  }
  const credentialsRecorded = exchanges.some((exchange) =>
    exchange.requestHeaders.some(([name]) => name.toLowerCase() === 'authorization'),
  );
  return { exchanges, skipped, credentialsRecorded };
}
