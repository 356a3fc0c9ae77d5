/**
 * What ships uses public APIs only: no source file of the published package (bin/ and the
 * product folders the package ships compiled: lab/build-package.ts) reaches into Node's internals
 * (the _http_* and _stream_* modules, internal/..., internalBinding, process.binding) or into a
 * subpath of an npm package that the package's "exports" map does not export
 * (allure-playwright/dist/...). Either can break a user's CI gate at a Node or dependency
 * upgrade, with no change of ours.
 *
 * Files are parsed with TypeScript's parser, so that comments and ordinary strings are not read
 * as imports, and every way of naming a module is seen: import and export declarations,
 * import types, dynamic import(), require(), require.resolve(), import.meta.resolve() and the
 * function createRequire() returns.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { productFiles, productFolders } from '../../lab/build-package.ts';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const sourceExtensions = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs']);

export interface Finding {
  file: string;
  line: number;
  problem: string;
}

/** Node's internal modules: underscore-prefixed (_http_common, _stream_readable, _tls_wrap, ...) and internal/... */
export function isNodeInternalModule(specifier: string): boolean {
  const name = specifier.replace(/^node:/, '');
  return /^_[a-z]/.test(name) || name.startsWith('internal/');
}

const builtins = new Set(builtinModules.filter((name) => !isNodeInternalModule(name)));

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || builtins.has(specifier);
}

/** "@scope/name/sub/path" → ["@scope/name", "./sub/path"]; "name" → ["name", "."]. */
export function splitSpecifier(specifier: string): { name: string; subpath: string } {
  const parts = specifier.split('/');
  const size = specifier.startsWith('@') ? 2 : 1;
  const rest = parts.slice(size).join('/');
  return { name: parts.slice(0, size).join('/'), subpath: rest === '' ? '.' : `./${rest}` };
}

type ExportsTarget = string | null | ExportsTarget[] | { [condition: string]: ExportsTarget };

/** Whether an exports target leads anywhere (null, or conditions that all lead to null, export nothing). */
function leadsSomewhere(target: ExportsTarget): boolean {
  if (target === null) return false;
  if (typeof target === 'string') return true;
  if (Array.isArray(target)) return target.some(leadsSomewhere);
  return Object.values(target).some(leadsSomewhere);
}

/** Whether a package's "exports" field exports `subpath` (".", "./sdk/reporter"), by Node's matching rules. */
export function exportsSubpath(exportsField: unknown, subpath: string): boolean {
  if (exportsField === undefined) return true; // no exports map: Node lets every file be imported
  const field = exportsField as ExportsTarget;
  const isObject = typeof field === 'object' && field !== null && !Array.isArray(field);
  const keyed = isObject && Object.keys(field).some((key) => key.startsWith('.'));
  // A string, an array or an object of conditions is the "." export alone.
  const map: Record<string, ExportsTarget> = keyed ? (field as Record<string, ExportsTarget>) : { '.': field };
  if (subpath in map) return leadsSomewhere(map[subpath]!);
  // Patterns ("./sub/*"): the longest matching key wins, as in Node.
  let best: { key: string; target: ExportsTarget } | undefined;
  for (const [key, target] of Object.entries(map)) {
    const star = key.indexOf('*');
    if (star < 0) continue;
    const [before, after] = [key.slice(0, star), key.slice(star + 1)];
    const matches = subpath.startsWith(before) && subpath.endsWith(after) && subpath.length >= key.length - 1;
    if (matches && (best === undefined || key.length > best.key.length)) best = { key, target };
  }
  return best !== undefined && leadsSomewhere(best.target);
}

/**
 * Subpaths public by documentation in packages without an exports map (Node lets every file of
 * such a package be imported; only its main entry and what its documentation names are its API).
 */
const documentedSubpaths: Record<string, readonly string[]> = {
  // ajv 8's documentation names ajv/dist/2020 as the JSON Schema draft 2020-12 class.
  ajv: ['./dist/2020', './dist/2020.js'],
};

/** The "exports" field of an installed package; undefined when the package is not installed. */
function installedExports(name: string): { exports: unknown } | undefined {
  const file = join(projectRoot, 'node_modules', name, 'package.json');
  if (!existsSync(file)) return undefined;
  return { exports: (JSON.parse(readFileSync(file, 'utf8')) as { exports?: unknown }).exports };
}

type ExportsLookup = (name: string) => { exports: unknown } | undefined;

