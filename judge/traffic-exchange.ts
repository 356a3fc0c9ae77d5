/**
 * An exchange of traffic the suite did not make (a client's requests seen by the proxy, or read
 * from a recorded HAR), as the judge reads it, and its conversion into the suite's own Exchange,
 * so that the check registry judges it exactly as it judges the suite's requests: headers masked,
 * the body parsed as the suite parses answers (exact big integers), the request named by its path.
 */
import type { OperationId } from '../contract/operations.ts';
import { parseJsonBody, type Exchange } from '../http/exchange.ts';
import { redact } from '../settings/secrets.ts';
import type { VerdictSource } from '../judgment/verdict-record.ts';

export type HeaderList = ReadonlyArray<readonly [string, string]>;

export interface TrafficExchange {
  /** The order the exchange came in (0 first): later answers are held to what earlier ones showed. */
  index: number;
  source: VerdictSource;
  method: string;
  /** The URL as the client sent it. */
  url: string;
  requestHeaders: HeaderList;
  /** The request body as text (UTF-8), absent when there was none. */
  requestBody: string | undefined;
  status: number;
  responseHeaders: HeaderList;
  /** The answer's body as text, decompressed. */
  responseBody: string;
  /** When the request was sent and the answer ended, epoch milliseconds. */
  startedAt: number;
  endedAt: number;
  /** Set when the body was only partly recorded (a proxy's capture bound, a HAR without content): judged without it. */
  incomplete?: string;
  /** With incomplete: its headers do not describe a whole representation either (a 206): judged by its status. */
  statusOnly?: true;
  /** Set when the request's body was only partly kept: its input cannot be classified, so it is not judged. */
  requestIncomplete?: string;
}

/** The value of a header (the first of its name), case-insensitively. */
export function headerValue(headers: HeaderList, name: string): string | undefined {
  const wanted = name.toLowerCase();
  return headers.find(([candidate]) => candidate.toLowerCase() === wanted)?.[1];
}

/** Headers as the suite's exchanges hold them: lower-case names, the credential masked. */
function maskedHeaders(headers: HeaderList): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    if (lower === 'authorization') {
      const scheme = value.trim().split(/\s+/, 1)[0] ?? '';
      result[lower] = value.trim().includes(' ') ? `${scheme} ***` : '***';
    } else result[lower] = redact(value);
  }
  return result;
}

/**
 * The suite's Exchange of a traffic exchange, for `operation`; `path` is relative to the API's base address.
 * keyVariable: the variable that holds the credential it carried (a replay line reads it from there), or null.
 */
export function toExchange(
  traffic: TrafficExchange,
  operation: OperationId,
  path: string,
  keyVariable: string | null,
): Exchange {
  const parsed = parseJsonBody(traffic.responseBody);
  const responseHeaders: Record<string, string> = {};
  for (const [name, value] of traffic.responseHeaders) responseHeaders[name.toLowerCase()] ??= value;
  return {
    operation,
    method: traffic.method.toUpperCase(),
    path,
    url: traffic.url,
    requestHeaders: maskedHeaders(traffic.requestHeaders),
    requestBody: traffic.requestBody,
    status: traffic.status,
    responseHeaders,
    bodyText: traffic.responseBody,
    json: parsed.json,
    jsonError: parsed.jsonError,
    ...(parsed.duplicateName === undefined ? {} : { duplicateName: parsed.duplicateName }),
    durationMs: Math.max(0, Math.round(traffic.endedAt - traffic.startedAt)),
    receivedAt: traffic.endedAt,
    keyVariable,
  };
}
