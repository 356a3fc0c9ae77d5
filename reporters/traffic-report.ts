/**
 * The reports of judged traffic, like a run's: the conformance matrix, the rule coverage, JUnit
 * (one test case per operation and rule, with its failing exchanges), the Allure results and the
 * closing summary, all under the output directory and all from the verdict records
 * (reporters/report-pipeline.ts); and what only traffic has: the client's own findings (requests
 * off the reference, one finding per request, those to a path or method the reference does not
 * define among them), the exchanges outside the reference, the entries that could not be read,
 * and the traffic's coverage: which operations, statuses, input classes and rules it exercised,
 * and which it never did, each with why.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { operations } from '../contract/operations.ts';
import { rules } from '../contract/rules.ts';
import type { TargetOwnValues } from '../judge/must-accept-example.ts';
import { redact } from '../settings/secrets.ts';
import { violationLine, requestLine } from '../judgment/verdict-message.ts';
import type { TestRecord } from './conformance-model.ts';
import { buildReports, outputFiles, writeReports, type Reports } from './report-pipeline.ts';
import type { RunHeader } from './markdown.ts';
import { writeAllureResults } from './allure-records.ts';
import { allureCategories } from './allure-categories.ts';
import { brokenKeptPerCase, type TrafficCollector } from './traffic-collector.ts';
import { notExercisedSection } from './not-exercised.ts';
import type { ClientFinding } from '../judge/client-findings.ts';
import type { SkippedEntry } from '../judge/har.ts';

export interface TrafficReportOptions {
  outputDir: string;
  allureResultsDir: string;
  header: RunHeader;
  /** Where the traffic came from, for the cases' locations: a HAR file's name, or "proxy". */
  origin: string;
  /** The first entries of a HAR that are no exchange, listed with why (the collector counts them all). */
  skipped: readonly SkippedEntry[];
  /** False: the traffic carries no credentials; the credential rules were not judged. */
  credentialsRecorded: boolean;
  /** Lines about what ran around the traffic (the command's exit status), for the summary. */
  notes: readonly string[];
  /** --fail-on-client: client findings fail the run; when they alone do, the summary's first line says so. */
  failOnClient?: boolean;
  /**
   * Where the suite's own runs that were the traffic's client wrote their reports (proxy -- npm run conformance):
   * the client findings are then the suite's own deliberate requests off the reference.
   */
  suiteRuns?: readonly string[];
  /** The target's own values, for what a request owed acceptance looks like (the coverage's "why not exercised"). */
  targetValues?: TargetOwnValues;
}

export interface TrafficReport {
  reports: Reports;
  /** The closing summary: the pipeline's, with what only traffic has. */
  summary: string[];
  serverFindings: number;
  clientFindings: number;
  /** Reports that could not be written, each with why (the others were). */
  writeErrors: string[];
}

/** The title of the case that says what the verdict leaves out, in JUnit and Allure as in the summary. */
export const notJudgedTitle = 'traffic › not judged';

/**
 * What the verdict leaves out, in one line, or undefined when it leaves out nothing: the traffic not judged
 * (with why), the exchanges skipped on purpose, the requests that got no answer to judge.
 */
export function incompleteText(collected: TrafficCollector): string | undefined {
  const parts: string[] = [];
  const { notJudged, skipped, unanswered } = collected;
  if (notJudged.total > 0) parts.push(`${notJudged.total} not judged: ${notJudged.text()}`);
  if (skipped.total > 0) parts.push(`${skipped.total} skipped on purpose: ${skipped.text()}`);
  if (unanswered.total > 0)
    parts.push(`${unanswered.total} request(s) without an answer to judge: ${unanswered.text()}`);
  return parts.length === 0 ? undefined : parts.join('; ');
}

/** The case of what was not judged: an error (JUnit <error>, Allure broken) unless all was skipped on purpose. */
function notJudgedCase(collected: TrafficCollector, origin: string): TestRecord | undefined {
  const text = incompleteText(collected);
  if (text === undefined) return undefined;
  return {
    title: notJudgedTitle,
    location: origin,
    rules: [],
    outcome: collected.notJudged.total > 0 ? 'failed' : 'skipped',
    verdicts: [],
    error: `the verdict does not cover all of the traffic: ${text}`,
  };
}

/** Runs one write of the reports; a failure is kept (with the file it concerned), and the next write goes on. */
function guarded(errors: string[], what: string, write: () => void): void {
  try {
    write();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    errors.push(`${what}: ${code ?? (error instanceof Error ? error.message : String(error))}`);
  }
}