/** What is wrong with importing `specifier` (undefined when nothing is). */
export function specifierProblem(specifier: string, exportsOf: ExportsLookup = installedExports): string | undefined {
  if (isNodeInternalModule(specifier)) return `imports Node's internal module "${specifier}"`;
  if (specifier.startsWith('.') || specifier.startsWith('/') || isBuiltin(specifier)) return undefined;
  const { name, subpath } = splitSpecifier(specifier);
  const installed = exportsOf(name);
  if (installed === undefined) {
    return `imports "${specifier}", but the package ${name} is not installed (its exports cannot be checked)`;
  }
  if (installed.exports === undefined) {
    const documented = ['.', './package.json', ...(documentedSubpaths[name] ?? [])].includes(subpath);
    if (documented) return undefined;
    return `imports "${specifier}": ${name} has no exports map; its main entry and documented subpaths are its API`;
  }
  if (!exportsSubpath(installed.exports, subpath)) {
    return `imports "${specifier}", a path the exports map of ${name} does not export`;
  }
  return undefined;
}

function stringArgument(call: ts.CallExpression): string | undefined {
  const [first] = call.arguments;
  return first !== undefined && ts.isStringLiteralLike(first) ? first.text : undefined;
}

function isCreateRequireCall(node: ts.Node): boolean {
  return ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'createRequire';
}

/** require(), require.resolve(), import.meta.resolve(), import(), or a function that createRequire() made. */
function loadsModule(call: ts.CallExpression, requireLike: ReadonlySet<string>): boolean {
  const callee = call.expression;
  if (callee.kind === ts.SyntaxKind.ImportKeyword) return true;
  if (ts.isIdentifier(callee)) return callee.text === 'require' || requireLike.has(callee.text);
  if (isCreateRequireCall(callee)) return true;
  if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'resolve') {
    const owner = callee.expression;
    if (ts.isIdentifier(owner)) return owner.text === 'require' || requireLike.has(owner.text);
    return ts.isMetaProperty(owner) || isCreateRequireCall(owner);
  }
  return false;
}

/** process.binding, process._linkedBinding (also as process['binding']) and internalBinding. */
function internalCall(node: ts.Node): string | undefined {
  if (ts.isIdentifier(node) && node.text === 'internalBinding') return 'internalBinding';
  const property = ts.isPropertyAccessExpression(node)
    ? node.name.text
    : ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)
      ? node.argumentExpression.text
      : undefined;
  if (property !== 'binding' && property !== '_linkedBinding') return undefined;
  const owner = (node as ts.PropertyAccessExpression | ts.ElementAccessExpression).expression;
  return ts.isIdentifier(owner) && owner.text === 'process' ? `process.${property}` : undefined;
}

