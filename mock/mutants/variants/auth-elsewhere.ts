/**
 * Gap row auth-elsewhere: 401 is shown for customer deletion only; the valid key sent bare may
 * be accepted or refused by default, and another scheme is not tested.
 */
import type { Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

export function authElsewhereVariants(): Variant[] {
  return [
    variant({
      name: 'variant.auth-key-other-forms',
      gaps: ['auth-elsewhere'],
      rules: [
        'AUTH-DELETE-401',
        'AUTH-OTHERS-401',
        'AUTH-BEARER-ACCEPTED',
        'AUTH-BEARER-SCHEME',
        'AUTH-KEY-EXACT',
        'AUTH-PER-REQUEST',
        'AUTH-REFUSED-NO-EFFECT',
      ],
      strictKills: 'AUTH-BEARER-SCHEME',
      operations: 'all',
      description: 'the valid key is also accepted without a scheme or with another one ("Token <key>")',
      create: () => ({
        onRequest: (c) => {
          const header = c.request.headers.authorization;
          if (header === undefined) return;
          const key = /^(?:Token\s+)?(\S+)$/i.exec(header)?.[1];
          if (key === c.keys.own) c.request.headers.authorization = `Bearer ${key}`;
        },
      }),
    }),
  ];
}
