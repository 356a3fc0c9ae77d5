/**
 * What the browser tests share: Debian's Chromium started headless with the flags this machine
 * needs, every request that is not loopback aborted (the report's analytics script never leaves
 * the machine), and a report's folder served over http on 127.0.0.1.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type BrowserContext } from '@playwright/test';

export const chromiumPath = '/usr/bin/chromium';

/**
 * How long a page may take to show what a test looks for: the report is a large single page, and on a
 * machine that runs the other checks beside these tests, Chromium renders it in tens of seconds. A limit,
 * not a speed the tests hold the report to.
 */
export const pageTimeoutMs = 120_000;
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function serve(directory: string): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const name = new URL(request.url ?? '/', 'http://127.0.0.1').pathname.replace(/^\/+/, '') || 'index.html';
    const file = join(directory, name);
    if (!file.startsWith(directory) || !existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      'content-type': name.endsWith('.html') ? 'text/html; charset=utf-8' : 'application/octet-stream',
    });
    response.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/index.html` };
}

/**
 * Stops serving a report. The browser keeps its connections alive while it is open, and close() alone waits
 * for them to end (a minute and more): the connections are cut, the report has been read.
 */
export function stopServing(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
}

export async function openBrowser(profile: string): Promise<{ context: BrowserContext; blocked: string[] }> {
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    args: chromiumArgs,
    timeout: pageTimeoutMs,
  });
  // Navigations and actions wait as long as the checks for what a page shows.
  context.setDefaultTimeout(pageTimeoutMs);
  const blocked: string[] = [];
  // Loopback only: the report's analytics script (and anything else remote) is aborted here.
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'data:' || url.protocol === 'blob:' || url.hostname === '127.0.0.1') return route.continue();
    blocked.push(url.origin);
    return route.abort();
  });
  return { context, blocked };
}
