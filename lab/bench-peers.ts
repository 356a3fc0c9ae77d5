/**
 * npm run bench:peers: the contract mutants of npm run mutation given to contract-testing tools
 * a user might pick instead (Portman + Newman, the Prism validation proxy, Dredd), all driven by
 * specs/openapi.json. Prints one table (tool, mutants killed, false positives on the unmutated
 * mock, conforming variants flagged, wall time) and writes it to ${PCS_OUTPUT_DIR:-reports}/peers.md
 * and peers.json. The tools live in lab/peer-tools/ (install: flock /tmp/npm.lock npm ci --prefix lab/peer-tools).
 *
 * A tool "kills" a mutant when it reports a failure against the mutant that it does not report
 * against the reference mock (so its own false positives are not counted as kills).
 *
 *   npx tsx lab/bench-peers.ts [--only REGEX] [--tools portman,prism,dredd]
 */
import { ensurePeersInstalled } from './peers/install.ts';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startMockServer } from '../mock/server.ts';
import {
  mutants as allMutants,
  perRequestMutant,
  variants as allVariants,
  type Behaviour,
} from '../mock/mutants/index.ts';
import { dredd, peersInstalled, portmanNewman, prismProxy, type PeerTool, type Target } from './peers/tools.ts';
import type { MutationScore } from './mutation/score.ts';
import { writeMeasured } from './measured.ts';

class UsageError extends Error {}

interface ToolResult {
  tool: string;
  killed: number;
  total: number;
  falsePositives: number;
  falsePositiveChecks: string[];
  variantsFlagged: number;
  variantsFlaggedNames: string[];
  variantsTotal: number;
  wallSeconds: number;
  survivors: string[];
  error?: string;
}

const toolFactories: Record<string, () => PeerTool> = { portman: portmanNewman, prism: prismProxy, dredd };

function parseArgs(argv: string[]): { only?: RegExp; tools: string[] } {
  const options: { only?: RegExp; tools: string[] } = { tools: Object.keys(toolFactories) };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[++i];
    if (next === undefined) throw new UsageError(`${arg} needs a value`);
    if (arg === '--only') {
      try {
        options.only = new RegExp(next);
      } catch {
        throw new UsageError(`--only: not a regular expression: ${next}`);
      }
    } else if (arg === '--tools') {
      options.tools = next.split(',').map((name) => name.trim());
      const unknown = options.tools.filter((name) => !(name in toolFactories));
      if (unknown.length > 0)
        throw new UsageError(
          `--tools: unknown ${unknown.join(', ')} (known: ${Object.keys(toolFactories).join(', ')})`,
        );
    } else throw new UsageError(`unknown argument ${arg} (use --only REGEX, --tools portman,prism,dredd)`);
  }
  return options;
}

async function benchTool(
  tool: PeerTool,
  mutants: Behaviour[],
  variants: Behaviour[],
  work: string,
): Promise<ToolResult> {
  const started = performance.now();
  // One mock serving every behaviour by header, for tools that sit in front of a fixed upstream.
  const shared = await startMockServer({ port: 0, host: '127.0.0.1', mutant: perRequestMutant });
  const check = async (behaviour: string | undefined): Promise<string[]> => {
    if (!tool.ownMockPerCheck) {
      const target: Target = {
        baseUrl: shared.sandboxBaseUrl,
        key: shared.sandboxKey,
        ...(behaviour ? { mutantHeader: behaviour } : {}),
      };
      return tool.check(target);
    }
    const mock = await startMockServer({ port: 0, host: '127.0.0.1', ...(behaviour ? { mutant: behaviour } : {}) });
    try {
      return await tool.check({ baseUrl: mock.sandboxBaseUrl, key: mock.sandboxKey });
    } finally {
      await mock.close();
    }
  };
  const result: ToolResult = {
    tool: tool.name,
    killed: 0,
    total: mutants.length,
    falsePositives: 0,
    falsePositiveChecks: [],
    variantsFlagged: 0,
    variantsFlaggedNames: [],
    variantsTotal: variants.length,
    wallSeconds: 0,
    survivors: [],
  };
  try {
    await tool.setup(join(work, tool.name.replace(/\W+/g, '-')), { origin: shared.origin, key: shared.sandboxKey });
    const reference = await check(undefined);
    result.falsePositives = reference.length;
    result.falsePositiveChecks = reference;
    const known = new Set(reference);
    const isKill = (failures: string[]): boolean => failures.some((failure) => !known.has(failure));
    for (const mutant of mutants) {
      if (isKill(await check(mutant.name))) result.killed++;
      else result.survivors.push(mutant.name);
    }
    for (const variant of variants) {
      if (isKill(await check(variant.name))) {
        result.variantsFlagged++;
        result.variantsFlaggedNames.push(variant.name);
      }
    }
  } catch (error) {
    result.error = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 300);
  } finally {
    await tool.teardown().catch(() => undefined);
    await shared.close();
  }
  result.wallSeconds = (performance.now() - started) / 1000;
  return result;
}

