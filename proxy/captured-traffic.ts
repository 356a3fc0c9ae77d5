/**
 * The forwarding proxy's copy of an exchange as the judge reads traffic: the same TrafficExchange a
 * HAR entry becomes, so that the proxy's traffic and a recording of it get the same verdicts.
 */
import type { CapturedExchange } from './captured-exchange.ts';
import type { TrafficExchange } from '../judge/traffic-exchange.ts';

/** Why a copy cannot be judged whole, or undefined: an answer cut short, a body past the capture limit. */
function answerIncomplete(captured: CapturedExchange): string | undefined {
  if (captured.answerCut !== undefined) return captured.answerCut;
  const decoded = captured.decodedResponseBody;
  if (decoded !== null && decoded.error !== null) return `its body could not be decompressed (${decoded.error})`;
  if (decoded !== null ? decoded.truncated : captured.responseBody.truncated)
    return 'the answer’s body passed the capture limit';
  return undefined;
}

/** Bytes as text: a Buffer, or the Uint8Array a Buffer becomes when copied to a worker thread. */
function text(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** The exchange as the judge reads it; `index` is its place in the order the judge sees exchanges. */
export function trafficOfCaptured(captured: CapturedExchange, index: number): TrafficExchange {
  const answer = captured.decodedResponseBody?.bytes ?? captured.responseBody.bytes;
  const incomplete = answerIncomplete(captured);
  const request = captured.requestBody;
  return {
    index,
    source: { kind: 'proxy', exchange: captured.sequence },
    method: captured.method,
    // Where it went: the upstream's own address, so that a replay line reaches the server that answered.
    url: captured.forwardedUrl,
    requestHeaders: captured.requestHeaders,
    requestBody: request.size === 0 ? undefined : text(request.bytes),
    status: captured.status,
    responseHeaders: captured.responseHeaders,
    responseBody: text(answer),
    startedAt: captured.timings.started,
    endedAt: captured.timings.ended,
    ...(incomplete === undefined ? {} : { incomplete }),
    ...(request.truncated ? { requestIncomplete: 'the request’s body passed the capture limit' } : {}),
  };
}
