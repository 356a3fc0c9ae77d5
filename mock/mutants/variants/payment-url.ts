/** Gap row payment-url: the payment link's url is an absolute URL of any scheme, an app's deep link included. */
import { isObject, isSuccess } from '../behaviour-hooks.ts';
import type { Variant } from '../behaviour-hooks.ts';
import { variant } from './shared-choices.ts';

export function paymentUrlVariants(): Variant[] {
  return [
    variant({
      name: 'variant.payment-url-deep-link',
      gaps: ['payment-url'],
      rules: ['LINK-URL-ABSOLUTE', 'LINK-TOKEN-OWN'],
      operations: ['getPaymentLink'],
      description: "the payment link is a mobile app's deep link (momo://pay/<token>)",
      create: () => ({
        onSend: (c) =>
          isSuccess(c.status) && isObject(c.json) && typeof c.json.token === 'string'
            ? { json: { ...c.json, url: `momo://pay/${encodeURIComponent(c.json.token)}` } }
            : undefined,
      }),
    }),
  ];
}
