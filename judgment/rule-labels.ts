/**
 * What a rule is called in reports: its story (id and sentence), the severity of its kind, the link to
 * its section of the reference, the operations a test of it is filed under (Allure's epic and feature),
 * and a failure's violations as a table. The suite's fixtures label tests with them, and the reporters
 * label the records of traffic the same way.
 */
import { operation, operations, type OperationId } from '../contract/operations.ts';
import { isRuleId, rule, type Rule } from '../contract/rules.ts';
import type { Violation } from './checks.ts';
import { readSetting } from '../settings/read-setting.ts';
import { settings } from '../settings/settings.ts';

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

/** The label of a test that passed only because the reference leaves an input open: --strict would fail it. */
export const strictLabel = { name: 'strict', value: 'fails' } as const;

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
