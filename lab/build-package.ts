/**
 * Writes dist/, the product as the npm package runs it: `npm pack` (and `npm publish`) run this
 * first (the prepack script), and `files` in package.json ships dist/ with bin/.
 *
 * Installed, the suite lives under node_modules, where Playwright does not transpile TypeScript,
 * so the package carries JavaScript. Each source's types are erased by ts-blank-space, which puts
 * spaces where the types were: every line and column of the JavaScript is the source's, so that a
 * failure in a user's CI points at the line of the spec that failed, and no transform runs when
 * the command starts. tsconfig.json's erasableSyntaxOnly and verbatimModuleSyntax keep every
 * source erasable (no parameter properties, enums or namespaces; type-only imports say so).
 * Relative imports of `.ts` modules become `.js` (the same length). The other files of the
 * product folders (schemas, specs, the reporters' JSON) are copied as they are. A checkout does
 * not need dist/: it runs the sources.
 *
 * The package carries its documentation: README.md (npm ships it always) and what `files` ships
 * beside dist/ (docs/, .env.example). Every relative link of the README, and of every page it
 * leads to, must lead to a file the package ships, so that the links resolve from node_modules:
 * the build stops on one that would not.
 *
 *   npx tsx lab/build-package.ts            write dist/
 *   npx tsx lab/build-package.ts --clean    remove dist/ (postpack)
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { blankSourceFile } from 'ts-blank-space';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The product: what the package ships, compiled. docs/development.md lists the same folders as the
 * product (tests/unit/package-build.test.ts holds them together).
 */
export const productFolders = [
  'cli',
  'contract',
  'generation',
  'http',
  'judge',
  'judgment',
  'mock',
  'output',
  'proxy',
  'reporters',
  'run',
  'schemas',
  'settings',
  'specs',
  'suite',
  'tests/conformance',
] as const;
export const productFiles = ['playwright.config.ts', 'allurerc.mjs'] as const;

export class BuildError extends Error {
  override name = 'BuildError';
}

/** What npm ships whatever `files` says. */
const alwaysShipped = ['README.md', 'package.json', 'LICENSE'];

/** The relative link targets of a Markdown page's prose (fenced and inline code are not links). */
export function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'))
    .map((target) => decodeURIComponent(target.split('#', 1)[0]!));
}

/**
 * Every file the README leads to, following the Markdown pages it links, as paths from the project's
 * folder; and those of them the package would not ship (`files` of package.json, and what npm ships always).
 */
export function linkedDocumentation(projectRoot: string = root): { linked: string[]; notShipped: string[] } {
  const pkg = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { files?: string[] };
  const shipped = [...(pkg.files ?? []), ...alwaysShipped];
  const linked = new Set<string>();
  const pages = ['README.md'];
  while (pages.length > 0) {
    const page = pages.pop()!;
    for (const target of relativeLinks(readFileSync(join(projectRoot, page), 'utf8'))) {
      const path = relative(projectRoot, resolve(projectRoot, dirname(page), target));
      if (linked.has(path)) continue;
      linked.add(path);
      if (path.endsWith('.md') && existsSync(join(projectRoot, path))) pages.push(path);
    }
  }
  const notShipped = [...linked].filter(
    (path) => path.startsWith('..') || !shipped.some((entry) => path === entry || path.startsWith(`${entry}/`)),
  );
  return { linked: [...linked].sort(), notShipped: notShipped.sort() };
}

function isRelative(specifier: string): boolean {
  return specifier.startsWith('./') || specifier.startsWith('../');
}

/** The string literals of a source's relative module specifiers (static and dynamic imports, re-exports). */
function relativeSpecifiers(source: ts.SourceFile): ts.StringLiteral[] {
  const found: ts.StringLiteral[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((literal) => isRelative(literal.text));
}

export interface Compiled {
  javascript: string;
  /** The relative modules the JavaScript imports, as written in it (`./x.js`). */
  imports: string[];
}

/**
 * One TypeScript source as JavaScript with the same lines and columns. Throws BuildError on
 * syntax that cannot be erased, and on a relative import that names no `.ts` module.
 */
export function compile(fileName: string, text: string): Compiled {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const problems: string[] = [];
  const where = (position: number): string => {
    const { line, character } = source.getLineAndCharacterOfPosition(position);
    return `${fileName}:${line + 1}:${character + 1}`;
  };
  const blanked = blankSourceFile(source, (node) => {
    problems.push(`${where(node.getStart(source))}: cannot be erased: ${node.getText(source).slice(0, 60)}`);
  });
  if (blanked.length !== text.length) problems.push(`${fileName}: erasing changed the length of the text`);
  if (problems.length > 0) throw new BuildError(problems.join('\n'));
  let javascript = blanked;
  const imports: string[] = [];
  for (const literal of relativeSpecifiers(source)) {
    // Between the quotes; a type-only import is blank already and imports nothing at run time.
    const start = literal.getStart(source) + 1;
    const end = literal.getEnd() - 1;
    if (javascript.slice(start, end) !== literal.text) continue;
    if (!literal.text.endsWith('.ts')) {
      throw new BuildError(`${where(start)}: a relative import names its .ts module: "${literal.text}"`);
    }
    const specifier = `${literal.text.slice(0, -'.ts'.length)}.js`;
    javascript = javascript.slice(0, start) + specifier + javascript.slice(end);
    imports.push(specifier);
  }
  return { javascript, imports };
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? filesUnder(path) : entry.isFile() ? [path] : [];
  });
}

/** Writes the product into `out`, compiled; returns how many modules were compiled and files copied. */
export function buildPackage(out: string = join(root, 'dist')): { compiled: number; copied: number } {
  rmSync(out, { recursive: true, force: true });
  const sources = [
    ...productFolders.flatMap((folder) => filesUnder(join(root, folder))),
    ...productFiles.map((file) => join(root, file)),
  ];
  let compiled = 0;
  let copied = 0;
  const imports: Array<{ from: string; target: string }> = [];
  for (const path of sources) {
    const name = relative(root, path);
    if (name.endsWith('.d.ts')) throw new BuildError(`${name}: a declaration file has no JavaScript to ship`);
    if (name.endsWith('.ts')) {
      const target = join(out, `${name.slice(0, -'.ts'.length)}.js`);
      const result = compile(name, readFileSync(path, 'utf8'));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, result.javascript);
      for (const specifier of result.imports) imports.push({ from: name, target: resolve(dirname(target), specifier) });
      compiled += 1;
    } else {
      const target = join(out, name);
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(path, target);
      copied += 1;
    }
  }
  // A module outside the product would be missing from the package: found here, not by a user.
  const missing = imports.filter(({ target }) => !existsSync(target));
  if (missing.length > 0) {
    throw new BuildError(
      missing.map(({ from, target }) => `${from}: imports ${relative(out, target)}, not in the package`).join('\n'),
    );
  }
  return { compiled, copied };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const out = join(root, 'dist');
  if (process.argv.includes('--clean')) {
    rmSync(out, { recursive: true, force: true });
  } else {
    try {
      const { notShipped } = linkedDocumentation();
      if (notShipped.length > 0)
        throw new BuildError(`README.md leads to files the package does not ship: ${notShipped.join(', ')}`);
      const { compiled, copied } = buildPackage(out);
      process.stdout.write(`build-package: ${compiled} modules compiled, ${copied} files copied into dist/\n`);
    } catch (error) {
      if (!(error instanceof BuildError)) throw error;
      process.stderr.write(`build-package: ${error.message}\n`);
      process.exit(1);
    }
  }
}
