/**
 * One flat record per test execution of a mutation run (project, test, repeat): what the run needs to
 * score it (outcome, first line of the failure, operations the test called). The run's reporter
 * (lab/mutation/run-reporter.ts) writes them as JSON lines; lab/mutation.ts reads them back.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { TestCase, TestResult } from '@playwright/test/reporter';

export interface TestOutcome {
  project: string;
  /** file › describe › title: identifies a test across projects. */
  id: string;
  /** The same, as a list. */
  titlePath: string[];
  file: string;
  title: string;
  /** Regular-expression source matching this test's grep title in any project. */
  grep: string;
  /** Tags without the leading @ (rule ids, kinds). */
  tags: string[];
  status: 'passed' | 'failed' | 'skipped';
  /** First line of the failure, when it failed. */
  message?: string;
  /** Operations the test called (its status annotations); quiet cleanup calls are not recorded. */
  operations: string[];
  /** How long it ran: the plan gives a mutant its quickest tests first. */
  durationMs: number;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Failure messages of expectRule carry ANSI colour codes from expect(); they are not part of the text.
const stripAnsi = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');

function firstLine(message: string | undefined): string | undefined {
  if (message === undefined) return undefined;
  const lines = stripAnsi(message)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^Error:?$/.test(line));
  return lines[0]?.replace(/^Error: /, '').slice(0, 300);
}

/** Playwright's grep title is "<project> <file> <describes> <title> <tags>" joined with spaces. */
export const grepOf = (titlePath: readonly string[]): string => `(^| )${escapeRegExp(titlePath.join(' '))}( @|$)`;

/** A test's title path below its project: file, describes, title. */
export const testIdOf = (test: TestCase): string[] => test.titlePath().slice(2);

/** From the result, not the test's status: in mutant batches a kill is an expected failure. */
function statusOf(result: TestResult): TestOutcome['status'] {
  if (result.status === 'skipped') return 'skipped';
  return result.status === 'passed' ? 'passed' : 'failed';
}

export function outcomeOf(test: TestCase, result: TestResult): TestOutcome {
  const titlePath = testIdOf(test);
  const annotations = [...test.annotations, ...result.annotations];
  const operations = [
    ...new Set(
      annotations.filter((a) => a.type === 'status' && a.description).map((a) => a.description!.split(' ')[0]!),
    ),
  ];
  const status = statusOf(result);
  const message = result.error?.message ?? result.errors[0]?.message;
  return {
    project: test.parent.project()?.name ?? '',
    id: titlePath.join(' › '),
    titlePath,
    file: titlePath[0] ?? '',
    title: titlePath.slice(1).join(' › '),
    grep: grepOf(titlePath),
    tags: test.tags.map((tag) => tag.replace(/^@/, '')),
    status,
    ...(status === 'failed' ? { message: firstLine(message) ?? `test ${result.status}` } : {}),
    operations,
    durationMs: result.duration,
  };
}

/** One line of the run's outcome file: an outcome, an error of the run, or its end. */
export type OutcomeLine = { outcome: TestOutcome } | { error: string } | { end: string };

export function errorLine(message: string | undefined): string {
  return stripAnsi(message ?? 'unknown error').split('\n')[0]!;
}

/** The outcomes and errors a run wrote; throws when the run did not reach its end (it crashed or was stopped). */
export function readOutcomes(file: string): { outcomes: TestOutcome[]; errors: string[] } {
  if (!existsSync(file)) throw new Error('no outcome file');
  const outcomes: TestOutcome[] = [];
  const errors: string[] = [];
  let end: string | undefined;
  for (const text of readFileSync(file, 'utf8').split('\n')) {
    if (text === '') continue;
    const line = JSON.parse(text) as OutcomeLine;
    if ('outcome' in line) outcomes.push(line.outcome);
    else if ('error' in line) errors.push(line.error);
    else end = line.end;
  }
  if (end === undefined) throw new Error('the run ended before its reporter did');
  // Failed tests are a run's expected outcome here; a run stopped before its end decided nothing about the rest.
  if (end !== 'passed' && end !== 'failed') throw new Error(`the run ended ${end}`);
  return { outcomes, errors };
}

/** The rule id a failure message names: "<RULE-ID> (kind) violated by ..." or "precondition failed: <RULE-ID> ...". */
export function ruleOfMessage(message: string | undefined): string | undefined {
  if (message === undefined) return undefined;
  const match =
    /^(?:\w*Error: )?(?:precondition failed: )?([A-Z][A-Z0-9-]+) \((?:documented|inferred)\) violated by/.exec(message);
  return match?.[1];
}
