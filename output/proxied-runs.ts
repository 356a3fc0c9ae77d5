/**
 * The runs of the suite whose target is the proxy (`collect-conformance proxy -- npm run conformance`),
 * as they tell the proxy: the proxy gives its command the path of a file in
 * COLLECT_CONFORMANCE_PROXY_RUNS, and a run whose base address is the proxy's
 * (COLLECT_CONFORMANCE_PROXY_URL) notes there, one JSON line, where it writes its reports. The proxy
 * then writes its own where they replace none of the run's, and its summary says that the client,
 * and so every client finding, is the suite itself.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The variable a command started by the proxy finds the proxy's base address in: a public interface. */
export const proxyUrlVariable = 'COLLECT_CONFORMANCE_PROXY_URL';
/** The variable naming the file where the suite's runs through the proxy note where their reports are. */
export const proxiedRunsVariable = 'COLLECT_CONFORMANCE_PROXY_RUNS';

/** Where a run of the suite writes its reports (absolute paths). */
export interface ProxiedRun {
  outputDir: string;
  allureResultsDir: string;
}

const withoutSlash = (url: string): string => url.replace(/\/+$/, '');

/**
 * Notes a run in the proxy's file when the run's target is the proxy that started it; otherwise does nothing. The
 * note is a courtesy to the proxy: a file that cannot be written costs the run nothing.
 */
export function noteProxiedRun(env: NodeJS.ProcessEnv, baseUrl: string, run: ProxiedRun): void {
  const file = env[proxiedRunsVariable];
  const proxyUrl = env[proxyUrlVariable];
  if (!file || !proxyUrl || withoutSlash(baseUrl) !== withoutSlash(proxyUrl)) return;
  try {
    appendFileSync(
      file,
      `${JSON.stringify({ outputDir: resolve(run.outputDir), allureResultsDir: resolve(run.allureResultsDir) })}\n`,
    );
  } catch {
    // The proxy then reports as if its client were any other.
  }
}

/** The runs noted in the file, each once; none when the file is missing or unreadable. */
export function proxiedRuns(file: string): ProxiedRun[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const runs = new Map<string, ProxiedRun>();
  for (const line of text.split('\n')) {
    try {
      const run = JSON.parse(line) as Partial<ProxiedRun>;
      if (typeof run.outputDir === 'string' && typeof run.allureResultsDir === 'string')
        runs.set(`${run.outputDir}\n${run.allureResultsDir}`, {
          outputDir: run.outputDir,
          allureResultsDir: run.allureResultsDir,
        });
    } catch {
      // A line cut short (a run killed while it wrote): the others stand.
    }
  }
  return [...runs.values()];
}

/**
 * Where the proxy writes its reports so that they replace none of its command's runs: its own output directory,
 * unless a run wrote there, then its `proxy/` folder; its Allure results likewise.
 */
export function proxyReportPlaces(own: ProxiedRun, runs: readonly ProxiedRun[]): ProxiedRun & { moved: boolean } {
  const outputDir = resolve(own.outputDir);
  const allureResultsDir = resolve(own.allureResultsDir);
  const taken = new Set(runs.flatMap((run) => [resolve(run.outputDir), resolve(run.allureResultsDir)]));
  if (!taken.has(outputDir) && !taken.has(allureResultsDir)) return { outputDir, allureResultsDir, moved: false };
  const moved = taken.has(outputDir) ? resolve(outputDir, 'proxy') : outputDir;
  return {
    outputDir: moved,
    allureResultsDir: taken.has(allureResultsDir) ? resolve(moved, 'allure-results') : allureResultsDir,
    moved: true,
  };
}
