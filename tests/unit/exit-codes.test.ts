/**
 * The exit code of a finished run (cli/run-exit-code.ts) for every mix of outcomes: a
 * non-conformance wins over an unavailable or rate-limited target and over skipped tests
 *; configuration errors and signals come first.
 *
 *   node --import tsx --test tests/unit/exit-codes.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExitCode, internalErrorLine } from '../../cli/exit-codes.ts';
import { helpText } from '../../cli/help.ts';
import { exitCodeOfRun, forgetEarlierVerdicts, nonConformanceRecorded } from '../../cli/run-exit-code.ts';

const finished = { runnerCode: 1, stoppedBy: null, nonConformance: false, targetUnavailable: false };

test('a non-conformance exits 1 whatever else happened: unavailable, rate limited, skipped', () => {
  // The transport's marker is written for a persistent 503 and for a persistent 429 alike.
  assert.equal(exitCodeOfRun({ ...finished, nonConformance: true, targetUnavailable: true }), 1);
  assert.equal(exitCodeOfRun({ ...finished, runnerCode: 3, nonConformance: true }), 1);
  // Skipped tests alone leave the runner at 0; a broken rule beside them is still 1.
  assert.equal(exitCodeOfRun({ ...finished, runnerCode: 1, nonConformance: true }), 1);
});

test('without a non-conformance: 3 for an unavailable target, 0 for a pass, 1 for a failed run', () => {
  assert.equal(exitCodeOfRun({ ...finished, targetUnavailable: true }), 3);
  assert.equal(exitCodeOfRun({ ...finished, runnerCode: 3 }), 3);
  assert.equal(exitCodeOfRun({ ...finished, runnerCode: 0 }), 0);
  // A failure that decided nothing (a suite error) still fails the gate.
  assert.equal(exitCodeOfRun({ ...finished, runnerCode: 1 }), 1);
});

test('configuration errors and signals come first', () => {
  assert.equal(exitCodeOfRun({ ...finished, runnerCode: 2, nonConformance: true }), 2);
  assert.equal(exitCodeOfRun({ ...finished, stoppedBy: 'SIGTERM', nonConformance: true }), 143);
  assert.equal(exitCodeOfRun({ ...finished, stoppedBy: 'SIGHUP', targetUnavailable: true }), 129);
  assert.equal(exitCodeOfRun({ ...finished, stoppedBy: 'SIGINT', runnerCode: 130, nonConformance: true }), 130);
});

test('a signal that reached the runner alone keeps its code; a runner killed outright gives 128 + its signal', () => {
  // run/termination.ts makes the runner exit 143 or 129 after its cleanup.
  assert.equal(exitCodeOfRun({ ...finished, runnerCode: 143, nonConformance: true }), 143);
  assert.equal(exitCodeOfRun({ ...finished, runnerCode: 129 }), 129);
  assert.equal(exitCodeOfRun({ ...finished, runnerCode: 137, runnerKilledBy: 'SIGKILL', nonConformance: true }), 137);
});

test("the rule coverage of this run is read; an earlier run's files are forgotten first", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pcs-exit-'));
  try {
    assert.equal(nonConformanceRecorded(dir), false, 'no coverage: the runner decides');
    writeFileSync(join(dir, 'rule-coverage.json'), JSON.stringify({ totals: { fail: 0, unavailable: 3 } }));
    assert.equal(nonConformanceRecorded(dir), false);
    writeFileSync(join(dir, 'rule-coverage.json'), JSON.stringify({ totals: { fail: 2, unavailable: 3 } }));
    assert.equal(nonConformanceRecorded(dir), true);
    writeFileSync(join(dir, 'target-unavailable.txt'), 'x\n');
    await forgetEarlierVerdicts(dir);
    assert.equal(existsSync(join(dir, 'rule-coverage.json')), false);
    assert.equal(existsSync(join(dir, 'target-unavailable.txt')), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the exit codes are distinct, and the internal error collides with no outcome of a run nor a signal', () => {
  const codes = Object.values(ExitCode);
  assert.equal(new Set(codes).size, codes.length);
  assert.equal(ExitCode.internal, 4);
  for (const taken of [0, 1, 2, 3, 129, 130, 137, 143]) {
    assert.notEqual(ExitCode.internal, taken);
  }
});

test("the runner's own failure is the tool's (4), not a verdict; a runner's exit 1 is decided by the reports", () => {
  // Codes Playwright's runner never gives for a run (Node's fatal exits: 7 an exception in the handler, 13 an
  // unsettled top-level await, 9 an invalid option); nothing was decided about the target.
  for (const runnerCode of [7, 9, 13, 42]) assert.equal(exitCodeOfRun({ ...finished, runnerCode }), 4, `${runnerCode}`);
  assert.equal(exitCodeOfRun({ ...finished, runnerCode: 1, runnerNotStarted: true }), 4);
  // A broken rule the reports hold still wins: the defect was seen before the runner failed.
  assert.equal(exitCodeOfRun({ ...finished, runnerCode: 7, nonConformance: true }), 1);
  assert.equal(exitCodeOfRun({ ...finished, runnerCode: 7, targetUnavailable: true }), 3);
  // Playwright's 1 (tests failed, or an error outside them) stays a failed run.
  assert.equal(exitCodeOfRun({ ...finished, runnerCode: 1 }), 1);
  // A signal still comes first.
  assert.equal(exitCodeOfRun({ ...finished, runnerCode: 7, stoppedBy: 'SIGTERM' }), 143);
});

test('an internal error is one line: the first line of its message, never a stack', () => {
  const error = new SyntaxError('Unexpected token } in JSON at position 3\n    at JSON.parse (<anonymous>)');
  const line = internalErrorLine('collect-conformance', error);
  assert.equal(line.split('\n').length, 1);
  assert.match(line, /^collect-conformance: internal error: SyntaxError: Unexpected token \} in JSON at position 3 /);
  assert.match(line, /not of the target: exit 4\)$/);
});

test('bin/collect-conformance.mjs exits with the same internal-error code when the command cannot be loaded', () => {
  // It cannot import cli/exit-codes.ts for it: loading the command is what failed.
  const bin = readFileSync(new URL('../../bin/collect-conformance.mjs', import.meta.url), 'utf8');
  assert.match(bin, new RegExp(`process\\.exit\\(${ExitCode.internal}\\);`));
  assert.match(bin, new RegExp(`not of the target: exit ${ExitCode.internal}\\)`));
});

test('every exit code is documented in --help and in the README', () => {
  const helpSection = helpText.slice(helpText.indexOf('Exit codes:'));
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const readmeSection = readme.slice(readme.indexOf('## Exit codes'), readme.indexOf('## Reports'));
  for (const [name, code] of Object.entries(ExitCode)) {
    assert.match(helpSection, new RegExp(`^ {2}${code} {2}\\S`, 'm'), `--help: ${name} (${code})`);
    assert.match(readmeSection, new RegExp(`^\\| ${code} \\| \\S`, 'm'), `README: ${name} (${code})`);
  }
});
