/**
 * The rules found broken so far in this run, shared by the workers through a file of the output
 * directory (a failed test restarts its worker, so a process's memory would not last).
 *
 * Why: a defect in a step many tests need (creating a transaction) fails each of them as a
 * precondition, and every failed test costs a worker restart; against a broken server a red run
 * cost up to nine times a green one. The first test that meets the broken rule fails with the
 * full message (the rule, the request, the curl line); a later test that needs the same rule as a
 * precondition is skipped at that point, naming the rule and the test that found it: it would not
 * have checked its own rules either (the matrix counts both as not checked).
 */
import { appendRunLine, runFilePath, runLines } from '../output/run-lines.ts';

type Env = Record<string, string | undefined>;

export const knownBrokenName = 'broken-rules.jsonl';

export function knownBrokenPath(env: Env): string {
  return runFilePath(knownBrokenName, env);
}

interface BrokenLine {
  rule: string;
  title: string;
  /** The cause keys of the violations (judgment/cause-keys.ts). */
  causes?: string[];
}

/** Records that a test found the rule broken in this run, by these causes. Never fails its caller. */
export function recordBroken(rule: string, title: string, env: Env, causes: string[] = []): void {
  const line: BrokenLine = { rule, title, ...(causes.length > 0 ? { causes } : {}) };
  appendRunLine(knownBrokenPath(env), line, env);
}

/**
 * The test that reported each of these causes first in this run, when it is another test for every one of them
 * (the file's order decides who was first, so that two tests meeting a new cause at once do not both defer to the
 * other): undefined when one of them is new, or first found by this test.
 */
export function causesReportedFirstBy(causes: readonly string[], title: string, env: Env): string[] | undefined {
  if (causes.length === 0) return undefined;
  const first = new Map<string, string>();
  for (const line of runLines<BrokenLine>(knownBrokenPath(env), env))
    for (const cause of line.causes ?? []) if (!first.has(cause)) first.set(cause, line.title);
  const reporters = causes.map((cause) => first.get(cause));
  if (reporters.some((reporter) => reporter === undefined || reporter === title)) return undefined;
  return [...new Set(reporters as string[])];
}

/** The title of another test of this run that found the rule broken, if one did. */
export function brokenEarlier(rule: string, title: string, env: Env): string | undefined {
  return runLines<BrokenLine>(knownBrokenPath(env), env).find((line) => line.rule === rule && line.title !== title)
    ?.title;
}

/** The reason a test skipped because a precondition it needs is known broken. */
export function blockedReason(rule: string, earlier: string): string {
  return (
    `blocked: precondition ${rule} is broken, as "${earlier}" found earlier in this run; ` +
    `not repeated (this test's own rules were not checked)`
  );
}
