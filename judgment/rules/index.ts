/**
 * Every family of registered checks, in the order their failures are reported. A rule of an
 * existing family is added in its family's module; a new family is one more line here (in
 * historyChecks for its checks that need history).
 */
import { containsIdChecks } from './contains-id.ts';
import { accountHistoryChecks } from './accounts.ts';
import type { HistoryCheck, RegisteredCheck } from './define.ts';
import { identityHistoryChecks } from './identity.ts';
import { moneyHistoryChecks } from './money.ts';
import { echoChecks } from './echoes.ts';
import { paymentLinkChecks, paymentLinkHistoryChecks } from './payment-link.ts';
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

/** Every family's history checks: rules across exchanges, judged against what earlier exchanges gave out. */
export function historyChecks(): HistoryCheck[] {
  return [
    ...identityHistoryChecks(),
    ...paymentLinkHistoryChecks(),
    ...accountHistoryChecks(),
    ...moneyHistoryChecks(),
  ];
}
