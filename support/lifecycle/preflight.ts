/**
 * The probe of the target before any test: one harmless read (GET /currencies/{id}) under
 * the transport policy. Any HTTP answer means the target is reachable; a refused
 * connection, a DNS or TLS failure, timeouts after retries or a persistent 429 mean the run
 * cannot say anything about conformance, so it ends at once with one line and exit code 3
 * instead of failing every test the same way.
 */
import { operationPath } from '../../contract/operations.ts';
import { nodeSender, sendWithPolicy, TransportError, type TransportSettings } from '../http/transport.ts';

export const targetUnavailableExitCode = 3;

export type PreflightOutcome = { ok: true; status: number; warning: string | null } | { ok: false; message: string };

export async function probeTarget(
  baseUrl: string,
  secretKey: string,
  currencyId: number | null,
  settings: TransportSettings,
): Promise<PreflightOutcome> {
  try {
    const { response } = await sendWithPolicy(
      nodeSender(),
      {
        method: 'GET',
        url: baseUrl + operationPath('getCurrency', { id: currencyId ?? 1 }),
        headers: { authorization: `Bearer ${secretKey}`, accept: 'application/json' },
        operationId: 'getCurrency',
      },
      settings,
    );
    const warning =
      response.status === 401 || response.status === 403
        ? `the target refused the configured key on the preflight probe (${response.status}); ` +
          `tests that send it will fail: check PCS_SECRET_KEY and PCS_BASE_URL`
        : null;
    return { ok: true, status: response.status, warning };
  } catch (error) {
    if (error instanceof TransportError) return { ok: false, message: error.message };
    throw error;
  }
}
