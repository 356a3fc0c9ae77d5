/**
 * Copies of the suite's spec files, so that one Playwright project can run a test against many behaviours.
 *
 * Playwright starts workers per project (and per repetition of --repeat-each: a worker hash includes both),
 * about a second of a core each; a run that gave each behaviour, or each batch of them, a project of its own
 * spent more on worker starts than on tests. Copy k of a spec file declares the same tests under another
 * path (c<k>/<file>), so that a test is in a project as many times as it has behaviours, and the workers of
 * that one project run them all. A copy imports what the original imports (its relative imports are
 * rewritten to reach the same modules), so that the suite's modules load once per worker.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export interface SuiteCopies {
  /** The test directory of the copies (a folder of the checkout, so that packages resolve from it). */
  testDir: string;
  remove(): void;
}

/** The id of copy `copy` of a test, as the run's reporter sees it (file › describes › title). */
export const copyTestId = (copy: number, testId: string): string => `c${copy}/${testId}`;

/** A copy's test id back to the copy and the original test's id. */
export function originalOf(copyId: string): { copy: number; testId: string } | undefined {
  const match = /^c(\d+)\/(.*)$/s.exec(copyId);
  return match ? { copy: Number(match[1]), testId: match[2]! } : undefined;
}

function specFiles(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return specFiles(path, base);
    return name.endsWith('.spec.ts') ? [relative(base, path)] : [];
  });
}

/** A spec file's text with each relative import pointing from `to`'s folder at what it named from `from`'s. */
function rewriteImports(text: string, from: string, to: string): string {
  return text.replace(
    /(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)'(\.\.?\/[^']*)'/g,
    (_all, lead: string, spec: string) => {
      let path = relative(dirname(to), resolve(dirname(from), spec))
        .split('\\')
        .join('/');
      if (!path.startsWith('.')) path = `./${path}`;
      return `${lead}'${path}'`;
    },
  );
}

/** Whether a process with this id runs (or exists but is another user's). */
function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Copies left by a run killed outright (its exit handlers never ran): removed when their run's process is gone, so
 * that a checkout does not collect them. A live run's copies, another checkout's run among them, are left alone.
 */
function removeOrphanedCopies(parent: string): void {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^mutation-copies-(\d+)$/.exec(name)?.[1]);
    if (Number.isInteger(pid) && pid > 0 && !processExists(pid))
      rmSync(join(parent, name), { recursive: true, force: true });
  }
}

/**
 * Writes copies 1..n of the spec files of `suiteDir` that `needed(copy, file)` asks for, under `parent`
 * (a folder of the checkout), and returns their test directory.
 */
export function writeSuiteCopies(
  suiteDir: string,
  parent: string,
  needed: (copy: number, file: string) => boolean,
  count: number,
): SuiteCopies {
  const testDir = join(parent, `mutation-copies-${process.pid}`);
  rmSync(testDir, { recursive: true, force: true });
  removeOrphanedCopies(parent);
  const files = specFiles(suiteDir);
  for (let copy = 1; copy <= count; copy++) {
    for (const file of files.filter((candidate) => needed(copy, candidate))) {
      const from = join(suiteDir, file);
      const to = join(testDir, `c${copy}`, file);
      mkdirSync(dirname(to), { recursive: true });
      writeFileSync(to, rewriteImports(readFileSync(from, 'utf8'), from, to));
    }
  }
  return { testDir, remove: () => rmSync(testDir, { recursive: true, force: true }) };
}
