#!/usr/bin/env node
// The installed command: registers tsx so the TypeScript sources run as they are, then
// hands over to the CLI. Kept in plain JavaScript because it runs before tsx is loaded.
// Node's debug output prints request headers, the key included, from the first connection on,
// tsx's own among them: a run refuses it here, before tsx connects anywhere. The command checks
// again once .env is loaded, with the other variables (support/lifecycle/debug-guard.ts).
// tsx is imported only after this check: loading it already opens a connection.
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

const { register } = await import('tsx/esm/api');
register();
const { main } = await import('../cli/collect-conformance.ts');
process.exit(await main(process.argv.slice(2)));
