/**
 * Gap row transport: rate limits, size limits and time-outs are not shown; the suite waits for
 * and follows them, and none of them is a verdict on conformance.
 */
import { errorJson } from '../behaviour-hooks.ts';
import type { Hooks, Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

/** A server behind a proxy that closes every connection, a little slow. */
const connectionCloseLatency = (): Hooks => ({
  preHandler: () => new Promise<void>((resolve) => setTimeout(resolve, 1 + Math.floor(Math.random() * 3))),
  onSend: () => ({ headers: { connection: 'close' } }),
});

/**
 * A rate limiter that only a burst trips: 8 requests arriving within 20 ms get one 429 with
 * Retry-After: 1. At most one every 5 s, so that a run pays a second now and then, not minutes.
 */
const rateLimitBursts = (): Hooks => {
  const arrivals: number[] = [];
  let lastLimited = 0;
  return {
    onRequest: () => {
      const now = Date.now();
      arrivals.push(now);
      while (arrivals.length > 0 && arrivals[0]! < now - 20) arrivals.shift();
      if (arrivals.length < 8 || now - lastLimited < 5_000) return undefined;
      lastLimited = now;
      return {
        status: 429,
        headers: { 'retry-after': '1' },
        json: errorJson(429, 'rate_limited', 'too many requests at once: retry after 1 s'),
      };
    },
  };
};

export function transportVariants(): Variant[] {
  return [
    variant({
      name: 'variant.connection-close-latency',
      gaps: ['transport'],
      rules: ['TXN-ID-UNIQUE', 'LINK-TOKEN-OWN', 'LINK-2XX', 'SEND-2XX'],
      operations: 'all',
      description: 'every answer closes its connection (Connection: close) after a few milliseconds of latency',
      create: connectionCloseLatency,
    }),
    variant({
      name: 'variant.rate-limit-bursts',
      gaps: ['transport'],
      rules: ['TXN-ID-UNIQUE', 'LINK-TOKEN-OWN'],
      operations: 'all',
      description: 'a burst (8 requests within 20 ms) gets one 429 with Retry-After: 1, at most once every 5 s',
      create: rateLimitBursts,
    }),
  ];
}
