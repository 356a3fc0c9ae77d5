/**
 * Hand-written checks of the request bodies the mock receives. They are written from the
 * reference, independently of the suite's schemas, so that a mistake in schemas/ is not
 * silently shared by the mock. Each failure is one sentence naming the field.
 */
import type { PhoneNumberRecord } from './store.ts';

export class BadRequest extends Error {
  readonly status: number;
  readonly code: string;
  constructor(message: string, status = 400, code = 'invalid_request') {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function requireObject(value: unknown, what: string): JsonObject {
  if (!isObject(value)) throw new BadRequest(`${what} must be a JSON object`);
  return value;
}

export function optionalString(body: JsonObject, field: string, where = ''): string | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new BadRequest(`${where}${field} must be a string`);
  return value;
}

export function requiredInteger(body: JsonObject, field: string, where = ''): number {
  const value = body[field];
  if (value === undefined || value === null) throw new BadRequest(`${where}${field} is required`);
  if (typeof value !== 'number' || !Number.isSafeInteger(value))
    throw new BadRequest(`${where}${field} must be an integer`);
  return value;
}

/** Path ids: plain decimal digits (no leading zero) naming a positive safe integer. */
export function pathId(raw: string, what: string): number {
  const value = /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < 1) throw new BadRequest(`${what} must be a positive integer`);
  return value;
}

const phoneDigits = /^\+?\d{6,15}$/;

/** Creation shape: number typed as a number (the resource table also allows a string of digits). */
export function creationPhoneNumber(value: unknown, where: string): PhoneNumberRecord {
  const phone = requireObject(value, where);
  const number = phone.number;
  const numberOk =
    (typeof number === 'number' && Number.isSafeInteger(number) && number > 0) ||
    (typeof number === 'string' && phoneDigits.test(number));
  if (!numberOk) throw new BadRequest(`${where}.number must be a phone number (a number, or a string of digits)`);
  const country = phone.country;
  if (typeof country !== 'string' || !/^[A-Za-z]{2}$/.test(country))
    throw new BadRequest(`${where}.country must be a two-letter country code`);
  return { number: number as string | number, country };
}

/** Send shape: number is a string holding an international-style number, country upper-case. */
export function sendPhoneNumber(value: unknown): PhoneNumberRecord {
  const phone = requireObject(value, 'phone_number');
  if (typeof phone.number !== 'string' || !phoneDigits.test(phone.number))
    throw new BadRequest('phone_number.number must be a string holding an international-style number');
  if (typeof phone.country !== 'string' || !/^[A-Z]{2}$/.test(phone.country))
    throw new BadRequest('phone_number.country must be an upper-case two-letter country code');
  return { number: phone.number, country: phone.country };
}

/** The send payload types the token as an integer; the link operation returns a string. Both are taken. */
export function sendToken(body: JsonObject): string {
  const token = body.token;
  if (token === undefined || token === null) throw new BadRequest('token is required');
  if (typeof token === 'number' && Number.isSafeInteger(token) && token >= 0) return String(token);
  if (typeof token === 'string' && token.length > 0 && token.length <= 200) return token;
  throw new BadRequest('token must be an integer or a non-empty string');
}
