/**
 * What a response's rate-limit headers say, in one shape, for the rate controller (rate-control.ts):
 * the IETF draft's separate fields (RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset), its combined
 * field (`RateLimit: limit=100, remaining=50, reset=30`, or the later `"default";r=50;t=30`) with
 * RateLimit-Policy (`100;w=60`, or `"default";q=100;w=60`), and the older X-RateLimit-* fields.
 * Unreadable values are ignored, never an error: the headers are advice, the 429 is the fact.
 */

export interface RateFacts {
  /** Requests allowed per window. */
  limit?: number;
  /** Requests left in the current window. */
  remaining?: number;
  /** Milliseconds until the quota is restored. */
  resetMs?: number;
  /** The window's length, when a policy names it. */
  windowMs?: number;
}

type Headers = Record<string, string | undefined>;

function number(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim().replace(/^"|"$/g, '');
  if (!/^\d{1,15}(\.\d{1,6})?$/.test(trimmed)) return undefined;
  return Number(trimmed);
}

/**
 * A reset value in milliseconds from now. The draft's is delta-seconds; X-RateLimit-Reset is often an epoch
 * timestamp (GitHub's): a value past 1e9 cannot be a delay (31 years), so it is read as epoch seconds, and
 * past 1e12 as epoch milliseconds.
 */
export function resetDelayMs(value: number, nowEpochMs: number = Date.now()): number {
  if (value >= 1e12) return Math.max(0, value - nowEpochMs);
  if (value >= 1e9) return Math.max(0, value * 1000 - nowEpochMs);
  return value * 1000;
}

/** Parameters of a structured field: `a=1, b=2` or `"name";a=1;b=2` (the first of several items). */
function parameters(field: string): Map<string, string> {
  const found = new Map<string, string>();
  const firstItem = field.includes(';') ? (field.split(',')[0] ?? '') : field;
  for (const part of firstItem.split(/[;,]/)) {
    const match = /^\s*([A-Za-z-]+)\s*=\s*(.+?)\s*$/.exec(part);
    if (match?.[1] !== undefined && match[2] !== undefined) found.set(match[1].toLowerCase(), match[2]);
  }
  return found;
}

/** The policy's quota and window: `100;w=60`, `100, 200;w=3600` (the first), or `"default";q=100;w=60`. */
function policy(field: string | undefined): { limit?: number; windowMs?: number } {
  if (field === undefined) return {};
  const first = field.split(',')[0] ?? '';
  const params = parameters(first);
  const quota = number(first.split(';')[0]) ?? number(params.get('q'));
  const window = number(params.get('w'));
  return {
    ...(quota !== undefined ? { limit: quota } : {}),
    ...(window !== undefined && window > 0 ? { windowMs: window * 1000 } : {}),
  };
}

/** The rate-limit facts of a response's headers (lower-case names, as node:http gives them); null when none. */
export function rateFacts(headers: Headers, nowEpochMs: number = Date.now()): RateFacts | null {
  const combined = headers.ratelimit;
  const fromCombined = combined === undefined ? undefined : parameters(combined);
  const fromPolicy = policy(headers['ratelimit-policy'] ?? headers['x-ratelimit-policy']);
  const limit =
    number(headers['ratelimit-limit']) ??
    number(fromCombined?.get('limit')) ??
    number(headers['x-ratelimit-limit']) ??
    fromPolicy.limit;
  const remaining =
    number(headers['ratelimit-remaining']) ??
    number(fromCombined?.get('remaining')) ??
    number(fromCombined?.get('r')) ??
    number(headers['x-ratelimit-remaining']);
  const reset =
    number(headers['ratelimit-reset']) ??
    number(fromCombined?.get('reset')) ??
    number(fromCombined?.get('t')) ??
    number(headers['x-ratelimit-reset']);
  if (limit === undefined && remaining === undefined && reset === undefined) return null;
  const facts: RateFacts = {};
  if (limit !== undefined) facts.limit = limit;
  if (remaining !== undefined) facts.remaining = remaining;
  if (reset !== undefined) facts.resetMs = resetDelayMs(reset, nowEpochMs);
  if (fromPolicy.windowMs !== undefined) facts.windowMs = fromPolicy.windowMs;
  return facts;
}

/** Whether a response can carry rate-limit headers at all: a cheap test before parsing, on every response. */
export function mayHaveRateFacts(headers: Headers): boolean {
  return (
    headers['ratelimit-remaining'] !== undefined ||
    headers.ratelimit !== undefined ||
    headers['x-ratelimit-remaining'] !== undefined ||
    headers['ratelimit-limit'] !== undefined ||
    headers['x-ratelimit-limit'] !== undefined ||
    headers['ratelimit-policy'] !== undefined
  );
}
