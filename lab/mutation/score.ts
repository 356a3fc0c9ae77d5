/**
 * The mutation score from the per-project test outcomes, for both modes of the suite: in the
 * default mode, killed / total over non-equivalent mutants, the survivors with the rule they
 * break, the tests that caught each killed mutant, and the conforming variants with the tests
 * that failed on them (false positives); with --strict, the same over the mutants and the
 * lenient variants (which conform by default and --strict must fail).
 */
import { isLenient, type Mutant, type Variant } from '../../mock/mutants/index.ts';
import { ruleOfMessage, type TestOutcome } from './outcomes.ts';

/**
 * Project-name suffix of the second stage: a mutant its rule's
 * tests missed, run with every test that calls its operations.
 */
export const widerStageSuffix = ' [covering tests]';

export interface Catch {
  test: string;
  /** Rule named by the failure message; absent when the test failed with an error of the suite itself. */
  rule?: string;
  message: string;
}

export interface MutantResult {
  name: string;
  rule: string;
  operator: string;
  operations: string[] | 'all';
  description: string;
  testsRun: number;
  killed: boolean;
  /** Killed by a test tagged with the rule it breaks (first stage), or only by other tests calling its operations. */
  killedBy: 'its rule tests' | 'other tests' | null;
  caughtBy: Catch[];
}

export interface VariantResult {
  name: string;
  description: string;
  /** Its impact map's tests, or every test calling an operation it changes (the run's sample, or --full). */
  against: 'impact map' | 'every covering test';
  testsRun: number;
  passed: boolean;
  failures: Catch[];
}

/** What --strict did: the mutants it killed, and the lenient variants it must fail. */
export interface StrictScore {
  score: { killed: number; total: number; percent: number };
  survivors: MutantResult[];
  killed: MutantResult[];
  /** Lenient variants as --strict's targets (their rule: the one --strict must name). */
  lenientVariants: MutantResult[];
}

/** How the variants met the suite: their impact maps, and the sample that checked them. */
export interface ImpactCheck {
  /** Every variant against every covering test (--full). */
  full: boolean;
  /** The seed that drew the sample (npm run mutation -- --sample-seed S draws it again). */
  sampleSeed: number;
  /** The variants run against every covering test. */
  wholeVariants: string[];
  /** Tests outside a sampled variant's map that failed on it: the map missed them. */
  mapGaps: Array<{ variant: string; test: string }>;
}

export interface MutationScore {
  generatedAt: string;
  impact: ImpactCheck;
  wallSeconds: number;
  phases: { referenceSeconds: number; ruleTestsSeconds: number; coveringTestsSeconds: number };
  testsExecuted: number;
  score: { killed: number; total: number; percent: number };
  equivalent: Array<{ name: string; rule: string; reason: string }>;
  survivors: MutantResult[];
  killed: MutantResult[];
  /** Killed only by failures that name no rule (errors of the suite): weak kills worth a look. */
  killedOnlyBySuiteErrors: string[];
  variants: VariantResult[];
  falsePositives: number;
  /** The same mutants (and the lenient variants) against the suite with --strict. */
  strict: StrictScore;
}

function catches(outcomes: TestOutcome[]): Catch[] {
  return outcomes
    .filter((outcome) => outcome.status === 'failed')
    .map((outcome) => {
      const rule = ruleOfMessage(outcome.message);
      return { test: `${outcome.file} › ${outcome.title}`, ...(rule ? { rule } : {}), message: outcome.message ?? '' };
    });
}

/** The targets of a mode, each under the rule its kill is reported against. */
function mutantResults<T extends Mutant | Variant>(
  targets: T[],
  byProject: Map<string, TestOutcome[]>,
  ruleOf: (target: T) => string,
): MutantResult[] {
  return targets.map((mutant) => {
    const first = byProject.get(mutant.name) ?? [];
    const wider = byProject.get(`${mutant.name}${widerStageSuffix}`) ?? [];
    const ran = [...first, ...wider];
    const caughtBy = catches(ran);
    const killedBy = catches(first).length > 0 ? 'its rule tests' : caughtBy.length > 0 ? 'other tests' : null;
    return {
      name: mutant.name,
      rule: ruleOf(mutant),
      operator: mutant.operator,
      operations: mutant.operations,
      description: mutant.description,
      testsRun: ran.filter((outcome) => outcome.status !== 'skipped').length,
      killed: caughtBy.length > 0,
      killedBy,
      caughtBy,
    };
  });
}

function byProjectOf(outcomes: TestOutcome[]): Map<string, TestOutcome[]> {
  const byProject = new Map<string, TestOutcome[]>();
  for (const outcome of outcomes) {
    const list = byProject.get(outcome.project) ?? [];
    list.push(outcome);
    byProject.set(outcome.project, list);
  }
  return byProject;
}

