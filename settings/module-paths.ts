/**
 * A checkout runs the suite from its TypeScript sources (Playwright and tsx transpile them); the
 * installed package runs the JavaScript compiled from them (lab/build-package.ts writes dist/ when
 * the package is packed), because Playwright does not transpile under node_modules. Modules named
 * by path instead of imported (Playwright's configuration, its global setup and reporters, a
 * script started as a process) must name the files that exist where the suite runs.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** '.ts' in a checkout, '.js' in the installed package: the extension of this very module. */
export const moduleExtension: '.ts' | '.js' = extname(fileURLToPath(import.meta.url)) === '.ts' ? '.ts' : '.js';

/**
 * The folder that holds package.json: the checkout, or the installed package, whose modules are
 * one folder further down, in dist/.
 */
export const packageDirectory = fileURLToPath(new URL(moduleExtension === '.ts' ? '../' : '../../', import.meta.url));

/** A module of the suite named by its source path (`cli/report.ts`), as it exists where the suite runs. */
export function modulePath(sourcePath: string): string {
  return sourcePath.replace(/\.ts$/, moduleExtension);
}
