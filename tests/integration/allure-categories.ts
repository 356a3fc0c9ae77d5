/**
 * How Allure itself files a failure: the first of the categories the reporters give Allure
 * (reporters/allure-categories.ts, derived from reporters/failure-categories.json) whose matcher
 * matches the result's message. The reporters decide the category from the records and write it
 * at the head of the message; the tests use this to check that Allure files each failure where the
 * records put it.
 */
import { failureCategories, type FailureCategory } from '../../reporters/categories.ts';
import { allureCategories } from '../../reporters/allure-categories.ts';

const compiled = allureCategories().map((category, index) => ({
  category: failureCategories[index]!,
  pattern: new RegExp(category.messageRegex ?? ''),
}));

export function allureCategoryOf(message: string): FailureCategory {
  const found = compiled.find(({ pattern }) => pattern.test(message));
  if (found === undefined) throw new Error(`no failure category matches this message: ${message.slice(0, 200)}`);
  return found.category;
}
