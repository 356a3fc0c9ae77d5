/** Gap row response-content-type: an answer's JSON Content-Type may come with any parameters, in any case. */
import type { Hooks, Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

export const noCharset = (): Hooks => ({
  onSend: (c) => (c.contentType?.startsWith('application/json') ? { contentType: 'application/json' } : undefined),
});

export function responseContentTypeVariants(): Variant[] {
  return [
    variant({
      name: 'variant.content-type-no-charset',
      gaps: ['response-content-type'],
      rules: ['JSON-CONTENT-TYPE'],
      operations: 'all',
      description: 'Content-Type application/json without a charset parameter',
      create: noCharset,
    }),
    variant({
      name: 'variant.content-type-upper-case',
      gaps: ['response-content-type'],
      rules: ['JSON-CONTENT-TYPE'],
      operations: 'all',
      description: 'Content-Type written Application/JSON;charset=UTF-8',
      create: () => ({
        onSend: (c) =>
          c.contentType?.startsWith('application/json') ? { contentType: 'Application/JSON;charset=UTF-8' } : undefined,
      }),
    }),
  ];
}
