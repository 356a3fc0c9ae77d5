/**
 * Masking of secrets in anything the suite writes: headers, bodies, messages, curl lines.
 * Secrets are registered once (the configured key, and keys of the embedded mock); every
 * output path goes through redact().
 */

const secrets = new Set<string>();
export const mask = '***';

/** Registers a value that must never be printed. Values shorter than 4 characters are ignored. */
export function registerSecret(value: string | null | undefined): void {
  if (value && value.length >= 4) secrets.add(value);
}

export function redact(text: string): string {
  let result = text;
  for (const secret of secrets) result = result.split(secret).join(mask);
  return result;
}

/** An Authorization header value with the credential masked, whatever it holds. */
export function maskAuthorization(value: string): string {
  const match = /^(\S+)(\s+)(.*)$/.exec(value);
  return match ? `${match[1]}${match[2]}${mask}` : mask;
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    result[name] = name.toLowerCase() === 'authorization' ? maskAuthorization(value) : redact(value);
  }
  return result;
}
