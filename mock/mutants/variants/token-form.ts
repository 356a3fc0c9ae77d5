/**
 * Gap row token-form: the token's format is not shown (the send payload types it as an integer,
 * the link returns a string), so any non-empty string conforms, digits that start with 0 included.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { Variant } from '../behaviour-hooks.ts';
import { tokenAliases, variant } from './shared-choices.ts';

export const jwtAlias = (): string => {
  const payload = Buffer.from(JSON.stringify({ sub: randomBytes(6).toString('hex') })).toString('base64url');
  return `eyJhbGciOiJIUzI1NiJ9.${payload}.${randomBytes(16).toString('base64url')}`;
};

/**
 * Eleven random digits drawn as a string, as servers that issue numeric tokens draw them: such a token starts with 0
 * one time in ten; here every other one does, the first included, so that every run meets both kinds. A token that
 * starts with 0 has no JSON integer that keeps it: its integer is another token, refused as an unknown one.
 */
function leadingZeroDigits(): () => string {
  let issued = 0;
  return () => {
    const first = issued++ % 2 === 0 ? '0' : String(randomInt(1, 10));
    return `${first}${String(randomInt(10 ** 10)).padStart(10, '0')}`;
  };
}

export function tokenFormVariants(): Variant[] {
  return [
    variant({
      name: 'variant.token-leading-zero',
      gaps: ['token-form'],
      rules: ['LINK-TOKEN-STRING', 'SEND-TOKEN-AS-RETURNED', 'SEND-TOKEN-INTEGER', 'LINK-TOKEN-OWN'],
      operations: ['getPaymentLink', 'sendTransaction'],
      description:
        'tokens are 11 random digits drawn as a string, every other one starting with 0 ("06208307154"); the ' +
        'integer of such a token names another token and is refused (404) as an unknown one',
      create: () => tokenAliases(leadingZeroDigits())(),
    }),
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
