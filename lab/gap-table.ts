/**
 * Renders README.md's table "How the suite reads the reference's gaps" from specs/gaps.json
 * and the conforming variants of mock/mutants/variants.ts, between the markers
 * <!-- gaps:begin --> and <!-- gaps:end -->.
 *
 *   npm run gaps:generate           rewrite the table in README.md
 *   npx tsx lab/gap-table.ts --check   exit 1 when README.md's table is stale
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gapRows } from '../contract/gaps.ts';
import { variants } from '../mock/mutants.ts';

export const readmeFile = fileURLToPath(new URL('../README.md', import.meta.url));
const begin = '<!-- gaps:begin (generated from specs/gaps.json by npm run gaps:generate) -->';
const end = '<!-- gaps:end -->';

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderGapTable(): string {
  const lines = [
    '| Gap in the reference | What the suite does | Class of the inputs | With `--strict` | Rules | Conforming variants |',
    '|---|---|---|---|---|---|',
  ];
  for (const row of gapRows) {
    const varying = variants()
      .filter((variant) => variant.gaps?.includes(row.id))
      .map((variant) => `\`${variant.name.replace(/^variant\./, '')}\``);
    const rules = row.rules.map((id) => `\`${id}\``).join(', ') || '—';
    lines.push(`| ${cell(row.gap)} | ${cell(row.reading)} | ${cell(row.class)} | ${cell(row.strict)} | ${rules} | ${varying.join(', ') || '—'} |`);
  }
  return lines.join('\n');
}

/** README.md with the table between the markers replaced. */
export function renderReadme(readme: string = readFileSync(readmeFile, 'utf8')): string {
  const from = readme.indexOf(begin);
  const to = readme.indexOf(end);
  if (from === -1 || to === -1 || to < from) throw new Error(`README.md: the markers ${begin} and ${end} are missing`);
  return `${readme.slice(0, from + begin.length)}\n${renderGapTable()}\n${readme.slice(to)}`;
}

function main(args: readonly string[]): number {
  const current = readFileSync(readmeFile, 'utf8');
  const rendered = renderReadme(current);
  if (args.includes('--check')) {
    if (current !== rendered) {
      console.error('README.md: the gap table is stale: run npm run gaps:generate');
      return 1;
    }
    return 0;
  }
  writeFileSync(readmeFile, rendered);
  console.log('README.md: gap table written');
  return 0;
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) process.exitCode = main(process.argv.slice(2));
