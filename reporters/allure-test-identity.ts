/**
 * What a Playwright test is in Allure's terms: its name, full name, test case id, title path,
 * labels, links and parameters, and its status. The values are those allure-playwright gives
 * (the report's history is keyed by the test case id and the history id derived from it, so
 * that a run reported here continues the history of runs reported by allure-playwright), built
 * with allure-js-commons' public helpers.
 */
import { dirname, relative, sep } from 'node:path';
import type { FullConfig, FullProject, TestCase, TestResult, TestStep } from '@playwright/test/reporter';
import { LabelName, LinkType, Status } from 'allure-js-commons';
import type { Label, Link, Parameter, StatusDetails } from 'allure-js-commons';
import { extractMetadataFromString, getMessageAndTraceFromError, getMetadataLabel } from 'allure-js-commons/sdk';
import {
  formatLink,
  getEnvironmentLabels,
  getFallbackTestCaseIdLabel,
  getFrameworkLabel,
  getHostLabel,
  getLanguageLabel,
  getPackageLabel,
  getProjectName,
  getThreadLabel,
  md5,
  type LinkConfig,
} from 'allure-js-commons/sdk/reporter';

/** What is known of a test when it begins (its declared annotations, not those added while it runs). */
export interface TestIdentity {
  name: string;
  fullName: string;
  testCaseId: string;
  titlePath: string[];
  labels: Label[];
  links: Link[];
  parameters: Parameter[];
  description?: string;
  /** Declared annotations that are neither labels nor links, named as passed steps ("rule: TXN-CREATE-2XX"). */
  annotationSteps: string[];
}

type Annotation = TestCase['annotations'][number];

function projectOf(test: TestCase, config: FullConfig | undefined): FullProject | undefined {
  return test.parent.project() ?? config?.projects[0];
}

const posix = (path: string): string => path.split(sep).join('/');

/** Labels, links, a description or a step, from each annotation declared on the test. */
type FromAnnotations = Pick<TestIdentity, 'labels' | 'links' | 'description' | 'annotationSteps'>;

function fromAnnotations(annotations: readonly Annotation[], links: LinkConfig): FromAnnotations {
  const found: FromAnnotations = { labels: [], links: [], annotationSteps: [] };
  for (const { type, description } of annotations) {
    if (type === 'skip' || type === 'fixme') continue;
    if (type === 'issue' || type === 'tms' || type === 'test_key') {
      const linkType = type === 'issue' ? LinkType.ISSUE : LinkType.TMS;
      found.links.push(formatLink(links, { type: linkType, url: description ?? '' }));
      continue;
    }
    if (type === 'description') {
      found.description = description;
      continue;
    }
    const label = getMetadataLabel(type, description);
    if (label) found.labels.push(label);
    else found.annotationSteps.push(`${type}: ${description}`);
  }
  return found;
}

/** The identity of a test as it begins; `annotations` are the test's annotations at that moment. */
export function testIdentity(
  test: TestCase,
  config: FullConfig | undefined,
  links: LinkConfig,
  annotations: readonly Annotation[],
): TestIdentity {
  const title = extractMetadataFromString(test.title);
  const project = projectOf(test, config);
  const file = test.location.file;
  const testFilePath = relative(project?.testDir ?? dirname(file), file);
  const fileParts = testFilePath.split(sep);
  const suiteTitles = test.titlePath().slice(3, -1);
  const suitePrefix = suiteTitles.length > 0 ? `${suiteTitles.join(' ')} ` : '';
  const projectName = getProjectName(dirname(file));
  const caseBase = `${fileParts.join('/')}#${suitePrefix}${test.title}`;
  const fromDeclared = fromAnnotations(annotations, links);
  const rootDir = config?.rootDir ?? project?.testDir ?? dirname(file);
  const labels: Label[] = [
    ...title.labels,
    ...getEnvironmentLabels(),
    getLanguageLabel(),
    getFrameworkLabel('playwright'),
    getPackageLabel(testFilePath, dirname(file)),
    getFallbackTestCaseIdLabel(md5(caseBase)),
    { name: 'titlePath', value: test.parent.titlePath().join(' > ') },
    ...test.tags.map((tag) => ({ name: LabelName.TAG, value: tag.replace(/^@/, '') })),
    ...fromDeclared.labels,
  ];
  const parameters: Parameter[] = [];
  if (project?.name) parameters.push({ name: 'Project', value: project.name });
  if ((project?.repeatEach ?? 1) > 1) parameters.push({ name: 'Repetition', value: String(test.repeatEachIndex + 1) });
  const identity: TestIdentity = {
    name: title.cleanTitle,
    fullName: [posix(relative(rootDir, file)), ...test.titlePath().slice(3)].join(' › '),
    testCaseId: md5(projectName ? `${projectName}:${caseBase}` : caseBase),
    titlePath: [...(projectName ? [projectName] : []), ...fileParts, ...suiteTitles],
    labels,
    links: [...title.links, ...fromDeclared.links],
    parameters,
    annotationSteps: fromDeclared.annotationSteps,
  };
  if (fromDeclared.description !== undefined) identity.description = fromDeclared.description;
  return identity;
}

