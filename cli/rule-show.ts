/**
 * `collect-conformance rules --show ID [--json]`: one rule and everything that names it, its
 * tests (Playwright's listing), input cases, mutants, conforming variants, gap rows and the
 * roles it fills in the operations table, the operations on whose every answer the check registry
 * judges it, as text for people or as JSON.
 */
import { readFileSync } from 'node:fs';
import type { Mutant } from '../mock/mutants/index.ts';
import type { RuleCoverage } from '../reporters/conformance-model.ts';
import { outcomeNote, type RunHeader } from '../reporters/markdown.ts';
import { testLocation, type RuleHub } from './rule-links.ts';
import type { ListedTest } from './rule-tests.ts';

/** The --json document: a public interface, fields are only ever added. */
export interface RuleShow {
  rule: RuleHub['rule'] & { strict: string };
  operationRoles: RuleHub['operationRoles'];
  registeredFor: RuleHub['registeredFor'];
  /** line is absent where the listing cannot give it (see cli/rule-tests.ts). */
  tests: Array<{ title: string; file: string; line?: number }>;
  inputCases: RuleHub['inputCases'];
  mutants: Array<Pick<Mutant, 'name' | 'operator' | 'operations' | 'description' | 'equivalent'>>;
  variants: Array<{ name: string; description: string; gaps: string[]; strictKills: boolean }>;
  gapRows: RuleHub['gapRows'];
  /** The rule in the last run's rule coverage (the output directory's), when there is one: its verdict, and why. */
  lastRun?: LastRun;
}

/** What the last run of the output directory said of a rule: its verdict, and each test's outcome and reason. */
export interface LastRun {
  file: string;
  runId: string;
  finishedAt: string;
  verdict: string;
  tests: Array<{ title: string; location: string; outcome: string; reason?: string }>;
}

/** The rule in a rule coverage file; undefined when there is no such file, or it does not hold the rule. */
export function lastRunOf(file: string, id: string): LastRun | undefined {
  let coverage: Partial<RuleCoverage & RunHeader>;
  try {
    coverage = JSON.parse(readFileSync(file, 'utf8')) as Partial<RuleCoverage & RunHeader>;
  } catch {
    return undefined;
  }
  const entry = coverage.rules?.find((candidate) => candidate.id === id);
  if (entry === undefined) return undefined;
  return {
    file,
    runId: coverage.runId ?? 'unknown',
    finishedAt: coverage.finishedAt ?? 'unknown',
    verdict: entry.verdict,
    tests: entry.tests.map((test) => {
      const reason = outcomeNote(test);
      return {
        title: test.title,
        location: test.location,
        outcome: test.outcome,
        ...(reason === '' ? {} : { reason }),
      };
    }),
  };
}

/** What --strict makes of the rule: its input class under --strict, or that it changes nothing. */
function strictReading(hub: RuleHub): string {
  return hub.rule.input?.strict ?? 'not a rule about request inputs: --strict changes nothing';
}

export function ruleShow(hub: RuleHub, tests: readonly ListedTest[], lastRun?: LastRun): RuleShow {
  return {
    ...(lastRun === undefined ? {} : { lastRun }),
    rule: { ...hub.rule, strict: strictReading(hub) },
    operationRoles: hub.operationRoles,
    registeredFor: hub.registeredFor,
    tests: tests.map(({ title, file, line }) => ({ title, file, ...(line === undefined ? {} : { line }) })),
    inputCases: hub.inputCases,
    mutants: hub.mutants.map(({ name, operator, operations, description, equivalent }) => ({
      name,
      operator,
      operations,
      description,
      ...(equivalent === undefined ? {} : { equivalent }),
    })),
    variants: hub.variants.map(({ name, description, gaps, strictKills }) => ({
      name,
      description,
      gaps,
      strictKills: strictKills === hub.rule.id,
    })),
    gapRows: hub.gapRows,
  };
}

