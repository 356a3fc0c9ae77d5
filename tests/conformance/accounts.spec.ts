/**
 * Account isolation (OWASP API1, broken object-level authorization): what one account creates is,
 * through another account's key, a resource that does not exist, and such a request changes
 * nothing for its owner. Needs a key of another account on the same environment
 * (PCS_SECOND_SECRET_KEY) and, for balances, a balance of that account (PCS_SECOND_BALANCE_ID):
 * without them these tests are skipped, and say so.
 */
import { test, expectAnswer, expectRule, preconditionAnswer, requireWrites } from '../../suite/fixtures.ts';
import { covers } from '../../judgment/covers.ts';
import { accepted, exactly, notServerError, refused } from '../../judgment/expectations.ts';
import { isSuccess } from '../../judgment/checks.ts';
import { accountIdIsNot, disclosesNothingOf } from '../../judgment/rules/accounts.ts';
import { sendPhoneNumber } from '../../generation/bodies.ts';
import type { Auth } from '../../suite/api-client.ts';
import type { Target } from '../../settings/target.ts';

/** The second account's key as the bearer credential; skips the test without one. */
function secondAccount(target: Target): Auth {
  test.skip(
    target.secondSecretKey === null,
    'PCS_SECOND_SECRET_KEY is not set: the cross-account checks are not run (give a key of another account)',
  );
  return { kind: 'header', value: `Bearer ${target.secondSecretKey}`, replayAs: 'PCS_SECOND_SECRET_KEY' };
}

function secondBalance(target: Target): number {
  test.skip(target.secondBalanceId === null, 'PCS_SECOND_BALANCE_ID is not set: a balance of the second account');
  return target.secondBalanceId!;
}

