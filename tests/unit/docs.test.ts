/**
 * The documentation stays honest: docs/reference/rules.md is generated from specs/rules.json,
 * every relative link of README.md and docs/ leads to a file and, when it names one, a heading
 * that exists, every rule id the docs name is in the catalogue, and every page of docs/measured/
 * was written by its command (or says it has not been measured yet).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isRuleId, rules } from '../../contract/rules.ts';
import { readRules, renderRulesDoc, rulesDocFile, rulesJsonFile } from '../../lab/rules-doc.ts';
import { measuredCommands, measuredFile, mutationFigures, renderMeasured, renderStub } from '../../lab/measured.ts';
import type { MeasuredName } from '../../lab/measured.ts';
import type { MutantResult, MutationScore } from '../../lab/mutation/score.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

function markdownFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

const pages = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))];

/** The page without fenced code blocks and inline code, where links and headings are not links and headings. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading (github-slugger): lower case, punctuation dropped, spaces as dashes. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  const withoutFences = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const match of withoutFences.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(match[1]!.replace(/`/g, ''));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

test('a heading anchor is the one GitHub makes', () => {
  assert.equal(slug('Which mode: default or --strict'), 'which-mode-default-or---strict');
  assert.equal(slug('5. Rate limits and network trouble'), '5-rate-limits-and-network-trouble');
  assert.equal(slug("How the suite reads the reference's gaps"), 'how-the-suite-reads-the-references-gaps');
  assert.deepEqual([...anchors('# A\n## B\n## B\n```\n# not a heading\n```\n')], ['a', 'b', 'b-1']);
});

test('every relative link of README.md and docs/ leads to a file, and to a heading when it names one', () => {
  const dangling: string[] = [];
  for (const page of pages) {
    const text = readFileSync(page, 'utf8');
    for (const match of prose(text).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
      const file = pathPart === '' ? page : resolve(dirname(page), decodeURIComponent(pathPart));
      const where = `${relative(root, page)}: ${target}`;
      if (relative(root, file).startsWith('..')) {
        dangling.push(`${where} (outside the repository)`);
        continue;
      }
      if (!existsSync(file)) {
        dangling.push(`${where} (no such file)`);
        continue;
      }
      if (anchor !== undefined && anchor !== '') {
        const markdown = !statSync(file).isDirectory() && file.endsWith('.md');
        if (!markdown) dangling.push(`${where} (an anchor into something not Markdown)`);
        else if (!anchors(readFileSync(file, 'utf8')).has(anchor)) dangling.push(`${where} (no such heading)`);
      }
    }
  }
  assert.deepEqual(dangling, [], 'dangling links');
});

test('the docs name the reference by its title, not by a path outside the repository', () => {
  for (const page of pages) {
    const text = readFileSync(page, 'utf8');
    const name = relative(root, page);
    assert.ok(!text.includes('../shared/'), `${name} names ../shared/: name the reference by its title`);
  }
});

test('every rule id the docs name is in the catalogue', () => {
  // A word in code that starts as a rule id does (TXN-, SEND-, ...) is meant to be one.
  const prefixes = new Set(rules.map((rule) => rule.id.split('-')[0]));
  const unknown: string[] = [];
  for (const page of pages) {
    for (const match of readFileSync(page, 'utf8').matchAll(/`@?([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)`/g)) {
      const id = match[1]!;
      if (prefixes.has(id.split('-')[0]) && !isRuleId(id)) unknown.push(`${relative(root, page)}: ${id}`);
    }
  }
  assert.deepEqual(unknown, [], 'rule ids not in specs/rules.json');
});

test('docs/reference/rules.md is generated from specs/rules.json (npm run docs:generate)', () => {
  const page = readFileSync(rulesDocFile, 'utf8');
  assert.equal(renderRulesDoc(), page, 'docs/reference/rules.md is stale: run npm run docs:generate');
});

test('the rules page shows every rule, and ignores fields it does not know', () => {
  const catalogue = JSON.parse(readFileSync(rulesJsonFile, 'utf8')) as { rules: Array<Record<string, unknown>> };
  const page = renderRulesDoc(JSON.stringify(catalogue));
  for (const rule of catalogue.rules) assert.ok(page.includes(`### ${String(rule.id)}\n`), String(rule.id));
  const extended = {
    ...catalogue,
    future: { anything: true },
    rules: catalogue.rules.map((rule) => ({ ...rule, tests: ['a test'], mutants: [{ name: 'm' }], since: 2 })),
  };
  assert.equal(renderRulesDoc(JSON.stringify(extended)), page);
  assert.equal(readRules(JSON.stringify(extended)).rules.length, catalogue.rules.length);
});

test('every page of docs/measured/ was written by its command, or names the command that writes it', () => {
  for (const name of Object.keys(measuredCommands) as MeasuredName[]) {
    const file = measuredFile(name);
    assert.ok(existsSync(file), `${relative(root, file)} is missing: run ${measuredCommands[name].command}`);
    const text = readFileSync(file, 'utf8');
    if (text === renderStub(name)) continue;
    const { command, title } = measuredCommands[name];
    const shown = relative(root, file);
    assert.ok(text.startsWith(`# ${title}\n\nWritten by \`${command}`), `${shown}: not written by ${command}`);
    assert.match(text, /on \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ, on Node v\d+\.\d+\.\d+, \d+ core\(s\)/, shown);
    assert.ok(text.includes('Do not edit by hand'), shown);
  }
});

test('a measured page says which command wrote it, when, on what machine, and not to edit it', () => {
  const page = renderMeasured({
    name: 'fuzz-mock',
    commandLine: 'npm run fuzz:mock -- --requests 5000',
    body: ['- figures'],
    when: new Date('2025-01-02T03:04:05.678Z'),
    machine: 'Node v20.0.0, 2 core(s) (a CPU), linux x64',
    source: 'commit abc1234',
  });
  assert.equal(
    page,
    [
      '# The reference mock under abuse',
      '',
      'Written by `npm run fuzz:mock -- --requests 5000` on 2025-01-02T03:04:05Z, ' +
        'on Node v20.0.0, 2 core(s) (a CPU), linux x64, commit abc1234.',
      '',
      'Do not edit by hand; re-run the command (`npm run fuzz:mock`) to update it.',
      '',
      '- figures',
      '',
    ].join('\n'),
  );
  assert.match(renderStub('mutation'), /^# Mutation score\n\nNot measured yet: run `npm run mutation`\./);
});

test('the mutation figures: both modes, the variants, and the mutants by operator', () => {
  const result = (name: string, operator: string, killed: boolean): MutantResult => ({
    name,
    rule: 'TXN-CREATE-ECHO',
    operator,
    operations: ['createTransaction'],
    description: name,
    testsRun: 1,
    killed,
    killedBy: killed ? 'its rule tests' : null,
    caughtBy: [],
  });
  const killed = [result('a', 'echo', true), result('b', 'echo', true)];
  const survivor = result('c', 'status', false);
  const score: MutationScore = {
    generatedAt: '2025-01-02T03:04:05.000Z',
    impact: { full: false, sampleSeed: 7, wholeVariants: ['variant.v'], mapGaps: [] },
    wallSeconds: 100,
    phases: { referenceSeconds: 10, ruleTestsSeconds: 80, coveringTestsSeconds: 10 },
    testsExecuted: 500,
    score: { killed: 2, total: 3, percent: 66.7 },
    equivalent: [{ name: 'e', rule: 'TXN-CREATE-ECHO', reason: 'unobservable' }],
    survivors: [survivor],
    killed,
    killedOnlyBySuiteErrors: [],
    variants: [
      { name: 'variant.v', description: 'v', against: 'every covering test', testsRun: 3, passed: true, failures: [] },
    ],
    falsePositives: 0,
    strict: {
      score: { killed: 3, total: 4, percent: 75 },
      survivors: [survivor],
      killed,
      lenientVariants: [result('l', 'conforming', true)],
    },
  };
  const text = mutationFigures(score, '10').join('\n');
  assert.match(text, /\| Non-equivalent mutants killed, default mode \| 2 \/ 3 \(66\.7 %\) \|/);
  assert.match(text, /\| Killed with `--strict` \| 3 \/ 4 \(75 %\): 2 \/ 3 mutants, 1 \/ 1 lenient variants \|/);
  assert.match(text, /\| Conforming variants that pass by default \| 1 \/ 1 \(false positives: 0\) \|/);
  assert.match(text, /\| echo \| 2 \| 2 \| 2 \|\n\| status \| 1 \| 0 \| 0 \|/);
  assert.match(text, /- default mode: c \(breaks TXN-CREATE-ECHO\)/);
});

test('the README stays an entry: at most 200 lines, the two first commands first', () => {
  const lines = readFileSync(join(root, 'README.md'), 'utf8').trimEnd().split('\n');
  assert.ok(lines.length <= 200, `README.md has ${lines.length} lines; move the detail into docs/`);
  const firstBlock = lines.slice(lines.indexOf('```sh') + 1, lines.indexOf('```sh') + 3).join('\n');
  assert.match(firstBlock, /npm run conformance/);
  assert.match(firstBlock, /npm test/);
});
