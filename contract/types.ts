/**
 * TypeScript shapes of the request bodies the suite builds, mirroring schemas/ (the source
 * of truth): tests/unit/schemas.test.ts validates values of these types against the
 * schemas, so the two cannot drift apart unnoticed.
 */

export interface PhoneNumberCreate {
  number: number | string;
  country: string;
}

export interface PhoneNumberSend {
  number: string;
  country: string;
}

export interface CustomerPayload {
  id?: number;
  email?: string;
  firstname?: string;
  lastname?: string;
  phone_number?: PhoneNumberCreate;
}

export interface CreateTransactionBody {
  description: string;
  amount: number;
  currency: { iso: string };
  callback_url: string;
  custom_metadata?: Record<string, unknown>;
  customer?: CustomerPayload;
  mode?: string;
}

export interface SendTransactionBody {
  token: string | number;
  phone_number?: PhoneNumberSend;
}

export interface CreateCustomerBody {
  email: string;
  firstname: string;
  lastname: string;
  phone_number?: PhoneNumberCreate;
}