const percentOf = (killed: number, total: number): number =>
  total === 0 ? 0 : Math.round((killed / total) * 1000) / 10;

export function computeScore(
  mutants: Mutant[],
  variants: Variant[],
  outcomes: { default: TestOutcome[]; strict: TestOutcome[] },
  timing: { wallSeconds: number; referenceSeconds: number; ruleTestsSeconds: number; coveringTestsSeconds: number },
  impact: ImpactCheck,
): MutationScore {
  const whole = new Set(impact.wholeVariants);
  const counted = mutants.filter((mutant) => !mutant.equivalent);
  const byProject = byProjectOf(outcomes.default);
  const results = mutantResults(counted, byProject, (mutant) => mutant.rule);
  const variantResults: VariantResult[] = variants.map((variant) => {
    const ran = byProject.get(variant.name) ?? [];
    const failures = catches(ran);
    return {
      name: variant.name,
      description: variant.description,
      against: whole.has(variant.name) ? 'every covering test' : 'impact map',
      testsRun: ran.filter((outcome) => outcome.status !== 'skipped').length,
      passed: failures.length === 0 && ran.length > 0,
      failures,
    };
  });
  const killed = results.filter((result) => result.killed);
  const strictByProject = byProjectOf(outcomes.strict);
  const strictResults = mutantResults(counted, strictByProject, (mutant) => mutant.rule);
  const lenient = mutantResults(variants.filter(isLenient), strictByProject, (variant) => variant.strictKills);
  const strictKilled = [...strictResults, ...lenient].filter((result) => result.killed);
  return {
    generatedAt: new Date().toISOString(),
    impact,
    wallSeconds: timing.wallSeconds,
    phases: {
      referenceSeconds: timing.referenceSeconds,
      ruleTestsSeconds: timing.ruleTestsSeconds,
      coveringTestsSeconds: timing.coveringTestsSeconds,
    },
    testsExecuted: [...outcomes.default, ...outcomes.strict].filter((outcome) => outcome.status !== 'skipped').length,
    score: { killed: killed.length, total: results.length, percent: percentOf(killed.length, results.length) },
    equivalent: mutants.flatMap(({ name, rule, equivalent: reason }) => (reason ? [{ name, rule, reason }] : [])),
    survivors: results.filter((result) => !result.killed),
    killed,
    killedOnlyBySuiteErrors: killed
      .filter((result) => result.caughtBy.every((c) => c.rule === undefined))
      .map((result) => result.name),
    variants: variantResults,
    falsePositives: variantResults.filter((variant) => !variant.passed).length,
    strict: {
      score: {
        killed: strictKilled.length,
        total: strictResults.length + lenient.length,
        percent: percentOf(strictKilled.length, strictResults.length + lenient.length),
      },
      survivors: [...strictResults, ...lenient].filter((result) => !result.killed),
      killed: strictResults.filter((result) => result.killed),
      lenientVariants: lenient,
    },
  };
}

