/**
 * What each environment of the reference mock holds when it starts: the currencies and
 * balances that .env.example names (PCS_CURRENCY_ID=1 is XOF, PCS_BALANCE_ID=1 is mtn),
 * and the payment modes the send operation accepts.
 */

export interface CurrencyRecord {
  id: number;
  name: string;
  iso: string;
  code: number;
  modes: string[];
  prefix: string;
  suffix: string;
  div: number;
  account_id: number;
  created_at: string;
  updated_at: string;
  default: boolean;
}

export interface BalanceRecord {
  id: number;
  amount: number;
  mode: string;
  account_id: number;
  created_at: string;
  updated_at: string;
}

export interface Seed {
  accountId: number;
  currencies: CurrencyRecord[];
  balances: BalanceRecord[];
}

const seededAt = '2024-01-15T09:30:00.000Z';

/** The accounts of an environment: the primary one (the configured key) and a second one (cross-account checks). */
export type AccountName = 'primary' | 'second';

export function seedFor(environment: 'sandbox' | 'live', account: AccountName = 'primary'): Seed {
  // Distinct account ids per environment and account, so data never looks shared between them.
  const accountId = (environment === 'sandbox' ? 7301 : 9402) + (account === 'second' ? 1 : 0);
  // The second account's seeded ids follow the first's (11, 12...): ids are unique across accounts, as in a real
  // service, so that another account's id names a resource that exists, just not for the caller.
  const base = account === 'second' ? 10 : 0;
  const currency = (
    id: number,
    name: string,
    iso: string,
    code: number,
    modes: string[],
    prefix: string,
    suffix: string,
    isDefault: boolean,
  ): CurrencyRecord => ({
    id: base + id,
    name,
    iso,
    code,
    modes,
    prefix,
    suffix,
    div: 1,
    account_id: accountId,
    created_at: seededAt,
    updated_at: seededAt,
    default: isDefault,
  });
  const balance = (id: number, mode: string, amount: number): BalanceRecord => ({
    id: base + id,
    amount,
    mode,
    account_id: accountId,
    created_at: seededAt,
    updated_at: seededAt,
  });
  return {
    accountId,
    currencies: [
      currency(1, 'FCFA', 'XOF', 952, ['mtn', 'moov', 'mtn_ci', 'moov_tg', 'orange_ci', 'wave_ci'], '', 'F CFA', true),
      currency(2, 'GNF', 'GNF', 324, ['mtn_open', 'orange_gn'], '', 'GNF', false),
    ],
    balances: [balance(1, 'mtn', 250_000), balance(2, 'moov', 120_500), balance(3, 'orange_ci', 0)],
  };
}
