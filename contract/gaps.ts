/**
 * Typed access to specs/gaps.json: the suite's reading of every gap of the reference, one row
 * per decision, with the class of the inputs it concerns and what --strict changes. The
 * table of docs/explanations/gaps.md is rendered from it (lab/gap-table.ts),
 * and the conforming variants (mock/mutants/variants/, one module per row) name the rows they vary.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface GapRow {
  id: string;
  /** The reference's words, or what it leaves out. */
  gap: string;
  /** What the suite does about it. */
  reading: string;
  /** The class of the inputs the row concerns (must accept / must refuse / accept or refuse), or "—". */
  class: string;
  /** What --strict changes. */
  strict: string;
  rules: string[];
}

export const gapsFile = fileURLToPath(new URL('../specs/gaps.json', import.meta.url));

export const gapRows: readonly GapRow[] = (JSON.parse(readFileSync(gapsFile, 'utf8')) as { rows: GapRow[] }).rows;
