/**
 * What the Allure report shows beyond Playwright's own data: per test, labels derived from
 * the rules it covers (epic = resource, feature = operation, story = rule, severity from
 * the rule's kind), a link to the rule's section of the reference and the rule as the
 * description; per run, the environment (target, mode, versions, commit, start time) and
 * the failure categories of reporters/failure-categories.json; per failure, the violations
 * as a table.
 *
 * Requests and responses are already attached per step by support/http/client.ts, masked.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestInfo } from '@playwright/test';
import * as allure from 'allure-js-commons';
import { Status } from 'allure-js-commons';
import type { Category, EnvironmentInfo } from 'allure-js-commons/sdk';
import { operation, operations, type OperationId } from '../../contract/operations.ts';
import { isRuleId, rule, type Rule } from '../../contract/rules.ts';
import { failureCategories } from '../../reporters/categories.ts';
import type { VerdictRecord } from '../judgment/verdict-record.ts';
import type { Violation } from '../judgment/checks.ts';
import { readSetting, readSettingOrDefault } from '../lifecycle/read-setting.ts';
import { settings } from '../lifecycle/settings.ts';
import { packageDirectory } from '../lifecycle/module-paths.ts';

/**
 * Where the reference document lives; rule links point at its headings. The reference is
 * not published with the suite, so the default is its file name (PCS_REFERENCE_URL overrides).
 */
