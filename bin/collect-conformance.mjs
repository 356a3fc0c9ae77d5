#!/usr/bin/env node
// The command. Installed, it runs the JavaScript compiled from the TypeScript sources when the
// package was packed (dist/, lab/build-package.ts), with the sources' lines: no transform at
// start-up. In a checkout, where the sources are, it registers tsx and runs them as they are.
// Kept in plain JavaScript because it runs before either is loaded.
// Node's debug output prints request headers, the key included, from the first connection on,
// tsx's own among them: a run refuses it here, before tsx connects anywhere. The command checks
// again once .env is loaded, with the other variables (settings/debug-guard.ts).
// tsx is imported only after this check: loading it already opens a connection.
import { existsSync } from 'node:fs';

const first = process.argv[2];
const runsTheSuite = !['mock', 'rules', 'help', '--help', '-h', '--version'].includes(first ?? '');
for (const name of ['NODE_DEBUG', 'NODE_DEBUG_NATIVE']) {
  const value = process.env[name]?.trim();
  if (runsTheSuite && value) {
    process.stderr.write(
      `collect-conformance: configuration error: ${name}: is set ("${value.slice(0, 40)}"): Node's debug output ` +
        `prints request headers, the key included, into the console and the reports; unset it to run the suite\n`,
    );
    process.exit(2);
  }
}

// A debugger attached through the inspector reads the environment, the key included; with
// --inspect-brk this process already waited for one before it got here.
const inspectorFlag = (process.env.NODE_OPTIONS ?? '')
  .split(/\s+/)
  .map((token) => token.replace(/^["']/, '').split('=')[0].replace(/_/g, '-'))
  .find((name) => /^--(inspect(-brk|-wait|-port)?|debug-port)$/.test(name));
const { url: inspectorUrl } = await import('node:inspector');
if (runsTheSuite && (inspectorFlag !== undefined || inspectorUrl() !== undefined)) {
  process.stderr.write(
    `collect-conformance: configuration error: ${inspectorFlag ? 'NODE_OPTIONS' : 'the Node inspector'}: ` +
      `${inspectorFlag ?? 'is open'}: a debugger attached through the inspector reads the environment, ` +
      'the key included; remove it to run the suite\n',
  );
  process.exit(2);
}

const sources = new URL('../cli/collect-conformance.ts', import.meta.url);
let command;
try {
  if (existsSync(sources)) {
    const { register } = await import('tsx/esm/api');
    register();
    ({ command } = await import(sources.href));
  } else {
    ({ command } = await import('../dist/cli/collect-conformance.js'));
  }
} catch (error) {
  // The command could not be loaded: a broken installation, never the target's doing. 4 is
  // ExitCode.internal (cli/exit-codes.ts), written out because that module may be what failed.
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  process.stderr.write(
    `collect-conformance: internal error: ${message.split('\n')[0].slice(0, 300)} ` +
      '(a failure of collect-conformance itself, not of the target: exit 4)\n',
  );
  process.exit(4);
}
process.exit(await command(process.argv.slice(2)));
