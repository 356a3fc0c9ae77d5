/**
 * The JSON dialects the suite models (judgment/json-dialects.ts), held to the real parsers that run here:
 * Ruby's json gem, Python's json module and Jackson's ObjectMapper read what their dialect reads, as it reads it,
 * and refuse the rest; PHP's json_decode reads exactly RFC 8259's JSON. The texts are a sample of both text modes
 * (generation/json-text.ts, a fixed seed): a malformed text read by a real parser would be a false
 * positive of MALFORMED-JSON-4XX, a lenient one it reads otherwise than modelled a wrong "as read" verdict.
 * A parser whose runtime is not installed is skipped, saying so.
 *
 *   node --import tsx --test tests/integration/json-dialects.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { dialects, readJson, unread } from '../../judgment/json-dialects.ts';
import { isJson, lenientExamples, lenientText, malformedText } from '../../generation/json-text.ts';
import { inputCaseFiles } from '../../contract/input-cases.ts';

const here = (file: string): string => fileURLToPath(new URL(`./validators/${file}`, import.meta.url));
const bodies = [
  {
    description: 'Order 42',
    amount: 1500,
    currency: { iso: 'XOF' },
    callback_url: 'https://shop.example.com/cb/order-42',
    custom_metadata: { collect_conformance_run: 'cc-1', n: 3, ok: true },
  },
  { token: 'tok_4f2a9c', phone_number: { number: '+22997000001', country: 'BJ' } },
];
const texts = [
  ...new Set([
    ...bodies.flatMap((body) => {
      const text = JSON.stringify(body);
      return [
        ...lenientExamples(text).map((entry) => entry.text),
        ...fc.sample(lenientText(text), { numRuns: 150, seed: 26 }).map((entry) => entry.text),
        ...fc.sample(malformedText(text), { numRuns: 150, seed: 26 }),
      ];
    }),
    ...inputCaseFiles().flatMap(({ cases }) =>
      cases.flatMap((entry) => (entry.text === undefined ? [] : [entry.text])),
    ),
  ]),
];

interface Verdict {
  read: boolean;
  value?: unknown;
}

/** A value as the runners print it: non-finite numbers as the strings NaN, Infinity, -Infinity. */
function plain(value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value))
    return Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity';
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item)]));
  return value;
}

function missing(command: string, args: string[], what: string): string | null {
  const probe = spawnSync(command, args, { encoding: 'utf8', timeout: 30_000 });
  return probe.status === 0 ? null : `${what} is not installed here (${command} ${args.join(' ')} failed)`;
}

function verdicts(command: string, args: string[]): Verdict[] {
  const result = spawnSync(command, args, {
    input: texts.map((text) => JSON.stringify(text)).join('\n'),
    encoding: 'utf8',
    timeout: 180_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(result.status, 0, `${command} failed: ${result.stderr || result.error?.message}`);
  const lines = result.stdout.split('\n').filter(Boolean);
  assert.equal(lines.length, texts.length, `${command} answered ${lines.length} of ${texts.length} texts`);
  return lines.map((line) => JSON.parse(line) as Verdict);
}

/** Every text read by the real parser exactly when the dialect reads it, and as the same value. */
function agrees(dialectName: string, real: readonly Verdict[], compareValues = true): void {
  const dialect = dialects.find((candidate) => candidate.name === dialectName)!;
  const disagreements = texts.flatMap((text, index) => {
    const modelled = readJson(text, dialect);
    const actual = real[index]!;
    if (actual.read !== (modelled !== unread))
      return [`${JSON.stringify(text)}: the parser ${actual.read ? 'reads' : 'refuses'} it, the dialect does not`];
    if (compareValues && actual.read && JSON.stringify(actual.value) !== JSON.stringify(plain(modelled)))
      return [
        `${JSON.stringify(text)}: read as ${JSON.stringify(actual.value)}, modelled ${JSON.stringify(plain(modelled))}`,
      ];
    return [];
  });
  assert.deepEqual(disagreements.slice(0, 10), [], `${disagreements.length} disagreement(s) of ${texts.length} texts`);
}

test('the sample holds malformed and lenient texts of both bodies', () => {
  assert.ok(texts.length > 300, `${texts.length} texts`);
  assert.ok(texts.some((text) => !isJson(text)));
});

test(
  "Ruby's json gem reads as the Ruby's json dialect",
  { skip: missing('ruby', ['-rjson', '-e', '1'], 'Ruby') ?? false },
  () => agrees("Ruby's json", verdicts('ruby', [here('json_ruby.rb')])),
);

const python = '/usr/bin/python3';
test(
  "Python's json module reads as the Python's json dialect",
  { skip: existsSync(python) ? false : `${python} is not installed here` },
  () => agrees("Python's json", verdicts(python, [here('json_python.py')])),
);

const jacksonJars = ['jackson-databind', 'jackson-core', 'jackson-annotations'].map(
  (jar) => `/usr/share/java/${jar}.jar`,
);
const jacksonMissing =
  missing('javac', ['-version'], 'A JDK (javac)') ??
  (jacksonJars.every((jar) => existsSync(jar)) ? null : "Debian's libjackson2-databind-java is not installed here");
test("Jackson's ObjectMapper reads as the Jackson dialect", { skip: jacksonMissing ?? false }, () =>
  agrees('Jackson', verdicts('java', ['-cp', jacksonJars.join(':'), here('JacksonCheck.java')])),
);

test("PHP's json_decode reads JSON and nothing else", { skip: missing('php', ['-v'], 'PHP') ?? false }, () => {
  const real = verdicts('php', [here('json_php.php')]);
  const wrong = texts.filter((text, index) => real[index]!.read !== isJson(text));
  assert.deepEqual(wrong.slice(0, 10), [], `${wrong.length} text(s) PHP reads otherwise than RFC 8259`);
});
