/**
 * One request and its response, as the suite records it: what was sent (credentials
 * masked), what came back, and the body parsed as JSON when it is JSON.
 */
import type { OperationId } from '../contract/operations.ts';
import { redact } from '../settings/secrets.ts';
import { parseJson } from '../contract/big-integers.ts';
import { maxJsonDepth, scanJsonText } from '../contract/json-text.ts';
import { keyVariableName } from '../settings/config.ts';

export interface Exchange {
  operation: OperationId;
  method: string;
  /** Path relative to the base address, e.g. /transactions/12/token. */
  path: string;
  url: string;
  /** Request headers with the Authorization credential masked. */
  requestHeaders: Record<string, string>;
  requestBody: string | undefined;
  status: number;
  responseHeaders: Record<string, string>;
  bodyText: string;
  /** The parsed body, or undefined when it is empty or not JSON (see jsonError). */
  json: unknown;
  jsonError: string | undefined;
  /** The first object of the body that names a member twice (RFC 8259 section 4: ambiguous to every reader). */
  duplicateName?: { pointer: string; name: string };
  durationMs: number;
  /** When the answer arrived, on the suite's clock (epoch ms): the target's clock is judged against it (TIME-NOW). */
  receivedAt?: number;
  /**
   * Sent with another credential than the configured key: the variable a replay reads it from (the second
   * account's key), or null (a wrong or almost-right key: the replay shows it masked, not the valid key).
   */
  keyVariable?: string | null;
}

/**
 * The body as JSON. A body nested deeper than maxJsonDepth is not read further (no check recurses into it); a
 * member named twice in an object is read as JavaScript reads it (the last one), and said (duplicateName).
 */
export function parseJsonBody(
  text: string,
): Pick<Exchange, 'json' | 'jsonError'> & { duplicateName?: Exchange['duplicateName'] } {
  if (text.trim() === '') return { json: undefined, jsonError: 'the body is empty' };
  const scan = scanJsonText(text);
  if (scan.tooDeep)
    return { json: undefined, jsonError: `the body nests deeper than ${maxJsonDepth} levels (not read further)` };
  try {
    return {
      json: parseJson(text),
      jsonError: undefined,
      ...(scan.duplicate === undefined ? {} : { duplicateName: scan.duplicate }),
    };
  } catch (error) {
    return { json: undefined, jsonError: `the body is not JSON (${(error as Error).message})` };
  }
}

/** "POST /v1/transactions → 201": how a request is named in messages and step titles. */
export function describeRequest(exchange: Pick<Exchange, 'method' | 'url'>): string {
  return `${exchange.method} ${new URL(exchange.url).pathname}`;
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * A curl command that repeats the request, with the key masked: it reads the key from the variable the
 * user keeps it in (PCS_SECRET_KEY, or the one named with --secret-key-env), so that it runs where printed.
 */
export function curlCommand(
  exchange: Pick<Exchange, 'method' | 'url' | 'requestHeaders' | 'requestBody' | 'keyVariable'>,
  keyVariable: string = keyVariableName(),
): string {
  const parts = ['curl', '-i', '-X', exchange.method, shellQuote(exchange.url)];
  // The credential the request carried: the configured key, another configured key, or none of them (masked).
  const variable = exchange.keyVariable === undefined ? keyVariable : exchange.keyVariable;
  for (const [name, value] of Object.entries(exchange.requestHeaders)) {
    if (name.toLowerCase() === 'authorization' && value === 'Bearer ***' && variable !== null) {
      parts.push('-H', `"Authorization: Bearer $${variable}"`);
    } else {
      parts.push('-H', shellQuote(`${name}: ${value}`));
    }
  }
  if (exchange.requestBody !== undefined) parts.push('--data-raw', shellQuote(redact(exchange.requestBody)));
  return parts.join(' ');
}

/** The exchange as text for an attachment: request, then response, secrets masked. */
export function formatExchange(exchange: Exchange): string {
  const lines = [`${exchange.method} ${exchange.url}`];
  for (const [name, value] of Object.entries(exchange.requestHeaders)) lines.push(`${name}: ${value}`);
  if (exchange.requestBody !== undefined) lines.push('', exchange.requestBody);
  lines.push('', `--- response ${exchange.status} (${exchange.durationMs} ms)`);
  for (const [name, value] of Object.entries(exchange.responseHeaders)) lines.push(`${name}: ${value}`);
  if (exchange.bodyText !== '')
    lines.push('', exchange.bodyText.length > 20_000 ? `${exchange.bodyText.slice(0, 20_000)}…` : exchange.bodyText);
  lines.push('', `--- reproduce`, curlCommand(exchange));
  return redact(lines.join('\n'));
}
