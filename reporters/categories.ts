/**
 * Failure categories (reporters/failure-categories.json) and the classifier that puts a
 * failure message in one of them. Allure uses the same list, so the conformance matrix and
 * the Allure report never disagree on what a failure is.
 */
import { readFileSync } from 'node:fs';

export type FailureCategoryId =
  | 'authentication'
  | 'non-conformance-status'
  | 'non-conformance-schema'
  | 'non-conformance-value'
  | 'non-conformance-content-type'
  | 'non-conformance-other'
  | 'target-unavailable'
  | 'rate-limited'
  | 'suite-error';

export interface FailureCategory {
  id: FailureCategoryId;
  name: string;
  description: string;
  /** Allure statuses the category applies to. */
  matchedStatuses: Array<'failed' | 'broken'>;
  /** Absent: any message (the last, catch-all category). */
  messageRegex?: string;
}

export const categoriesFile = new URL('./failure-categories.json', import.meta.url);

export const failureCategories: readonly FailureCategory[] = (
  JSON.parse(readFileSync(categoriesFile, 'utf8')) as { categories: FailureCategory[] }
).categories;

const compiled = failureCategories.map((category) => ({
  category,
  pattern: category.messageRegex === undefined ? undefined : new RegExp(category.messageRegex),
}));

/** The first category whose pattern matches the message (the catch-all "suite error" otherwise). */
export function classifyFailure(message: string): FailureCategory {
  for (const { category, pattern } of compiled) {
    if (pattern === undefined || pattern.test(message)) return category;
  }
  // The JSON ends in a catch-all; reaching here means someone removed it.
  throw new Error('reporters/failure-categories.json has no catch-all category');
}

/** True for the categories that are a verdict on the target (it broke a rule), not on the run. */
export function isNonConformance(id: FailureCategoryId): boolean {
  return id.startsWith('non-conformance') || id === 'authentication';
}
