/**
 * The target every test talks to, as the workers see it after global setup: either the
 * configured base address, or the embedded reference mock that global setup started (in
 * which case global setup filled in PCS_BASE_URL, the key and the seeded ids, and put the
 * mock's live address in COLLECT_CONFORMANCE_EMBEDDED_LIVE_BASE_URL / COLLECT_CONFORMANCE_EMBEDDED_LIVE_KEY).
 */
import { loadConfig, type SuiteConfig } from './config.ts';
import { registerSecret } from './secrets.ts';

export interface Target extends SuiteConfig {
  baseUrl: string;
  secretKey: string;
  /** Present when the target is the embedded mock: its other environment's address and key. */
  otherEnvironment: { baseUrl: string; secretKey: string } | null;
  embedded: boolean;
  /** Writes (creating transactions and customers, sending, deleting) are allowed on this target. */
  writesAllowed: boolean;
}

let cached: Target | undefined;

export function currentTarget(): Target {
  if (cached) return cached;
  const config = loadConfig();
  if (config.baseUrl === null || config.secretKey === null) {
    throw new Error(
      'no target: PCS_BASE_URL is unset and global setup did not start the embedded mock ' +
        '(run through npm run conformance or playwright.config.ts)',
    );
  }
  const otherBase = process.env.COLLECT_CONFORMANCE_EMBEDDED_LIVE_BASE_URL;
  const otherKey = process.env.COLLECT_CONFORMANCE_EMBEDDED_LIVE_KEY;
  registerSecret(config.secretKey);
  registerSecret(config.secondSecretKey ?? undefined);
  registerSecret(otherKey);
  cached = {
    ...config,
    baseUrl: config.baseUrl,
    secretKey: config.secretKey,
    otherEnvironment: otherBase && otherKey ? { baseUrl: otherBase, secretKey: otherKey } : null,
    embedded: process.env.COLLECT_CONFORMANCE_EMBEDDED_MOCK === '1',
    writesAllowed: config.environment === 'sandbox' || config.allowLiveWrites,
  };
  return cached;
}
