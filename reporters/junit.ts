/**
 * JUnit XML from verdict records, for CI: one <testcase> per case (a test of the suite, or a
 * group of judged exchanges), its outcome from its records: a <failure> for a rule the target
 * broke (its message rendered from the record, with the failing exchange, masked), an <error>
 * for what decided nothing (the target unavailable or rate limited, an error of the suite), a
 * <skipped message> saying why a rule was not checked. Test suites group cases by file. A failure's
 * properties name its cause and, when another case met that cause first, that case ("same cause as"): the
 * grouping adds to the failures, every one of which stays a <failure>.
 */
import { redact } from '../settings/secrets.ts';
import { headline, renderVerdict } from '../judgment/verdict-message.ts';
import { isUndecided, type VerdictRecord } from '../judgment/verdict-record.ts';
import { categoryOf } from './categories.ts';
import type { Cause } from './causes.ts';
import { brokenRules, type TestRecord } from './conformance-model.ts';

/** XML 1.0 text: markup escaped, and the characters XML cannot hold at all dropped. */
export function xmlText(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const attribute = (value: string): string => xmlText(value).replace(/\n/g, '&#10;');

interface Verdictless {
  element: 'failure' | 'error' | 'skipped' | undefined;
  message: string;
  type: string;
  body: string;
}

/** What a case's <testcase> holds beyond its name: a failure, an error, a skip, or nothing. */
function outcomeOfCase(test: TestRecord, causes: readonly Cause[]): Verdictless {
  const broken = test.verdicts.filter((record) => record.kind === 'broken');
  if (broken.length > 0) {
    const first = broken[0]!;
    const body = broken
      .map((record) => [renderVerdict(record), record.exchange?.transcript ?? ''].filter(Boolean).join('\n\n'))
      .join('\n\n');
    // The message leads with the cause, so that a CI page of failures reads as a list of defects.
    const cause = causes.find((candidate) => candidate.records.includes(first));
    const message = cause === undefined ? headline(first) : `cause ${cause.id}: ${cause.title}; ${headline(first)}`;
    return { element: 'failure', message, type: categoryOf(first).id, body };
  }
  if (test.outcome === 'failed') {
    const undecided: VerdictRecord | undefined = test.verdicts.find(isUndecided);
    const reason = undecided?.reason ?? test.error ?? 'the test failed without a verdict';
    const type = categoryOf(undecided ?? { rule: '', kind: 'suite-error', violations: [] }).id;
    return { element: 'error', message: reason.split('\n', 1)[0] ?? '', type, body: test.error ?? reason };
  }
  if (test.outcome === 'skipped') {
    const why = test.verdicts.find((record) => record.reason !== undefined);
    const message =
      why?.kind === 'blocked' && why.blockedBy !== undefined
        ? `blocked: ${why.blockedBy} failed first (${why.reason ?? ''})`
        : (why?.reason ?? test.error ?? 'skipped');
    return { element: 'skipped', message, type: why?.kind ?? 'skipped', body: '' };
  }
  return { element: undefined, message: '', type: '', body: '' };
}

/** The file part of a case's location (tests/conformance/x.spec.ts:12 → tests/conformance/x.spec.ts). */
const fileOf = (location: string): string => location.replace(/:\d+(:\d+)?$/, '');

export interface JUnitOptions {
  /** The name of the whole report (testsuites). */
  name: string;
  /** The causes of the broken rules: a first test suite holds one failing test case each. */
  causes?: readonly Cause[];
  /** Seconds each case took, by title, when known. */
  durations?: ReadonlyMap<string, number>;
}

/** The cause a failed case broke first, and the first case of the report that met it when that is another. */
function causeOfCase(test: TestRecord, causes: readonly Cause[]): { cause: Cause; sameAs?: string } | undefined {
  const first = test.verdicts.find((record) => record.kind === 'broken');
  const cause = first === undefined ? undefined : causes.find((candidate) => candidate.records.includes(first));
  if (cause === undefined) return undefined;
  const leader = cause.tests[0];
  return leader !== undefined && leader !== test.title ? { cause, sameAs: leader } : { cause };
}

export function renderJUnit(cases: readonly TestRecord[], options: JUnitOptions): string {
  const causes = options.causes ?? [];
  // The tests Playwright counts; a case outside them (the cleanup) only when it failed, so that CI sees it.
  const tests = cases.filter((test) => test.outsideTests !== true || test.outcome === 'failed');
  const files = new Map<string, TestRecord[]>();
  for (const test of tests) files.set(fileOf(test.location), [...(files.get(fileOf(test.location)) ?? []), test]);
  const count = (cases: readonly TestRecord[], element: Verdictless['element']): number =>
    cases.filter((test) => outcomeOfCase(test, causes).element === element).length;
  const seconds = (test: TestRecord): number => options.durations?.get(test.title) ?? 0;
  const total = (cases: readonly TestRecord[]): string =>
    cases.reduce((sum, test) => sum + seconds(test), 0).toFixed(3);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${attribute(options.name)}" tests="${tests.length}" failures="${count(tests, 'failure')}" ` +
      `errors="${count(tests, 'error')}" skipped="${count(tests, 'skipped')}" time="${total(tests)}">`,
  ];
  for (const [file, cases] of files) {
    lines.push(
      `<testsuite name="${attribute(file)}" tests="${cases.length}" failures="${count(cases, 'failure')}" ` +
        `errors="${count(cases, 'error')}" skipped="${count(cases, 'skipped')}" time="${total(cases)}">`,
    );
    for (const test of cases) {
      const outcome = outcomeOfCase(test, causes);
      lines.push(
        `<testcase name="${attribute(test.title)}" classname="${attribute(file)}" time="${seconds(test).toFixed(3)}">`,
      );
      const rules = [...new Set([...test.rules, ...brokenRules(test)])];
      const grouped = causeOfCase(test, causes);
      const properties: Array<[string, string]> = [
        ...rules.map((rule): [string, string] => ['rule', rule]),
        ...(grouped === undefined ? [] : [['cause', grouped.cause.id] as [string, string]]),
        ...(grouped?.sameAs === undefined ? [] : [['same cause as', grouped.sameAs] as [string, string]]),
      ];
      if (properties.length > 0) {
        lines.push('<properties>');
        for (const [name, value] of properties)
          lines.push(`<property name="${attribute(name)}" value="${attribute(value)}"/>`);
        lines.push('</properties>');
      }
      if (outcome.element === 'skipped') lines.push(`<skipped message="${attribute(outcome.message)}"/>`);
      else if (outcome.element !== undefined)
        lines.push(
          `<${outcome.element} message="${attribute(outcome.message)}" type="${attribute(outcome.type)}">` +
            `${xmlText(outcome.body)}</${outcome.element}>`,
        );
      const lenient = test.verdicts.filter((record) => record.kind === 'lenient');
      if (lenient.length > 0) {
        const notes = lenient.map((record) => `lenient pass of ${record.rule}: ${record.lenient ?? ''}`);
        lines.push(`<system-out>${xmlText(notes.join('\n'))}</system-out>`);
      }
      lines.push('</testcase>');
    }
    lines.push('</testsuite>');
  }
  lines.push('</testsuites>', '');
  return redact(lines.join('\n'));
}
