/**
 * Measured figures as Markdown files, written by the commands that measure them: docs link to
 * docs/measured/<name>.md instead of quoting numbers, so that no figure in the docs is typed
 * by hand.
 *
 * Each file starts with the command that wrote it, when, on what machine (Node version, cores,
 * CPU, platform, and its 1-minute load average when the file was written: other work on the
 * machine disturbs the figures) and at what commit, and says not to edit it by hand. A command
 * that measured only part of what it can (a subset chosen with --only or --tools) does not
 * write its file: a partial figure would replace a whole one.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { arch, availableParallelism, cpus, loadavg, platform } from 'node:os';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { impactLine, type MutationScore } from './mutation/score.ts';

export const measuredDir = fileURLToPath(new URL('../docs/measured/', import.meta.url));

/** The measured files, by file name (without .md): the npm script that writes each, and its title. */
export const measuredCommands = {
  bench: { command: 'npm run bench', title: 'Speed of the suite' },
  mutation: { command: 'npm run mutation', title: 'Mutation score' },
  'mutation-proxy': { command: 'npm run mutation -- --proxy', title: 'Mutants through the proxy' },
  'bench-peers': { command: 'npm run bench:peers', title: 'Peers side by side' },
  'bench-mock': { command: 'npm run bench:mock', title: "The reference mock's throughput" },
  'fuzz-mock': { command: 'npm run fuzz:mock', title: 'The reference mock under abuse' },
  'bench-startup': { command: 'npm run bench:startup', title: "The installed command's start-up" },
  'independent-servers': {
    command: 'npm run independent',
    title: 'The suite against independently written servers',
  },
} as const;

export type MeasuredName = keyof typeof measuredCommands;

export const measuredFile = (name: MeasuredName): string => resolve(measuredDir, `${name}.md`);

/** The commit the figures were measured at, and whether the tree had changes not committed yet. */
export function sourceLine(cwd: string = fileURLToPath(new URL('..', import.meta.url))): string {
  const git = (args: string[]): string | undefined => {
    const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
    return result.status === 0 ? result.stdout.trim() : undefined;
  };
  const commit = git(['rev-parse', '--short', 'HEAD']);
  if (commit === undefined) return 'outside a git checkout';
  const changed = git(['status', '--porcelain', '--untracked-files=no']);
  return `commit ${commit}${changed ? ' with changes not committed' : ''}`;
}

/** The machine a figure was measured on, in one line. */
export function machineLine(): string {
  const model = cpus()[0]?.model.replace(/\s+/g, ' ').trim() || 'unknown CPU';
  // On a shared machine the load says how much the figures were disturbed.
  const load = loadavg()[0]!.toFixed(1);
  const cores = availableParallelism();
  return `Node ${process.version}, ${cores} core(s) (${model}), ${platform()} ${arch()}, load average ${load}`;
}

export interface Measured {
  name: MeasuredName;
  /** The command line as run, when it had arguments (e.g. "npm run fuzz:mock -- --requests 5000"). */
  commandLine?: string;
  /** Markdown lines of the figures. */
  body: string[];
  when?: Date;
  machine?: string;
  source?: string;
}

/** The page: a header saying who wrote it, when and where, then the figures. */
export function renderMeasured(measured: Measured): string {
  const { command, title } = measuredCommands[measured.name];
  const when = (measured.when ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return [
    `# ${title}`,
    '',
    `Written by \`${measured.commandLine ?? command}\` on ${when}, on ${measured.machine ?? machineLine()}, ` +
      `${measured.source ?? sourceLine()}.`,
    '',
    `Do not edit by hand; re-run the command (\`${command}\`) to update it.`,
    '',
    ...measured.body,
    '',
  ].join('\n');
}

/** Writes docs/measured/<name>.md and returns its path relative to the working directory. */
export function writeMeasured(measured: Measured): string {
  const file = measuredFile(measured.name);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, renderMeasured(measured));
  return relative(process.cwd(), file) || file;
}

