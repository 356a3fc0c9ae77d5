/**
 * The target every test talks to, as the workers see it after global setup: either the
 * configured base address, or the embedded reference mock that global setup started (in
 * which case global setup filled in PCS_BASE_URL, the key and the seeded ids, and put the
 * mock's live address in COLLECT_CONFORMANCE_EMBEDDED_LIVE_BASE_URL / COLLECT_CONFORMANCE_EMBEDDED_LIVE_KEY).
 */
import { loadConfig, type SuiteConfig } from './config.ts';
import { embeddedLiveKeyVariable, registerConfiguredSecrets } from './configured-secrets.ts';
import { registerSecret } from './secrets.ts';

export interface Target extends SuiteConfig {
  baseUrl: string;
  secretKey: string;
  /** Present when the target is the embedded mock: its other environment's address and key. */
  otherEnvironment: { baseUrl: string; secretKey: string } | null;
  embedded: boolean;
  /** Writes (creating transactions and customers, sending, deleting) are allowed on this target. */
  writesAllowed: boolean;
  /**
   * The variables the target was read from, as the worker sees them after global setup: what the rooms below read
   * of the run beyond the target (the transport's settings, the output directory, the run id), handed to them.
   */
  env: Env;
}

type Env = Record<string, string | undefined>;

// One per worker process, read once: a worker's environment does not change after global setup, and every test
// of the worker talks to the same target (its fixture hands it on; nothing else reads this).
let cached: Target | undefined;

export function currentTarget(env: Env = process.env): Target {
  if (cached) return cached;
  const config = loadConfig(env);
  if (config.baseUrl === null || config.secretKey === null) {
    throw new Error(
      'no target: PCS_BASE_URL is unset and global setup did not start the embedded mock ' +
        '(run through npm run conformance or playwright.config.ts)',
    );
  }
  const otherBase = env.COLLECT_CONFORMANCE_EMBEDDED_LIVE_BASE_URL;
  const otherKey = env[embeddedLiveKeyVariable];
  registerSecret(config.secretKey);
  registerSecret(config.secondSecretKey ?? undefined);
  registerConfiguredSecrets(env);
  cached = {
    ...config,
    baseUrl: config.baseUrl,
    secretKey: config.secretKey,
    otherEnvironment: otherBase && otherKey ? { baseUrl: otherBase, secretKey: otherKey } : null,
    embedded: env.COLLECT_CONFORMANCE_EMBEDDED_MOCK === '1',
    writesAllowed: config.environment === 'sandbox' || config.allowLiveWrites,
    env,
  };
  return cached;
}
