/**
 * Failure categories (reporters/failure-categories.json), and the category of a verdict record or
 * of a test's records. Every report takes a failure's category from here, decided once from the
 * records (never from a message), so the conformance matrix, JUnit and the Allure report never
 * disagree on what a failure is.
 */
import { readFileSync } from 'node:fs';
import { violationType } from '../judgment/checks.ts';
import { isUndecided, type VerdictRecord } from '../judgment/verdict-record.ts';

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
}

export const categoriesFile = new URL('./failure-categories.json', import.meta.url);

export const failureCategories: readonly FailureCategory[] = (
  JSON.parse(readFileSync(categoriesFile, 'utf8')) as { categories: FailureCategory[] }
).categories;

const categoryById = new Map(failureCategories.map((category) => [category.id, category]));

function category(id: FailureCategoryId): FailureCategory {
  const found = categoryById.get(id);
  if (found === undefined) throw new Error(`reporters/failure-categories.json has no category ${id}`);
  return found;
}

/** The name a category is shown under. */
export function categoryName(id: FailureCategoryId): string {
  return category(id).name;
}

/** Authentication rules: a failure of theirs is an authentication failure, whatever its location. */
const authenticationRule = (id: string): boolean => id.startsWith('AUTH-') || id === 'ENV-KEY-SCOPED';

/**
 * The category of a record: an undecided record's own (target unavailable, rate limited, an error of the
 * suite); for a broken rule, authentication when it is an authentication rule or the answer was 401 (the
 * target refused the suite's key), else the kind of its violations (status first, then schema, value,
 * content type).
 */
export function categoryOf(record: Pick<VerdictRecord, 'rule' | 'kind' | 'violations' | 'exchange'>): FailureCategory {
  if (record.kind === 'unavailable') return category('target-unavailable');
  if (record.kind === 'rate-limited') return category('rate-limited');
  if (record.kind !== 'broken') return category('suite-error');
  if (authenticationRule(record.rule) || record.exchange?.status === 401) return category('authentication');
  const types = new Set(record.violations.map(violationType));
  if (types.has('status')) return category('non-conformance-status');
  if (types.has('schema')) return category('non-conformance-schema');
  if (types.has('value')) return category('non-conformance-value');
  if (types.has('content-type')) return category('non-conformance-content-type');
  return category('non-conformance-other');
}

/**
 * The category of a failed test from its records: its first broken record's, else its first undecided
 * record's (target unavailable, rate limited, an error of the suite), else an error of the suite (a
 * failure with no verdict: a time-out, a bug of the suite).
 */
export function categoryOfRecords(records: readonly VerdictRecord[]): FailureCategory {
  const broken = records.find((record) => record.kind === 'broken');
  if (broken !== undefined) return categoryOf(broken);
  const undecided = records.find(isUndecided);
  return undecided === undefined ? category('suite-error') : categoryOf(undecided);
}
