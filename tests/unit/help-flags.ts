/**
 * The flags a command's --help prints, read back from the text, and the arguments that give each with a
 * value its row of the settings table suggests: what the every-flag tests give the commands.
 */
import assert from 'node:assert/strict';
import { exampleValue } from '../../settings/setting-texts.ts';
import { commands, isSetting, rowsOf, type CommandName } from '../../settings/settings.ts';

export const commandNames = Object.keys(commands) as CommandName[];

/** The flags a help text lists, one per flag line (`  --name VALUE   ...`), as typed. */
export function printedFlags(help: string): Array<{ name: string; placeholder: string | undefined }> {
  const flags: Array<{ name: string; placeholder: string | undefined }> = [];
  for (const line of help.split('\n')) {
    const match = /^ {2}--([a-z][a-z0-9-]*)(?: (\S+))?(?: {2,}|$)/.exec(line);
    if (match && match[1] !== 'help') flags.push({ name: match[1]!, placeholder: match[2] });
  }
  return flags;
}

/** The arguments that give a printed flag with a value its row suggests. */
export function flagArguments(command: CommandName, name: string, placeholder: string | undefined): string[] {
  if (placeholder === undefined) return [`--${name}`];
  const row = rowsOf(command).find((candidate) => candidate.flag.name === name);
  assert.ok(row, `--${name}: printed by ${command} --help but no row of the table`);
  // A flag that names the variable holding a key: a variable of its own (keyVariables gives them values).
  if (row.flag.namesVariable && isSetting(row)) return [`--${name}`, `EVERY_FLAG_${row.variable}`];
  const value = isSetting(row) ? exampleValue(row) : row.example;
  assert.ok(value !== undefined && value !== '', `--${name} of ${command}: the table suggests no value`);
  return [`--${name}`, value];
}

/** Values for the variables flagArguments names: one sandbox key of the mock's form each, every one different. */
export function keyVariables(): Record<string, string> {
  const named = rowsOf('run').filter((row) => row.flag.namesVariable && isSetting(row));
  return Object.fromEntries(
    named.map((row, index) => [
      `EVERY_FLAG_${row.variable}`,
      `sk_sandbox_every_flag_${String(index).padStart(4, '0')}`,
    ]),
  );
}