export const trafficFiles = { coverage: 'traffic-coverage.md', client: 'client-findings.md' } as const;

/**
 * The traffic's coverage: per operation, how many exchanges, the statuses and input classes seen, the rules judged,
 * and the rules never exercised, each with why.
 */
export function coverageOfTraffic(
  collected: TrafficCollector,
  cases: readonly TestRecord[],
  values?: TargetOwnValues,
): string {
  const lines = ['## Coverage of the traffic', ''];
  const neverExercised: Parameters<typeof notExercisedSection>[0][number][] = [];
  lines.push('| Operation | Exchanges | Statuses | Input classes | Rules judged | Rules never exercised |');
  lines.push('|---|---|---|---|---|---|');
  for (const entry of operations.filter((candidate) => candidate.rules !== undefined)) {
    const seen = collected.operations.get(entry.id);
    const statuses = [...(seen?.statuses ?? [])].sort((a, b) => a - b);
    const classes = [...(seen?.classes ?? [])];
    const judgedRules = new Set(
      cases
        .filter((test) => test.verdicts.some((record) => record.operation === entry.id))
        .map((test) => test.rules[0]),
    );
    const never = rules.filter((found) => found.operations.includes(entry.id) && !judgedRules.has(found.id));
    neverExercised.push({ operation: entry.id, rules: never, seen });
    lines.push(
      `| ${entry.id} | ${seen?.exchanges ?? 0} | ${statuses.join(', ') || '—'} | ` +
        `${classes.map(([name, count]) => `${name} ${count}`).join(', ') || '—'} | ${judgedRules.size} | ` +
        `${never.map((found) => found.id).join(', ') || '—'} |`,
    );
  }
  lines.push(...notExercisedSection(neverExercised, values));
  const incomplete = incompleteText(collected);
  if (incomplete !== undefined) {
    lines.push('', '### Not judged', '');
    for (const [reason, count] of collected.notJudged.entries()) lines.push(`- not judged: ${count}, ${reason}`);
    for (const [reason, count] of collected.skipped.entries()) lines.push(`- skipped on purpose: ${count}, ${reason}`);
    for (const [reason, count] of collected.unanswered.entries())
      lines.push(`- no answer to judge: ${count}, ${reason}`);
  }
  const more = collected.brokenNotListed();
  if (more.length > 0) {
    lines.push('', '### Failing exchanges counted, not listed', '');
    for (const { title, count } of more) lines.push(`- ${title}: ${count} more than the ${brokenKeptPerCase} listed`);
  }
  if (collected.outsideTotal > 0) {
    lines.push(
      '',
      `### Outside the reference (${collected.outsideTotal}, listed, not judged; requests to the API's base ` +
        `address are client findings: ${trafficFiles.client})`,
      '',
    );
    for (const { method, path, status, why } of collected.outside)
      lines.push(`- ${method} ${path} → ${status}: ${why}`);
    if (collected.outsideTotal > collected.outside.length)
      lines.push(`- and ${collected.outsideTotal - collected.outside.length} more`);
  }
  return `${lines.join('\n')}\n`;
}

/** One request off the reference, in one line: the request, then each of its departures. */
export function clientFindingLine(finding: ClientFinding): string {
  return `${requestLine(finding.exchange)}: ${finding.violations.map(violationLine).join('; ')}`;
}

/** Who the client was, when the suite itself was: its findings are its own deliberate requests off the reference. */
function suiteClientText(suiteRuns: readonly string[]): string {
  return (
    `collect-conformance's own run (its reports: ${suiteRuns.join(', ')}): its client findings are its own ` +
    'deliberate invalid requests (inputs it sends to be refused, and customer creation, which the reference does ' +
    'not show), not defects of a client'
  );
}

function clientFindingsText(collected: TrafficCollector, suiteRuns: readonly string[]): string {
  const lines = [
    '## Client findings',
    '',
    'Requests the client sent off the reference (the client, not the server), one line per request:',
    '',
    ...(suiteRuns.length > 0 ? [`The client is ${suiteClientText(suiteRuns)}.`, ''] : []),
  ];
  for (const finding of collected.clientFindings) lines.push(`- ${clientFindingLine(finding)}`);
  if (collected.clientFindingsTotal > collected.clientFindings.length)
    lines.push(`- and ${collected.clientFindingsTotal - collected.clientFindings.length} more`);
  return `${lines.join('\n')}\n`;
}

