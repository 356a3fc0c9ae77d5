/**
 * Whose request an exchange of traffic is: the credential of its Authorization header against the
 * keys the user gave (PCS_SECRET_KEY for the first account, PCS_SECOND_SECRET_KEY for the second).
 * A request with any other credential is a request without a valid key: a 2xx for it is a finding.
 * Without keys, only a missing header can be told apart.
 */
import { headerValue, type HeaderList } from './traffic-exchange.ts';

export type Account = 'first' | 'second';

export type Credential =
  /** No Authorization header at all. */
  | { kind: 'missing' }
  /** `Bearer <key>` with the key of an account the user named. */
  | { kind: 'valid'; account: Account }
  /** A known account's key in another form than `Bearer <key>` (no scheme, another scheme). */
  | { kind: 'other-scheme'; account: Account; scheme: string }
  /** A credential that is none of the known keys (a wrong key, an almost-right key, a token). */
  | { kind: 'invalid' }
  /** A credential the judge cannot place: no keys were given. */
  | { kind: 'unknown' };

export interface Keys {
  first: string | null;
  second: string | null;
}

export function credentialOf(headers: HeaderList, keys: Keys): Credential {
  const value = headerValue(headers, 'authorization');
  if (value === undefined) return { kind: 'missing' };
  if (keys.first === null && keys.second === null) return { kind: 'unknown' };
  const trimmed = value.trim();
  const space = trimmed.indexOf(' ');
  const scheme = space === -1 ? '' : trimmed.slice(0, space);
  const credential = space === -1 ? trimmed : trimmed.slice(space + 1).trim();
  const account: Account | undefined =
    keys.first !== null && credential === keys.first
      ? 'first'
      : keys.second !== null && credential === keys.second
        ? 'second'
        : undefined;
  if (account === undefined) return { kind: 'invalid' };
  // The scheme's name is case-insensitive (RFC 9110, section 11.1).
  return scheme.toLowerCase() === 'bearer' ? { kind: 'valid', account } : { kind: 'other-scheme', account, scheme };
}