test.describe("accounts: one account never reaches another account's resources", () => {
  test(
    "another account cannot delete this account's customer, and the customer stays",
    covers('ACCOUNT-ISOLATION-4XX', 'ACCOUNT-ISOLATION-UNCHANGED'),
    async ({ api, target, customers }) => {
      const other = secondAccount(target);
      const { id } = await customers.create();
      const foreign = await api.call('deleteCustomer', { params: { id }, auth: other });
      expectAnswer(foreign, refused('ACCOUNT-ISOLATION-4XX'), { soft: true });
      const owner = await api.call('deleteCustomer', { params: { id } });
      expectAnswer(owner, exactly('ACCOUNT-ISOLATION-UNCHANGED', 204));
    },
  );

  test(
    "another account cannot get the payment link of this account's transaction, and the owner still can",
    covers('ACCOUNT-ISOLATION-4XX', 'ACCOUNT-ISOLATION-UNCHANGED'),
    async ({ api, target, createdTransaction }) => {
      const other = secondAccount(target);
      const foreign = await api.call('getPaymentLink', { params: { id: createdTransaction.id }, auth: other });
      expectAnswer(foreign, refused('ACCOUNT-ISOLATION-4XX'), { soft: true });
      const owner = await api.call('getPaymentLink', { params: { id: createdTransaction.id } });
      expectAnswer(owner, accepted('ACCOUNT-ISOLATION-UNCHANGED'));
    },
  );

  test(
    "another account cannot pay with this account's token, and the token still pays its transaction",
    covers('ACCOUNT-ISOLATION-4XX', 'ACCOUNT-ISOLATION-UNCHANGED'),
    async ({ api, target, createdTransaction, issuedLink }) => {
      const other = secondAccount(target);
      requireWrites(target);
      const body = { token: issuedLink.token, phone_number: sendPhoneNumber(target) };
      const mode = { mode: target.paymentMode };
      const foreign = await api.call('sendTransaction', { params: mode, body, auth: other });
      expectAnswer(foreign, refused('ACCOUNT-ISOLATION-4XX'), { soft: true });
      const owner = await api.call('sendTransaction', { params: mode, body });
      expectAnswer(owner, accepted('ACCOUNT-ISOLATION-UNCHANGED', { amount: createdTransaction.amount }));
    },
  );

  test(
    "one account cannot read another account's balance",
    covers('ACCOUNT-ISOLATION-4XX'),
    async ({ api, target }) => {
      const other = secondAccount(target);
      const id = secondBalance(target);
      const own = await api.call('getBalance', { params: { id }, auth: other });
      preconditionAnswer(own, accepted('BALANCE-2XX', { id }));
      const theirs = (Array.isArray(own.json) ? own.json[0] : {}) as Record<string, unknown>;
      const foreign = await api.call('getBalance', { params: { id } });
      // As for an id that does not exist: a 4xx, or (as a list filter answers) a 2xx holding nothing of the balance.
      if (isSuccess(foreign.status)) {
        expectAnswer(foreign, notServerError('ACCOUNT-ISOLATION-4XX'), { soft: true });
        expectRule('ACCOUNT-ISOLATION-4XX', foreign, disclosesNothingOf(foreign, theirs), { soft: true });
      } else expectAnswer(foreign, refused('ACCOUNT-ISOLATION-4XX'), { soft: true });
      if (target.balanceId !== null) {
        const reverse = await api.call('getBalance', { params: { id: target.balanceId }, auth: other });
        if (isSuccess(reverse.status)) {
          const mine = await api.call('getBalance', { params: { id: target.balanceId } });
          preconditionAnswer(mine, accepted('BALANCE-2XX', { id: target.balanceId }));
          const record = (Array.isArray(mine.json) ? mine.json[0] : {}) as Record<string, unknown>;
          expectAnswer(reverse, notServerError('ACCOUNT-ISOLATION-4XX'), { soft: true });
          expectRule('ACCOUNT-ISOLATION-4XX', reverse, disclosesNothingOf(reverse, record));
        } else expectAnswer(reverse, refused('ACCOUNT-ISOLATION-4XX'));
      }
    },
  );

  test(
    "answers to one account never carry the other account's account_id",
    covers('ACCOUNT-DATA-OWN'),
    async ({ api, target, createdTransaction, issuedLink }) => {
      const other = secondAccount(target);
      const secondId = secondBalance(target);
      test.skip(target.balanceId === null, 'PCS_BALANCE_ID is not set');
      // Each account's id, as each reads it from its own balance.
      const mine = await api.call('getBalance', { params: { id: target.balanceId! } });
      preconditionAnswer(mine, accepted('BALANCE-2XX', { id: target.balanceId! }));
      const theirs = await api.call('getBalance', { params: { id: secondId }, auth: other });
      preconditionAnswer(theirs, accepted('BALANCE-2XX', { id: secondId }));
      const accountOf = (json: unknown): unknown => (Array.isArray(json) ? json[0]?.account_id : undefined);
      const [myAccount, theirAccount] = [accountOf(mine.json), accountOf(theirs.json)];
      test.skip(
        myAccount === undefined || JSON.stringify(myAccount) === JSON.stringify(theirAccount),
        'the two balances do not show two different account_ids',
      );
      expectRule('ACCOUNT-DATA-OWN', mine, accountIdIsNot(mine, theirAccount), { soft: true });
      expectRule('ACCOUNT-DATA-OWN', theirs, accountIdIsNot(theirs, myAccount), { soft: true });
      const sent = await api.call('sendTransaction', {
        params: { mode: target.paymentMode },
        body: { token: issuedLink.token, phone_number: sendPhoneNumber(target) },
      });
      expectAnswer(sent, accepted('ACCOUNT-DATA-OWN', { amount: createdTransaction.amount }), { soft: true });
      expectRule('ACCOUNT-DATA-OWN', sent, accountIdIsNot(sent, theirAccount), { soft: true });
      if (target.currencyId !== null) {
        const currency = await api.call('getCurrency', { params: { id: target.currencyId } });
        expectAnswer(currency, accepted('ACCOUNT-DATA-OWN', { id: target.currencyId }), { soft: true });
        expectRule('ACCOUNT-DATA-OWN', currency, accountIdIsNot(currency, theirAccount), { soft: true });
      }
    },
  );
});
