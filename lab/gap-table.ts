/**
 * Renders the table of docs/explanations/gaps.md, "How the suite reads the reference's gaps",
 * from specs/gaps.json and the conforming variants of mock/mutants/variants/, between the
 * markers <!-- gaps:begin ... --> and <!-- gaps:end -->. The prose around it is written by hand.
 *
 *   npm run gaps:generate                 rewrite the table (npm run docs:generate: every generated doc)
 *   npx tsx lab/gap-table.ts --check      exit 1 when the table is stale
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gapRows } from '../contract/gaps.ts';
import { variants } from '../mock/mutants/index.ts';

export const gapsDocFile = fileURLToPath(new URL('../docs/explanations/gaps.md', import.meta.url));
const begin = '<!-- gaps:begin (generated from specs/gaps.json by npm run gaps:generate) -->';
const end = '<!-- gaps:end -->';

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderGapTable(): string {
  const lines = [
    '| Gap in the reference | What the suite does | Class of the inputs | With `--strict` | Rules | ' +
      'Conforming variants |',
    '|---|---|---|---|---|---|',
  ];
  for (const row of gapRows) {
    const varying = variants()
      .filter((variant) => variant.gaps?.includes(row.id))
      .map((variant) => `\`${variant.name.replace(/^variant\./, '')}\``);
    const rules = row.rules.map((id) => `\`${id}\``).join(', ') || '—';
    const text = [row.gap, row.reading, row.class, row.strict].map(cell);
    const cells = [...text, rules, varying.join(', ') || '—'];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/** The page with the table between the markers replaced. */
export function renderGapsDoc(page: string = readFileSync(gapsDocFile, 'utf8')): string {
  const from = page.indexOf(begin);
  const to = page.indexOf(end);
  if (from === -1 || to === -1 || to < from) {
    throw new Error(`docs/explanations/gaps.md: the markers ${begin} and ${end} are missing`);
  }
  return `${page.slice(0, from + begin.length)}\n${renderGapTable()}\n${page.slice(to)}`;
}

function main(args: readonly string[]): number {
  const current = readFileSync(gapsDocFile, 'utf8');
  const rendered = renderGapsDoc(current);
  if (args.includes('--check')) {
    if (current !== rendered) {
      console.error('docs/explanations/gaps.md: the gap table is stale: run npm run gaps:generate');
      return 1;
    }
    return 0;
  }
  if (current !== rendered) writeFileSync(gapsDocFile, rendered);
  console.log('docs/explanations/gaps.md: gap table written from specs/gaps.json');
  return 0;
}

const entry = process.argv[1];
const isEntry = entry !== undefined && import.meta.url === pathToFileURL(entry).href;
if (isEntry) process.exitCode = main(process.argv.slice(2));
