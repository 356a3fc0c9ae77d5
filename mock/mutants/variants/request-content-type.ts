/**
 * Gap row request-content-type: valid JSON declared with another Content-Type, or none, may be
 * parsed as JSON (lenient: --strict refuses it).
 */
import type { Hooks, Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

/** A body is JSON whatever its declared type: the declared Content-Type (or its absence) is ignored. */
const anyContentType = (): Hooks => ({
  onRequest: (c) => {
    const headers = c.request.headers;
    const hasBody = Number(headers['content-length'] ?? 0) > 0 || headers['transfer-encoding'] !== undefined;
    if (hasBody && !/^application\/json\b/i.test(headers['content-type'] ?? ''))
      headers['content-type'] = 'application/json';
  },
});

export function requestContentTypeVariants(): Variant[] {
  return [
    variant({
      name: 'variant.any-content-type',
      gaps: ['request-content-type'],
      rules: ['TXN-CREATE-OPEN-INPUT', 'SEND-OPEN-INPUT', 'MALFORMED-JSON-4XX'],
      strictKills: 'TXN-CREATE-OPEN-INPUT',
      operations: ['createTransaction', 'sendTransaction', 'createCustomer'],
      description: 'every body is parsed as JSON, whatever Content-Type it declares (or none)',
      create: anyContentType,
    }),
  ];
}
