/**
 * Which operation of the reference an exchange of traffic is: its method and its path relative
 * to the API's base address (the part after `/v1`), matched against the operations table. A
 * request outside the reference (another path, another method) has no operation: the judge
 * lists it, and judges nothing of it.
 */
import { operations, type OperationId } from '../contract/operations.ts';

export interface Route {
  operation: OperationId;
  /** The path relative to the base address, as sent (percent escapes kept). */
  path: string;
  /** The path parameters, decoded when they decode. */
  params: Record<string, string>;
  /** The query string, with its `?`, or ''. */
  query: string;
}

/** The path of a URL relative to the base path (e.g. `/v1`), or undefined when the URL is not under it. */
export function relativePath(url: string, basePath: string): { path: string; query: string } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const base = basePath.replace(/\/+$/, '');
  if (parsed.pathname !== base && !parsed.pathname.startsWith(`${base}/`)) return undefined;
  return { path: parsed.pathname.slice(base.length) || '/', query: parsed.search };
}

/**
 * The base path of a recorded URL when none is given: everything up to the first `/v1` segment (the reference
 * puts /v1 in front of every path on both base addresses).
 */
export function basePathOf(url: string): string | undefined {
  try {
    const segments = new URL(url).pathname.split('/');
    const index = segments.indexOf('v1');
    return index === -1 ? undefined : segments.slice(0, index + 1).join('/');
  } catch {
    return undefined;
  }
}

const templates = operations.map((entry) => ({
  id: entry.id,
  method: entry.method,
  segments: entry.path.split('/').filter((segment) => segment !== ''),
}));

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The operation a request is. A trailing slash is read as the path without it (a client may send one; the
 * suite's own REQUEST-FORM-NOT-5XX sends it too). Fixed segments win over parameters: POST /transactions/12/token
 * is the link, POST /transactions/mtn the send.
 */
export function routeOf(method: string, relative: { path: string; query: string }): Route | undefined {
  const segments = relative.path.split('/').filter((segment) => segment !== '');
  const upper = method.toUpperCase();
  for (const template of templates) {
    if (template.method !== upper || template.segments.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = template.segments.every((part, index) => {
      const actual = segments[index]!;
      const parameter = /^\{(\w+)\}$/.exec(part)?.[1];
      if (parameter === undefined) return part === actual;
      params[parameter] = decoded(actual);
      return actual !== '';
    });
    if (matches) return { operation: template.id, path: relative.path, params, query: relative.query };
  }
  return undefined;
}
