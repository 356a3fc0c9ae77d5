/**
 * Every credential traffic shows is a secret for the rest of the run, whether the user named it or
 * not: the value of any Authorization (or Proxy-Authorization) header, its decoded Basic pair and
 * password, and any string shaped like a key (sk_live_..., sk_sandbox_...) anywhere in a URL, a
 * header or a body, the answer's included (a server that echoes a header, a body holding a key).
 * Each is registered before its exchange is judged, so that no output written afterwards (the
 * reports, the summary, their curl lines and transcripts) carries it in any form redact() knows.
 */
import { keyShaped, registerSeenSecret } from '../settings/secrets.ts';
import type { HeaderList } from './traffic-exchange.ts';

/**
 * Words an Authorization value may hold that are no secret: a scheme's name alone ("Bearer" with no key), and what
 * a client writes for a missing value. Masking them would mask every rule id and message that names them.
 */
const notSecret = /^(bearer|basic|digest|token|negotiate|ntlm|apikey|api-key|undefined|null|none|nil|true|false|nan)$/i;

function registerValue(value: string): void {
  if (!notSecret.test(value)) registerSeenSecret(value);
}

/** The credential of an Authorization value: what follows the scheme, or the whole value without one. */
function registerCredential(value: string): void {
  const trimmed = value.trim();
  const space = trimmed.search(/\s/);
  const credential = space === -1 ? trimmed : trimmed.slice(space).trim();
  registerValue(trimmed);
  registerValue(credential);
  if (space !== -1 && trimmed.slice(0, space).toLowerCase() === 'basic') {
    const pair = Buffer.from(credential, 'base64').toString('utf8');
    registerValue(pair);
    const colon = pair.indexOf(':');
    if (colon !== -1) registerValue(pair.slice(colon + 1));
  }
}

/** Registers the key-shaped strings of a text. */
function registerKeysIn(text: string | undefined): void {
  if (text === undefined || text.length < 8) return;
  for (const match of text.matchAll(keyShaped)) registerSeenSecret(match[0]);
}

export interface SecretBearing {
  url: string;
  requestHeaders: HeaderList;
  requestBody: string | undefined;
  responseHeaders: HeaderList;
  responseBody: string;
}

/** Registers every credential an exchange shows, before anything of it is judged or written. */
export function learnSecrets(exchange: SecretBearing): void {
  for (const [name, value] of exchange.requestHeaders) {
    const lower = name.toLowerCase();
    if (lower === 'authorization' || lower === 'proxy-authorization') registerCredential(value);
    else registerKeysIn(value);
  }
  for (const [, value] of exchange.responseHeaders) registerKeysIn(value);
  registerKeysIn(exchange.url);
  registerKeysIn(exchange.requestBody);
  registerKeysIn(exchange.responseBody);
}
