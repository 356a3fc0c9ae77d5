/**
 * npm run profile: where a default conformance run spends its CPU time, per process.
 *
 * Runs `npm run conformance` with PCS_CPU_PROFILE (cli/run.ts: the runner, which hosts the
 * embedded mock and the reporters, and each Playwright worker write a V8 CPU profile), then
 * prints, for the runner and for the workers together, the functions with the most self time
 * and the files (node_modules packages grouped) with the most. The profiles stay in
 * ${PCS_OUTPUT_DIR:-reports}/cpu-profile for Chrome DevTools or speedscope.
 *
 *   npm run profile                        # the default run
 *   npm run profile -- --top 40            # more rows
 *   PCS_RUNS=1000 npm run profile          # a property-heavy run
 *
 * Figures are printed, never asserted. A profile holds function names and times, never the key.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const outputDir = resolve(root, process.env.PCS_OUTPUT_DIR ?? 'reports');
const profileDir = resolve(outputDir, 'cpu-profile');

/** Where a frame comes from: a package under node_modules, a file of the suite, or Node/V8 itself. */
export function frameOrigin(url: string): string {
  if (url === '') return '(V8, native)';
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packageMatch) return `package ${packageMatch[1]}`;
  if (url.startsWith('node:')) return 'node internals';
  const local = url.replace(/^file:\/\//, '');
  return local.startsWith(root) ? local.slice(root.length) : local;
}

/** Self time (microseconds) per function and per origin, summed over profiles. */
export function selfTimes(profiles: CpuProfile[]): {
  functions: Map<string, number>;
  origins: Map<string, number>;
  total: number;
} {
  const functions = new Map<string, number>();
  const origins = new Map<string, number>();
  let total = 0;
  for (const profile of profiles) {
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    profile.samples.forEach((id, index) => {
      const node = byId.get(id);
      const delta = profile.timeDeltas[index] ?? 0;
      if (!node || node.callFrame.functionName === '(idle)') return;
      total += delta;
      const origin = frameOrigin(node.callFrame.url);
      const name = `${node.callFrame.functionName || '(anonymous)'}  ${origin}:${node.callFrame.lineNumber + 1}`;
      functions.set(name, (functions.get(name) ?? 0) + delta);
      origins.set(origin, (origins.get(origin) ?? 0) + delta);
    });
  }
  return { functions, origins, total };
}

function table(title: string, times: Map<string, number>, total: number, top: number): string[] {
  const rows = [...times].sort((a, b) => b[1] - a[1]).slice(0, top);
  return [
    title,
    ...rows.map(
      ([name, us]) =>
        `  ${(us / 1000).toFixed(0).padStart(7)} ms ` +
        `${((100 * us) / Math.max(1, total)).toFixed(1).padStart(5)} %  ${name}`,
    ),
  ];
}

function main(): number {
  const topIndex = process.argv.indexOf('--top');
  const top = topIndex > 0 ? Number(process.argv[topIndex + 1]) || 25 : 25;
  rmSync(profileDir, { recursive: true, force: true });
  process.stdout.write(`profile: npm run conformance with PCS_CPU_PROFILE=${profileDir}\n`);
  const run = spawnSync('npm', ['run', '--silent', 'conformance', '--', '--reporter', 'dot'], {
    cwd: root,
    env: { ...process.env, PCS_CPU_PROFILE: profileDir },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (!existsSync(profileDir)) {
    process.stderr.write('profile: no profile was written\n');
    return 1;
  }
  const files = readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile'));
  const profiles = files.map((name) => ({
    name,
    profile: JSON.parse(readFileSync(resolve(profileDir, name), 'utf8')) as CpuProfile,
  }));
  // Each process writes one profile per thread: its main thread, and the thread of the module
  // loader hooks (Playwright's and tsx's TypeScript loading). Told apart by the code they ran.
  const ran =
    (pattern: RegExp) =>
    ({ profile }: { profile: CpuProfile }) =>
      profile.nodes.some((node) => pattern.test(node.callFrame.url));
  const isWorker = ran(/playwright\/lib\/worker\/workerProcessEntry/);
  const isRunner = (entry: { profile: CpuProfile }) =>
    !isWorker(entry) && ran(/playwright\/lib\/runner\/index\.js/)(entry);
  const isLoader = (entry: { profile: CpuProfile }) =>
    !isWorker(entry) && !isRunner(entry) && ran(/esmLoader|tsx\/dist/)(entry);
  const groups: Array<[string, CpuProfile[]]> = [
    ['runner (embedded mock, reporters)', profiles.filter(isRunner).map((entry) => entry.profile)],
    ['workers (tests, generation, checks, clients)', profiles.filter(isWorker).map((entry) => entry.profile)],
    [
      'module loader threads (TypeScript loading, runner and workers)',
      profiles.filter(isLoader).map((entry) => entry.profile),
    ],
  ];
  for (const [title, group] of groups) {
    const { functions, origins, total } = selfTimes(group);
    process.stdout.write(
      `\n${title}: ${group.length} profile(s), ${(total / 1000).toFixed(0)} ms of CPU (idle excluded)\n`,
    );
    process.stdout.write(`${table('  by origin:', origins, total, Math.min(top, 15)).join('\n')}\n`);
    process.stdout.write(`${table('  by function (self time):', functions, total, top).join('\n')}\n`);
  }
  process.stdout.write(
    `\nprofiles: ${profileDir} (${files.length} files; open one in Chrome DevTools > Performance, or speedscope)\n`,
  );
  return run.status ?? 1;
}

process.exit(main());
