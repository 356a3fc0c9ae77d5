/**
 * The cleanup after the run as a case of the reports: the deletions global teardown made, judged for "never a 5xx"
 * under CUSTOMER-DELETE-204 (judgment/cleanup-verdicts.ts). A 5xx there is a non-conformance like any
 * other: the rule coverage shows it broken, and the run exits 1 naming it. It is no test of Playwright's, so the
 * reports do not count it among the tests (JUnit lists it only when it failed).
 */
import { cleanupVerdicts } from '../judgment/cleanup-verdicts.ts';
import { deletionRule } from '../judgment/deletion.ts';
import type { TestRecord } from './conformance-model.ts';

export const cleanupCaseTitle = 'global teardown › deleting the customers the run left';
const location = 'run/cleanup.ts';

/** The cleanup's case, or undefined when it deleted nothing (its file holds no record of this run). */
export function cleanupCase(outputDir: string, env: Record<string, string | undefined>): TestRecord | undefined {
  const records = cleanupVerdicts({ ...env, PCS_OUTPUT_DIR: outputDir });
  if (records.length === 0) return undefined;
  const source = { kind: 'test' as const, title: cleanupCaseTitle, location };
  const held = records.filter((record) => record.kind === 'held');
  const others = records.filter((record) => record.kind !== 'held');
  // Held deletions are counted in one record, as a test's sink counts them (judgment/verdict-sink.ts).
  const verdicts = [...others, ...(held.length === 0 ? [] : [{ ...held[0]!, count: held.length }])].map((record) => ({
    ...record,
    source,
  }));
  return {
    title: cleanupCaseTitle,
    location,
    rules: [deletionRule],
    outcome: others.some((record) => record.kind === 'broken') ? 'failed' : 'passed',
    verdicts,
    outsideTests: true,
  };
}
