/** The mock's version is the package's: it is sent in a response header so a setup can check it. */
import { readFileSync } from 'node:fs';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export const mockVersion: string = packageJson.version;
export const mockVersionHeader = 'x-pcs-mock-version';
