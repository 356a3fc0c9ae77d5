/**
 * How Allure itself files a failure: the first category of reporters/failure-categories.json whose
 * messageRegex matches the result's message (the suite gives Allure the list; Allure does the
 * matching). The tests use it to check that Allure files each failure where the records put it.
 */
import { type FailureCategory, failureCategories } from '../../reporters/categories.ts';

const compiled = failureCategories.map((category) => ({
  category,
  pattern: category.messageRegex === undefined ? undefined : new RegExp(category.messageRegex),
}));

export function allureCategoryOf(message: string): FailureCategory {
  const found = compiled.find(({ pattern }) => pattern === undefined || pattern.test(message));
  if (found === undefined) throw new Error('reporters/failure-categories.json has no catch-all category');
  return found.category;
}
