/**
 * Which of a test's Playwright steps become Allure steps, and where each attachment goes.
 *
 * Without detail (playwright.config.ts), only test.step steps are shown (each request of the
 * example tests is one), plus a "Before Hooks" or "After Hooks" step when fixtures or hooks made
 * such steps, attached something, or failed; with detail, every step but the attachments' own.
 * The steps no shown step contains are transparent: what they hold goes to the closest shown
 * ancestor, or to the test. An attachment goes where it was attached (Playwright lists it on
 * its attach step); those no step lists go to the test.
 */
import type { TestResult, TestStep } from '@playwright/test/reporter';

export type PlaywrightAttachment = TestResult['attachments'][number];

/** What the walk asks of the reporter. `parent` undefined: the test itself. */
export interface StepSink {
  /** Starts an Allure step for `step`; returns its id. */
  start(parent: string | undefined, step: TestStep): string;
  stop(id: string, step: TestStep): void;
  attach(parent: string | undefined, attachment: PlaywrightAttachment, attachedAt: Date): void;
}

export interface StepOptions {
  detail: boolean;
  /** Attachments that carry messages of Allure's runtime API rather than content (never make a step shown). */
  isMessage(attachment: PlaywrightAttachment): boolean;
}

const hookRootTitles = new Set(['Before Hooks', 'After Hooks']);

const isAttachStep = (step: TestStep): boolean => step.category === 'test.attach' || step.category === 'attach';
const isHookRoot = (step: TestStep): boolean =>
  step.category === 'hook' && step.parent === undefined && hookRootTitles.has(step.title);

function holdsContent(step: TestStep, options: StepOptions): boolean {
  return step.steps.some(
    (child) =>
      child.category === 'test.step' ||
      (isAttachStep(child) && child.attachments.some((attachment) => !options.isMessage(attachment))) ||
      holdsContent(child, options),
  );
}

function shown(step: TestStep, options: StepOptions): boolean {
  if (isAttachStep(step)) return false;
  if (options.detail || step.category === 'test.step') return true;
  return isHookRoot(step) && (step.error !== undefined || holdsContent(step, options));
}

/** Walks the steps of a test result into `sink`, in the order they ran; attachments no step lists come last. */
type StepsOfRun = Pick<TestResult, 'steps' | 'attachments' | 'startTime' | 'duration'>;

export function reportSteps(result: StepsOfRun, sink: StepSink, options: StepOptions): void {
  const placed = new Set<PlaywrightAttachment>();
  const walk = (steps: readonly TestStep[], parent: string | undefined): void => {
    for (const step of steps) {
      // Playwright's own teardown of a worker, not part of the test.
      if (step.title === 'Worker Cleanup') continue;
      if (isAttachStep(step)) {
        for (const attachment of step.attachments) {
          placed.add(attachment);
          sink.attach(parent, attachment, step.startTime);
        }
      } else if (shown(step, options)) {
        const id = sink.start(parent, step);
        walk(step.steps, id);
        sink.stop(id, step);
      } else {
        walk(step.steps, parent);
      }
    }
  };
  walk(result.steps, undefined);
  const ended = new Date(result.startTime.getTime() + Math.max(0, result.duration));
  for (const attachment of result.attachments) if (!placed.has(attachment)) sink.attach(undefined, attachment, ended);
}
