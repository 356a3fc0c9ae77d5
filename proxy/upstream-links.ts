/**
 * The proxy's connections to the upstream, one for each connection of a client: the requests a client
 * sends on one connection go on one upstream connection, in the same order, and a new client
 * connection opens a new upstream one. So a client's kept-alive connection is a kept-alive
 * connection upstream too, and when the upstream drops one as a request goes out (the keep-alive race
 * every HTTP client meets), the client meets it on its own reused connection, as it would without the
 * proxy, and its own retry policy decides; the proxy never sends a request twice. A client connection
 * that closes takes its upstream connection with it; an upstream connection idle for a second is
 * closed, and the client's next request opens a new one.
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent, type AgentOptions as HttpsAgentOptions } from 'node:https';
import type { Socket } from 'node:net';

export type UpstreamTls = Pick<HttpsAgentOptions, 'ca' | 'cert' | 'key' | 'rejectUnauthorized' | 'servername'>;

/** How long an upstream connection may stay idle in the proxy's hands. */
const idleMs = 1000;

export class UpstreamLinks {
  private readonly secure: boolean;
  private readonly tls: UpstreamTls | undefined;
  private readonly byClient = new WeakMap<Socket, HttpAgent>();
  private readonly open = new Set<HttpAgent>();

  constructor(secure: boolean, tls?: UpstreamTls) {
    this.secure = secure;
    this.tls = tls;
  }

  /** The agent of a client connection: one upstream connection at a time, kept alive while the client's is. */
  agentFor(client: Socket): HttpAgent {
    const known = this.byClient.get(client);
    if (known !== undefined) return known;
    // An upstream connection idle for a second is closed by the proxy: before the keep-alive time-out of most servers
    // (Node's and Apache's 5 s, uvicorn's 5 s, gunicorn's 2 s), so that a request the proxy held back while the judge
    // caught up never goes out on a connection the server is closing. The client's own connection stays.
    const options = { keepAlive: true, maxSockets: 1, maxFreeSockets: 1, noDelay: true, timeout: idleMs };
    const agent = this.secure ? new HttpsAgent({ ...options, ...this.tls }) : new HttpAgent(options);
    this.byClient.set(client, agent);
    this.open.add(agent);
    client.once('close', () => {
      this.open.delete(agent);
      // After the client's exchange has heard its connection close (it is then the client's going, not the upstream's).
      setImmediate(() => agent.destroy());
    });
    return agent;
  }

  /** Closes every upstream connection (the proxy stops). */
  destroyAll(): void {
    for (const agent of this.open) agent.destroy();
    this.open.clear();
  }
}
