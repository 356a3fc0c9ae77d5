/**
 * Valid request bodies for the target. Everything the suite creates carries the run id
 * in its description and custom_metadata (transactions cannot be deleted, so they must
 * be findable), and amounts vary so that an echo check cannot pass by accident.
 */
import { randomInt } from 'node:crypto';
import type { CreateCustomerBody, CreateTransactionBody } from '../contract/types.ts';
import type { Target } from '../settings/target.ts';

export const callbackBase = 'https://example.com/collect-conformance/callback';

export function transactionBody(target: Target, label: string): CreateTransactionBody {
  return {
    // Cut to the safe length, then trimmed: a safe description has no white space at its ends.
    description: `collect-conformance ${target.runId}: ${label}`.slice(0, 120).trim(),
    amount: randomInt(100, 100_000),
    currency: { iso: target.currencyIso },
    callback_url: `${callbackBase}/${target.runId}`,
    custom_metadata: { collect_conformance_run: target.runId, purpose: label.slice(0, 60) },
  };
}

export function customerBody(target: Target): CreateCustomerBody {
  const suffix = `${Date.now().toString(36)}${randomInt(1000, 9999)}`;
  // A local part every e-mail validator takes (schemas/ x-pcs-safe): at most 64 characters, no dot next to a dot.
  const run = target.runId.toLowerCase().replace(/\./g, '-').slice(0, 44);
  return {
    email: `cc-${run}-${suffix}@example.com`,
    firstname: 'Conformance',
    lastname: `Run ${target.runId}`.slice(0, 40),
  };
}

/** The phone number in the creation shape: number typed as a number (digits of the configured one). */
export function creationPhoneNumber(target: Target): { number: number; country: string } {
  return { number: Number(target.phoneNumber.replace(/^\+/, '')), country: target.phoneCountry };
}

/** The phone number in the send shape: a string holding an international-style number. */
export function sendPhoneNumber(target: Target): { number: string; country: string } {
  const number = target.phoneNumber.startsWith('+') ? target.phoneNumber : `+${target.phoneNumber}`;
  return { number, country: target.phoneCountry };
}
