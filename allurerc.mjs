// Allure 3 configuration for `npm run report` (cli/report.ts): one self-contained HTML
// file, tests grouped by resource > operation > rule, the suite's failure categories, and
// history kept in a JSON-lines file that survives between runs when it is kept (nightly jobs
// restore it before the report and save it after; see docs/reference/reports.md).
import { existsSync, readFileSync } from 'node:fs';
import { defineConfig } from 'allure';

const outputRoot = process.env.PCS_OUTPUT_DIR?.trim() || 'reports';
const resultsDir = process.env.ALLURE_RESULTS_DIR?.trim() || `${outputRoot}/allure-results`;
// The run's own categories, which the reporters write with its results: the causes of its failures first, then
// the failure categories, each matching the category name the reporters wrote at the head of a failure's message
// (reporters/allure-categories.ts). Results without them were not written by the suite's reporters, so no message
// carries that name: Allure's own categories then.
const runCategories = `${resultsDir}/categories.json`;
const categories = existsSync(runCategories)
  ? JSON.parse(readFileSync(runCategories, 'utf8')).map((category, index) => ({ id: `category-${index}`, ...category }))
  : [];

export default defineConfig({
  name: 'collect-conformance',
  output: process.env.ALLURE_REPORT_DIR ?? `${outputRoot}/allure-report`,
  historyPath: process.env.ALLURE_HISTORY_PATH ?? `${outputRoot}/allure-history.jsonl`,
  historyLimit: 50,
  // Allure 3 takes the Allure 2 keys (matchedStatuses, messageRegex) as they are.
  categories: categories.map(({ id, name, matchedStatuses, messageRegex }) => ({
    id,
    name,
    matchedStatuses,
    ...(messageRegex === undefined ? {} : { messageRegex }),
  })),
  plugins: {
    awesome: {
      options: {
        singleFile: true,
        reportName: 'collect-conformance: Payment Collection Service API conformance',
        reportLanguage: 'en',
        groupBy: ['epic', 'feature', 'story'],
      },
    },
  },
});
