/**
 * Gap row error-body: the shape of an error body is not shown, so the suite never asserts it.
 * Error bodies of another shape also vary the rows environments and token-not-key, whose
 * refusals the suite then reads from the status alone.
 */
import { isObject } from '../behaviour-hooks.ts';
import type { Hooks, ResponseContext, Rewrite, Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

function errorRewrite(render: (context: ResponseContext, message: string, code: string) => Rewrite): () => Hooks {
  return () => ({
    onSend: (c) => {
      if (c.status < 400 || !isObject(c.json) || !isObject(c.json.error)) return undefined;
      return render(c, String(c.json.error.message), String(c.json.error.code));
    },
  });
}

export const errorsOtherShape = errorRewrite((_c, message, code) => ({
  json: { errors: [{ code, detail: message }] },
}));

export function errorBodyVariants(): Variant[] {
  return [
    variant({
      name: 'variant.errors-other-shape',
      gaps: ['error-body', 'environments', 'token-not-key'],
      rules: [
        'AUTH-DELETE-401',
        'AUTH-OTHERS-401',
        'ENV-KEY-SCOPED',
        'AUTH-TOKEN-NOT-A-KEY',
        'CUSTOMER-DELETE-404',
        'TXN-CREATE-INVALID-4XX',
        'SEND-INVALID-4XX',
        'LINK-UNKNOWN-TXN-4XX',
        'SEND-UNKNOWN-TOKEN-4XX',
      ],
      operations: 'all',
      description: 'error bodies in another JSON shape: {"errors": [{"code", "detail"}]}',
      create: errorsOtherShape,
    }),
    variant({
      name: 'variant.errors-plain-text',
      gaps: ['error-body'],
      rules: [
        'AUTH-DELETE-401',
        'AUTH-OTHERS-401',
        'ENV-KEY-SCOPED',
        'AUTH-TOKEN-NOT-A-KEY',
        'CUSTOMER-DELETE-404',
        'TXN-CREATE-INVALID-4XX',
        'SEND-INVALID-4XX',
        'LINK-UNKNOWN-TXN-4XX',
        'SEND-UNKNOWN-TOKEN-4XX',
      ],
      operations: 'all',
      description: 'error bodies as plain text',
      create: errorRewrite((_c, message) => ({ contentType: 'text/plain; charset=utf-8', text: message })),
    }),
  ];
}
