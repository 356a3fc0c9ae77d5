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

export function seedFor(environment: 'sandbox' | 'live'): Seed {
  // Distinct account ids per environment, so data never looks shared between the two.
  const accountId = environment === 'sandbox' ? 7301 : 9402;
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
    id,
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
    id,
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
