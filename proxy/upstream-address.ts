/**
 * The upstream of the forwarding proxy: a base address ending in /v1 (http or https), and where a
 * request target sent to the proxy goes there. The proxy's own base path is /v1, mapped onto the
 * upstream's base path, so that a client given the proxy's base address reaches the same operations
 * it would reach at the upstream's; a target outside /v1 goes to the same path at the upstream's
 * origin, untouched.
 */
import { ConfigError } from '../settings/config-error.ts';

/** A setting of the proxy a user got wrong (the upstream, the port): one line, exit 2. */
export class ProxyConfigError extends ConfigError {
  constructor(flag: string, problem: string) {
    super(flag, problem);
    this.name = 'ProxyConfigError';
  }
}

/** The proxy's base path, the one a client puts before the reference's paths. */
export const proxyBasePath = '/v1';

export interface Upstream {
  protocol: 'http:' | 'https:';
  /** For node's request: an IPv6 address without its brackets. */
  hostname: string;
  port: number;
  /** The Host header the upstream gets: host, and the port when it is not the protocol's default. */
  host: string;
  /** scheme://host[:port] */
  origin: string;
  /** The upstream's base path, without a trailing slash: /v1, /api/v1 ... */
  basePath: string;
  /** origin + basePath */
  baseUrl: string;
}

/** Reads the upstream's base address; anything else is a ProxyConfigError naming --upstream. */
export function parseUpstream(text: string): Upstream {
  // Credentials in the address are never echoed, whatever else is wrong with it.
  const masked = text.replace(/\/\/[^/?#@]*@/, '//***@');
  const shown = masked.length > 200 ? `${masked.slice(0, 200)}...` : masked;
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new ProxyConfigError('--upstream', `${shown} is not a URL (expected http(s)://host[:port]/.../v1)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ProxyConfigError('--upstream', `${shown} is not an http:// or https:// address`);
  if (url.username !== '' || url.password !== '')
    throw new ProxyConfigError('--upstream', `${shown} carries credentials; the client's own headers are forwarded`);
  if (url.search !== '' || url.hash !== '')
    throw new ProxyConfigError('--upstream', `${shown} has a query or a fragment; give the base address only`);
  const basePath = url.pathname.replace(/\/$/, '');
  if (!basePath.endsWith(proxyBasePath))
    throw new ProxyConfigError('--upstream', `${shown} does not end in ${proxyBasePath} (the API's base address)`);
  const defaultPort = url.protocol === 'https:' ? 443 : 80;
  return {
    protocol: url.protocol,
    hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? defaultPort : Number(url.port),
    host: url.host,
    origin: url.origin,
    basePath,
    baseUrl: url.origin + basePath,
  };
}

const absoluteForm = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/**
 * Where a request target sent to the proxy goes at the upstream (path and query, byte for byte:
 * nothing is decoded or normalised). /v1, /v1/... and /v1?... are moved onto the upstream's base
 * path; any other origin-form target is kept as it is; an absolute-form target (a client treating
 * the proxy as a forward proxy) loses its scheme and authority first.
 */
export function forwardedTarget(upstream: Pick<Upstream, 'basePath'>, target: string): string {
  if (!target.startsWith('/')) {
    const authority = absoluteForm.exec(target);
    if (authority === null) return target; // asterisk-form (OPTIONS *): nothing to map
    const rest = target.slice(authority[0].length);
    return forwardedTarget(upstream, rest.startsWith('/') ? rest : `/${rest}`);
  }
  if (!target.startsWith(proxyBasePath)) return target;
  const next = target.charAt(proxyBasePath.length);
  if (next !== '' && next !== '/' && next !== '?') return target; // /v10, /v1x: another path
  return upstream.basePath + target.slice(proxyBasePath.length);
}
