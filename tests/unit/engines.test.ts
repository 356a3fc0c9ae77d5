/**
 * The Node versions the package declares (package.json engines) are ones every runtime dependency
 * accepts: `npm ci` and a user's install print no EBADENGINE warning on the oldest declared Node.
 * (fastify's light-my-request 6.8 pulled in cookie 2, which asks for Node 22: the package pins 6.6.)
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const root = new URL('../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
  packages: Record<string, { dev?: boolean; engines?: Record<string, string> | string[] }>;
};

type Version = [number, number, number];
const parse = (text: string): Version => {
  const [major = 0, minor = 0, patch = 0] = text
    .replace(/^v/, '')
    .split('.')
    .map((part) => Number.parseInt(part, 10) || 0);
  return [major, minor, patch];
};
const compare = (a: Version, b: Version): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** Whether `version` satisfies an engines range of the forms found in lockfiles (>=, ^, ||, *). */
function satisfies(version: Version, range: string): boolean {
  return range.split('||').some((alternative) => {
    const part = alternative.trim().replace(/\.x$/, '');
    if (part === '*' || part === '') return true;
    const caret = /^\^\s*([\d.]+)$/.exec(part);
    if (caret) {
      const floor = parse(caret[1]!);
      return compare(version, floor) >= 0 && version[0] === floor[0];
    }
    const atLeast = /^>=\s*([\d.]+)$/.exec(part);
    if (atLeast) return compare(version, parse(atLeast[1]!)) >= 0;
    return true; // a form not met in lockfiles: not judged here
  });
}

test('every runtime dependency accepts the oldest Node the package declares', () => {
  const oldest = parse(/[\d.]+/.exec(pkg.engines.node)![0]);
  const refusing = Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && !entry.dev && !Array.isArray(entry.engines))
    .filter(([, entry]) => {
      const range = (entry.engines as Record<string, string> | undefined)?.node;
      return range !== undefined && !satisfies(oldest, range);
    })
    .map(([path, entry]) => `${path} (node ${(entry.engines as Record<string, string>).node})`);
  assert.deepEqual(refusing, [], `dependencies that refuse Node ${oldest.join('.')}`);
});

test('the range reader reads the forms lockfiles use', () => {
  assert.equal(satisfies([20, 18, 0], '>=22'), false);
  assert.equal(satisfies([20, 18, 0], '>=18.17'), true);
  assert.equal(satisfies([20, 18, 0], '^8.16.0 || ^10.6.0 || >=11.0.0'), true);
  assert.equal(satisfies([20, 18, 0], '>= 10.x'), true);
  assert.equal(satisfies([20, 18, 0], '^22.0.0'), false);
});
