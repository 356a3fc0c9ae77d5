/**
 * The suite's Allure reporter: a Playwright reporter that turns each test's result into an Allure
 * result through allure-js-commons' public reporter API (ReporterRuntime, from
 * allure-js-commons/sdk/reporter), written by UnsyncedWriter (reporters/allure-writer.ts: the
 * files of allure-js-commons, without an fsync per file, which would stall the embedded mock
 * that shares the runner process).
 *
 * Why not allure-playwright's reporter: it builds its writer itself, with fsync, and has no
 * option for another; replacing it meant writing into a private field, which any upgrade of
 * allure-playwright could break in a user's CI gate. allure-playwright stays what the tests'
 * allure.* calls go through (allure-js-commons loads allure-playwright/autoconfig in the
 * workers): those calls arrive here as attachments carrying runtime messages, applied to the
 * result. The results keep allure-playwright's names, ids and labels
 * (reporters/allure-test-identity.ts), so the report's history carries on across the change.
 */
import { existsSync } from 'node:fs';
import type { FullConfig, Reporter, Suite, TestCase, TestResult, TestStep } from '@playwright/test/reporter';
import { ContentType, Stage, Status, type StepResult } from 'allure-js-commons';
import { stripAnsi, type RuntimeMessage } from 'allure-js-commons/sdk';
import {
  ALLURE_RUNTIME_MESSAGE_CONTENT_TYPE,
  ReporterRuntime,
  type ReporterConfig,
} from 'allure-js-commons/sdk/reporter';
import { UnsyncedWriter } from './allure-writer.ts';
import { causeLine, causesOf } from './causes.ts';
import { causeCategory } from './allure-records.ts';
import { categorisedMessage } from './allure-categories.ts';
import { categoryOfRecords } from './categories.ts';
import type { TestRecord } from './conformance-model.ts';
import { recordsOfAttachment, sameCauseAnnotation, verdictAttachment } from '../judgment/verdict-record.ts';
import { brokenRulesOf, labelsAgreeingWithTheMatrix } from './allure-rule-labels.ts';
import { reportSteps, type PlaywrightAttachment, type StepSink } from './allure-steps.ts';
import {
  lastSuiteLabels,
  runLabels,
  stepOutcome,
  testIdentity,
  testStatus,
  testStatusDetails,
} from './allure-test-identity.ts';

export { UnsyncedWriter } from './allure-writer.ts';

export interface AllureReporterOptions extends ReporterConfig {
  /** Every Playwright step as an Allure step; default: test.step steps, and hook steps that hold some. */
  detail?: boolean;
  /** A suite label per spec file (default true; the project and describe blocks are labelled either way). */
  suiteTitle?: boolean;
}

/** What the reporter reads of a test's run (a test that never ran is reported with a made-up one). */
type RunField =
  | 'status'
  | 'error'
  | 'errors'
  | 'attachments'
  | 'steps'
  | 'stdout'
  | 'stderr'
  | 'startTime'
  | 'duration'
  | 'annotations';
type Run = Pick<TestResult, RunField | 'retry' | 'parallelIndex'>;

type Annotations = TestCase['annotations'];

const isMessage = (attachment: PlaywrightAttachment): boolean =>
  attachment.contentType === ALLURE_RUNTIME_MESSAGE_CONTENT_TYPE;

function annotationStep(name: string): StepResult {
  const empty = { parameters: [], steps: [], attachments: [], statusDetails: {} };
  return { name, status: Status.PASSED, stage: Stage.FINISHED, ...empty };
}

export default class AllureReporter implements Reporter {
  /** Allure's runtime for this run, created when the run begins. */
  allureRuntime: ReporterRuntime | undefined;
  private readonly options: AllureReporterOptions;
  private config: FullConfig | undefined;
  private suite: Suite | undefined;
  private readonly runStarted = new Date();
  /** The annotations each test declared, as it began (those it adds while running are not labels or steps). */
  private readonly declared = new Map<string, Annotations>();
  private resultsWriter: UnsyncedWriter | undefined;
  /** Each test's records, for the causes of the run. */
  private readonly cases: Array<Pick<TestRecord, 'title' | 'verdicts'>> = [];