export function referenceUrl(): string {
  return readSetting(process.env, settings.referenceUrl);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** "Endpoints > 1. Delete a customer" → …#1-delete-a-customer (the deepest heading). */
export function ruleSectionLink(entry: Pick<Rule, 'section'>): { url: string; name: string } {
  const deepest = entry.section.split('>').at(-1) ?? entry.section;
  return { url: `${referenceUrl()}#${headingAnchor(deepest)}`, name: `Reference: ${entry.section}` };
}

export function ruleStory(entry: Pick<Rule, 'id' | 'text'>): string {
  const title = entry.text.length > 100 ? `${entry.text.slice(0, 99)}…` : entry.text;
  return `${entry.id}: ${title}`;
}

export function severityOf(entries: ReadonlyArray<Pick<Rule, 'kind'>>): 'critical' | 'normal' {
  return entries.some((entry) => entry.kind === 'documented') ? 'critical' : 'normal';
}

function isOperationId(id: string): id is OperationId {
  return operations.some((candidate) => candidate.id === id);
}

/**
 * The operations a test is filed under: those of its rules it actually called; all of its
 * rules' operations when it called none of them (skipped, or failed before the request);
 * what it called when it names no rule.
 */
export function testOperations(ruleIds: readonly string[], called: readonly string[]): OperationId[] {
  const entries = ruleIds.filter(isRuleId).map(rule);
  const ofRules = [...new Set(entries.flatMap((entry) => entry.operations))];
  const calledSet = new Set(called);
  const both = ofRules.filter((id) => calledSet.has(id));
  if (both.length > 0) return both;
  if (ofRules.length > 0) return ofRules;
  return [...new Set(called)].filter(isOperationId);
}

export function featureName(id: OperationId): string {
  const entry = operation(id);
  return `${id}: ${entry.method} ${entry.path}`;
}

function rulesOf(testInfo: TestInfo): Rule[] {
  const ids = testInfo.annotations
    .filter((annotation) => annotation.type === 'rule')
    .map((annotation) => annotation.description ?? '');
  return ids.filter(isRuleId).map(rule);
}

/**
 * Labels known before the test runs: story, severity, link, description (from its rules). Each
 * runtime call is a message Playwright records as a step (with a captured stack), so the labels
 * and the links go in one call each.
 */
export async function labelTestBefore(testInfo: TestInfo): Promise<void> {
  const entries = rulesOf(testInfo);
  if (entries.length === 0) return;
  await allure.labels(...entries.map((entry) => ({ name: 'story', value: ruleStory(entry) })), {
    name: 'severity',
    value: severityOf(entries),
  });
  await allure.links(...entries.map((entry) => ruleSectionLink(entry)));
  await allure.description(
    entries
      .map((entry) => `**${entry.id}** (${entry.kind}, ${entry.section}): ${entry.text}\n\n> ${entry.reference}`)
      .join('\n\n'),
  );
}

/** The label of a test that passed only because the reference leaves an input open: --strict would fail it. */
export const strictLabel = { name: 'strict', value: 'fails' } as const;

/**
 * Labels known once the test has run, from its verdict records: epic and feature from the operations
 * it called; 'strict: fails' and a tag when it passed leniently.
 */
export async function labelTestAfter(testInfo: TestInfo, records: readonly VerdictRecord[]): Promise<void> {
  const ruleIds = rulesOf(testInfo).map((entry) => entry.id);
  const called = records.flatMap((record) => (record.exchange === undefined ? [] : [record.exchange.operation]));
  const ids = testOperations(ruleIds, called);
  const labels = [
    ...[...new Set(ids.map((id) => operation(id).tag))].map((epic) => ({ name: 'epic', value: epic })),
    ...ids.map((id) => ({ name: 'feature', value: featureName(id) })),
  ];
  if (records.some((record) => record.kind === 'lenient'))
    labels.push({ ...strictLabel }, { name: 'tag', value: 'lenient' });
  if (labels.length > 0) await allure.labels(...labels);
}

function csvField(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Violations as CSV, which Allure shows as a table: location (status, header or JSON pointer), expected, actual. */
export function violationTable(violations: readonly Violation[]): string {
  const rows = [
    ['location', 'expected', 'actual'],
    ...violations.map((violation) => [violation.location, violation.expected, violation.actual]),
  ];
  return `${rows.map((row) => row.map(csvField).join(',')).join('\n')}\n`;
}

const allureStatuses: Record<'failed' | 'broken', Status> = { failed: Status.FAILED, broken: Status.BROKEN };

/** reporters/failure-categories.json in allure-playwright's format (it writes categories.json). */
export function allureCategories(): Category[] {
  return failureCategories.map((category) => ({
    name: category.name,
    description: category.description,
    matchedStatuses: category.matchedStatuses.map((status) => allureStatuses[status]),
    ...(category.messageRegex === undefined ? {} : { messageRegex: category.messageRegex }),
  }));
}

function suiteVersion(): string {
  const file = join(packageDirectory, 'package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

function gitCommit(): string {
  if (process.env.GITHUB_SHA) return process.env.GITHUB_SHA;
  try {
    // The suite's own checkout, wherever the run is started from.
    const cwd = fileURLToPath(new URL('../..', import.meta.url));
    return execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5_000,
    }).trim();
  } catch {
    return 'unknown (not a git checkout)';
  }
}

function targetDescription(): string {
  const base = process.env.PCS_BASE_URL;
  if (!base) return 'not started';
  try {
    const url = new URL(base);
    return `${url.host}${process.env.COLLECT_CONFORMANCE_EMBEDDED_MOCK === '1' ? ' (embedded reference mock)' : ''}`;
  } catch {
    return 'invalid PCS_BASE_URL';
  }
}

/**
 * The run's environment for Allure. allure-playwright writes it when the run ends, after
 * global setup has chosen the target (the embedded mock's port is known only then), so the
 * target and mode are getters read at that moment; the start time is now (configuration load).
 */
export function environmentInfo(startedAt: Date = new Date()): EnvironmentInfo {
  const info: EnvironmentInfo = {};
  const fixed = {
    'Suite version': `collect-conformance ${suiteVersion()}`,
    'Git commit': gitCommit(),
    'Node.js': process.version,
    'Start time': startedAt.toISOString(),
  };
  const late: Record<string, () => string> = {
    Target: targetDescription,
    Environment: () => readSettingOrDefault(process.env, settings.environment),
    'Run id': () => process.env.PCS_RUN_ID ?? 'unknown',
  };
  for (const [name, get] of Object.entries(late)) Object.defineProperty(info, name, { enumerable: true, get });
  Object.assign(info, fixed);
  return info;
}
