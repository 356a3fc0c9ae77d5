/**
 * Installs the peer tools (lab/peer-tools/package.json, its own lockfile) on first use, so that
 * `npm run bench:peers` and `npm run bench:mock` are one command on a fresh clone. They are
 * kept out of the project's dependencies: a plain `npm ci` does not download them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const peersDir = fileURLToPath(new URL('../peer-tools/', import.meta.url));

/** Runs `npm ci --prefix lab/peer-tools` when lab/peer-tools/node_modules is missing; true when the tools are there. */
export function ensurePeersInstalled(): boolean {
  if (existsSync(`${peersDir}node_modules`)) return true;
  process.stderr.write('installing the peer tools into lab/peer-tools/ (npm ci --prefix lab/peer-tools), once...\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--prefix', peersDir, '--no-audit', '--no-fund', '--loglevel=error'], {
    stdio: 'inherit',
  });
  return result.status === 0 && existsSync(`${peersDir}node_modules`);
}
