/**
 * Variants that make several rows' choices at once, from the behaviours of those rows' modules:
 * a real server makes many of these choices together, and the suite must pass them together.
 */
import type { Hooks, ResponseContext, Rewrite, Variant } from '../hooks.ts';
import { amountRange, tightText } from './bounds.ts';
import { coercingServer } from './coercion.ts';
import { errorsOtherShape } from './error-body.ts';
import { invalid422 } from './error-status.ts';
import { eventFieldsAbsent } from './event-fields.ts';
import { largeIds } from './identifiers.ts';
import { lenientFormats } from './prose-constraints.ts';
import { nullAsAbsent } from './required-fields.ts';
import { noCharset } from './response-content-type.ts';
import { tokenAliases, variant } from './shared.ts';
import { creation200 } from './success-status.ts';
import { microseconds } from './timestamps.ts';
import { jwtAlias } from './token-form.ts';

/** Several behaviours at once: request hooks in order (the first answer wins), answer rewrites chained. */
function combine(...factories: Array<() => Hooks>): () => Hooks {
  return () => {
    const all = factories.map((factory) => factory());
    return {
      onRequest: (c) => {
        for (const hooks of all) {
          const rewrite = hooks.onRequest?.(c);
          if (rewrite) return rewrite;
        }
        return undefined;
      },
      preHandler: async (c) => {
        for (const hooks of all) {
          const rewrite = await hooks.preHandler?.(c);
          if (rewrite) return rewrite;
        }
        return undefined;
      },
      onSend: (c) => {
        let current: ResponseContext = c;
        let merged: Rewrite | undefined;
        for (const hooks of all) {
          const rewrite = hooks.onSend?.(current);
          if (!rewrite) continue;
          const { json, text, headers, ...rest } = merged ?? {};
          merged = {
            ...rest,
            ...(rewrite.text === undefined && rewrite.json === undefined ? { json, text } : {}),
            ...rewrite,
            ...(headers || rewrite.headers ? { headers: { ...headers, ...rewrite.headers } } : {}),
          };
          let parsed: unknown = current.json;
          if (rewrite.text !== undefined) {
            try {
              parsed = JSON.parse(rewrite.text);
            } catch {
              parsed = undefined;
            }
          } else if (rewrite.json !== undefined) parsed = rewrite.json;
          current = {
            ...current,
            status: rewrite.status ?? current.status,
            contentType: rewrite.contentType === null ? undefined : (rewrite.contentType ?? current.contentType),
            text: rewrite.text ?? (rewrite.json !== undefined ? JSON.stringify(rewrite.json) : current.text),
            json: parsed,
          };
        }
        return merged;
      },
    };
  };
}

export function combinedVariants(): Variant[] {
  return [
    variant({
      name: 'variant.combined-lenient',
      gaps: [
        'required-fields',
        'coercion',
        'prose-constraints',
        'success-status',
        'error-status',
        'token-form',
        'response-content-type',
      ],
      rules: [
        'TXN-CREATE-OPEN-INPUT',
        'SEND-OPEN-INPUT',
        'SEND-TOKEN-REQUIRED',
        'TXN-CREATE-INVALID-4XX',
        'SEND-INVALID-4XX',
        'MALFORMED-JSON-4XX',
        'CUSTOMER-ID-INTEGER',
        'TXN-CREATE-2XX',
        'LINK-TOKEN-STRING',
        'SEND-TOKEN-AS-RETURNED',
        'SEND-TOKEN-INTEGER',
        'JSON-CONTENT-TYPE',
      ],
      strictKills: 'TXN-CREATE-OPEN-INPUT',
      operations: 'all',
      description:
        'null as "not given", coercion, lenient formats, 200 for creations, ' +
        '422 for invalid input, JWT-like tokens and no charset, at once',
      create: combine(
        nullAsAbsent,
        coercingServer,
        lenientFormats,
        creation200,
        invalid422,
        tokenAliases(jwtAlias),
        noCharset,
      ),
    }),
    variant({
      name: 'variant.combined-tight',
      gaps: ['bounds', 'error-body', 'timestamps', 'identifiers', 'event-fields'],
      rules: [
        'TXN-CREATE-OPEN-INPUT',
        'SEND-OPEN-INPUT',
        'TXN-CREATE-2XX',
        'SEND-PHONE-NUMBER-STRING',
        'TXN-CREATE-INVALID-4XX',
        'SEND-INVALID-4XX',
        'AUTH-DELETE-401',
        'AUTH-OTHERS-401',
        'TXN-CREATE-SCHEMA',
        'SEND-SCHEMA',
        'BALANCE-ARRAY',
        'CURRENCY-ARRAY',
        'SEND-INTENT-EVENT-TIMESTAMPS',
        'CUSTOMER-DELETE-204',
      ],
      operations: 'all',
      description:
        'tight bounds and text checks refused with 422, errors in another shape, ' +
        'microsecond date-times, ids beyond 32 bits and intents without null event fields, at once',
      create: combine(tightText, amountRange, invalid422, errorsOtherShape, microseconds, largeIds, eventFieldsAbsent),
    }),
  ];
}
