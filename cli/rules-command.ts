/**
 * `collect-conformance rules [--json] [--kind documented|inferred]`: the rules catalogue.
 * `collect-conformance rules --show ID [--json]`: one rule and everything that names it
 * (cli/rule-links.ts), with its tests as Playwright lists them (cli/rule-tests.ts).
 */
import { isRuleId, nearestRuleIds, rules } from '../contract/rules.ts';
import { parseArgs, UsageError, type FlagSpec } from './args.ts';
import { ExitCode } from './exit-codes.ts';
import { commandHelp } from './help.ts';
import { commandFlags } from './run-flags.ts';
import { join } from 'node:path';
import { outputRootOf } from '../output/output-directory.ts';

/** The catalogue's flags: rows of the settings table (settings/settings.ts) that name it. */
export const rulesFlags: FlagSpec[] = commandFlags('rules');

/** The id as given, or a UsageError naming the nearest known ids. */
export function knownRuleId(id: string): string {
  if (isRuleId(id)) return id;
  const shown = id.length > 60 ? `${id.slice(0, 60)}...` : id;
  const nearest = nearestRuleIds(id).join(', ');
  throw new UsageError(`unknown rule id "${shown}"; nearest: ${nearest} (all: collect-conformance rules)`);
}

/**
 * Usage errors are thrown before anything asynchronous starts, so that the command's caller
 * reports them as one line with exit code 2.
 */
export function listRules(argv: string[]): number | Promise<number> {
  const { flags, help } = parseArgs(argv, rulesFlags);
  if (help) {
    process.stdout.write(commandHelp('rules'));
    return ExitCode.pass;
  }
  const show = flags.get('show');
  if (typeof show === 'string') {
    if (flags.has('kind')) throw new UsageError('--kind selects rules to list; it does not apply with --show');
    return showRule(knownRuleId(show), flags.get('json') === true);
  }
  const kind = flags.get('kind');
  const selected = rules.filter((entry) => kind === undefined || entry.kind === kind);
  if (flags.get('json') === true) {
    process.stdout.write(`${JSON.stringify(selected, null, 2)}\n`);
    return 0;
  }
  const idWidth = Math.max(...selected.map((entry) => entry.id.length));
  for (const entry of selected) {
    process.stdout.write(
      `${entry.id.padEnd(idWidth)}  ${entry.kind.padEnd(10)}  ${entry.operations.join(',')}  ${entry.text}\n`,
    );
  }
  process.stdout.write(
    `${selected.length} rules (${selected.filter((entry) => entry.kind === 'documented').length} documented, ` +
      `${selected.filter((entry) => entry.kind === 'inferred').length} inferred)\n`,
  );
  return 0;
}

async function showRule(id: string, json: boolean): Promise<number> {
  // Loaded when asked for: the mock's catalogue and Playwright's listing are not the list's cost.
  const [{ ruleHub }, { listTests, ListingError, ruleGrep }, { lastRunOf, renderRuleShow, ruleShow }] =
    await Promise.all([import('./rule-links.ts'), import('./rule-tests.ts'), import('./rule-show.ts')]);
  const hub = ruleHub(id);
  let tests;
  try {
    tests = (await listTests({ grep: ruleGrep(id) })).filter((test) => test.tags.includes(id));
  } catch (error) {
    if (!(error instanceof ListingError)) throw error;
    process.stderr.write(`collect-conformance: cannot list the tests of ${id}: ${error.message}\n`);
    return ExitCode.usage;
  }
  // The last run in the output directory, when there is one: its verdict of the rule, and why each test gave its own.
  const { outputFiles } = await import('../reporters/report-pipeline.ts');
  const coverage = join(outputRootOf(process.env), outputFiles.coverageJson);
  const shown = ruleShow(hub, tests, lastRunOf(coverage, id));
  process.stdout.write(json ? `${JSON.stringify(shown, null, 2)}\n` : renderRuleShow(shown));
  return ExitCode.pass;
}
