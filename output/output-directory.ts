/**
 * The output directory (PCS_OUTPUT_DIR, --output; also ALLURE_RESULTS_DIR) made ready before
 * anything writes into it: created component by component, then proved writable. A path
 * that cannot be one is a ConfigError naming the variable, instead of a stack trace from a
 * reporter, or of Node's recursive mkdir, which loops forever on some paths
 * (mkdirSync('/proc/1/x', { recursive: true }) never returns).
 */
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError } from '../settings/config-error.ts';
import { readSetting } from '../settings/read-setting.ts';
import { settings } from '../settings/settings.ts';

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code ?? (error instanceof Error ? error.message : String(error));
}

/** Creates the directory if needed and checks that a file can be written in it; returns its absolute path. */
export function prepareOutputDirectory(path: string, variable: string): string {
  const target = resolve(path);
  // The missing components, deepest last, up to the nearest one that exists.
  const missing: string[] = [];
  let existing = target;
  for (;;) {
    let isDirectory: boolean | undefined;
    try {
      isDirectory = statSync(existing).isDirectory();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // ENOTDIR: a component above is a file; walking up names it.
      if (code !== 'ENOENT' && code !== 'ENOTDIR')
        throw new ConfigError(
          variable,
          `cannot use ${target} as the output directory (${reason(error)} on ${existing})`,
        );
    }
    if (isDirectory === false)
      throw new ConfigError(variable, `${existing} is not a directory; choose a directory for the reports`);
    if (isDirectory === true) break;
    missing.unshift(existing);
    const parent = dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  for (const component of missing) {
    try {
      mkdirSync(component);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw new ConfigError(
        variable,
        `cannot create the output directory ${target} (${reason(error)} on ${component})`,
      );
    }
  }
  const probe = join(target, `.collect-conformance-write-test-${process.pid}`);
  try {
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
  } catch (error) {
    throw new ConfigError(variable, `cannot write into the output directory ${target} (${reason(error)})`);
  }
  return target;
}

/** Where a run's reports go: PCS_OUTPUT_DIR (--output), default ./reports. */
export function outputRootOf(env: NodeJS.ProcessEnv): string {
  return readSetting(env, settings.outputDir);
}

/**
 * Where a run's raw Allure results go: ALLURE_RESULTS_DIR, by default allure-results/ inside the
 * output directory, so that every artefact of a run lives under its output directory (two runs with
 * different output directories in one checkout never share, or delete, each other's results).
 */
export function allureResultsDirOf(env: NodeJS.ProcessEnv): string {
  return env.ALLURE_RESULTS_DIR?.trim() || join(outputRootOf(env), 'allure-results');
}

/** Where a shard's blob report goes: PCS_BLOB_DIR, by default blob-report/ inside the output directory. */
export function blobDirOf(env: NodeJS.ProcessEnv): string {
  return readSetting(env, settings.blobDir) ?? join(outputRootOf(env), 'blob-report');
}
