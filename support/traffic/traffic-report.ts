/**
 * The reports of judged traffic, like a run's: the conformance matrix, the rule coverage, JUnit
 * (one test case per operation and rule, with its failing exchanges), the Allure results and the
 * closing summary, all under the output directory and all from the verdict records
 * (reporters/report-pipeline.ts); and what only traffic has: the client's own findings (requests
 * off the reference), the exchanges outside the reference, the entries that could not be read,
 * and the traffic's coverage: which operations, statuses, input classes and rules it exercised,
 * and which it never did.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { operations } from '../../contract/operations.ts';
import { rules } from '../../contract/rules.ts';
import { redact } from '../http/redact.ts';
import { violationLine, requestLine } from '../judgment/verdict-message.ts';
import type { TestRecord } from '../../reporters/conformance-model.ts';
import { buildReports, outputFiles, writeReports, type Reports } from '../../reporters/report-pipeline.ts';
import type { RunHeader } from '../../reporters/markdown.ts';
import { writeAllureResults } from '../../reporters/allure-records.ts';
import { allureCategories } from '../reporting/allure.ts';
import type { JudgedExchange } from './judge.ts';
import type { TrafficCollector } from './traffic-collector.ts';
import type { SkippedEntry } from './har.ts';

export interface TrafficReportOptions {
  outputDir: string;
  allureResultsDir: string;
  header: RunHeader;
  /** Where the traffic came from, for the cases' locations: a HAR file's name, or "proxy". */
  origin: string;
  skipped: readonly SkippedEntry[];
  /** False: the traffic carries no credentials; the credential rules were not judged. */
  credentialsRecorded: boolean;
  /** Lines about what ran around the traffic (the command's exit status), for the summary. */
  notes: readonly string[];
}

export interface TrafficReport {
  reports: Reports;
  /** The closing summary: the pipeline's, with what only traffic has. */
  summary: string[];
  serverFindings: number;
  clientFindings: number;
}

export const trafficFiles = { coverage: 'traffic-coverage.md', client: 'client-findings.md' } as const;

/** The traffic's coverage: per operation, how many exchanges, the statuses and input classes seen, the rules judged. */
export function coverageOfTraffic(judged: readonly JudgedExchange[], cases: readonly TestRecord[]): string {
  const lines = ['## Coverage of the traffic', ''];
  lines.push('| Operation | Exchanges | Statuses | Input classes | Rules judged | Rules never exercised |');
  lines.push('|---|---|---|---|---|---|');
  for (const entry of operations.filter((candidate) => candidate.rules !== undefined)) {
    const mine = judged.filter((exchange) => exchange.route?.operation === entry.id);
    const statuses = [...new Set(mine.map((exchange) => exchange.traffic.status))].sort((a, b) => a - b);
    const classes = new Map<string, number>();
    for (const exchange of mine)
      if (exchange.inputClass) classes.set(exchange.inputClass, (classes.get(exchange.inputClass) ?? 0) + 1);
    const judgedRules = new Set(
      cases
        .filter((test) => test.verdicts.some((record) => record.operation === entry.id))
        .map((test) => test.rules[0]),
    );
    const never = rules.filter((found) => found.operations.includes(entry.id) && !judgedRules.has(found.id));
    lines.push(
      `| ${entry.id} | ${mine.length} | ${statuses.join(', ') || '—'} | ` +
        `${[...classes].map(([name, count]) => `${name} ${count}`).join(', ') || '—'} | ${judgedRules.size} | ` +
        `${never.map((found) => found.id).join(', ') || '—'} |`,
    );
  }
  const outside = judged.filter((exchange) => exchange.outside !== undefined);
  if (outside.length > 0) {
    lines.push('', `### Outside the reference (${outside.length}, listed, not judged)`, '');
    for (const { traffic, outside: why } of outside.slice(0, 200))
      lines.push(`- ${traffic.method} ${new URL(traffic.url).pathname} → ${traffic.status}: ${why}`);
  }
  return `${lines.join('\n')}\n`;
}

function clientFindingsText(judged: readonly JudgedExchange[]): string {
  const lines = [
    '## Client findings',
    '',
    'Requests the client sent off the reference (the client, not the server):',
    '',
  ];
  for (const exchange of judged)
    for (const finding of exchange.clientFindings)
      lines.push(`- ${requestLine(finding.exchange)}: ${violationLine(finding.violation)}`);
  return `${lines.join('\n')}\n`;
}

/** Writes every report of the traffic into the output directory; returns the summary and the counts. */
export function reportTraffic(collected: TrafficCollector, options: TrafficReportOptions): TrafficReport {
  const judged = collected.exchanges;
  const cases = collected.cases(options.origin);
  const reports = buildReports(cases, {
    header: options.header,
    junitName: `collect-conformance traffic ${options.origin}`,
    paths: {
      matrix: join(options.outputDir, outputFiles.matrixMarkdown),
      coverage: join(options.outputDir, outputFiles.coverageMarkdown),
      html: join(options.outputDir, trafficFiles.coverage),
      allureResults: options.allureResultsDir,
    },
  });
  writeReports(options.outputDir, reports, process.env.GITHUB_STEP_SUMMARY);
  writeFileSync(join(options.outputDir, trafficFiles.coverage), redact(coverageOfTraffic(judged, cases)));
  writeFileSync(join(options.outputDir, trafficFiles.client), redact(clientFindingsText(judged)));
  writeAllureResults(
    options.allureResultsDir,
    cases,
    { Target: options.header.target, Traffic: options.origin, 'Finished at': options.header.finishedAt },
    allureCategories(),
  );
  const clientFindings = judged.reduce((sum, exchange) => sum + exchange.clientFindings.length, 0);
  const outside = judged.filter((exchange) => exchange.outside !== undefined).length;
  const extra: string[] = [];
  if (!options.credentialsRecorded)
    extra.push(
      '  note: the traffic carries no Authorization header (exported without credentials): ' +
        'the credential rules were not judged',
    );
  if (clientFindings > 0) {
    const first = judged.flatMap((exchange) => exchange.clientFindings)[0]!;
    extra.push(
      `  client findings: ${clientFindings} (the client, not the server, is off the reference; ` +
        `--fail-on-client counts them), e.g. ${requestLine(first.exchange)}: ${violationLine(first.violation)}`.slice(
          0,
          400,
        ),
    );
  }
  const incomplete = judged.filter((exchange) => exchange.traffic.incomplete !== undefined);
  if (incomplete.length > 0)
    extra.push(
      `  partly recorded: ${incomplete.length} answer(s) judged by their status alone ` +
        `(${incomplete[0]!.traffic.incomplete})`,
    );
  if (outside > 0) extra.push(`  outside the reference: ${outside} exchange(s), listed in ${trafficFiles.coverage}`);
  for (const entry of options.skipped.slice(0, 5))
    extra.push(`  skipped: ${entry.file} entry ${entry.entry}: ${entry.why}`);
  if (options.skipped.length > 5) extra.push(`  skipped: ${options.skipped.length - 5} more entries`);
  extra.push(`  traffic coverage: ${join(options.outputDir, trafficFiles.coverage)}`);
  const [first = '', ...rest] = reports.summary;
  return {
    reports,
    summary: [
      first,
      ...options.notes.map((note) => `  ${note}`),
      ...rest.slice(0, -2),
      ...extra,
      ...rest.slice(-2),
    ].map((line) => redact(line)),
    serverFindings: reports.coverage.totals.fail,
    clientFindings,
  };
}