/** How the variants met the suite this run, in one sentence. */
export function impactLine(impact: ImpactCheck): string {
  if (impact.full) return 'Every variant ran against every test calling an operation it changes (`--full`).';
  return (
    'Each variant ran against its impact map (the tests of the rules its choice tests, among those calling an ' +
    `operation it changes); ${impact.wholeVariants.length} drawn by seed ${impact.sampleSeed} ran against every ` +
    `such test, which checks the maps (map gaps: ${impact.mapGaps.length}).`
  );
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderMarkdown(score: MutationScore): string {
  const lines: string[] = [
    '# Mutation score',
    '',
    `**Default mode: ${score.score.killed} / ${score.score.total} mutants killed (${score.score.percent} %)**; ` +
      `${score.equivalent.length} equivalent mutants listed and not counted; ` +
      `${score.variants.filter((variant) => variant.passed).length} / ${score.variants.length} ` +
      `conforming variants pass (false positives: ${score.falsePositives}).`,
    '',
    `**With --strict: ${score.strict.score.killed} / ${score.strict.score.total} killed ` +
      `(${score.strict.score.percent} %)**: ${score.strict.killed.length} / ${score.score.total} mutants ` +
      `and ${score.strict.lenientVariants.filter((v) => v.killed).length} / ` +
      `${score.strict.lenientVariants.length} lenient variants (they conform by default; --strict must fail them).`,
    '',
    `Wall time ${score.wallSeconds.toFixed(1)} s (reference run ${score.phases.referenceSeconds.toFixed(1)} s, ` +
      `mutants with their rule's tests and variants ` +
      `${score.phases.ruleTestsSeconds.toFixed(1)} s, ` +
      `survivors with every covering test ${score.phases.coveringTestsSeconds.toFixed(1)} s); ` +
      `${score.testsExecuted} test executions. Generated ${score.generatedAt} by \`npm run mutation\`.`,
    '',
    impactLine(score.impact),
    '',
    '## Survivors',
    '',
  ];
  if (score.survivors.length === 0) lines.push('None: every non-equivalent mutant is killed.');
  else {
    lines.push('| Mutant | Rule it breaks | Operator | Tests run | What it does |', '|---|---|---|---|---|');
    for (const s of score.survivors)
      lines.push(`| ${s.name} | ${s.rule} | ${s.operator} | ${s.testsRun} | ${cell(s.description)} |`);
  }
  lines.push('', '## With --strict', '');
  if (score.strict.survivors.length === 0) lines.push('Every mutant and every lenient variant fails with --strict.');
  else {
    lines.push(
      'Survivors with --strict:',
      '',
      '| Mutant or lenient variant | Rule | Tests run | What it does |',
      '|---|---|---|---|',
    );
    for (const s of score.strict.survivors)
      lines.push(`| ${s.name} | ${s.rule} | ${s.testsRun} | ${cell(s.description)} |`);
  }
  lines.push('', '| Lenient variant | Rule --strict names | Killed with --strict | Caught by |', '|---|---|---|---|');
  for (const v of score.strict.lenientVariants) {
    lines.push(
      `| ${v.name} | ${v.rule} | ${v.killed ? 'yes' : '**no**'} | ${
        cell(
          v.caughtBy
            .slice(0, 2)
            .map((c) => `${c.test} (${c.rule ?? 'suite error'})`)
            .join('<br>'),
        ) || '—'
      } |`,
    );
  }
  const strictKilledNames = new Set(score.strict.killed.map((k) => k.name));
  lines.push(
    '',
    '## Conforming variants (the suite must pass each in the default mode)',
    '',
    '| Variant | Behaviour | Against | Tests run | Result | Failing tests |',
    '|---|---|---|---|---|---|',
  );
  for (const v of score.variants) {
    const failing = v.failures.map((f) => `${f.test}: ${f.message.slice(0, 160)}`).join('<br>');
    lines.push(
      `| ${v.name} | ${cell(v.description)} | ${v.against} | ${v.testsRun} | ` +
        `${v.passed ? 'pass' : '**FAIL (false positive)**'} | ${cell(failing) || '—'} |`,
    );
  }
  if (score.impact.mapGaps.length > 0) {
    lines.push(
      '',
      '## Impact map gaps',
      '',
      "Tests that failed on a sampled variant outside its impact map: the variant's `rules` should name one of " +
        "the test's rules, so that every run meets it there.",
      '',
      '| Variant | Test |',
      '|---|---|',
      ...score.impact.mapGaps.map((gap) => `| ${gap.variant} | ${cell(gap.test)} |`),
    );
  }
  if (score.killedOnlyBySuiteErrors.length > 0) {
    lines.push(
      '',
      '## Killed only by errors of the suite',
      '',
      'These mutants made tests fail with a message that names no rule (an error of the suite, not a rule violation):',
      '',
    );
    for (const name of score.killedOnlyBySuiteErrors) lines.push(`- ${name}`);
  }
  const byOthers = score.killed.filter((k) => k.killedBy === 'other tests');
  if (byOthers.length > 0) {
    lines.push(
      '',
      '## Killed, but not by a test of the rule they break',
      '',
      'The tests tagged with the rule passed; other tests calling the same operations caught the mutant:',
      '',
    );
    for (const k of byOthers) lines.push(`- ${k.name} (${k.rule})`);
  }
  lines.push(
    '',
    '## Killed mutants and the tests that caught them',
    '',
    'Each mutant first runs the tests tagged with the rule it breaks; ' +
      'only when they all pass does it run every test that calls its operations.',
    '',
    '| Mutant | Rule it breaks | Killed by default | Killed with --strict | Caught by (rule named by the failure) |',
    '|---|---|---|---|---|',
  );
  for (const k of score.killed) {
    const shown = k.caughtBy.slice(0, 4).map((c) => `${c.test} (${c.rule ?? 'suite error'})`);
    if (k.caughtBy.length > 4) shown.push(`and ${k.caughtBy.length - 4} more`);
    lines.push(
      `| ${k.name} | ${k.rule} | yes | ` +
        `${strictKilledNames.has(k.name) ? 'yes' : '**no**'} | ${cell(shown.join('<br>'))} |`,
    );
  }
  lines.push(
    '',
    '## Equivalent mutants (not counted)',
    '',
    '| Mutant | Rule | Why no request can observe it |',
    '|---|---|---|',
  );
  for (const e of score.equivalent) lines.push(`| ${e.name} | ${e.rule} | ${cell(e.reason)} |`);
  lines.push('');
  return lines.join('\n');
}