  constructor(options: AllureReporterOptions = {}) {
    this.options = options;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.config = config;
    this.suite = suite;
    const { environmentInfo, categories, links, globalLabels, listeners } = this.options;
    this.resultsWriter = new UnsyncedWriter(this.options.resultsDir ?? './allure-results');
    this.allureRuntime = new ReporterRuntime({
      writer: this.resultsWriter,
      ...(environmentInfo && { environmentInfo }),
      ...(categories && { categories }),
      ...(links && { links }),
      ...(globalLabels && { globalLabels }),
      ...(listeners && { listeners }),
    });
  }

  onTestBegin(test: TestCase): void {
    this.declared.set(test.id, [...test.annotations]);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.writeTest(test, result, this.declared.get(test.id) ?? test.annotations);
  }

  onEnd(): void {
    // Tests that never began (the run was stopped, or ended at its failure limit) are reported as skipped.
    for (const test of this.suite?.allTests() ?? []) {
      if (this.declared.has(test.id)) continue;
      this.writeTest(test, this.notRun(), test.annotations);
    }
    // The report's front page leads with the causes: one line each in its metadata, one category each.
    const causes = causesOf(this.cases);
    const environment: Record<string, string> = {};
    causes.forEach((cause, index) => {
      environment[`Cause ${index + 1}`] = causeLine(cause);
    });
    Object.assign(environment, this.options.environmentInfo ?? {});
    this.writer().writeEnvironmentInfo(environment);
    this.writer().writeCategoriesDefinitions([...causes.map(causeCategory), ...(this.options.categories ?? [])]);
  }

  printsToStdio(): boolean {
    return false;
  }

  /** The run of a test that never began. */
  private notRun(): Run {
    const nothing = { attachments: [], steps: [], stdout: [], stderr: [], errors: [], annotations: [] };
    return { status: 'skipped', ...nothing, startTime: this.runStarted, duration: 0, retry: 0, parallelIndex: 0 };
  }

  private writer(): UnsyncedWriter {
    if (!this.resultsWriter) throw new Error('reporters/allure-reporter.ts: the run has not begun (no onBegin)');
    return this.resultsWriter;
  }

  private runtime(): ReporterRuntime {
    if (!this.allureRuntime) throw new Error('reporters/allure-reporter.ts: the run has not begun (no onBegin)');
    return this.allureRuntime;
  }

