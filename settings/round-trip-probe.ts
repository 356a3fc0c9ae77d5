/**
 * How far away the target is, measured by the command before Playwright starts, to choose the
 * number of workers when PCS_WORKERS is unset. A worker runs one test at a time, and the example
 * tests send their requests one after another: against a target 40 ms away, two workers leave the
 * wire idle most of the time, while on this machine (the embedded mock, a server on loopback) more
 * workers only share the same two cores. The generated cases go in flight within each worker
 * (http/in-flight.ts); this adds workers for everything else.
 *
 * The probe: three GET requests without a key (the API answers them 401 at once: nothing is
 * read or changed, and no key is sent before the preflight checks the target). An error or a
 * timeout leaves the default: the preflight reports an unreachable target in its own words.
 */
import http from 'node:http';
import https from 'node:https';

/** From this median round trip (ms) on, the run gets farWorkers workers instead of the default. */
export const farMs = 10;
export const farWorkers = 4;

function once(url: URL, timeoutMs: number): Promise<number> {
  return new Promise((resolveProbe, rejectProbe) => {
    const started = performance.now();
    const request = (url.protocol === 'https:' ? https : http).request(
      url,
      { method: 'GET', headers: { accept: 'application/json', 'user-agent': 'collect-conformance (probe)' } },
      (response) => {
        response.resume();
        response.on('end', () => resolveProbe(performance.now() - started));
        response.on('error', rejectProbe);
      },
    );
    request.setTimeout(timeoutMs, () => request.destroy(new Error('timeout')));
    request.on('error', rejectProbe);
    request.end();
  });
}

/** The median round trip to the target over three requests, in ms; undefined when it could not be measured. */
export async function probeRoundTrip(baseUrl: string, timeoutMs = 3000): Promise<number | undefined> {
  let url: URL;
  try {
    url = new URL(`${baseUrl.replace(/\/+$/, '')}/balances/1`);
  } catch {
    return undefined;
  }
  const times: number[] = [];
  try {
    // The first opens the connection (and TLS): its time is a round trip or two more, so three are taken.
    for (let attempt = 0; attempt < 3; attempt++) times.push(await once(url, timeoutMs));
  } catch {
    return undefined;
  }
  return [...times].sort((a, b) => a - b)[1];
}

/**
 * This machine's own round trip at this moment: a server of this process on loopback, asked the same way. A busy
 * machine (other jobs of a CI runner, the stages of a gate side by side) is slow to answer even itself, and that
 * time is no distance: more workers would only make it busier.
 */
export async function localRoundTrip(): Promise<number | undefined> {
  const server = http.createServer((_request, response) => response.writeHead(401).end());
  try {
    await new Promise<void>((resolveListen, rejectListen) => {
      server.once('error', rejectListen);
      server.listen(0, '127.0.0.1', resolveListen);
    });
    const address = server.address();
    if (address === null || typeof address === 'string') return undefined;
    return await probeRoundTrip(`http://127.0.0.1:${address.port}/v1`);
  } catch {
    return undefined;
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/** How far away the target is: its median round trip beyond this machine's own at the same moment (ms). */
export async function probeDistance(baseUrl: string): Promise<number | undefined> {
  const target = await probeRoundTrip(baseUrl);
  if (target === undefined) return undefined;
  const local = (await localRoundTrip()) ?? 0;
  return Math.max(0, target - local);
}

/** The workers for a target at this round trip: farWorkers when it is far, else undefined (the default). */
export function workersForRoundTrip(medianMs: number | undefined): number | undefined {
  return medianMs !== undefined && medianMs >= farMs ? farWorkers : undefined;
}
