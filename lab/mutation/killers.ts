/**
 * The test that killed each mutant in the last whole run (npm run mutation without --only), by mode: the
 * first test each mutant meets in the next run, as mutation tools order tests by their earlier kills. A
 * mutant that test no longer kills, or that has none recorded (new, renamed), meets its rule's tests as
 * the plan picks them; every whole run writes the file again, so it follows the suite.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { MutationScore } from './score.ts';

export interface Killers {
  default: Record<string, string>;
  strict: Record<string, string>;
}

export const killersFile = fileURLToPath(new URL('./killers.json', import.meta.url));

export function readKillers(file = killersFile): Killers {
  if (!existsSync(file)) return { default: {}, strict: {} };
  try {
    const read = JSON.parse(readFileSync(file, 'utf8')) as Partial<Killers>;
    return { default: read.default ?? {}, strict: read.strict ?? {} };
  } catch {
    // A damaged file only costs the order of the first stage.
    return { default: {}, strict: {} };
  }
}

/** Each killed mutant's first catch (its test id), in both modes, sorted for a stable file. */
export function killersOf(score: MutationScore): Killers {
  const firstCatch = (results: MutationScore['killed']): Record<string, string> =>
    Object.fromEntries(
      results
        .filter((result) => result.caughtBy.length > 0)
        .map((result) => [result.name, result.caughtBy[0]!.test] as const)
        .sort(([a], [b]) => a.localeCompare(b)),
    );
  return {
    default: firstCatch(score.killed),
    strict: firstCatch([...score.strict.killed, ...score.strict.lenientVariants.filter((v) => v.killed)]),
  };
}

export function writeKillers(killers: Killers, file = killersFile): void {
  writeFileSync(file, `${JSON.stringify(killers, null, 2)}\n`);
}
