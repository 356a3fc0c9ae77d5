/**
 * Every family of registered checks, in the order their failures are reported. A rule of an
 * existing family is added in its family's module; a new family is one more line here.
 */
import { containsIdChecks } from './contains-id.ts';
import type { RegisteredCheck } from './define.ts';
import { echoChecks } from './echoes.ts';
import { paymentLinkChecks } from './payment-link.ts';
import { referenceChecks } from './references.ts';
import { sendChecks } from './send.ts';
import { shapeChecks } from './shape.ts';
import { timeChecks } from './times.ts';

export function registeredChecks(): RegisteredCheck[] {
  return [
    ...shapeChecks(),
    ...echoChecks(),
    ...referenceChecks(),
    ...paymentLinkChecks(),
    ...sendChecks(),
    ...timeChecks(),
    ...containsIdChecks(),
  ];
}
