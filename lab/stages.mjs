#!/usr/bin/env node
/**
 * Runs a plan of stages: lanes side by side, the stages of a lane one after the other, and prints each
 * stage's output when it ends (so that a log reads stage by stage, not interleaved; a failed stage's output
 * after all the others, so that a log's end shows why), then every stage's time and exit code, and the wall
 * time. Exit code 1 when a stage failed (every stage still runs: one failure does not hide another), 2 for an
 * unknown plan.
 *
 *   node lab/stages.mjs test    # npm test: the project's own tests
 *   node lab/stages.mjs ci      # .ci/run after its installs: npm test's stages, the browser tests, the mutation
 *                               # score, the independent servers
 *
 * Why lanes: on two cores most stages wait as much as they compute (processes starting, servers booting,
 * timers of the tests about signals and time-outs), so two stages side by side take less than one after the
 * other. Plain JavaScript, so that it starts without a loader.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A stage: its name, the command line (run by the shell, from the checkout). */
const stage = (name, command) => ({ name, command });

/** npm test's stages, by name, so that the CI plan lays out the same commands. */
const typecheck = stage('typecheck', 'npm run --silent typecheck');
const lint = stage('lint', 'npm run --silent lint');
const unit = stage('unit tests', 'npm run --silent test:unit');
const conformance = stage('conformance against the mock', 'npm run --silent conformance');
const installedPackage = stage('installed package', 'npm run --silent test:package');
const integration = stage('integration tests', 'npm run --silent test:integration');

/**
 * The plans, lane by lane. npm test: the integration tests (the longest stage, mostly waiting on the
 * processes they start) beside everything else.
 *
 * CI: npm test's stages, the browser tests, the mutation score and the independent servers, in three lanes
 * that keep both cores busy. The separate run of the suite against the mock is left out there: the mutation
 * score begins with the same run from the sources (every test must pass, or the stage fails) and the
 * installed package's tests run it again from the compiled package, so a third run would check nothing more.
 * The browser tests first in their lane, so that they open the reports while the machine is least busy.
 */
const plans = {
  test: [[typecheck, lint, unit, conformance, installedPackage], [integration]],
  ci: [
    [typecheck, lint, unit, installedPackage, stage('mutation score', 'npm run --silent mutation')],
    [integration],
    [
      stage('browser tests', 'npm run --silent test:report'),
      stage('independent servers', 'npm run --silent independent -- --quick'),
    ],
  ],
};

const name = process.argv[2];
const plan = plans[name];
if (plan === undefined) {
  process.stderr.write(`stages: no plan "${name ?? ''}" (plans: ${Object.keys(plans).join(', ')})\n`);
  process.exit(2);
}

const started = Date.now();
const seconds = (from) => ((Date.now() - from) / 1000).toFixed(1);
const results = [];
const running = new Map();

/** A line now and then while stages run, so that a CI log shows progress (and is not cut for silence). */
const heartbeat = setInterval(() => {
  if (running.size === 0) return;
  const list = [...running].map(([title, from]) => `${title} ${seconds(from)} s`).join(', ');
  process.stdout.write(`stages: ${seconds(started)} s: running ${list}\n`);
}, 60_000);

/**
 * The processor time a stage's processes took (user + system, of every process it waited for), from bash's `times`
 * written to a file of its own: on two cores the wall time of stages side by side says little of what each costs.
 */
function cpuSeconds(file) {
  try {
    const children = readFileSync(file, 'utf8').trim().split('\n')[1] ?? '';
    const parts = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((match) => Number(match[1]) * 60 + Number(match[2]));
    return parts.length === 2 ? parts[0] + parts[1] : undefined;
  } catch {
    return undefined;
  } finally {
    rmSync(file, { force: true });
  }
}

let stageCount = 0;

function runStage({ name: title, command }) {
  const from = Date.now();
  running.set(title, from);
  const timesFile = join(tmpdir(), `stages-${process.pid}-${stageCount++}.times`);
  return new Promise((done) => {
    const out = [];
    const counted = `( ${command} ); status=$?; times > '${timesFile}'; exit $status`;
    const child = spawn('bash', ['-c', counted], { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => out.push(chunk));
    child.on('close', (code, signal) => {
      running.delete(title);
      const text = Buffer.concat(out).toString('utf8');
      const result = {
        title,
        seconds: (Date.now() - from) / 1000,
        cpu: cpuSeconds(timesFile),
        code: code ?? (signal ? `signal ${signal}` : 1),
      };
      results.push(result);
      const header =
        `\n===== ${title}: ${result.code === 0 ? 'passed' : `FAILED (exit ${result.code})`} in ` +
        `${result.seconds.toFixed(1)} s: ${command}\n`;
      const body = `${text}${text.endsWith('\n') ? '' : '\n'}`;
      // A failed stage's output is held to the end, just above the table: a CI log is often read, or kept, from
      // its end, and the reason of a failure must not sit in the middle of a passing stage's output.
      if (result.code === 0) process.stdout.write(header + body);
      else {
        process.stdout.write(`${header}(its output is printed after every stage has ended)\n`);
        result.output = header + body;
      }
      done(result);
    });
  });
}

async function runLane(lane) {
  for (const item of lane) await runStage(item);
}

// A signal to this runner reaches every stage's process (they share its process group), then the table.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
  process.on(signal, () => {
    process.stdout.write(`stages: stopped by ${signal}\n`);
    process.exitCode = 128 + ({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1 }[signal] ?? 0);
  });

await Promise.all(plan.map(runLane));
clearInterval(heartbeat);
for (const result of results) if (result.output !== undefined) process.stdout.write(result.output);
const width = Math.max(...results.map((result) => result.title.length));
process.stdout.write(`\nstages of ${name}, in the order they ended:\n`);
for (const result of results)
  process.stdout.write(
    `  ${result.title.padEnd(width)}  ${result.seconds.toFixed(1).padStart(7)} s  ` +
      `${result.cpu === undefined ? '' : `(${result.cpu.toFixed(0).padStart(4)} s of processor)  `}` +
      `${result.code === 0 ? 'passed' : `FAILED (exit ${result.code})`}\n`,
  );
const failed = results.filter((result) => result.code !== 0);
const cpuTotal = results.reduce((sum, result) => sum + (result.cpu ?? 0), 0);
process.stdout.write(
  `  ${'wall time'.padEnd(width)}  ${seconds(started).padStart(7)} s  ` +
    `(${cpuTotal.toFixed(0).padStart(4)} s of processor)  ` +
    `${failed.length === 0 ? 'every stage passed' : `${failed.length} stage(s) failed`}\n`,
);
if (process.exitCode === undefined) process.exitCode = failed.length === 0 ? 0 : 1;
