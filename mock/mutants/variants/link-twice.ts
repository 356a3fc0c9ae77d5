/**
 * Gap row link-twice: asking the link of a transaction twice is not shown, so the token may
 * change each time, the earlier ones revoked or not.
 */
import { randomBytes } from 'node:crypto';
import type { Variant } from '../behaviour-hooks.ts';
import { tokenAliases, variant } from './shared-choices.ts';

export function linkTwiceVariants(): Variant[] {
  return [
    variant({
      name: 'variant.token-new-each-time',
      gaps: ['link-twice'],
      rules: ['LINK-SCHEMA', 'SEND-TOKEN-AS-RETURNED', 'LINK-TOKEN-OWN'],
      operations: ['getPaymentLink', 'sendTransaction'],
      description: 'asking the link again issues a new token and revokes the earlier one',
      create: tokenAliases(() => `tok_${randomBytes(9).toString('hex')}`, { fresh: true }),
    }),
    variant({
      name: 'variant.token-new-each-time-all-valid',
      gaps: ['link-twice'],
      rules: ['LINK-SCHEMA', 'SEND-TOKEN-AS-RETURNED', 'LINK-TOKEN-OWN'],
      operations: ['getPaymentLink', 'sendTransaction'],
      description: 'asking the link again issues a new token; earlier ones stay valid',
      create: tokenAliases(() => `tok_${randomBytes(9).toString('hex')}`, { fresh: true, keepOld: true }),
    }),
  ];
}
