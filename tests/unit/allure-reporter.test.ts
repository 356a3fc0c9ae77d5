/**
 * The Allure reporter (reporters/allure-reporter.ts) on fake Playwright events: the test's
 * identity (allure-playwright's ids, so that the history carries on), steps shown and hidden,
 * each attachment in a step of its own where it was attached, runtime messages applied, hooks
 * shown only when they hold something, statuses, tests that never ran, and the run's files.
 * (A real run gave results identical to allure-playwright's, uuids and times aside, when the
 * reporter replaced it: passing, failing and skipped tests alike.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FullConfig, Suite, TestCase, TestResult, TestStep } from '@playwright/test/reporter';
import type { TestResult as AllureResult } from 'allure-js-commons';
import { ALLURE_RUNTIME_MESSAGE_CONTENT_TYPE } from 'allure-js-commons/sdk/reporter';
import type { Category } from 'allure-js-commons/sdk';
import AllureReporter from '../../reporters/allure-reporter.ts';
import { allureCategories } from '../../reporters/allure-categories.ts';
import { verdictAttachment, type VerdictAttachmentBody, type VerdictRecord } from '../../judgment/verdict-record.ts';
import { allureCategoryOf } from '../integration/allure-categories.ts';

// The suite's own folder: the project name (package.json) is part of the ids.
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const specFile = join(root, 'tests', 'conformance', 'balances.spec.ts');
const project = { name: 'conformance', testDir: join(root, 'tests', 'conformance'), repeatEach: 1 };
const config = { rootDir: project.testDir, projects: [project] } as unknown as FullConfig;

type Attachment = TestResult['attachments'][number];

function fakeTest(id: string, title: string, annotations: TestCase['annotations'] = []): TestCase {
  const parent = {
    project: () => project,
    titlePath: () => ['', 'conformance', 'balances.spec.ts', 'getBalance'],
  };
  return {
    id,
    title,
    tags: ['@documented'],
    annotations,
    expectedStatus: 'passed',
    repeatEachIndex: 0,
    location: { file: specFile, line: 10, column: 3 },
    parent,
    titlePath: () => ['', 'conformance', 'balances.spec.ts', 'getBalance', title],
  } as unknown as TestCase;
}

let clock = 1_000_000;
function step(title: string, category: string, children: TestStep[] = [], extra: Partial<TestStep> = {}): TestStep {
  clock += 10;
  const timing = { startTime: new Date(clock), duration: 5 };
  const made = { title, category, ...timing, steps: children, attachments: [], annotations: [], ...extra } as TestStep;
  for (const child of children) (child as { parent?: TestStep }).parent = made;
  return made;
}
const attachStep = (attachment: Attachment): TestStep =>
  step(`Attach "${attachment.name}"`, 'test.attach', [], { attachments: [attachment] });
const text = (name: string, body: string): Attachment => ({ name, contentType: 'text/plain', body: Buffer.from(body) });
const message = (value: unknown): Attachment => ({
  name: 'Allure Metadata (metadata)',
  contentType: ALLURE_RUNTIME_MESSAGE_CONTENT_TYPE,
  body: Buffer.from(JSON.stringify(value)),
});

function run(steps: TestStep[], attachments: Attachment[], extra: Partial<TestResult> = {}): TestResult {
  return {
    status: 'passed',
    steps,
    attachments,
    stdout: [],
    stderr: [],
    startTime: new Date(1_000_000),
    duration: 120,
    retry: 0,
    parallelIndex: 1,
    workerIndex: 1,
    errors: [],
    annotations: [],
    ...extra,
  } as unknown as TestResult;
}

function results(directory: string): AllureResult[] {
  return readdirSync(directory)
    .filter((name) => name.endsWith('-result.json'))
    .map((name) => JSON.parse(readFileSync(join(directory, name), 'utf8')) as AllureResult);
}

const md5 = (text: string): string => createHash('md5').update(text).digest('hex');
const label = (result: AllureResult, name: string): string[] =>
  result.labels.filter((entry) => entry.name === name).map((entry) => entry.value);

test('identity, steps, attachments where they were attached, runtime messages, hooks holding something', () => {
  const directory = mkdtempSync(join(tmpdir(), 'cc-allure-reporter-'));
  try {
    const reporter = new AllureReporter({ resultsDir: directory, detail: false, suiteTitle: false });
    const declared: TestCase['annotations'] = [
      { type: 'rule', description: 'BALANCE-2XX' },
      { type: 'issue', description: 'https://issues.example.com/1' },
    ];
    const balance = fakeTest('t1', 'an existing balance is returned', declared);
    const notRun = fakeTest('t2', 'a test the run never reached');
    reporter.onBegin(config, { allTests: () => [balance, notRun] } as unknown as Suite);
    reporter.onTestBegin(balance);
    // Added while the test runs: neither a step nor a label.
    balance.annotations.push({ type: 'status', description: 'getBalance GET /balances/1 → 200' });

    const story = { name: 'story', value: 'BALANCE-2XX: ...' };
    const renamed = { name: 'GET a balance', parameters: [{ name: 'id', value: '1' }] };
    const exchange = text('GET /balances/1 → 200', 'GET http://127.0.0.1/v1/balances/1');
    const fromHook = text('POST /customers → 201', 'created in a fixture');
    const leftover = text('error-context', 'no step lists it');
    const steps = [
      step('Before Hooks', 'hook', [
        step('Fixture "labels"', 'fixture', [attachStep(message({ type: 'metadata', data: { labels: [story] } }))]),
        step('Fixture "customer"', 'fixture', [attachStep(fromHook)]),
      ]),
      step('GET /v1/balances/1 (getBalance)', 'test.step', [
        attachStep(exchange),
        attachStep(message({ type: 'step_metadata', data: renamed })),
      ]),
      step('Expect "toSatisfyRule"', 'expect'),
      step('After Hooks', 'hook', [step('Fixture "labels"', 'fixture')]),
    ];
    const stdout = ['\u001b[2mlog line\u001b[22m\n'];
    reporter.onTestEnd(balance, run(steps, [exchange, fromHook, leftover], { stdout }));
    reporter.onEnd();

    const written = results(directory);
    assert.equal(written.length, 2);
    const result = written.find((entry) => entry.name === 'an existing balance is returned')!;
    const caseBase = 'balances.spec.ts#getBalance an existing balance is returned';
    assert.equal(result.testCaseId, md5(`collect-conformance:${caseBase}`));
    assert.deepEqual(label(result, '_fallbackTestCaseId'), [md5(caseBase)]);
    assert.equal(result.fullName, 'balances.spec.ts › getBalance › an existing balance is returned');
    assert.deepEqual(result.titlePath, ['collect-conformance', 'balances.spec.ts', 'getBalance']);
    assert.deepEqual(label(result, 'tag'), ['documented']);
    assert.deepEqual(label(result, 'parentSuite'), ['conformance']);
    assert.deepEqual(label(result, 'suite'), [], 'no suite label per file (suiteTitle: false)');
    assert.deepEqual(label(result, 'subSuite'), ['getBalance']);
    assert.deepEqual(label(result, 'story'), ['BALANCE-2XX: ...'], 'the runtime message is applied');
    assert.deepEqual(label(result, 'thread'), [`pid-${process.pid}-worker-1`]);
    assert.deepEqual(
      result.links.map((link) => link.url),
      ['https://issues.example.com/1'],
    );
    assert.deepEqual(result.parameters, [{ name: 'Project', value: 'conformance' }]);
    assert.equal(result.status, 'passed');
    assert.equal(result.stop! - result.start!, 120);

    assert.deepEqual(
      result.steps.map((entry) => entry.name),
      ['Before Hooks', 'rule: BALANCE-2XX', 'GET a balance', 'error-context'],
      'the hooks that attached something, the declared annotation, the test.step (renamed), the leftover',
    );
    const [hooks, , request, last] = result.steps;
    assert.deepEqual(
      hooks!.steps.map((entry) => entry.name),
      ['POST /customers → 201'],
    );
    assert.deepEqual(request!.parameters, [{ name: 'id', value: '1' }]);
    assert.equal(request!.status, 'passed');
    const wrapper = request!.steps[0]!;
    assert.equal(wrapper.name, 'GET /balances/1 → 200');
    const content = (source: string): string => readFileSync(join(directory, source), 'utf8');
    assert.equal(content(wrapper.attachments[0]!.source), 'GET http://127.0.0.1/v1/balances/1');
    assert.equal(last!.attachments[0]!.name, 'error-context');
    assert.equal(content(result.attachments[0]!.source), 'log line\n', 'stdout, ANSI codes removed');

    const skipped = written.find((entry) => entry.name === 'a test the run never reached')!;
    assert.equal(skipped.status, 'skipped');
    assert.ok(!readdirSync(directory).some((name) => name.endsWith('.tmp')), 'written in place, no temporary files');
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

test('statuses: a failed step and test, a time-out (broken), a retry; hooks that only failed are shown', () => {
  const directory = mkdtempSync(join(tmpdir(), 'cc-allure-reporter-'));
  try {
    const reporter = new AllureReporter({
      resultsDir: directory,
      detail: false,
      environmentInfo: { target: 'mock' },
      categories: [{ name: 'broken rule' }],
    });
    const failing = fakeTest('f1', 'a failing test');
    const slow = fakeTest('f2', 'a slow test');
    reporter.onBegin(config, { allTests: () => [failing, slow] } as unknown as Suite);
    reporter.onTestBegin(failing);
    const error = { message: 'RULE violated', stack: 'Error: RULE violated\n    at spec.ts:1' };
    const failedStep = step('POST /v1/transactions', 'test.step', [], { error });
    const cleanup = step('Fixture "cleanup"', 'fixture');
    const failedHook = step('After Hooks', 'hook', [cleanup], { error: { message: 'cleanup failed' } });
    reporter.onTestEnd(failing, run([failedStep, failedHook], [], { status: 'failed', error, retry: 1 }));
    reporter.onTestBegin(slow);
    reporter.onTestEnd(slow, run([], [], { status: 'timedOut' }));
    reporter.onEnd();

    const written = results(directory);
    const failed = written.find((entry) => entry.name === 'a failing test')!;
    assert.equal(failed.status, 'failed');
    // No verdict records: the failure is the suite's, said at the head of the message Allure's categories match.
    assert.equal(failed.statusDetails.message, '[Errors of the suite] RULE violated');
    const shown = failed.steps.map((entry) => [entry.name, entry.status]);
    assert.deepEqual(shown, [
      ['POST /v1/transactions', 'failed'],
      ['After Hooks', 'failed'],
    ]);
    const retry = failed.parameters.find((entry) => entry.name === 'Retry');
    assert.deepEqual(retry, { name: 'Retry', value: '1', excluded: true });
    const timedOut = written.find((entry) => entry.name === 'a slow test')!;
    assert.equal(timedOut.status, 'broken');
    assert.equal(timedOut.statusDetails.message, '[Errors of the suite]');
    assert.equal(readFileSync(join(directory, 'environment.properties'), 'utf8').trim(), 'target=mock');
    assert.deepEqual(JSON.parse(readFileSync(join(directory, 'categories.json'), 'utf8')), [{ name: 'broken rule' }]);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

test('a failure is filed from its verdict records, not its message: the category leads the message', () => {
  const directory = mkdtempSync(join(tmpdir(), 'cc-allure-reporter-'));
  try {
    const reporter = new AllureReporter({ resultsDir: directory, detail: false, categories: allureCategories() });
    const echo = fakeTest('c1', 'an echo broken');
    const away = fakeTest('c2', 'the target went away');
    reporter.onBegin(config, { allTests: () => [echo, away] } as unknown as Suite);
    const records = (body: VerdictAttachmentBody): Attachment => ({
      ...verdictAttachment,
      body: Buffer.from(JSON.stringify(body)),
    });
    const violation = { location: 'body /amount', expected: '100', actual: '101' };
    const brokenEcho: VerdictRecord = { rule: 'TXN-CREATE-ECHO', kind: 'broken', violations: [violation] };
    // A message that reads like another category: the record decides.
    const error = { message: 'target unavailable: says the message', stack: 'Error: target unavailable' };
    reporter.onTestBegin(echo);
    reporter.onTestEnd(echo, run([], [records({ version: 1, records: [brokenEcho] })], { status: 'failed', error }));
    const unavailable: VerdictRecord = { rule: 'X', kind: 'unavailable', violations: [], reason: 'ECONNREFUSED' };
    reporter.onTestBegin(away);
    const awayError = { message: 'ECONNREFUSED', stack: 'Error: ECONNREFUSED' };
    reporter.onTestEnd(
      away,
      run([], [records({ version: 1, records: [unavailable] })], { status: 'failed', error: awayError }),
    );
    reporter.onEnd();

    const written = results(directory);
    const messageOf = (name: string): string =>
      written.find((entry) => entry.name?.startsWith(name))!.statusDetails.message!;
    assert.equal(messageOf('an echo broken'), '[Non-conformance: value] target unavailable: says the message');
    assert.equal(allureCategoryOf(messageOf('an echo broken')).id, 'non-conformance-value');
    assert.equal(allureCategoryOf(messageOf('the target went away')).id, 'target-unavailable');
    const writtenCategories = JSON.parse(readFileSync(join(directory, 'categories.json'), 'utf8')) as Category[];
    // The cause of the broken echo first, then the failure categories.
    assert.deepEqual(
      writtenCategories.slice(1).map((category) => category.messageRegex),
      allureCategories().map((category) => category.messageRegex),
    );
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});
