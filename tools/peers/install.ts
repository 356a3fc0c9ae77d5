/**
 * Installs the peer tools (peers/package.json, its own lockfile) on first use, so that
 * `npm run bench:peers` and `npm run bench:mock` are one command on a fresh clone. They are
 * kept out of the project's dependencies: a plain `npm ci` does not download them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const peersDir = fileURLToPath(new URL('../../peers/', import.meta.url));

/** Runs `npm ci --prefix peers` when peers/node_modules is missing; true when the tools are there. */
export function ensurePeersInstalled(): boolean {
  if (existsSync(`${peersDir}node_modules`)) return true;
  process.stderr.write('installing the peer tools into peers/ (npm ci --prefix peers), once...\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--prefix', peersDir, '--no-audit', '--no-fund', '--loglevel=error'], { stdio: 'inherit' });
  return result.status === 0 && existsSync(`${peersDir}node_modules`);
}
