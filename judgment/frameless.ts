/**
 * Non-conformance failures without the suite's own stack frames. Playwright prints a failure's
 * code frame from the first frame of its stack outside node_modules: for a broken rule that is a
 * line of the suite's own assertion code (expect-rule.ts, properties.ts), 10 lines that say
 * nothing about the target, under every failing test. A failure that is a verdict on the target
 * carries its message only (rule, operation, location, expected, actual, curl); errors of the
 * suite itself keep their stack.
 */
import { fileURLToPath } from 'node:url';

const suiteRoot = fileURLToPath(new URL('../', import.meta.url));

function isSuiteOrNodeFrame(site: NodeJS.CallSite): boolean {
  let file = site.getFileName() ?? '';
  if (file.startsWith('file://')) file = fileURLToPath(file);
  return file.startsWith('node:') || (file.startsWith(suiteRoot) && !file.includes('/node_modules/'));
}

/**
 * Runs an assertion whose error stack (and the stack Playwright captures for it) leaves out the
 * suite's files and Node's internals, through V8's Error.prepareStackTrace, restored afterwards.
 */
export function withoutSuiteFrames<T>(run: () => T): T {
  const previous = Error.prepareStackTrace;
  Error.prepareStackTrace = (error: Error, sites: NodeJS.CallSite[]) => {
    const kept = sites.filter((site) => !isSuiteOrNodeFrame(site));
    if (previous) return previous(error, kept);
    return [`${error.name}: ${error.message}`, ...kept.map((site) => `    at ${String(site)}`)].join('\n');
  };
  try {
    return run();
  } finally {
    Error.prepareStackTrace = previous;
  }
}

/** Removes the frames of an error about the target: its stack is its name and message. */
export function withoutFrames<E extends Error>(error: E): E {
  error.stack = `${error.name}: ${error.message}`;
  return error;
}
