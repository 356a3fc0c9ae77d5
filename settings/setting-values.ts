/**
 * The values a setting accepts: one validator per kind of value, each a pure function from the
 * text of a variable or a flag to its value or to the problem with it. The problem is one sentence
 * without the name: a variable's message puts the variable before it, a flag's the flag.
 *
 * A value is quoted back in a problem only through shown(), which never quotes what looks like a
 * key: a key pasted into the wrong variable or flag must not reach a terminal or a CI log.
 */
import { isUnsafeIntegerText, standInFor } from '../contract/big-integers.ts';

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };
export type Validator<T> = (text: string) => Parsed<T>;

export const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
export const wrong = (problem: string): Parsed<never> => ({ ok: false, problem });

/** The shape of the API's keys (sk_live_..., sk_sandbox_..., pk_test_...), in any case. */
export function looksLikeKey(text: string): boolean {
  return /^[a-z]{2}_(live|sandbox|test)_/i.test(text.trim());
}

/** A value as a message quotes it: its first characters, or only that it looks like a key. */
export function shown(text: string, length = 40): string {
  return looksLikeKey(text) ? 'a value that looks like a key (not shown)' : `"${text.slice(0, length)}"`;
}

/** Any text: a directory, an address of the reference. */
export const anyText: Validator<string> = (text) => ok(text);

/** A value that must match a pattern; `echo: false` for values a message should not repeat. */
export function matching(pattern: RegExp, problem: string, options: { echo?: boolean } = {}): Validator<string> {
  return (text) =>
    pattern.test(text) ? ok(text) : wrong(options.echo === false ? problem : `${problem}, got ${shown(text)}`);
}

export function oneOf<T extends string>(values: readonly T[]): Validator<T> {
  const listed = values.map((value) => `"${value}"`).join(' or ');
  return (text) => {
    const found = values.find((value) => value === text);
    return found !== undefined ? ok(found) : wrong(`must be ${listed}, got ${shown(text)}`);
  };
}

export const yesNo: Validator<boolean> = (text) =>
  text === 'yes' || text === 'no' ? ok(text === 'yes') : wrong(`must be "yes" or "no", got ${shown(text)}`);

/** An id of the target: up to 20 digits, kept exact beyond 2^53 through its stand-in (contract/big-integers.ts). */
export const positiveId: Validator<number> = (text) => {
  if (!/^\d{1,20}$/.test(text) || /^0+$/.test(text)) return wrong(`must be a positive integer, got ${shown(text)}`);
  return ok(isUnsafeIntegerText(text) ? standInFor(text) : Number(text));
};

/** A positive quantity, at most `max`, said in the words of `most`. */
export function positiveAtMost(max: number, most: string): Validator<number> {
  return (text) => {
    if (!/^\d{1,20}$/.test(text) || /^0+$/.test(text)) return wrong(`must be a positive integer, got ${shown(text)}`);
    return Number(text) > max ? wrong(`must be at most ${most}, got ${text.slice(0, 40)}`) : ok(Number(text));
  };
}

/** A whole number of at most `digits` digits from `min` to `max`, with the problem's own words. */
export function wholeNumber(digits: number, min: number, max: number, problem: string): Validator<number> {
  const pattern = new RegExp(`^\\d{1,${digits}}$`);
  return (text) =>
    pattern.test(text) && Number(text) >= min && Number(text) <= max
      ? ok(Number(text))
      : wrong(`${problem}, got ${shown(text)}`);
}

