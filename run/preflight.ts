/**
 * The probe of the target before any test: one harmless read (GET /currencies/{id}) under
 * the transport policy. Any HTTP answer means the target is reachable; a refused
 * connection, a DNS or TLS failure, timeouts after retries or a persistent 429 mean the run
 * cannot say anything about conformance, so it ends at once with one line and exit code 3
 * instead of failing every test the same way.
 *
 * Two answers are a mistake of the configuration rather than a verdict, and would otherwise
 * cost minutes and thousands of lines of failures; each is checked with a
 * few more reads, only when the first one calls for it:
 * - the key refused with 401 on the configured currency and balance: a wrong key;
 * - 404 for the configured currency and balance, and 404 again for a read without a key,
 *   which this API answers 401 (every endpoint requires the key): not this API at this base URL.
 */
import { operationPath } from '../contract/operations.ts';
import { nodeSender, sendWithPolicy, TransportError, type TransportSettings } from '../http/transport.ts';

export const targetUnavailableExitCode = 3;

export type PreflightOutcome =
  | { ok: true; status: number; warning: string | null }
  | { ok: false; message: string }
  /** A configuration error: the run ends with one line naming the variable, exit code 2. */
  | { ok: false; variable: string; problem: string };

export interface PreflightTarget {
  baseUrl: string;
  secretKey: string;
  currencyId: number | null;
  balanceId: number | null;
  /** The variable the key came from (PCS_SECRET_KEY, or the one named with --secret-key-env). */
  keyVariable: string;
}

type Read = { operationId: 'getCurrency' | 'getBalance'; id: number };

export async function probeTarget(target: PreflightTarget, settings: TransportSettings): Promise<PreflightOutcome> {
  const sender = nodeSender();
  const pathOf = (read: Read): string =>
    new URL(target.baseUrl).pathname.replace(/\/+$/, '') + operationPath(read.operationId, { id: read.id });
  const status = async (read: Read, withKey: boolean): Promise<number> => {
    const { response } = await sendWithPolicy(
      sender,
      {
        method: 'GET',
        url: target.baseUrl + operationPath(read.operationId, { id: read.id }),
        headers: {
          ...(withKey ? { authorization: `Bearer ${target.secretKey}` } : {}),
          accept: 'application/json',
        },
        operationId: read.operationId,
      },
      settings,
    );
    return response.status;
  };
  const currency: Read = { operationId: 'getCurrency', id: target.currencyId ?? 1 };
  const reads: Read[] = [currency];
  if (target.balanceId !== null) reads.push({ operationId: 'getBalance', id: target.balanceId });
  const tried = (statusText: string) => reads.map((read) => `GET ${pathOf(read)}`).join(' and ') + statusText;

  try {
    const first = await status(currency, true);
    if (first !== 401 && first !== 404) {
      const warning =
        first === 403
          ? `the target refused the configured key on the preflight probe (403); ` +
            `tests that send it will fail: check ${target.keyVariable} and PCS_BASE_URL`
          : null;
      return { ok: true, status: first, warning };
    }
    const others: number[] = [];
    for (const read of reads.slice(1)) others.push(await status(read, true));
    if (!others.every((other) => other === first)) return { ok: true, status: first, warning: null };
    if (first === 401) {
      return {
        ok: false,
        variable: target.keyVariable,
        problem:
          `the target refused this key with 401 on ${tried('')}; check the key and that it belongs to ` +
          `this base URL's environment (PCS_BASE_URL, PCS_ENVIRONMENT)`,
      };
    }
    const withoutKey = await status(currency, false);
    if (withoutKey === 404) {
      return {
        ok: false,
        variable: 'PCS_BASE_URL',
        problem:
          `${target.baseUrl} does not serve this API: ${tried(' answered 404')}, and GET ${pathOf(currency)} ` +
          'answered 404 without a key too, where this API answers 401; check the base address (it includes /v1)',
      };
    }
    // Unconfigured, the currency probed is id 1, which another target need not have.
    const warning =
      target.currencyId === null
        ? null
        : `${tried(' answered 404')}: the configured ids (PCS_CURRENCY_ID, PCS_BALANCE_ID) may not exist ` +
          'on the target, and the tests that read them will fail';
    return { ok: true, status: first, warning };
  } catch (error) {
    if (error instanceof TransportError) return { ok: false, message: error.message };
    throw error;
  }
}
