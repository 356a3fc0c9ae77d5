/**
 * The summary that ends every run's console output, the screen a person reads first. It opens
 * with what may be a mistake of the configuration (a configured id the target answered 404
 * for, with the failures it may explain under it), then names the causes of the broken rules,
 * one each (what is wrong, on which operations, which rules it breaks, one example), the rules
 * left unchecked because a precondition failed first, the rules not checked and why, what could
 * not be decided (target unavailable, rate limited, errors of the suite), and where the matrix
 * and the reports are. Everything in it comes from the records (reporters/causes.ts).
 */
import type { ConfiguredIdSuspect } from '../output/configured-id-suspects.ts';
import { requestLine, violationLine } from '../judgment/verdict-message.ts';
import { causeLine, causesOf, type Cause } from './causes.ts';
import type { RuleCoverage, TestRecord, Totals } from './conformance-model.ts';
import { notCoveredSymbol, verdictDefinition } from './verdicts.ts';

export interface SummaryPaths {
  matrix: string;
  coverage: string;
  html: string;
  allureResults: string;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function listed(items: readonly string[], most: number): string {
  return items.slice(0, most).join(', ') + (items.length > most ? ` and ${items.length - most} more` : '');
}

function totalsText(totals: Totals): string {
  return (
    `${plural(totals.tests, 'test')}: ${totals.passed} passed, ${totals.failed} failed, ` +
    `${totals.skipped} skipped${totals.flaky > 0 ? `, ${totals.flaky} flaky` : ''}`
  );
}

/** True when a record's request read the configured id of a suspect. */
function reads(record: Cause['records'][number], suspect: ConfiguredIdSuspect): boolean {
  return record.exchange?.operation === suspect.operation && requestOf(record) === suspect.request;
}

/** The configured ids a cause may be the mistake of: every request that showed it read one of them. */
function explainedBy(cause: Cause, suspects: readonly ConfiguredIdSuspect[]): ConfiguredIdSuspect[] {
  if (!cause.records.every((record) => suspects.some((suspect) => reads(record, suspect)))) return [];
  return suspects.filter((suspect) => cause.records.some((record) => reads(record, suspect)));
}

/** "A, B and C". */
function joined(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function requestOf(record: Cause['records'][number]): string | undefined {
  return record.exchange === undefined ? undefined : `${record.exchange.method} ${record.exchange.path}`;
}

/** The tests a broken rule stopped before they checked theirs, and those rules, by the rule that broke. */
type Blocked = Map<string, { tests: Set<string>; rules: Set<string> }>;

function blockedByRule(coverage: RuleCoverage): Blocked {
  const blockedBy: Blocked = new Map();
  for (const entry of coverage.rules) {
    for (const test of entry.tests) {
      if (test.outcome !== 'blocked') continue;
      for (const blocker of test.blockedBy ?? []) {
        const found = blockedBy.get(blocker) ?? { tests: new Set<string>(), rules: new Set<string>() };
        found.tests.add(test.title);
        if (blocker !== entry.id) found.rules.add(entry.id);
        blockedBy.set(blocker, found);
      }
    }
  }
  return blockedBy;
}

function causeLines(cause: Cause, indent: string, blocked: Blocked): string[] {
  const fail = verdictDefinition('fail').symbol;
  const example = cause.example.exchange === undefined ? '' : `${requestLine(cause.example.exchange)} `;
  const lines = [
    `${indent}${fail} ${causeLine(cause)} (${plural(cause.tests.length, 'test')})`,
    `${indent}   e.g. ${`${example}${violationLine(cause.violation)}`.slice(0, 240)}`,
  ];
  // What the cause stopped: tests that needed a step it broke, before they checked their own rules.
  const tests = new Set<string>();
  const rules = new Set<string>();
  for (const rule of [...cause.rules, ...cause.through]) {
    const found = blocked.get(rule);
    if (found === undefined) continue;
    for (const test of found.tests) tests.add(test);
    for (const other of found.rules) if (!cause.rules.includes(other)) rules.add(other);
    blocked.delete(rule);
  }
  if (tests.size > 0 && rules.size > 0)
    lines.push(
      `${indent}   it also stopped ${plural(tests.size, 'test')} before they checked ${listed([...rules], 6)}`,
    );
  return lines;
}

function firstLine(causes: readonly Cause[], suspects: readonly ConfiguredIdSuspect[], totals: Totals): string {
  const prefix = 'collect-conformance: summary:';
  const rules = new Set(causes.flatMap((cause) => cause.rules)).size;
  const fail = verdictDefinition('fail').symbol;
  if (suspects.length > 0) {
    const variables = joined([...new Set(suspects.map((suspect) => suspect.variable))]);
    return (
      `${prefix} check ${variables} first: the target answered 404 for ` +
      `${suspects.map((suspect) => `${suspect.request}`).join(', ')}; every failure of a read of ` +
      `${suspects.length === 1 ? 'it' : 'them'} may be that mistake (${plural(causes.length, 'cause')}, ` +
      `${plural(rules, 'rule')} broken); ${totalsText(totals)}`
    );
  }
  if (causes.length === 0) return `${prefix} no rule broken; ${totalsText(totals)}`;
  if (causes.length === 1)
    return `${prefix} 1 cause breaks ${plural(rules, 'rule')} (${fail}): ${causes[0]!.title}; ${totalsText(totals)}`;
  return `${prefix} ${causes.length} causes break ${plural(rules, 'rule')} (${fail}); ${totalsText(totals)}`;
}

/** The summary's lines, the first naming the run's verdict. */
export function renderRunSummary(
  coverage: RuleCoverage,
  records: readonly TestRecord[],
  totals: Totals,
  paths: SummaryPaths,
  suspects: readonly ConfiguredIdSuspect[] = [],
): string[] {
  const causes = causesOf(records);
  const blocked = blockedByRule(coverage);
  const lines = [firstLine(causes, suspects, totals)];
  const explained = new Set<Cause>();
  for (const suspect of suspects) {
    lines.push(
      `  ${notCoveredSymbol} ${suspect.variable}=${suspect.id}: ` +
        `${suspect.request} answered ${suspect.status} when the run started; it may explain:`,
    );
    const mine = causes.filter((cause) => explainedBy(cause, suspects).includes(suspect));
    for (const cause of mine) {
      if (explained.has(cause)) lines.push(`    ${verdictDefinition('fail').symbol} cause ${cause.id}, above`);
      else lines.push(...causeLines(cause, '    ', blocked));
      explained.add(cause);
    }
    if (mine.length === 0) lines.push('    (no failure of this run reads it)');
  }
  for (const cause of causes) if (!explained.has(cause)) lines.push(...causeLines(cause, '  ', blocked));
  // Preconditions no cause above accounts for.
  for (const [blocker, found] of blocked) {
    if (found.rules.size === 0) continue;
    lines.push(
      `  blocked: ${blocker} failed as a precondition of ${plural(found.tests.size, 'test')}, which did not check ` +
        listed([...found.rules], 6),
    );
  }
  // Rules no test checked, by the reason their tests were skipped (a variable not set, writes refused on live...).
  const skippedBecause = new Map<string, string[]>();
  for (const entry of coverage.rules) {
    if (entry.verdict !== 'skip' || entry.tests.length === 0) continue;
    const reason = entry.tests.find((test) => test.outcome === 'skipped')?.record?.reason ?? 'see the rule coverage';
    if (entry.tests.every((test) => test.outcome === 'blocked')) continue;
    skippedBecause.set(reason, [...(skippedBecause.get(reason) ?? []), entry.id]);
  }
  for (const [reason, rules] of skippedBecause)
    lines.push(`  ${verdictDefinition('skip').symbol} not checked: ${listed(rules, 8)}: ${reason}`);
  for (const id of ['unavailable', 'rate-limited', 'suite-error'] as const) {
    const count = coverage.totals[id];
    if (count === 0) continue;
    const definition = verdictDefinition(id);
    lines.push(`  ${definition.symbol} ${definition.label}: ${plural(count, 'rule')} could not be decided`);
  }
  lines.push(`  matrix: ${paths.matrix}  rule coverage: ${paths.coverage}`);
  lines.push(`  report: ${paths.html}  Allure results: ${paths.allureResults}`);
  return lines;
}