/** Every use of a private API in one source text. */
export function findPrivateApis(file: string, text: string, exportsOf?: ExportsLookup): Finding[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const findings: Finding[] = [];
  const requireLike = new Set<string>();
  const report = (node: ts.Node, problem: string): void => {
    findings.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, problem });
  };
  const checkSpecifier = (node: ts.Node, specifier: string): void => {
    const problem = specifierProblem(specifier, exportsOf);
    if (problem) report(node, problem);
  };
  const visit = (node: ts.Node): void => {
    const declared = ts.isImportDeclaration(node) || ts.isExportDeclaration(node) ? node.moduleSpecifier : undefined;
    if (declared && ts.isStringLiteralLike(declared)) {
      checkSpecifier(node, declared.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expression = node.moduleReference.expression;
      if (ts.isStringLiteralLike(expression)) checkSpecifier(node, expression.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      if (ts.isStringLiteralLike(node.argument.literal)) checkSpecifier(node, node.argument.literal.text);
    } else if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      if (isCreateRequireCall(node.initializer)) requireLike.add(node.name.text);
    } else if (ts.isCallExpression(node) && loadsModule(node, requireLike)) {
      const specifier = stringArgument(node);
      if (specifier !== undefined) checkSpecifier(node, specifier);
    }
    const internal = internalCall(node);
    if (internal) report(node, `uses Node's internal ${internal}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return findings;
}

/** The source files of the published package: bin/ and the sources of dist/, folders walked. */
export function shippedSourceFiles(root: string = projectRoot): string[] {
  const files = ['bin', ...productFolders, ...productFiles];
  const found: string[] = [];
  const walk = (path: string): void => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path)) if (entry !== 'node_modules') walk(join(path, entry));
    } else if (sourceExtensions.has(extname(path)) && !path.endsWith('.d.ts')) {
      found.push(path);
    }
  };
  for (const entry of files) walk(join(root, entry));
  return found.sort();
}

test('no shipped source file uses a Node internal or an npm subpath its package does not export', () => {
  const files = shippedSourceFiles();
  assert.ok(files.length > 20, `only ${files.length} shipped source files found: are the product folders read?`);
  assert.ok(
    files.some((file) => file.endsWith(join('http', 'wire-sender.ts'))),
    'the scan covers http/',
  );
  const findings = files.flatMap((file) => findPrivateApis(relative(projectRoot, file), readFileSync(file, 'utf8')));
  assert.deepEqual(
    findings.map((finding) => `${finding.file}:${finding.line}: ${finding.problem}`),
    [],
  );
});

test('the scan finds each kind of private API planted in a source text', () => {
  const planted = [
    "import { createRequire } from 'node:module';",
    "const parser = createRequire(import.meta.url)('_http_common');",
    'const req = createRequire(import.meta.url);',
    "const common = req('node:_http_common');",
    "import { Readable } from '_stream_readable';",
    "const wrap = require('internal/js_stream_socket');",
    "const http = process.binding('http_parser');",
    "const tcp = process['binding']('tcp_wrap');",
    "const fs = internalBinding('fs');",
    "import { AllureReporter } from 'allure-playwright/dist/cjs/index.js';",
    "export * from 'allure-js-commons/dist/esm/sdk/reporter/writer/FileSystemWriter.js';",
    "type Config = import('allure-playwright/dist/types/model.js').AllurePlaywrightReporterConfig;",
    "const util = await import('undici/lib/core/util.js');",
    "const where = require.resolve('@playwright/test/lib/index.js');",
  ].join('\n');
  const findings = findPrivateApis('planted.ts', planted);
  assert.deepEqual(
    findings.map((finding) => finding.line),
    [2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14],
    findings.map((finding) => `${finding.line}: ${finding.problem}`).join('\n'),
  );
  assert.match(findings[0]!.problem, /internal module "_http_common"/);
  const deepImport = findings.find((finding) => finding.line === 10)!;
  assert.match(deepImport.problem, /exports map of allure-playwright does not export/);
});

test('public APIs, and private-looking words in comments and strings, are not findings', () => {
  const clean = [
    "import http from 'node:http';",
    "import { readFile } from 'fs/promises';",
    "import { Agent } from 'undici';",
    "import { ReporterRuntime } from 'allure-js-commons/sdk/reporter';",
    "import type { Reporter } from '@playwright/test/reporter';",
    "import { wireSender } from '../support/http/wire-sender.ts';",
    "// the old sender required '_http_common' and called process.binding('http_parser')",
    'const note = "allure-playwright/dist/cjs/index.js and _http_common are private";',
    'const binding = { binding: 1 }; binding.binding;',
  ].join('\n');
  assert.deepEqual(findPrivateApis('clean.ts', clean), []);
});

test('exports maps are read as Node reads them: subpaths, patterns, conditions, null targets, no map', () => {
  const exportsField = {
    '.': { import: './dist/index.mjs', require: './dist/index.cjs' },
    './sdk/reporter': './dist/sdk/reporter.js',
    './features/*': './dist/features/*.js',
    './features/private/*': null,
    './package.json': './package.json',
  };
  assert.equal(exportsSubpath(exportsField, '.'), true);
  assert.equal(exportsSubpath(exportsField, './sdk/reporter'), true);
  assert.equal(exportsSubpath(exportsField, './features/a'), true);
  assert.equal(exportsSubpath(exportsField, './features/private/a'), false);
  assert.equal(exportsSubpath(exportsField, './dist/index.mjs'), false);
  assert.equal(exportsSubpath('./index.js', '.'), true);
  assert.equal(exportsSubpath('./index.js', './index.js'), false);
  assert.equal(exportsSubpath({ import: './a.mjs', default: './a.js' }, './a.js'), false);
  assert.equal(exportsSubpath(undefined, './lib/anything.js'), true);
  assert.deepEqual(splitSpecifier('@playwright/test/reporter'), { name: '@playwright/test', subpath: './reporter' });
  assert.deepEqual(splitSpecifier('undici'), { name: 'undici', subpath: '.' });
  const noMap = (): { exports: unknown } => ({ exports: undefined });
  assert.equal(specifierProblem('undici', noMap), undefined);
  assert.equal(specifierProblem('ajv/dist/2020.js', noMap), undefined);
  assert.match(specifierProblem('undici/lib/core/util.js', noMap) ?? '', /undici has no exports map/);
  assert.match(specifierProblem('some-package/x', () => undefined) ?? '', /the package some-package is not installed/);
});
