#!/usr/bin/env node
// The installed command: registers tsx so the TypeScript sources run as they are, then
// hands over to the CLI. Kept in plain JavaScript because it runs before tsx is loaded.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/collect-conformance.ts');
process.exit(await main(process.argv.slice(2)));
