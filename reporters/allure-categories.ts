/**
 * The failure categories in Allure's terms. A failure's category is decided once, from its verdict
 * records (reporters/categories.ts); the reporters then write that category's name at the head of
 * the failure's message ("[Non-conformance: value] TXN-CREATE-ECHO (documented) violated by …"), and
 * Allure gets, for each category, a matcher of that prefix alone. Allure 2 and the classic report
 * match categories by message only (Allure 3 could match a label, Allure 2 cannot), so a literal
 * prefix the reporter itself wrote is what keeps both readers filing a failure where the records put it.
 */
import { Status } from 'allure-js-commons';
import type { Category } from 'allure-js-commons/sdk';
import { type FailureCategory, failureCategories } from './categories.ts';

const allureStatuses: Record<'failed' | 'broken', Status> = { failed: Status.FAILED, broken: Status.BROKEN };

/** What a failure's message begins with in the Allure results: its category's name, bracketed. */
export function categoryPrefix(category: Pick<FailureCategory, 'name'>): string {
  return `[${category.name}]`;
}

/** A failure's message as the Allure results hold it: led by its category (decided from its records). */
export function categorisedMessage(category: Pick<FailureCategory, 'name'>, message: string | undefined): string {
  return message === undefined || message === '' ? categoryPrefix(category) : `${categoryPrefix(category)} ${message}`;
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The message a category's failures match: its prefix, then anything ([\s\S]*, so that Allure 2's
 * whole-message match and Allure 3's search agree).
 */
export function categoryMessageRegex(category: Pick<FailureCategory, 'name'>): string {
  return `^${escapeRegex(categoryPrefix(category))}[\\s\\S]*`;
}

/** reporters/failure-categories.json in Allure's format (the reporters write it to categories.json). */
export function allureCategories(): Category[] {
  return failureCategories.map((category) => ({
    name: category.name,
    description: category.description,
    matchedStatuses: category.matchedStatuses.map((status) => allureStatuses[status]),
    messageRegex: categoryMessageRegex(category),
  }));
}
