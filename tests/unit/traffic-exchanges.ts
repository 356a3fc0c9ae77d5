/**
 * Traffic exchanges and the judge's options for the unit tests of the judge, its reports and its promises: one
 * builder of each, so that a field added to TrafficExchange or JudgeOptions is filled in one place. Each test file
 * keeps the short signature its cases read best in.
 */
import { pinnedValues } from '../../generation/arbitraries.ts';
import type { JudgeOptions } from '../../judge/traffic-judge.ts';
import type { HeaderList, TrafficExchange } from '../../judge/traffic-exchange.ts';

/** The target's own values the judged traffic uses (its currency, payment mode and phone number). */
export const pinned = pinnedValues({
  currencyIso: 'XOF',
  paymentMode: 'mtn',
  phoneNumber: '+22997000001',
  phoneCountry: 'BJ',
});

/**
 * The options of a judge of traffic recorded at `now` with the first account's key `key` (no second account unless
 * overridden), the clock tolerance and payment mode of a default run.
 */
export function judgeOptions(key: string, now: number, overrides: Partial<JudgeOptions> = {}): JudgeOptions {
  return {
    keys: { first: key, second: null },
    keyVariables: { first: 'PCS_SECRET_KEY', second: 'PCS_SECOND_SECRET_KEY' },
    settings: { strict: false, clockToleranceSeconds: 300, earliestMs: now - 60_000 },
    documentedOnly: false,
    paymentMode: 'mtn',
    balanceIds: { first: 1, second: null },
    currencyId: 1,
    pinned,
    credentialsRecorded: true,
    basePath: '/v1',
    ...overrides,
  };
}

export interface ExchangeParts {
  method: string;
  /** A whole URL. */
  url: string;
  status: number;
  /** The answer as text ('' for none). */
  responseBody: string;
  /** The request body as text, absent for none: then no Content-Type is sent either. */
  requestBody?: string;
  /** The Content-Type sent with a body; null to send none. Default: application/json. */
  bodyType?: string | null;
  /** The Bearer credential sent; null for none. */
  credential: string | null;
  /** Headers after the credential and the body's Content-Type. */
  requestHeaders?: HeaderList;
  /** The answer's headers: by default a JSON content type and a Date of `at`. */
  responseHeaders?: HeaderList;
  /** Where it came from, given its position in the sequence (1 first, as a HAR's entries and a proxy's are counted). */
  source: (position: number) => TrafficExchange['source'];
  /** When it was sent; it took 5 ms. */
  at: number;
}

/** A numbered sequence of exchanges, in the order a judge sees them. */
export function trafficSequence(): (parts: ExchangeParts) => TrafficExchange {
  let index = 0;
  return (parts) => ({
    index: index++,
    source: parts.source(index),
    method: parts.method,
    url: parts.url,
    requestHeaders: [
      ...(parts.credential === null ? [] : [['Authorization', `Bearer ${parts.credential}`] as const]),
      ...(parts.requestBody === undefined || parts.bodyType === null
        ? []
        : [['Content-Type', parts.bodyType ?? 'application/json'] as const]),
      ...(parts.requestHeaders ?? []),
    ],
    requestBody: parts.requestBody,
    status: parts.status,
    responseHeaders: parts.responseHeaders ?? [
      ['Content-Type', 'application/json; charset=utf-8'],
      ['Date', new Date(parts.at).toUTCString()],
    ],
    responseBody: parts.responseBody,
    startedAt: parts.at,
    endedAt: parts.at + 5,
  });
}
