/**
 * The product's rooms stand in layers (docs/development.md, "Layers"): a module imports only modules of
 * its own room or of a room on a lower floor, and no modules import each other in a circle, type-only
 * imports included. The floors are read from the guide's table, so that the guide and the code cannot
 * disagree; a room the table does not list fails too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The rooms by floor, from the guide's table: `| 3 | `http/` | ... |`; a room is a folder or a file. */
export function floorsOf(guide: string): Map<string, number> {
  const section = guide.slice(guide.indexOf('## Layers'), guide.indexOf('\n## ', guide.indexOf('## Layers') + 1));
  const floors = new Map<string, number>();
  for (const row of section.matchAll(/^\| (\d+) \| ([^|]+) \|/gm))
    for (const room of row[2]!.matchAll(/`([^`]+)`/g)) floors.set(room[1]!.replace(/\/$/, ''), Number(row[1]));
  return floors;
}

/** The room of a file: the longest listed room its path is, or starts with. */
export function roomOf(file: string, floors: ReadonlyMap<string, number>): string | undefined {
  return [...floors.keys()]
    .filter((room) => file === room || file.startsWith(`${room}/`))
    .sort((a, b) => b.length - a.length)[0];
}

/** The relative modules a source imports or re-exports, type-only imports and import() included. */
export function importsOf(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...code.matchAll(/(?:\bfrom|\bimport|\bimport\s*\()\s*['"](\.\.?\/[^'"]+)['"]/g)].map((match) => match[1]!);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(join(root, path)).isDirectory()) return sourceFiles(path);
    return /\.(ts|mjs)$/.test(name) ? [path] : [];
  });
}

/** Every circle of a graph, each once, as the files around it. */
export function circlesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const circles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') circles.push(path.slice(path.indexOf(next)));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return circles;
}

const guide = readFileSync(join(root, 'docs', 'development.md'), 'utf8');
const floors = floorsOf(guide);
const product = [...floors.keys()].flatMap((room) =>
  room.endsWith('.ts') ? [room] : statSync(join(root, room)).isDirectory() ? sourceFiles(room) : [room],
);
const graph = new Map(
  product.map((file) => [
    file,
    importsOf(readFileSync(join(root, file), 'utf8'))
      .map((spec) => relative(root, resolve(root, dirname(file), spec)))
      // bin/ imports the compiled product (dist/) when it is installed: not a source of the checkout.
      .filter(
        (target) => !target.startsWith('..') && !target.startsWith('node_modules') && !target.startsWith('dist/'),
      ),
  ]),
);

test('the guide lists the rooms by floor', () => {
  assert.ok(floors.size >= 10, `rooms read from the guide's table: ${[...floors.keys()].join(', ')}`);
  for (const top of readdirSync(root).filter((name) => /\.(ts|mjs)$/.test(name) && !name.endsWith('.d.ts')))
    assert.ok(roomOf(top, floors) !== undefined || top === 'allurerc.mjs', `${top} stands in no room of the guide`);
});

test('no module imports a module of a room on its own floor or above it', () => {
  const upward: string[] = [];
  for (const [file, targets] of graph) {
    const from = roomOf(file, floors)!;
    for (const target of targets) {
      const to = roomOf(target, floors);
      if (to === undefined) upward.push(`${file} -> ${target}: ${target} stands in no room of the guide`);
      else if (to !== from && floors.get(to)! >= floors.get(from)!)
        upward.push(`${file} (${from}, floor ${floors.get(from)}) -> ${target} (${to}, floor ${floors.get(to)})`);
    }
  }
  assert.deepEqual(upward, []);
});

test('no modules import each other in a circle', () => {
  assert.deepEqual(
    circlesOf(graph).map((circle) => circle.join(' -> ')),
    [],
  );
});

test('the checks of this test can fail: an upward import and a circle are found', () => {
  assert.deepEqual(importsOf("import type { A } from './a.ts';\nexport * from '../b.ts';\n// from './c.ts'"), [
    './a.ts',
    '../b.ts',
  ]);
  const planted = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['c.ts']],
    ['c.ts', ['a.ts']],
  ]);
  assert.deepEqual(circlesOf(planted), [['a.ts', 'b.ts', 'c.ts']]);
  const table = '## Layers\n\n| Floor | Rooms |\n|---|---|\n| 1 | `low/` |\n| 2 | `high/`, `top.ts` |\n\n## Next\n';
  const read = floorsOf(table);
  assert.deepEqual(
    [...read],
    [
      ['low', 1],
      ['high', 2],
      ['top.ts', 2],
    ],
  );
  assert.equal(roomOf('high/x/y.ts', read), 'high');
});
