/**
 * What the Allure report shows of a run beyond its tests: the environment (target, mode, versions,
 * commit, start time). Its categories: reporters/allure-categories.ts.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EnvironmentInfo } from 'allure-js-commons/sdk';
import { readSettingOrDefault } from '../settings/read-setting.ts';
import { settings } from '../settings/settings.ts';
import { packageDirectory } from '../settings/module-paths.ts';

function suiteVersion(): string {
  const file = join(packageDirectory, 'package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

function gitCommit(): string {
  if (process.env.GITHUB_SHA) return process.env.GITHUB_SHA;
  try {
    // The suite's own checkout, wherever the run is started from.
    const cwd = fileURLToPath(new URL('..', import.meta.url));
    return execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5_000,
    }).trim();
  } catch {
    return 'unknown (not a git checkout)';
  }
}

function targetDescription(): string {
  const base = process.env.PCS_BASE_URL;
  if (!base) return 'not started';
  try {
    const url = new URL(base);
    return `${url.host}${process.env.COLLECT_CONFORMANCE_EMBEDDED_MOCK === '1' ? ' (embedded reference mock)' : ''}`;
  } catch {
    return 'invalid PCS_BASE_URL';
  }
}

/**
 * The run's environment for Allure. allure-playwright writes it when the run ends, after
 * global setup has chosen the target (the embedded mock's port is known only then), so the
 * target and mode are getters read at that moment; the start time is now (configuration load).
 */
export function environmentInfo(startedAt: Date = new Date()): EnvironmentInfo {
  const info: EnvironmentInfo = {};
  const fixed = {
    'Suite version': `collect-conformance ${suiteVersion()}`,
    'Git commit': gitCommit(),
    'Node.js': process.version,
    'Start time': startedAt.toISOString(),
  };
  const late: Record<string, () => string> = {
    Target: targetDescription,
    Environment: () => readSettingOrDefault(process.env, settings.environment),
    'Run id': () => process.env.PCS_RUN_ID ?? 'unknown',
  };
  for (const [name, get] of Object.entries(late)) Object.defineProperty(info, name, { enumerable: true, get });
  Object.assign(info, fixed);
  return info;
}
