/**
 * The reports of a run, from its cases and their verdict records alone: the conformance matrix,
 * the rule coverage, JUnit, the console warning for lenient passes, and the closing summary. The
 * Playwright reporter (reporters/conformance-reporter.ts) feeds it the suite's tests; anything
 * else that judges exchanges (traffic the suite did not make) feeds it its own cases, with no test
 * runner at all.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { operations } from '../contract/operations.ts';
import { rules } from '../contract/rules.ts';
import { redact } from '../settings/secrets.ts';
import {
  buildCoverage,
  buildMatrix,
  type ConformanceMatrix,
  type RuleCoverage,
  type TestRecord,
} from './conformance-model.ts';
import { renderJUnit } from './junit.ts';
import { causesOf } from './causes.ts';
import { renderCoverageMarkdown, renderMatrixMarkdown, strictWarning, type RunHeader } from './markdown.ts';
import { renderRunSummary, type SummaryPaths } from './run-summary.ts';
import type { ConfiguredIdSuspect } from '../output/configured-id-suspects.ts';

export const outputFiles = {
  matrixJson: 'conformance-matrix.json',
  matrixMarkdown: 'conformance-matrix.md',
  coverageJson: 'rule-coverage.json',
  coverageMarkdown: 'rule-coverage.md',
  junit: 'junit.xml',
} as const;

export interface Reports {
  matrix: ConformanceMatrix;
  coverage: RuleCoverage;
  /** The text of each file of outputFiles, by file name, masked. */
  files: Record<string, string>;
  /** What --strict would fail, for the console; null when nothing passed leniently. */
  warning: string | null;
  /** The closing summary's lines. */
  summary: string[];
}

export interface ReportContext {
  header: RunHeader;
  /** Where the summary says the reports are. */
  paths: SummaryPaths;
  /** The name of the JUnit report. */
  junitName: string;
  /** Seconds each case took, by title, when known. */
  durations?: ReadonlyMap<string, number>;
  /** Configured ids the target answered 404 for when the run started: said first, with what they may explain. */
  suspects?: readonly ConfiguredIdSuspect[];
}

/** The reference's operations, the matrix's columns. */
export const documentedOperations = (): string[] =>
  operations.filter((operation) => !operation.undocumented).map((operation) => operation.id);

export function buildReports(cases: readonly TestRecord[], context: ReportContext): Reports {
  const matrix = buildMatrix(rules, documentedOperations(), cases);
  const coverage = buildCoverage(rules, cases);
  const causes = causesOf(cases);
  // The causes in the JSON files name their example record rather than repeat every record.
  const causesJson = causes.map(({ records: _records, ...cause }) => cause);
  const { header } = context;
  const files: Record<string, string> = {
    [outputFiles.matrixJson]: `${JSON.stringify({ ...header, causes: causesJson, ...matrix }, null, 2)}\n`,
    [outputFiles.matrixMarkdown]: renderMatrixMarkdown(matrix, header, causes, coverage),
    [outputFiles.coverageJson]: `${JSON.stringify({ ...header, causes: causesJson, ...coverage }, null, 2)}\n`,
    [outputFiles.coverageMarkdown]: renderCoverageMarkdown(coverage, header, causes),
    [outputFiles.junit]: renderJUnit(cases, {
      name: `collect-conformance ${header.target}`,
      causes,
      ...(context.durations === undefined ? {} : { durations: context.durations }),
    }),
  };
  for (const name of Object.keys(files)) files[name] = redact(files[name]!);
  const warning = strictWarning(coverage);
  return {
    matrix,
    coverage,
    files,
    warning: warning === null ? null : redact(warning),
    summary: renderRunSummary(coverage, cases, matrix.totals, context.paths, context.suspects).map((line, index) =>
      redact(index === 0 && header.incomplete !== undefined ? `${line} (incomplete: ${header.incomplete})` : line),
    ),
  };
}

/**
 * Writes the report files into the output directory; the rule coverage last, since its presence
 * says the run's reports are complete (the exit code is read from it). With a GitHub step summary
 * file, the matrix and the coverage are appended to it.
 */
export function writeReports(outputDir: string, reports: Reports, githubStepSummary?: string): void {
  mkdirSync(outputDir, { recursive: true });
  const names = Object.keys(reports.files).filter((name) => name !== outputFiles.coverageJson);
  for (const name of [...names, outputFiles.coverageJson]) writeFileSync(join(outputDir, name), reports.files[name]!);
  if (githubStepSummary)
    appendFileSync(
      githubStepSummary,
      `${reports.files[outputFiles.matrixMarkdown]}\n${reports.files[outputFiles.coverageMarkdown]}\n`,
    );
}
