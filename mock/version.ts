/** The mock's version is the package's: it is sent in a response header so a setup can check it. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageDirectory } from '../settings/module-paths.ts';

const packageJson = JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8')) as {
  version: string;
};

export const mockVersion: string = packageJson.version;
export const mockVersionHeader = 'x-pcs-mock-version';
