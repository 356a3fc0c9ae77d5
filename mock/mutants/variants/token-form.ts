/**
 * Gap row token-form: the token's format is not shown (the send payload types it as an integer,
 * the link returns a string), so any non-empty string conforms.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Variant } from '../hooks.ts';
import { tokenAliases, variant } from './shared.ts';

export const jwtAlias = (): string => {
  const payload = Buffer.from(JSON.stringify({ sub: randomBytes(6).toString('hex') })).toString('base64url');
  return `eyJhbGciOiJIUzI1NiJ9.${payload}.${randomBytes(16).toString('base64url')}`;
};

export function tokenFormVariants(): Variant[] {
  return [
    variant({
      name: 'variant.token-uuid',
      gaps: ['token-form'],
      rules: ['LINK-TOKEN-STRING', 'SEND-TOKEN-AS-RETURNED', 'SEND-TOKEN-INTEGER', 'LINK-TOKEN-OWN'],
      operations: ['getPaymentLink', 'sendTransaction'],
      description: 'tokens are UUIDs (not digits)',
      create: tokenAliases(() => randomUUID()),
    }),
    variant({
      name: 'variant.token-jwt',
      gaps: ['token-form'],
      rules: ['LINK-TOKEN-STRING', 'SEND-TOKEN-AS-RETURNED', 'SEND-TOKEN-INTEGER', 'LINK-TOKEN-OWN'],
      operations: ['getPaymentLink', 'sendTransaction'],
      description: 'tokens are JWT-like strings',
      create: tokenAliases(jwtAlias),
    }),
  ];
}
