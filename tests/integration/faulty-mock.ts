/**
 * The reference mock with injected faults (mock/faults.ts: latency, 429s, throttling, resets) and the
 * request the transport tests send it, for tests/integration/transport.test.ts and rate-control.test.ts.
 */
import { startMockServer, type RunningMock } from '../../mock/server.ts';
import type { OutgoingRequest } from '../../http/transport.ts';

/** Starts the mock with these faults on a free loopback port; the caller closes what `running` holds. */
export async function faultyMock(faults: string, running: { close(): Promise<void> }[]): Promise<RunningMock> {
  const mock = await startMockServer({ host: '127.0.0.1', port: 0, faults });
  running.push(mock);
  return mock;
}

/** GET /balances/1 with the mock's sandbox key. */
export function getBalance(mock: RunningMock): OutgoingRequest {
  return {
    method: 'GET',
    url: `${mock.sandboxBaseUrl}/balances/1`,
    headers: { authorization: `Bearer ${mock.sandboxKey}` },
    operationId: 'getBalance',
  };
}
