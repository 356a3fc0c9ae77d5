/**
 * Every flag every --help prints is a flag its command takes: the flags are read from the printed
 * help of each command (run, proxy, judge, mock, report, rules, the shards' run and merge), each
 * given with a value its row of the settings table suggests, and the command's own parser must
 * accept each alone and all of them at once. tests/integration/every-flag.test.ts gives them to
 * the commands themselves.
 *
 *   node --import tsx --test tests/unit/every-flag.test.ts
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseArgs } from '../../cli/args.ts';
import { commandHelp, helpText } from '../../cli/help.ts';
import { commandFlags } from '../../cli/run-flags.ts';
import { flagUsage } from '../../settings/setting-texts.ts';
import { commands, rowsOf, tableRows } from '../../settings/settings.ts';
import { commandNames, flagArguments, printedFlags } from './help-flags.ts';

describe('every flag of every --help is accepted by its command', () => {
  for (const command of commandNames) {
    test(`${command}: each flag its --help prints, alone and all at once`, () => {
      const printed = printedFlags(commandHelp(command));
      assert.deepEqual(
        printed.map((flag) => flag.name),
        rowsOf(command).map((row) => row.flag.name),
        'the help prints every flag of the command, and only those',
      );
      const specs = commandFlags(command);
      const all: string[] = [];
      for (const { name, placeholder } of printed) {
        const args = flagArguments(command, name, placeholder);
        all.push(...args);
        const { flags, help } = parseArgs([...args, '--help'], specs, { positionals: command === 'judge' });
        assert.ok(flags.has(name) && help, `${command} ${args.join(' ')}`);
      }
      const { flags } = parseArgs(all, specs, { positionals: command === 'judge' });
      assert.equal(flags.size, printed.length);
    });
  }

  test('--help works after every command', () => {
    for (const command of commandNames) {
      const { help } = parseArgs(['--help'], commandFlags(command));
      assert.ok(help, command);
      assert.ok(commandHelp(command).includes(`Usage:\n  ${commands[command]}`), command);
    }
  });

  test('the main --help lists every flag of every command', () => {
    for (const row of tableRows) assert.ok(helpText.includes(`--${row.flag.name}`), flagUsage(row));
    assert.doesNotMatch(helpText, /--clock-tolerance-seconds/);
  });
});