  private writeTest(test: TestCase, run: Run, declared: Annotations): void {
    const runtime = this.runtime();
    const identity = testIdentity(test, this.config, this.options.links ?? {}, declared);
    const { annotationSteps, ...fields } = identity;
    const uuid = runtime.startTest({ ...fields, start: run.startTime.getTime() });
    runtime.updateTest(uuid, (result) => {
      result.labels.push(...runLabels(test, run, this.options.suiteTitle ?? true));
      result.status = testStatus(run, test);
      result.statusDetails = testStatusDetails(run, test);
      result.stage = Stage.FINISHED;
      if (run.retry > 0) result.parameters.push({ name: 'Retry', value: String(run.retry), excluded: true });
    });
    for (const [name, chunks] of [
      ['stdout', run.stdout],
      ['stderr', run.stderr],
    ] as const) {
      if (chunks.length === 0) continue;
      const text = stripAnsi(chunks.map((chunk) => chunk.toString()).join(''));
      runtime.writeAttachment(uuid, null, name, Buffer.from(text, 'utf-8'), { contentType: ContentType.TEXT });
    }
    reportSteps(run, this.stepSink(uuid), { detail: this.options.detail ?? true, isMessage });
    // The records of a failed run: the rules it broke decide its stories (reporters/allure-rule-labels.ts).
    const attached = run.attachments.find((attachment) => attachment.contentType === verdictAttachment.contentType);
    const records = recordsOfAttachment(attached?.body);
    this.cases.push({ title: identity.fullName, verdicts: records });
    const broken = run.status === 'failed' || run.status === 'timedOut' ? brokenRulesOf(records) : [];
    const own = new Set(
      declared.filter((annotation) => annotation.type === 'rule').map((annotation) => annotation.description),
    );
    // The tests that met its causes first (suite/fixtures.ts): grouping beside the failure, never instead of it.
    const sameCauseAs = (run.annotations ?? [])
      .filter((annotation) => annotation.type === sameCauseAnnotation)
      .map((annotation) => annotation.description ?? '');
    runtime.updateTest(uuid, (result) => {
      // A failure is a failure here whatever Playwright expected of it (a harness's failuresExpected).
      if (broken.length > 0) result.status = Status.FAILED;
      if (broken.length > 0 && sameCauseAs.length > 0)
        result.parameters.push({ name: 'same cause as', value: sameCauseAs.join(', '), excluded: true });
      // A test stopped by another rule says so where its name is read, and is filed under that rule.
      if (broken.length > 0 && !broken.some((rule) => own.has(rule)))
        result.name = `${result.name} — failed on ${broken.join(', ')}, not its own rules`;
      result.labels = labelsAgreeingWithTheMatrix(lastSuiteLabels(result.labels), broken);
      // The failure's category, from its records, where Allure's categories look (reporters/allure-categories.ts).
      if (result.status === Status.FAILED || result.status === Status.BROKEN)
        result.statusDetails = {
          ...result.statusDetails,
          message: categorisedMessage(categoryOfRecords(records), result.statusDetails.message),
        };
      // The declared annotations open the test, after what its fixtures and hooks did before it.
      const afterHooks = result.steps[0]?.name === 'Before Hooks' ? 1 : 0;
      result.steps.splice(afterHooks, 0, ...annotationSteps.map(annotationStep));
    });
    runtime.stopTest(uuid, { duration: Math.max(0, run.duration) });
    runtime.writeTest(uuid);
  }

  /** Steps, attachments and runtime messages of one test, into its Allure result. */
  private stepSink(testUuid: string): StepSink {
    const runtime = this.runtime();
    return {
      start(parent: string | undefined, step: TestStep): string {
        const started = { name: step.title, start: step.startTime.getTime(), stage: Stage.RUNNING };
        const id = runtime.startStep(testUuid, parent ?? null, started);
        if (id === undefined) throw new Error(`allure-reporter: no Allure result to add the step "${step.title}" to`);
        return id;
      },
      stop(id: string, step: TestStep): void {
        const outcome = stepOutcome(step);
        runtime.updateStep(id, (result) => {
          result.status = outcome.status;
          if (outcome.statusDetails) result.statusDetails = { ...result.statusDetails, ...outcome.statusDetails };
        });
        runtime.stopStep(id, { duration: Math.max(0, step.duration) });
      },
      attach(parent: string | undefined, attachment: PlaywrightAttachment, attachedAt: Date): void {
        if (isMessage(attachment)) {
          if (!attachment.body) return;
          const message = JSON.parse(attachment.body.toString('utf-8')) as RuntimeMessage;
          if (message.type === 'step_metadata') {
            // allure.step's name and parameters, for the step the call was made in.
            if (parent !== undefined) {
              runtime.updateStep(parent, (result) => {
                if (message.data.name) result.name = message.data.name;
                result.parameters.push(...(message.data.parameters ?? []));
              });
            }
          } else {
            runtime.applyRuntimeMessages(testUuid, [message]);
          }
          return;
        }
        const onDisk = attachment.path !== undefined && existsSync(attachment.path) ? attachment.path : undefined;
        const content = attachment.body ?? onDisk;
        if (content === undefined) return;
        // Each attachment in a step of its own, named after it, where it was attached (as allure-playwright does).
        const at = attachedAt.getTime();
        const wrapper = runtime.startStep(testUuid, parent ?? null, { name: attachment.name, start: at });
        if (wrapper === undefined) return;
        runtime.stopStep(wrapper, { stop: at });
        const isTrace = attachment.name === 'trace' && attachment.contentType === 'application/zip';
        runtime.writeAttachment(testUuid, wrapper, attachment.name, content, {
          contentType: isTrace ? ContentType.PLAYWRIGHT_TRACE : attachment.contentType,
        });
      },
    };
  }
}
