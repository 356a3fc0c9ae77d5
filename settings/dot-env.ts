/**
 * The suite's .env file: read from the working directory into the environment (variables already set
 * win), and the names it set remembered, since a name the suite does not know is refused in .env (the
 * suite's own file) but only warned about in the environment (settings/variable-names.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import dotenv from 'dotenv';

const loadedNames = new Set<string>();

/** Loads .env from the working directory into process.env; variables already set win. */
export function loadDotEnv(directory: string = process.cwd()): void {
  const file = resolve(directory, '.env');
  if (!existsSync(file)) return;
  dotenv.config({ path: file, quiet: true });
  for (const name of Object.keys(dotenv.parse(readFileSync(file)))) loadedNames.add(name);
}

/** The names the .env files loaded so far in this process set (whether or not the environment won over them). */
export function namesFromDotEnv(): ReadonlySet<string> {
  return loadedNames;
}
