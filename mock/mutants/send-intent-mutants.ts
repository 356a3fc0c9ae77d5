/**
 * Contract mutants of the payment intents of a send (judgment/rules/send.ts): intents
 * that do not carry what the send owes them.
 */
import { bodyObjects, isSuccess, mutant, type Mutant } from './behaviour-hooks.ts';

export function sendIntentMutants(): Mutant[] {
  return [
    mutant(
      'sendTransaction.mode-first-of-currency',
      'mode',
      ['sendTransaction'],
      'SEND-INTENT-MODE',
      "payment intents carry the currency's first mode, whatever mode the path named",
      () => ({
        onSend: (c) => {
          if (!isSuccess(c.status) || !Array.isArray(c.json)) return undefined;
          for (const intent of bodyObjects(c.json)) {
            const currency = c.store.currencies.get(Number(intent.currency_id));
            if (currency?.modes[0] !== undefined) intent.mode = currency.modes[0];
          }
          return { json: c.json };
        },
      }),
    ),
  ];
}
