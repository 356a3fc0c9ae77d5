/**
 * Lines of at most 120 characters in the project's source files (the width biome.jsonc gives the formatter). Biome
 * wraps code, but not comments or the text of string and template literals: a long one is split by hand (its pieces
 * joined with +, the runtime text unchanged), and this test keeps it so.
 *
 * The files are the tracked *.ts, *.mjs and *.cjs files (git ls-files; without git, the tree without node_modules).
 * JSON files are not checked: hand-written ones (specs/rules.json, specs/gaps.json, the schemas, the input cases)
 * hold long string values that JSON cannot split, and Biome does not wrap strings.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const maxLength = 120;
const checked = /\.(ts|mjs|cjs)$/;
/** Written by commands, not by hand. */
const generated = (file: string): boolean => file.startsWith('docs/measured/');

/** Each line of a file longer than the limit, as "file:line: N characters"; a character is a code point. */
function overlongLines(file: string, text: string, max: number = maxLength): string[] {
  return text.split(/\r?\n/).flatMap((line, index) => {
    const length = [...line].length;
    return length > max ? [`${file}:${index + 1}: ${length} characters`] : [];
  });
}

function trackedFiles(): string[] | null {
  try {
    const listing = execFileSync('git', ['ls-files', '-z', '*.ts', '*.mjs', '*.cjs'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return listing.split('\0').filter(Boolean);
  } catch {
    return null;
  }
}

function walk(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === '.git') return [];
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return walk(path);
    return checked.test(entry.name) ? [relative(root, path).split(sep).join('/')] : [];
  });
}

/** The source files the limit applies to, relative to the project root with / separators. */
function sourceFiles(): string[] {
  return (trackedFiles() ?? walk(root)).filter((file) => checked.test(file) && !generated(file)).sort();
}

test('the checker names each line over 120 characters, and only those', () => {
  const text = ['short', 'x'.repeat(120), 'y'.repeat(121), `// ${'z'.repeat(130)}`, ''].join('\n');
  assert.deepEqual(overlongLines('planted.ts', text), ['planted.ts:3: 121 characters', 'planted.ts:4: 133 characters']);
  assert.deepEqual(overlongLines('crlf.ts', `${'a'.repeat(120)}\r\n${'b'.repeat(121)}\r\n`), [
    'crlf.ts:2: 121 characters',
  ]);
  // Characters, not bytes or UTF-16 units: an arrow is three bytes, an emoji two units.
  assert.deepEqual(overlongLines('wide.ts', `${'→'.repeat(120)}\n${'🔌'.repeat(120)}`), []);
  assert.deepEqual(overlongLines('wide.ts', '→'.repeat(121)), ['wide.ts:1: 121 characters']);
});

test('the source files are listed: TypeScript and the command, no dependency', () => {
  const files = sourceFiles();
  assert.ok(files.includes('playwright.config.ts'), 'the Playwright configuration is listed');
  assert.ok(files.includes('bin/collect-conformance.mjs'), 'the command is listed');
  assert.ok(!files.some((file) => file.includes('node_modules/')), 'no dependency is listed');
});

test('without git, walking the tree finds every file git lists', (t) => {
  const tracked = trackedFiles();
  if (tracked === null) return t.skip('git is not available: the walk is what the check uses');
  const walked = new Set(walk(root));
  assert.deepEqual(
    tracked.filter((file) => !walked.has(file)),
    [],
    'tracked files the walk misses',
  );
});

test('no line of the source files is longer than 120 characters', () => {
  const found = sourceFiles().flatMap((file) => overlongLines(file, readFileSync(join(root, file), 'utf8')));
  assert.deepEqual(found, [], `lines over ${maxLength} characters:\n${found.join('\n')}`);
});