/** The command line of this process as the npm script it was started by, with its arguments. */
export function commandLineOf(name: MeasuredName, args: readonly string[] = process.argv.slice(2)): string {
  const { command } = measuredCommands[name];
  return args.length === 0 ? command : `${command} -- ${args.join(' ')}`;
}

/** The page before the command has run: no figure, and how to get one. */
export function renderStub(name: MeasuredName): string {
  const { command, title } = measuredCommands[name];
  const line = `Not measured yet: run \`${command}\`. The command writes this file; do not edit it by hand.`;
  return [`# ${title}`, '', line, ''].join('\n');
}

/** The mutation score's figures (lab/mutation.ts), from the score it also writes to reports/mutation.json. */
export function mutationFigures(score: MutationScore, runs: string): string[] {
  const { strict } = score;
  const lenient = strict.lenientVariants;
  const lenientKilled = lenient.filter((variant) => variant.killed).length;
  const byOperator = new Map<string, { total: number; killed: number; strict: number }>();
  const strictKilled = new Set(strict.killed.map((result) => result.name));
  for (const result of [...score.killed, ...score.survivors]) {
    const entry = byOperator.get(result.operator) ?? { total: 0, killed: 0, strict: 0 };
    entry.total += 1;
    if (result.killed) entry.killed += 1;
    if (strictKilled.has(result.name)) entry.strict += 1;
    byOperator.set(result.operator, entry);
  }
  const seconds = (value: number): string => `${value.toFixed(1)} s`;
  const ratio = (part: { killed: number; total: number; percent: number }): string =>
    `${part.killed} / ${part.total} (${part.percent} %)`;
  const phases =
    `reference runs ${seconds(score.phases.referenceSeconds)}, ` +
    `rule tests and variants ${seconds(score.phases.ruleTestsSeconds)}, ` +
    `covering tests ${seconds(score.phases.coveringTestsSeconds)}`;
  const passing = score.variants.length - score.falsePositives;
  const lines = [
    '| Figure | Value |',
    '|---|---|',
    `| Non-equivalent mutants killed, default mode | ${ratio(score.score)} |`,
    `| Killed with \`--strict\` | ${ratio(strict.score)}: ${strict.killed.length} / ${score.score.total} mutants, ` +
      `${lenientKilled} / ${lenient.length} lenient variants |`,
    `| Equivalent mutants (listed in the report, not counted) | ${score.equivalent.length} |`,
    `| Conforming variants that pass by default | ${passing} / ${score.variants.length} ` +
      `(false positives: ${score.falsePositives}) |`,
    `| Wall time, both modes | ${seconds(score.wallSeconds)} (${phases}) |`,
    `| Test executions | ${score.testsExecuted} |`,
    `| Variants' tests | ${impactLine(score.impact)} |`,
    `| Cases per property test | PCS_RUNS=${runs} |`,
    '',
    '## Mutants by operator',
    '',
    '| Operator | Mutants | Killed by default | Killed with `--strict` |',
    '|---|---:|---:|---:|',
    ...[...byOperator].map(([operator, n]) => `| ${operator} | ${n.total} | ${n.killed} | ${n.strict} |`),
    '',
    '## Survivors',
    '',
  ];
  const survivors = [
    ...score.survivors.map((result) => `- default mode: ${result.name} (breaks ${result.rule})`),
    ...strict.survivors.map((result) => `- \`--strict\`: ${result.name} (${result.rule})`),
    ...score.variants.filter((variant) => !variant.passed).map((variant) => `- false positive: ${variant.name}`),
  ];
  if (survivors.length > 0) lines.push(...survivors);
  else lines.push('None: every non-equivalent mutant and lenient variant is killed, every conforming variant passes.');
  lines.push(
    '',
    'The same run writes the full report, with the tests that caught each mutant:',
    '`reports/mutation.md` and `reports/mutation.json`.',
  );
  return lines;
}
