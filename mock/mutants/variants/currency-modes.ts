/**
 * Gap row currency-modes: whether a transaction can be sent through every mode its currency
 * lists is not shown, so a sandbox may enable only some.
 */
import { errorJson } from '../behaviour-hooks.ts';
import type { Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

export function currencyModesVariants(): Variant[] {
  return [
    variant({
      name: 'variant.only-configured-mode',
      gaps: ['currency-modes'],
      rules: ['SEND-INTENT-MODE', 'SEND-2XX'],
      operations: ['sendTransaction'],
      description: 'sends through any mode but mtn refused with 422 (a sandbox that enables one operator)',
      create: () => ({
        preHandler: (c) => {
          const mode = (c.request.params as { mode?: string }).mode;
          if (mode === 'mtn' || mode === undefined || !c.store.modes.has(mode)) return undefined;
          return { status: 422, json: errorJson(422, 'mode_disabled', `mode ${mode} is not enabled in this sandbox`) };
        },
      }),
    }),
  ];
}
