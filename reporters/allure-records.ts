/**
 * Allure results written from cases of verdict records alone, without a test runner: one result
 * per case (for traffic: an operation and a rule), filed under resource > operation > rule as
 * the suite's own results are, its status from its records, the message of its first broken
 * record, the failing exchanges attached (masked), the causes of the run in the report's
 * metadata and categories, as reporters/allure-reporter.ts does for a run.
 */
import { randomUUID } from 'node:crypto';
import { ContentType, Stage, Status } from 'allure-js-commons';
import type { Category } from 'allure-js-commons/sdk';
import { ReporterRuntime } from 'allure-js-commons/sdk/reporter';
import { isRuleId, rule } from '../contract/rules.ts';
import { operation, operations, type OperationId } from '../contract/operations.ts';
import { redact } from '../settings/secrets.ts';
import { featureName, ruleStory, severityOf } from '../judgment/rule-labels.ts';
import { renderVerdict } from '../judgment/verdict-message.ts';
import { UnsyncedWriter } from './allure-writer.ts';
import { categorisedMessage } from './allure-categories.ts';
import { categoryOfRecords } from './categories.ts';
import { causeLine, causesOf, type Cause } from './causes.ts';
import type { TestRecord } from './conformance-model.ts';

const isOperation = (id: string | undefined): id is OperationId =>
  id !== undefined && operations.some((entry) => entry.id === id);

function statusOf(test: TestRecord): Status {
  if (test.verdicts.some((record) => record.kind === 'broken')) return Status.FAILED;
  if (test.outcome === 'failed') return Status.BROKEN;
  if (test.outcome === 'skipped') return Status.SKIPPED;
  return Status.PASSED;
}

/** A category of the report for a cause: the failures whose message names one of its ids (verdict-message.ts). */
export function causeCategory(cause: Cause): Category {
  return {
    name: redact(`Cause ${cause.id}: ${cause.title} (breaks ${cause.rules.join(', ')})`),
    messageRegex: `[\\s\\S]*cause: [^\\n]*(${cause.ids.join('|')})[\\s\\S]*`,
    matchedStatuses: [Status.FAILED, Status.BROKEN],
  };
}

/** Writes one Allure result per case into `resultsDir`, with the environment and the causes' categories. */
export function writeAllureResults(
  resultsDir: string,
  cases: readonly TestRecord[],
  environment: Record<string, string>,
  categories: readonly Category[] = [],
): void {
  const writer = new UnsyncedWriter(resultsDir);
  const runtime = new ReporterRuntime({ writer });
  const now = Date.now();
  for (const test of cases) {
    const ruleIds = test.rules.filter(isRuleId);
    const operationIds = [
      ...new Set(test.verdicts.map((record) => record.operation).filter((id): id is OperationId => isOperation(id))),
    ];
    const broken = test.verdicts.find((record) => record.kind === 'broken');
    const undecided = test.verdicts.find((record) => record.reason !== undefined);
    const uuid = runtime.startTest({
      uuid: randomUUID(),
      name: test.title,
      fullName: `${test.location} › ${test.title}`,
      start: now,
      labels: [
        ...[...new Set(operationIds.map((id) => operation(id).tag))].map((epic) => ({ name: 'epic', value: epic })),
        ...operationIds.map((id) => ({ name: 'feature', value: featureName(id) })),
        ...ruleIds.map((id) => ({ name: 'story', value: ruleStory(rule(id)) })),
        { name: 'severity', value: severityOf(ruleIds.map(rule)) },
      ],
    });
    runtime.updateTest(uuid, (result) => {
      result.status = statusOf(test);
      result.stage = Stage.FINISHED;
      if (broken !== undefined) result.statusDetails = { message: renderVerdict(broken) };
      else if (undecided?.reason !== undefined) result.statusDetails = { message: redact(undecided.reason) };
      else if (test.error !== undefined) result.statusDetails = { message: redact(test.error) };
      // The failure's category, from its records, where Allure's categories look (reporters/allure-categories.ts).
      if (result.status === Status.FAILED || result.status === Status.BROKEN)
        result.statusDetails = {
          ...result.statusDetails,
          message: categorisedMessage(categoryOfRecords(test.verdicts), result.statusDetails.message),
        };
    });
    for (const [index, record] of test.verdicts.filter((found) => found.kind === 'broken').entries()) {
      const transcript = record.exchange?.transcript;
      if (transcript === undefined) continue;
      runtime.writeAttachment(uuid, null, `failing exchange ${index + 1}`, Buffer.from(redact(transcript), 'utf8'), {
        contentType: ContentType.TEXT,
      });
    }
    runtime.stopTest(uuid, { stop: now });
    runtime.writeTest(uuid);
  }
  const causes = causesOf(cases);
  const metadata: Record<string, string> = {};
  causes.forEach((cause, index) => {
    metadata[`Cause ${index + 1}`] = redact(causeLine(cause));
  });
  writer.writeEnvironmentInfo({ ...metadata, ...environment });
  writer.writeCategoriesDefinitions([...causes.map(causeCategory), ...categories]);
}
