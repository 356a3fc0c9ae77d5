/** `collect-conformance rules [--json] [--kind documented|inferred]`: the rules catalogue. */
import { rules } from '../contract/rules.ts';
import { parseArgs, type FlagSpec } from './args.ts';

export const rulesFlags: FlagSpec[] = [
  { name: 'json', value: false },
  { name: 'kind', value: true, check: (value) => (value === 'documented' || value === 'inferred' ? undefined : 'must be documented or inferred') },
];

export function listRules(argv: string[]): number {
  const { flags } = parseArgs(argv, rulesFlags);
  const kind = flags.get('kind');
  const selected = rules.filter((entry) => kind === undefined || entry.kind === kind);
  if (flags.get('json') === true) {
    process.stdout.write(`${JSON.stringify(selected, null, 2)}\n`);
    return 0;
  }
  const idWidth = Math.max(...selected.map((entry) => entry.id.length));
  for (const entry of selected) {
    process.stdout.write(`${entry.id.padEnd(idWidth)}  ${entry.kind.padEnd(10)}  ${entry.operations.join(',')}  ${entry.text}\n`);
  }
  process.stdout.write(`${selected.length} rules (${selected.filter((entry) => entry.kind === 'documented').length} documented, ${selected.filter((entry) => entry.kind === 'inferred').length} inferred)\n`);
  return 0;
}
