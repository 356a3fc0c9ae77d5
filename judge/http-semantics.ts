/**
 * HTTP as the client used it (RFC 9110): answers that are the representation a client asked for in
 * another form than the plain one are judged as what HTTP makes them, never as a wrong status.
 *
 * - HEAD is GET without the body (9.3.2): judged as the GET operation, by its status and headers.
 * - 304 Not Modified to the client's own conditional GET (If-None-Match, If-Modified-Since: 13.1,
 *   15.4.5) says the representation the client holds is current: where the traffic holds it (an
 *   earlier 2xx answer of the same address to the same caller, with the validator the client sent),
 *   that representation is judged in its place; elsewhere the 304 is judged as the success it stands for.
 * - 206 Partial Content to the client's own Range request (14.2, 15.3.7) is part of the representation:
 *   judged as the success it is part of, by its status.
 *
 * A 304 or a 206 the client did not ask for is judged as any other status.
 */
import { headerValue, type TrafficExchange } from './traffic-exchange.ts';

/** The representations kept for conditional requests: enough for a client's cache, bounded whatever the traffic. */
const maxRepresentations = 1000;
const maxRepresentationBytes = 256 * 1024;

interface Representation {
  status: number;
  headers: TrafficExchange['responseHeaders'];
  body: string;
  etag: string | undefined;
  lastModified: number | undefined;
}

/** An entity-tag as compared weakly (RFC 9110 8.8.3.2): without W/. */
const weak = (tag: string): string => tag.trim().replace(/^W\//, '');

/** The method an exchange is routed by: HEAD as the GET it mirrors. */
export function routedMethod(method: string): string {
  return method.toUpperCase() === 'HEAD' ? 'GET' : method;
}

const conditional = (traffic: TrafficExchange): boolean =>
  headerValue(traffic.requestHeaders, 'if-none-match') !== undefined ||
  headerValue(traffic.requestHeaders, 'if-modified-since') !== undefined;

export class Representations {
  private readonly held = new Map<string, Representation>();

  /** Keeps a 2xx answer of a GET that carries a validator, as the representation a later 304 may stand for. */
  remember(traffic: TrafficExchange, caller: string): void {
    if (traffic.method.toUpperCase() !== 'GET' || traffic.status < 200 || traffic.status >= 300) return;
    if (traffic.incomplete !== undefined || traffic.responseBody.length > maxRepresentationBytes) return;
    const etag = headerValue(traffic.responseHeaders, 'etag');
    const modified = headerValue(traffic.responseHeaders, 'last-modified');
    if (etag === undefined && modified === undefined) return;
    const key = `${caller} ${traffic.url}`;
    this.held.delete(key);
    this.held.set(key, {
      status: traffic.status,
      headers: traffic.responseHeaders,
      body: traffic.responseBody,
      etag,
      lastModified: modified === undefined ? undefined : Date.parse(modified),
    });
    if (this.held.size > maxRepresentations) this.held.delete(this.held.keys().next().value!);
  }

  /** The representation a conditional request's 304 validates, when the traffic holds it. */
  validated(traffic: TrafficExchange, caller: string): Representation | undefined {
    const held = this.held.get(`${caller} ${traffic.url}`);
    if (held === undefined) return undefined;
    const match = headerValue(traffic.requestHeaders, 'if-none-match');
    if (match !== undefined) {
      // If-None-Match decides when present (13.2.2): the held one is validated when its tag is listed.
      if (held.etag === undefined) return undefined;
      const listed = match.split(',').map(weak);
      return listed.includes('*') || listed.includes(weak(held.etag)) ? held : undefined;
    }
    const since = Date.parse(headerValue(traffic.requestHeaders, 'if-modified-since') ?? '');
    return held.lastModified !== undefined && !Number.isNaN(since) && held.lastModified <= since ? held : undefined;
  }
}

export interface HttpReading {
  /** The exchange as it is judged. */
  traffic: TrafficExchange;
  /** The status on the wire, when the exchange is judged under another (the success a 304 or a 206 stands for). */
  wireStatus?: number;
}

/**
 * The exchange as HTTP makes it: `owed` is the status the operation's success is owed (what a 304 or a 206 stands
 * for when the traffic does not hold the representation), `caller` who asked (a 304 validates that caller's copy).
 */
export function httpReading(
  traffic: TrafficExchange,
  representations: Representations,
  caller: string,
  owed: number,
): HttpReading {
  const method = traffic.method.toUpperCase();
  const head = method === 'HEAD';
  if ((method === 'GET' || head) && traffic.status === 304 && conditional(traffic)) {
    const held = representations.validated(traffic, caller);
    if (held !== undefined)
      return {
        traffic: {
          ...traffic,
          status: held.status,
          responseHeaders: held.headers,
          responseBody: head ? '' : held.body,
          ...(head ? { incomplete: 'a HEAD answer carries no body: judged by its status and headers' } : {}),
        },
        wireStatus: 304,
      };
    return {
      traffic: {
        ...traffic,
        status: owed,
        incomplete: 'a 304 to the client’s conditional request, for a representation the traffic does not hold',
        statusOnly: true,
      },
      wireStatus: 304,
    };
  }
  if (method === 'GET' && traffic.status === 206 && headerValue(traffic.requestHeaders, 'range') !== undefined)
    return {
      traffic: {
        ...traffic,
        status: owed,
        incomplete: 'a 206 to the client’s Range request: part of the representation',
        statusOnly: true,
      },
      wireStatus: 206,
    };
  if (head)
    return {
      traffic: {
        ...traffic,
        incomplete: traffic.incomplete ?? 'a HEAD answer carries no body: judged by its status and headers',
      },
    };
  return { traffic };
}