const width = 100;

/** Words of `text` in lines of at most `width` characters, every line after the first indented. */
function wrap(text: string, indent: string): string {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter((candidate) => candidate !== '')) {
    if (current !== '' && indent.length + current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  lines.push(current);
  return lines.join(`\n${indent}`);
}

const field = (label: string, text: string): string => `${label.padEnd(13)}${wrap(text, ' '.repeat(13))}`;

/** A heading with the number of rows (and a note), then the rows indented, or `none`. */
function section(title: string, rows: string[], none = 'none', note = ''): string[] {
  const body = rows.length === 0 ? [none] : rows;
  return ['', `${title} (${rows.length}${note}):`, ...body.map((row) => `  ${row}`)];
}

function caseValue(entry: RuleShow['inputCases'][number]): string {
  if (entry.absent) return 'absent';
  const text = entry.text ?? JSON.stringify(entry.value) ?? 'undefined';
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

const roleRows = (show: RuleShow): string[] => show.operationRoles.map(({ operation, role }) => `${operation}.${role}`);

const caseRow = (entry: RuleShow['inputCases'][number]): string => {
  const sent = entry.text === undefined ? `${entry.pointer} = ` : 'text ';
  return `${entry.file}  ${sent}${caseValue(entry)}  ${entry.class}: ${entry.name}`;
};

const unlocated = '(lines unknown: Playwright listed positions in code transpiled onto one line, not in the specs)';

export function renderRuleShow(show: RuleShow): string {
  const { rule } = show;
  const lines = [
    `${rule.id} (${rule.kind}${rule.quirk ? ', a documented type quirk' : ''})`,
    field('Section:', rule.section),
    field('Operations:', rule.operations.join(', ')),
    field('Rule:', rule.text),
    field('Reference:', rule.reference),
    field('Input class:', rule.input?.class ?? 'none (not a rule about request inputs)'),
    field('--strict:', rule.strict),
  ];
  if (rule.noMutant) lines.push(field('No mutant:', rule.noMutant));
  lines.push(
    ...section('Operation roles (contract/operations.ts)', roleRows(show)),
    ...section('Judged on every answer of (judgment/registry.ts)', show.registeredFor),
    ...section(
      'Tests',
      show.tests.map((test) => `${testLocation(test)}  ${test.title}`),
    ),
    ...(show.tests.some((test) => test.line === undefined) ? [`  ${unlocated}`] : []),
    ...section('Input cases (specs/input-cases)', show.inputCases.map(caseRow)),
  );
  const counted = show.mutants.filter((mutant) => mutant.equivalent === undefined).length;
  const mutantRows = show.mutants.map((mutant) => {
    const equivalent = mutant.equivalent === undefined ? '' : '  (equivalent: not counted)';
    return `${mutant.name}  [${mutant.operator}]  ${mutant.description}${equivalent}`;
  });
  lines.push(
    ...section('Mutants', mutantRows, rule.noMutant ? 'none: see "No mutant" above' : 'none', `, ${counted} counted`),
    ...section(
      'Conforming variants',
      show.variants.map(
        (variant) =>
          `${variant.name}  ${variant.description}  (gaps: ${variant.gaps.join(', ')}` +
          `${variant.strictKills ? '; lenient: --strict must fail it under this rule' : ''})`,
      ),
    ),
    ...section(
      'Gap rows (specs/gaps.json)',
      show.gapRows.map((row) => `${row.id}  ${row.gap}`),
    ),
  );
  const last = show.lastRun;
  if (last !== undefined)
    lines.push(
      ...section(
        `Last run (${last.file}, run ${last.runId}, ${last.finishedAt}): ${last.verdict}`,
        last.tests.map(
          (test) => `${test.outcome}  ${test.title}${test.reason === undefined ? '' : `: ${test.reason}`}`,
        ),
      ),
    );
  return `${lines.join('\n')}\n`;
}
