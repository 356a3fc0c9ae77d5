/**
 * The installed command's start-up, as a user's CI pays it: the package is packed (`npm pack`,
 * which compiles dist/), installed into an empty project, and its command timed from outside,
 * each run a new process: `collect-conformance --version`, `collect-conformance rules`, and a run
 * of one test against the embedded mock, from the start of the command to the first test
 * (the run's own timeline, reports/run-timing.json) and to its exit.
 *
 * With --baseline REF the package of another commit (`git archive REF`, packed the same way) is
 * installed beside it and timed in turn, run for run (this tree's, then the baseline's), so that
 * the ratios hold when the machine's speed drifts; a baseline that ran its TypeScript through tsx
 * is also timed with tsx's transform cache off, as on a fresh CI machine.
 *
 *   npm run bench:startup                                  writes docs/measured/bench-startup.md
 *   npm run bench:startup -- --baseline 1fc50be --rounds 7
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandLineOf, writeMeasured } from './measured.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** One quick test: the first test is what the figure is about, not the suite's length. */
const oneTest = 'an existing currency is returned';

interface Installed {
  label: string;
  project: string;
  bin: string;
  env: NodeJS.ProcessEnv;
}

interface Sample {
  versionMs: number;
  rulesMs: number;
  firstTestMs: number;
  oneTestRunMs: number;
}

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
}