/** Writes every report of the traffic into the output directory; returns the summary and the counts. */
export function reportTraffic(collected: TrafficCollector, options: TrafficReportOptions): TrafficReport {
  const gap = notJudgedCase(collected, options.origin);
  const cases = [...collected.cases(options.origin), ...(gap === undefined ? [] : [gap])];
  const incomplete = incompleteText(collected);
  const header: RunHeader =
    incomplete === undefined
      ? options.header
      : {
          ...options.header,
          incomplete:
            options.header.incomplete === undefined ? incomplete : `${options.header.incomplete}; ${incomplete}`,
        };
  const reports = buildReports(cases, {
    header,
    junitName: `collect-conformance traffic ${options.origin}`,
    paths: {
      matrix: join(options.outputDir, outputFiles.matrixMarkdown),
      coverage: join(options.outputDir, outputFiles.coverageMarkdown),
      html: join(options.outputDir, trafficFiles.coverage),
      allureResults: options.allureResultsDir,
    },
  });
  const writeErrors: string[] = [];
  guarded(writeErrors, trafficFiles.coverage, () =>
    writeFileSync(
      join(options.outputDir, trafficFiles.coverage),
      redact(coverageOfTraffic(collected, cases, options.targetValues)),
    ),
  );
  guarded(writeErrors, trafficFiles.client, () =>
    writeFileSync(
      join(options.outputDir, trafficFiles.client),
      redact(clientFindingsText(collected, options.suiteRuns ?? [])),
    ),
  );
  guarded(writeErrors, 'allure-results', () =>
    writeAllureResults(
      options.allureResultsDir,
      cases,
      { Target: options.header.target, Traffic: options.origin, 'Finished at': options.header.finishedAt },
      allureCategories(),
    ),
  );
  // Last, as a run writes them: the rule coverage's presence says the reports are complete.
  guarded(writeErrors, 'the matrix, rule coverage and JUnit', () =>
    writeReports(options.outputDir, reports, process.env.GITHUB_STEP_SUMMARY),
  );
  const clientFindings = collected.clientFindingsTotal;
  const outside = collected.outsideTotal;
  const suiteRuns = options.suiteRuns ?? [];
  const extra: string[] = [];
  if (!options.credentialsRecorded)
    extra.push(
      '  note: the traffic carries no Authorization header (exported without credentials): ' +
        'the credential rules were not judged, of the server or of the client',
    );
  if (suiteRuns.length > 0) extra.push(`  client: ${suiteClientText(suiteRuns)}`);
  if (clientFindings > 0) {
    const first = collected.clientFindings[0];
    const who =
      suiteRuns.length > 0
        ? "the suite's own deliberate invalid requests"
        : 'the client, not the server, is off the reference';
    extra.push(
      (
        `  client findings: ${clientFindings} request(s) (${who}; --fail-on-client counts them, ` +
        `${join(options.outputDir, trafficFiles.client)} lists them)` +
        (first === undefined ? '' : `, e.g. ${clientFindingLine(first)}`)
      ).slice(0, 400),
    );
  }
  if (collected.incompleteTotal > 0)
    extra.push(
      `  partly recorded: ${collected.incompleteTotal} answer(s) judged by their status and headers ` +
        `(${collected.firstIncomplete})`,
    );
  if (outside > 0)
    extra.push(
      `  outside the reference: ${outside} exchange(s), not judged, listed in ${trafficFiles.coverage} ` +
        '(those to the API are client findings)',
    );
  if (incomplete !== undefined) extra.push(`  incomplete: ${incomplete}`);
  for (const entry of options.skipped.slice(0, 5))
    extra.push(`  not an exchange: ${entry.file} entry ${entry.entry}: ${entry.why}`);
  for (const error of writeErrors) extra.push(`  not written: ${error}`);
  extra.push(`  traffic coverage: ${join(options.outputDir, trafficFiles.coverage)}`);
  const [pipelineFirst = '', ...rest] = reports.summary;
  const serverFindings = reports.coverage.totals.fail;
  // The exit code is 1 because of the client alone: said first, where a reader looks for why.
  const first =
    options.failOnClient === true && clientFindings > 0 && serverFindings === 0
      ? pipelineFirst.replace(
          /^(collect-conformance: summary:) /,
          `$1 ${clientFindings} client finding(s) fail the run (--fail-on-client); `,
        )
      : pipelineFirst;
  return {
    reports,
    summary: [
      first,
      ...options.notes.map((note) => `  ${note}`),
      ...rest.slice(0, -2),
      ...extra,
      ...rest.slice(-2),
    ].map((line) => redact(line)),
    serverFindings,
    clientFindings,
    writeErrors,
  };
}
