/**
 * The Allure labels of a test, from the rules it covers (epic = resource, feature = operation, story =
 * rule, severity from the rule's kind), a link to the rule's section of the reference and the rule as the
 * description. Requests and responses are attached per step by suite/api-client.ts, masked.
 */
import type { TestInfo } from '@playwright/test';
import * as allure from 'allure-js-commons';
import { operation } from '../contract/operations.ts';
import { isRuleId, rule, type Rule } from '../contract/rules.ts';
import type { VerdictRecord } from '../judgment/verdict-record.ts';
import {
  featureName,
  ruleSectionLink,
  ruleStory,
  severityOf,
  strictLabel,
  testOperations,
} from '../judgment/rule-labels.ts';

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