/** Packs the tree at `source` and installs the tarball into a new empty project under `work`. */
function install(source: string, work: string, label: string): Omit<Installed, 'env'> {
  const project = join(work, label.replace(/\W+/g, '-'));
  mkdirSync(project, { recursive: true });
  execFileSync(npm, ['pack', '--pack-destination', project], { cwd: source, stdio: 'ignore' });
  const tarball = readdirSync(project).find((file) => file.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack wrote no tarball for ${label}`);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
  execFileSync(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', `./${tarball}`], {
    cwd: project,
    stdio: 'ignore',
  });
  return {
    label,
    project,
    bin: join(project, 'node_modules', 'collect-conformance', 'bin', 'collect-conformance.mjs'),
  };
}

/** The tree of another commit, packable: its files, and this checkout's node_modules for its pack scripts. */
function checkoutOf(ref: string, work: string): string {
  const tree = join(work, 'baseline-tree');
  mkdirSync(tree, { recursive: true });
  const archive = execFileSync('git', ['archive', '--format=tar', ref], { cwd: root, maxBuffer: 512 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', tree], { input: archive });
  symlinkSync(join(root, 'node_modules'), join(tree, 'node_modules'), 'dir');
  return tree;
}

/** Wall milliseconds of one run of the installed command; throws when it fails. */
function timed(target: Installed, args: string[]): Promise<{ ms: number; started: number }> {
  return new Promise((done, fail) => {
    const started = Date.now();
    const begin = process.hrtime.bigint();
    const child = spawn(process.execPath, [target.bin, ...args], {
      cwd: target.project,
      env: target.env,
      stdio: 'ignore',
    });
    child.on('error', fail);
    child.on('exit', (code) => {
      const ms = Number(process.hrtime.bigint() - begin) / 1e6;
      if (code === 0) done({ ms, started });
      else fail(new Error(`${target.label}: collect-conformance ${args.join(' ')} exited ${code}`));
    });
  });
}

async function sample(target: Installed): Promise<Sample> {
  const version = await timed(target, ['--version']);
  const rules = await timed(target, ['rules']);
  const output = join(target.project, 'bench-reports');
  rmSync(output, { recursive: true, force: true });
  const run = await timed(target, ['--grep', oneTest, '--reporter', 'dot', '--output', output]);
  const timing = JSON.parse(readFileSync(join(output, 'run-timing.json'), 'utf8')) as { firstTestBegan?: number };
  if (timing.firstTestBegan === undefined) throw new Error(`${target.label}: the run recorded no first test`);
  return {
    versionMs: version.ms,
    rulesMs: rules.ms,
    firstTestMs: timing.firstTestBegan - run.started,
    oneTestRunMs: run.ms,
  };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const figures: Array<{ key: keyof Sample; title: string }> = [
  { key: 'versionMs', title: '`collect-conformance --version`' },
  { key: 'rulesMs', title: '`collect-conformance rules`' },
  { key: 'firstTestMs', title: 'a run against the embedded mock, to its first test' },
  { key: 'oneTestRunMs', title: 'a run of that one test, to its exit' },
];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const rounds = Number(option(args, '--rounds') ?? 5);
  const baseline = option(args, '--baseline');
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 50) throw new Error('--rounds: a whole number from 1 to 50');
  const work = mkdtempSync(join(tmpdir(), 'pcs-bench-startup-'));
  try {
    const targets: Installed[] = [{ ...install(root, work, 'this tree'), env: { ...process.env } }];
    if (baseline !== undefined) {
      const tree = checkoutOf(baseline, work);
      const base = install(tree, work, `baseline ${baseline}`);
      targets.push({ ...base, env: { ...process.env } });
      // A baseline that ran its TypeScript through tsx: on a fresh machine tsx's cache is empty.
      if (existsSync(join(base.project, 'node_modules', 'tsx'))) {
        targets.push({
          ...base,
          label: `baseline ${baseline}, tsx cache off`,
          env: { ...process.env, TSX_DISABLE_CACHE: '1' },
        });
      }
    }
    const env = (target: Installed): NodeJS.ProcessEnv => {
      const clean = Object.fromEntries(Object.entries(target.env).filter(([name]) => !name.startsWith('PCS_')));
      return { ...clean, CI: '' };
    };
    for (const target of targets) target.env = env(target);
    // One run of each first, not counted: the disk cache and tsx's own cache warm up.
    for (const target of targets) await sample(target);
    const samples = new Map<string, Sample[]>(targets.map((target) => [target.label, []]));
    for (let round = 1; round <= rounds; round += 1) {
      for (const target of targets) samples.get(target.label)!.push(await sample(target));
      process.stdout.write(`bench-startup: round ${round}/${rounds}\n`);
    }
    const ours = samples.get(targets[0]!.label)!;
    const ms = (value: number): string => `${Math.round(value)} ms`;
    const header = ['| Figure (median, min–max) |', ...targets.map((target) => ` ${target.label} |`)].join('');
    const lines = [
      `${rounds} rounds after one not counted; in each round every package in turn; wall time of a new process.`,
      '',
      header,
      `|---|${targets.map(() => '---|').join('')}`,
      ...figures.map(({ key, title }) => {
        const cells = targets.map((target) => {
          const values = samples.get(target.label)!.map((entry) => entry[key]);
          return ` ${ms(median(values))} (${ms(Math.min(...values))}–${ms(Math.max(...values))}) |`;
        });
        return `| ${title} |${cells.join('')}`;
      }),
    ];
    if (targets.length > 1) {
      lines.push('', 'Each baseline over this tree, median of the ratios of the runs of one round:', '');
      lines.push(
        `| Figure |${targets
          .slice(1)
          .map((target) => ` ${target.label} |`)
          .join('')}`,
      );
      lines.push(
        `|---|${targets
          .slice(1)
          .map(() => '---|')
          .join('')}`,
      );
      for (const { key, title } of figures) {
        const cells = targets.slice(1).map((target) => {
          const theirs = samples.get(target.label)!;
          const ratios = theirs.map((entry, index) => entry[key] / ours[index]![key]);
          return ` ${median(ratios).toFixed(2)}× |`;
        });
        lines.push(`| ${title} |${cells.join('')}`);
      }
    }
    process.stdout.write(`${lines.join('\n')}\n`);
    const file = writeMeasured({
      name: 'bench-startup',
      commandLine: commandLineOf('bench-startup', args),
      body: lines,
    });
    process.stdout.write(`bench-startup: figures written to ${file}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
