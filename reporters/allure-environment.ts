/**
 * What the Allure report shows of a run beyond its tests: the environment (target, mode, versions,
 * commit, start time) and the failure categories of reporters/failure-categories.json.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Status } from 'allure-js-commons';
import type { Category, EnvironmentInfo } from 'allure-js-commons/sdk';
import { failureCategories } from './categories.ts';
import { readSettingOrDefault } from '../settings/read-setting.ts';
import { settings } from '../settings/settings.ts';
import { packageDirectory } from '../settings/module-paths.ts';

const allureStatuses: Record<'failed' | 'broken', Status> = { failed: Status.FAILED, broken: Status.BROKEN };

/** reporters/failure-categories.json in allure-playwright's format (it writes categories.json). */
export function allureCategories(): Category[] {
  return failureCategories.map((category) => ({
    name: category.name,
    description: category.description,
    matchedStatuses: category.matchedStatuses.map((status) => allureStatuses[status]),
    ...(category.messageRegex === undefined ? {} : { messageRegex: category.messageRegex }),
  }));
}

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
