/**
 * Starting and stopping the reference mock on a loopback port (0: a free one).
 */
import type { AddressInfo } from 'node:net';
import { buildMockApp, livePrefix, sandboxPrefix, type MockApp, type MockOptions } from './app.ts';

export interface RunningMock {
  origin: string;
  sandboxBaseUrl: string;
  liveBaseUrl: string;
  sandboxKey: string;
  liveKey: string;
  /** The sandbox's second account (cross-account checks). */
  secondSandboxKey: string;
  port: number;
  mock: MockApp;
  close(): Promise<void>;
}

export interface StartOptions extends MockOptions {
  port?: number;
  host?: string;
}

export async function startMockServer(options: StartOptions = {}): Promise<RunningMock> {
  const mock = buildMockApp(options);
  const host = options.host ?? '127.0.0.1';
  await mock.app.listen({ port: options.port ?? 0, host });
  const address = mock.app.server.address() as AddressInfo;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  mock.setOrigin(origin);
  return {
    origin,
    sandboxBaseUrl: origin + sandboxPrefix,
    liveBaseUrl: origin + livePrefix,
    sandboxKey: mock.sandboxKey,
    liveKey: mock.liveKey,
    secondSandboxKey: mock.secondSandboxKey,
    port: address.port,
    mock,
    close: () => mock.app.close(),
  };
}
