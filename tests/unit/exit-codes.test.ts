/**
 * The exit code of a finished run (cli/run-exit-code.ts) for every mix of outcomes: a
 * non-conformance wins over an unavailable or rate-limited target and over skipped tests
 * (issue 21, item 1); configuration errors and signals come first.
 *
 *   node --import tsx --test tests/unit/exit-codes.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exitCodeOfRun, forgetEarlierVerdicts, nonConformanceRecorded } from '../../cli/run-exit-code.ts';

const finished = { runnerCode: 1, stoppedBy: null, nonConformance: false, targetUnavailable: false };

test('a non-conformance exits 1 whatever else happened: unavailable, rate limited, skipped', () => {
  // The transport's marker is written for a persistent 503 and for a persistent 429 alike.
  assert.equal(exitCodeOfRun({ ...finished, nonConformance: true, targetUnavailable: true }), 1);
  assert.equal(exitCodeOfRun({ ...finished, runnerCode: 3, nonConformance: true }), 1);
  // Skipped tests alone leave the runner at 0; a broken rule beside them is still 1.
  assert.equal(exitCodeOfRun({ ...finished, runnerCode: 1, nonConformance: true }), 1);
});

test('without a non-conformance: 3 for an unavailable target, 0 for a pass, 1 for any other failure', () => {
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
  // support/lifecycle/termination.ts makes the runner exit 143 or 129 after its cleanup.
  assert.equal(exitCodeOfRun({ ...finished, runnerCode: 143, nonConformance: true }), 143);
  assert.equal(exitCodeOfRun({ ...finished, runnerCode: 129 }), 129);
  assert.equal(exitCodeOfRun({ ...finished, runnerCode: 137, runnerKilledBy: 'SIGKILL', nonConformance: true }), 137);
});

test("the rule coverage of this run is read; an earlier run's files are forgotten first", () => {
  const dir = mkdtempSync(join(tmpdir(), 'pcs-exit-'));
  try {
    assert.equal(nonConformanceRecorded(dir), false, 'no coverage: the runner decides');
    writeFileSync(join(dir, 'rule-coverage.json'), JSON.stringify({ totals: { fail: 0, unavailable: 3 } }));
    assert.equal(nonConformanceRecorded(dir), false);
    writeFileSync(join(dir, 'rule-coverage.json'), JSON.stringify({ totals: { fail: 2, unavailable: 3 } }));
    assert.equal(nonConformanceRecorded(dir), true);
    writeFileSync(join(dir, 'target-unavailable.txt'), 'x\n');
    forgetEarlierVerdicts(dir);
    assert.equal(existsSync(join(dir, 'rule-coverage.json')), false);
    assert.equal(existsSync(join(dir, 'target-unavailable.txt')), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
