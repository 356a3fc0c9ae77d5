/**
 * The cleanup's judgments as verdict records. Global teardown deletes the customers the run left
 * (run/cleanup.ts) outside any test, so its judgments have no test to attach to: it writes them, one
 * JSON line each, to a file of the output directory, and the conformance reporter reads them as one more case
 * (reporters/cleanup-case.ts). Playwright runs global teardown before the reporters' onEnd, so the file is complete
 * when they read it; global setup removes an earlier run's file.
 */
import { operationPath } from '../contract/operations.ts';
import type { VerdictRecord } from './verdict-record.ts';
import { deletionRule, deletionViolations } from './deletion.ts';
import { appendRunLine, runFilePath, runLines } from '../output/run-lines.ts';

type Env = Record<string, string | undefined>;

export const cleanupVerdictsName = 'cleanup-verdicts.jsonl';

export function cleanupVerdictsPath(env: Env): string {
  return runFilePath(cleanupVerdictsName, env);
}

/** One deletion of the cleanup: its answer's status, or why none came. */
export type CleanupDeletion = { id: number; status: number } | { id: number; unanswered: string };

/** The record of one deletion: held (a 2xx or a 4xx), broken (a 5xx), or unavailable (no answer). */
export function deletionRecord(deletion: CleanupDeletion): VerdictRecord {
  if ('unanswered' in deletion)
    return {
      rule: deletionRule,
      kind: 'unavailable',
      operation: 'deleteCustomer',
      violations: [],
      reason: deletion.unanswered,
    };
  const path = operationPath('deleteCustomer', { id: deletion.id });
  const violations = deletionViolations(deletion.status);
  return {
    rule: deletionRule,
    kind: violations.length > 0 ? 'broken' : 'held',
    operation: 'deleteCustomer',
    exchange: { operation: 'deleteCustomer', method: 'DELETE', path, status: deletion.status },
    violations,
  };
}

/** Appends the records of the cleanup's deletions (never fails: teardown must finish). */
export function recordCleanupVerdicts(deletions: readonly CleanupDeletion[], env: Env): void {
  for (const deletion of deletions) appendRunLine(cleanupVerdictsPath(env), deletionRecord(deletion), env);
}

/** The records this run's cleanup wrote. */
export function cleanupVerdicts(env: Env): VerdictRecord[] {
  return runLines<VerdictRecord & { runId?: string | null }>(cleanupVerdictsPath(env), env).map(
    ({ runId: _runId, ...record }) => record,
  );
}