/** A base address of the API: http or https, ending in /v1, without credentials, query or fragment; normalised. */
export const baseUrl: Validator<string> = (text) => {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return wrong(`is not a URL: ${shown(text, 80)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return wrong(`must be an http or https URL, got ${url.protocol}`);
  if (url.username || url.password) return wrong('must not carry credentials; use PCS_SECRET_KEY');
  if (url.search || url.hash) return wrong('must not carry a query or fragment');
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/v1'))
    return wrong(`must be the base address including /v1 (e.g. http://127.0.0.1:4010/v1), got ${shown(text, 80)}`);
  return ok(`${url.origin}${path}`);
};

/** A key as it goes into an Authorization header: never quoted back, whatever is wrong with it. */
export const keyToken: Validator<string> = (text) =>
  /[\s\x00-\x1f\x7f]/.test(text) || text.length > 1024
    ? wrong('must be one token without spaces or control characters, at most 1024 characters')
    : ok(text);

/** Requests per second: a positive number with at most three decimals. */
export const requestsPerSecond: Validator<number> = (text) =>
  /^\d{1,6}(\.\d{1,3})?$/.test(text) && Number(text) > 0
    ? ok(Number(text))
    : wrong(`must be a positive number of requests per second, got ${shown(text)}`);

/** The most generated requests a worker keeps in flight when fixed (PCS_IN_FLIGHT). */
export const maxInFlight = 64;

/** PCS_IN_FLIGHT: the generated cases a worker keeps in flight, chosen by the round trip or fixed. */
export type InFlightSetting = { kind: 'auto' } | { kind: 'fixed'; limit: number };

export const inFlight: Validator<InFlightSetting> = (text) => {
  if (text === 'auto') return ok({ kind: 'auto' });
  if (/^\d{1,2}$/.test(text) && Number(text) >= 1 && Number(text) <= maxInFlight)
    return ok({ kind: 'fixed', limit: Number(text) });
  return wrong(
    `must be "auto" or a whole number of requests in flight per worker from 1 to ${maxInFlight}, got ${shown(text)}`,
  );
};

/** A property's seed as a failing property prints it: a 32-bit integer. */
export const seed: Validator<number> = (text) =>
  /^-?\d{1,10}$/.test(text) && Math.abs(Number(text)) <= 2 ** 31
    ? ok(Number(text))
    : wrong(`must be an integer as printed by a failing property (32-bit), got ${shown(text)}`);

/** A path as a failing property prints it: numbers separated by ":"; for stateful tests, "~" and the replay path. */
export const propertyPathPattern = /^\d{1,9}(:\d{1,9}){0,9999}(~[A-Za-z0-9+/=_:-]{0,10000})?$/;

export const propertyPath = matching(
  propertyPathPattern,
  'must be a path as printed by a failing property (numbers separated by ":")',
);

/** An on/off switch of the lab, written as the bench sets it. */
export const oneOrZero: Validator<boolean> = (text) =>
  text === '1' || text === '0' ? ok(text === '1') : wrong(`must be 1 (on) or 0 (off), got ${shown(text)}`);

/** A TCP port to listen on (0: a free one). */
export const port: Validator<number> = (text) =>
  /^\d{1,5}$/.test(text) && Number(text) <= 65535
    ? ok(Number(text))
    : wrong(`must be a port number from 0 to 65535, got ${shown(text)}`);

/** A share of exchanges to judge: above 0, at most 1 (0.1), or a percentage (10%). */
export const shareOfExchanges: Validator<number> = (text) => {
  const match = /^(\d+(?:\.\d+)?|\.\d+)(%?)$/.exec(text.trim());
  const share = match === null ? Number.NaN : Number(match[1]) / (match[2] === '%' ? 100 : 1);
  return share > 0 && share <= 1
    ? ok(share)
    : wrong(
        'must be the share of exchanges to judge, above 0 and at most 1 (0.1) or a percentage (10%), ' +
          `got ${shown(text, 20)}`,
      );
};

/** How far behind the traffic the judge may fall: seconds above 0, at most a day (5 or 5s). */
export const lagSeconds: Validator<number> = (text) => {
  const seconds = /^\d+(\.\d+)?s?$/.test(text.trim()) ? Number.parseFloat(text) : Number.NaN;
  return seconds > 0 && seconds <= 86_400
    ? ok(seconds)
    : wrong(
        'must be a number of seconds above 0 (the judge may be that far behind the traffic), ' +
          `got ${shown(text, 20)}`,
      );
};

/** A count of at least one, of up to nine digits. */
export const positiveCount: Validator<number> = (text) =>
  /^\d{1,9}$/.test(text) && Number(text) >= 1 ? ok(Number(text)) : wrong('must be a positive integer');
