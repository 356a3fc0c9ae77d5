/**
 * The credentials a run was configured with, registered to be masked wherever they would be written: every
 * setting the table marks secret, and the embedded mock's live key. One list, read from the settings table, so
 * that a secret setting added there is masked by every reporter without a second list to keep.
 */
import { registerSecret } from './secrets.ts';
import { variableSettings } from './settings.ts';

/** The embedded mock's live environment key (global setup puts it there, for the suite's checks of live refusal). */
export const embeddedLiveKeyVariable = 'COLLECT_CONFORMANCE_EMBEDDED_LIVE_KEY';

/** Registers every configured credential found in `env`. */
export function registerConfiguredSecrets(env: Readonly<Record<string, string | undefined>>): void {
  for (const row of variableSettings) if (row.secret === true) registerSecret(env[row.variable]);
  registerSecret(env[embeddedLiveKeyVariable]);
}
