/**
 * Reads Playwright's JSON report into one flat record per test and project: what the
 * mutation run needs (outcome, first line of the failure, operations the test called).
 */
import { readFileSync } from 'node:fs';

export interface TestOutcome {
  project: string;
  /** file › describe › title: identifies a test across projects. */
  id: string;
  file: string;
  title: string;
  /** Regular-expression source matching this test's grep title in any project. */
  grep: string;
  /** Tags without the leading @ (rule ids, kinds). */
  tags: string[];
  status: 'passed' | 'failed' | 'skipped';
  /** First line of the failure message, when it failed. */
  message?: string;
  /** Operations the test called (its status annotations); quiet cleanup calls are not recorded. */
  operations: string[];
}

interface JsonAnnotation {
  type: string;
  description?: string;
}

interface JsonResult {
  status: string;
  error?: { message?: string };
  errors?: Array<{ message?: string }>;
  annotations?: JsonAnnotation[];
}

interface JsonTest {
  projectName: string;
  status: string;
  annotations?: JsonAnnotation[];
  results: JsonResult[];
}

interface JsonSpec {
  title: string;
  tags?: string[];
  tests: JsonTest[];
}

interface JsonSuite {
  title: string;
  specs?: JsonSpec[];
  suites?: JsonSuite[];
}

export interface JsonReport {
  suites?: JsonSuite[];
  errors?: Array<{ message?: string }>;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Failure messages of expectRule carry ANSI colour codes from expect(); they are not part of the text.
const stripAnsi = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');

function firstLine(result: JsonResult | undefined): string | undefined {
  const message = result?.error?.message ?? result?.errors?.[0]?.message;
  if (message === undefined) return undefined;
  const lines = stripAnsi(message)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^Error:?$/.test(line));
  return lines[0]?.replace(/^Error: /, '').slice(0, 300);
}

/** From the last result, not the test's status: in mutant batches a kill is an expected failure. */
function outcomeOf(test: JsonTest): TestOutcome['status'] {
  const last = test.results[test.results.length - 1];
  if (test.status === 'skipped' || last === undefined || last.status === 'skipped') return 'skipped';
  return last.status === 'passed' ? 'passed' : 'failed';
}

export function readReport(file: string): { outcomes: TestOutcome[]; errors: string[] } {
  const report = JSON.parse(readFileSync(file, 'utf8')) as JsonReport;
  const outcomes: TestOutcome[] = [];
  const walk = (suite: JsonSuite, path: string[], fileName: string): void => {
    for (const spec of suite.specs ?? []) {
      const titlePath = [...path, spec.title];
      for (const test of spec.tests) {
        const last = test.results[test.results.length - 1];
        const annotations = [
          ...(test.annotations ?? []),
          ...test.results.flatMap((result) => result.annotations ?? []),
        ];
        const operations = [
          ...new Set(
            annotations.filter((a) => a.type === 'status' && a.description).map((a) => a.description!.split(' ')[0]!),
          ),
        ];
        const status = outcomeOf(test);
        outcomes.push({
          project: test.projectName,
          id: titlePath.join(' › '),
          file: fileName,
          title: titlePath.slice(1).join(' › '),
          // Playwright's grep title is "<project> <file> <describes> <title> <tags>" joined with spaces.
          grep: `(^| )${escapeRegExp(titlePath.join(' '))}( @|$)`,
          tags: (spec.tags ?? []).map((tag) => tag.replace(/^@/, '')),
          status,
          ...(status === 'failed' ? { message: firstLine(last) ?? `test ${test.status}` } : {}),
          operations,
        });
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...path, child.title], fileName);
  };
  for (const fileSuite of report.suites ?? []) walk(fileSuite, [fileSuite.title], fileSuite.title);
  return {
    outcomes,
    errors: (report.errors ?? []).map((error) => stripAnsi(error.message ?? 'unknown error').split('\n')[0]!),
  };
}

/** The rule id a failure message names: "<RULE-ID> (kind) violated by ..." or "precondition failed: <RULE-ID> ...". */
export function ruleOfMessage(message: string | undefined): string | undefined {
  if (message === undefined) return undefined;
  const match =
    /^(?:\w*Error: )?(?:precondition failed: )?([A-Z][A-Z0-9-]+) \((?:documented|inferred)\) violated by/.exec(message);
  return match?.[1];
}