function suiteRow(outputRoot: string): ToolResult | undefined {
  const file = join(outputRoot, 'mutation.json');
  if (!existsSync(file)) return undefined;
  const score = JSON.parse(readFileSync(file, 'utf8')) as MutationScore;
  return {
    tool: 'collect-conformance (npm run mutation)',
    killed: score.score.killed,
    total: score.score.total,
    falsePositives: 0,
    falsePositiveChecks: [],
    variantsFlagged: score.falsePositives,
    variantsFlaggedNames: score.variants.filter((v) => !v.passed).map((v) => v.name),
    variantsTotal: score.variants.length,
    wallSeconds: score.wallSeconds,
    survivors: score.survivors.map((s) => s.name),
  };
}

function table(results: ToolResult[]): string {
  const lines = [
    '| Tool | Mutants killed | False positives on the unmutated mock | Conforming variants flagged | Wall time |',
    '|---|---|---|---|---|',
  ];
  for (const r of results) {
    const killed = r.error
      ? `error: ${r.error}`
      : `${r.killed} / ${r.total} (${r.total === 0 ? 0 : Math.round((r.killed / r.total) * 100)} %)`;
    lines.push(
      `| ${r.tool} | ${killed} | ${r.falsePositives} | ${r.variantsFlagged} / ${r.variantsTotal} | ` +
        `${r.wallSeconds.toFixed(1)} s |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  if (!ensurePeersInstalled() || !peersInstalled()) {
    throw new UsageError(
      'the peer tools could not be installed into lab/peer-tools/ (npm ci --prefix lab/peer-tools failed)',
    );
  }
  const selected = (behaviour: Behaviour): boolean => !options.only || options.only.test(behaviour.name);
  const mutants = allMutants().filter((mutant) => !mutant.equivalent && selected(mutant));
  const variants = allVariants().filter(selected);
  const outputRoot = resolve(process.env.PCS_OUTPUT_DIR ?? 'reports');
  process.stdout.write(
    `bench:peers: ${mutants.length} mutants and ${variants.length} conforming variants, ` +
      `tools: ${options.tools.join(', ')}\n`,
  );
  const work = mkdtempSync(join(tmpdir(), 'pcs-peers-'));
  const results: ToolResult[] = [];
  try {
    for (const name of options.tools) {
      const tool = toolFactories[name]!();
      mkdirSync(join(work, tool.name.replace(/\W+/g, '-')), { recursive: true });
      const result = await benchTool(tool, mutants, variants, work);
      process.stdout.write(
        `bench:peers: ${result.tool}: ` +
          `${result.error ? `error: ${result.error}` : `${result.killed}/${result.total} killed`} ` +
          `in ${result.wallSeconds.toFixed(1)} s\n`,
      );
      results.push(result);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const suite = suiteRow(outputRoot);
  const rows = suite ? [suite, ...results] : results;
  const rendered = table(rows);
  process.stdout.write(`\n${rendered}\n`);
  mkdirSync(outputRoot, { recursive: true });
  const notes = [
    '',
    `Measured ${new Date().toISOString()} by \`npm run bench:peers\` on the same ${mutants.length} ` +
      `non-equivalent mutants and ${variants.length} conforming variants as \`npm run mutation\`.`,
    'A tool kills a mutant when it reports a failure against it that it does not report against the unmutated mock.',
    suite
      ? 'The collect-conformance row is read from the last `npm run mutation` (reports/mutation.json); ' +
        "its wall time is that run's."
      : '',
    '',
    ...results
      .filter((r) => r.falsePositiveChecks.length > 0)
      .map(
        (r) =>
          `- ${r.tool}, failures against the unmutated mock: ${r.falsePositiveChecks
            .slice(0, 6)
            .map((f) => f.split('\n')[0])
            .join('; ')}`,
      ),
    ...rows
      .filter((r) => r.variantsFlaggedNames.length > 0)
      .map((r) => `- ${r.tool} flags conforming variants: ${r.variantsFlaggedNames.join(', ')}`),
  ];
  writeFileSync(join(outputRoot, 'peers.md'), `# Peers side by side\n\n${rendered}\n${notes.join('\n')}\n`);
  writeFileSync(join(outputRoot, 'peers.json'), `${JSON.stringify(rows, null, 2)}\n`);
  process.stdout.write(`bench:peers: wrote ${join(outputRoot, 'peers.md')}\n`);
  // The figures the docs link to, only from a run of every tool on the whole catalogue.
  const whole = !options.only && Object.keys(toolFactories).every((name) => options.tools.includes(name));
  if (!whole) {
    process.stdout.write('bench:peers: docs/measured/bench-peers.md not written: a partial run (--only or --tools)\n');
  } else {
    const mutationFile = join(outputRoot, 'mutation.json');
    const score = suite ? (JSON.parse(readFileSync(mutationFile, 'utf8')) as MutationScore) : undefined;
    const generatedAt = score?.generatedAt;
    const body = [
      `The same ${mutants.length} non-equivalent mutants and ${variants.length} conforming variants ` +
        'as `npm run mutation`.',
      '',
      rendered,
      ...notes.slice(2),
      generatedAt ? `The collect-conformance row's \`npm run mutation\` was generated ${generatedAt}.` : '',
      '',
      'Every survivor of each tool: `reports/peers.json`, written by the same run.',
    ];
    const written = writeMeasured({ name: 'bench-peers', body });
    process.stdout.write(`bench:peers: wrote ${written}\n`);
  }
  return results.some((r) => r.error) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench:peers: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
