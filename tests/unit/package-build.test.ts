/**
 * The package's JavaScript (lab/build-package.ts): each module compiled with the lines and columns
 * of its source, relative imports pointed at the compiled modules, syntax that cannot be erased
 * refused; the product it compiles is the product the development guide lists and package.json
 * ships.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  BuildError,
  compile,
  linkedDocumentation,
  productFiles,
  productFolders,
  relativeLinks,
} from '../../lab/build-package.ts';
import { modulePath, moduleExtension } from '../../settings/module-paths.ts';

const source = [
  "import { test } from '../../suite/fixtures.ts';",
  "import type { Exchange } from '../../http/exchange.ts';",
  "import { type Target, covers } from '../../judgment/covers.ts';",
  "export { rule } from './rules.ts';",
  '',
  'interface Seen {',
  '  exchange: Exchange;',
  '}',
  'const seen: Seen[] = [];',
  "test('a title', covers('X-1'), async ({ target }: { target: Target }) => {",
  "  const mod = await import('./late.ts');",
  '  expect(seen.length as number).toBe(0);',
  '});',
].join('\n');

test('a compiled module keeps every line and column of its source; relative imports name the .js modules', () => {
  const { javascript, imports } = compile('tests/conformance/x.spec.ts', source);
  const sourceLines = source.split('\n');
  const lines = javascript.split('\n');
  assert.equal(lines.length, sourceLines.length);
  // The test( call and the assertion where they are in the source: a failure's line:column is the source's.
  for (const needle of ["test('a title'", 'expect(seen.length']) {
    const line = sourceLines.findIndex((text) => text.includes(needle));
    assert.equal(lines[line]?.indexOf(needle), sourceLines[line]?.indexOf(needle), needle);
  }
  assert.equal(lines[0], "import { test } from '../../suite/fixtures.js';");
  assert.equal(lines[1]?.trim(), '', 'a type-only import is erased');
  assert.match(lines[2] ?? '', /^import \{\s+covers \} from '\.\.\/\.\.\/judgment\/covers\.js';$/);
  assert.equal(lines[3], "export { rule } from './rules.js';");
  assert.match(lines[10] ?? '', /await import\('\.\/late\.js'\)/);
  assert.deepEqual(imports, ['../../suite/fixtures.js', '../../judgment/covers.js', './rules.js', './late.js']);
  assert.doesNotMatch(javascript, /interface|: Seen|as number|: Target/);
});

test('syntax that cannot be erased, or a relative import without .ts, stops the build', () => {
  assert.throws(
    () => compile('a.ts', 'class A {\n  constructor(readonly n: number) {}\n}\n'),
    (error: unknown) => error instanceof BuildError && /^a\.ts:2:\d+: cannot be erased/.test(error.message),
  );
  assert.throws(() => compile('b.ts', 'enum E {\n  A,\n}\n'), BuildError);
  assert.throws(
    () => compile('c.ts', "import { x } from './x';\n"),
    (error: unknown) =>
      error instanceof BuildError && /c\.ts:1:\d+: a relative import names its \.ts module/.test(error.message),
  );
});

test('in a checkout the suite names its .ts modules (the package: the compiled .js)', () => {
  assert.equal(moduleExtension, '.ts');
  assert.equal(modulePath('./reporters/conformance-reporter.ts'), './reporters/conformance-reporter.ts');
});

test("the build's product is the development guide's, and package.json ships it compiled", () => {
  const guide = readFileSync(new URL('../../docs/development.md', import.meta.url), 'utf8');
  const productTable = guide.slice(guide.indexOf('The **product**'), guide.indexOf('The **lab**'));
  const listed = new Set(
    [...productTable.matchAll(/^\| ([^|]+) \|/gm)]
      .flatMap((row) => [...(row[1] ?? '').matchAll(/`([^`]+)\/`/g)].map((folder) => folder[1] ?? ''))
      .filter((folder) => folder !== ''),
  );
  // bin/ is shipped as it is (it chooses the sources or the compiled modules); the rest is compiled.
  const compiledFolders = [...listed].filter((folder) => folder !== 'bin' && !folder.includes('/', 1));
  for (const folder of productFolders) assert.ok(listed.has(folder), `${folder}/ is not in the guide's product table`);
  for (const folder of compiledFolders)
    assert.ok(
      (productFolders as readonly string[]).some((product) => product === folder || product.startsWith(`${folder}/`)),
      `${folder}/ is in the guide's product table but not built`,
    );
  assert.deepEqual(productFiles, ['playwright.config.ts', 'allurerc.mjs']);
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    files: string[];
    scripts: Record<string, string>;
    dependencies: Record<string, string>;
  };
  assert.deepEqual(pkg.files, ['bin', 'dist', 'docs', '.env.example']);
  assert.equal(pkg.scripts.prepack, 'tsx lab/build-package.ts');
  assert.equal(pkg.dependencies.tsx, undefined, 'the installed package runs without tsx');
});

test('every file the README leads to is one the package ships, the shapes page among them', () => {
  const { linked, notShipped } = linkedDocumentation();
  assert.deepEqual(notShipped, [], 'README.md leads to files the package does not ship');
  for (const page of ['docs/reference/shapes.md', 'docs/reference/configuration.md', 'docs/guides/sdk-traffic.md'])
    assert.ok(linked.includes(page), page);
  assert.deepEqual(relativeLinks('[a](b.md#c) `[x](y.md)` [web](https://e.com) [here](#h)\n```\n[z](z.md)\n```\n'), [
    'b.md',
  ]);
});