/** Labels known once the test ran: host, worker thread, and the suites (project, file, describe blocks). */
export function runLabels(test: TestCase, result: Pick<TestResult, 'parallelIndex'>, suiteTitle: boolean): Label[] {
  const [, projectTitle, fileTitle, ...describeTitles] = test.parent.titlePath();
  const labels: Label[] = [getHostLabel(), getThreadLabel(`pid-${process.pid}-worker-${result.parallelIndex}`)];
  if (projectTitle) labels.push({ name: LabelName.PARENT_SUITE, value: projectTitle });
  if (suiteTitle && fileTitle) labels.push({ name: LabelName.SUITE, value: fileTitle });
  if (describeTitles.length > 0) labels.push({ name: LabelName.SUB_SUITE, value: describeTitles.join(' > ') });
  return labels;
}

const suiteLabelNames = new Set<string>([LabelName.PARENT_SUITE, LabelName.SUITE, LabelName.SUB_SUITE]);

/** One label of each suite kind, the last given (a runtime call overrides the defaults); other labels as they are. */
export function lastSuiteLabels(labels: readonly Label[]): Label[] {
  const last = new Map<string, Label>();
  for (const label of labels) if (suiteLabelNames.has(label.name)) last.set(label.name, label);
  const kept = labels.filter((label) => !suiteLabelNames.has(label.name) || last.get(label.name) === label);
  return kept;
}

/** The test's status: skipped, broken when timed out, passed when it ended as expected, else failed. */
export function testStatus(result: Pick<TestResult, 'status'>, test: Pick<TestCase, 'expectedStatus'>): Status {
  if (result.status === 'skipped') return Status.SKIPPED;
  if (result.status === 'timedOut') return Status.BROKEN;
  return result.status === test.expectedStatus ? Status.PASSED : Status.FAILED;
}

/** What the test failed with, or why it was skipped. */
type Skippable = Pick<TestCase, 'annotations'>;

export function testStatusDetails(result: Pick<TestResult, 'error'>, test: Skippable): StatusDetails {
  if (result.error) return { ...getMessageAndTraceFromError(result.error) };
  const skip = test.annotations.find((annotation) => annotation.type === 'skip' || annotation.type === 'fixme');
  return skip?.description ? { message: skip.description } : {};
}

/** The status annotation allure-playwright's runtime puts on a step (allure.step(...) with a status). */
const stepStatusAnnotation = 'allure-js-commons:status';

/** A step's status: the one its runtime annotation names, failed when it threw, skipped when marked so, else passed. */
type Outcome = { status: Status; statusDetails?: StatusDetails };

export function stepOutcome(step: Pick<TestStep, 'error' | 'annotations'>): Outcome {
  const details = step.error ? { ...getMessageAndTraceFromError(step.error) } : undefined;
  const declared = step.annotations.find((annotation) => annotation.type === stepStatusAnnotation)?.description;
  if (declared !== undefined && (Object.values(Status) as string[]).includes(declared)) {
    return details ? { status: declared as Status, statusDetails: details } : { status: declared as Status };
  }
  if (details) return { status: Status.FAILED, statusDetails: details };
  const skip = step.annotations.find((annotation) => annotation.type === 'skip');
  if (skip?.description) return { status: Status.SKIPPED, statusDetails: { message: skip.description } };
  if (skip) return { status: Status.SKIPPED };
  return { status: Status.PASSED };
}
