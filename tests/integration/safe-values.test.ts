/**
 * Every callback URL and customer e-mail the suite calls "must accept" passes mainstream validators with their
 * defaults: a sample of the safe arbitraries (a fixed seed), the must-accept input cases and the suite's own example
 * values go through Django's URLField and EmailField validators and pydantic 1's HttpUrl and EmailStr (Debian's
 * /usr/bin/python3), PHP's filter_var, validator.js's isURL and isEmail, Java's java.net.URI, and Rails' formats
 * (Ruby's uri library). A value one of them refuses is a false positive waiting for a server on that stack; the
 * bound it breaks belongs in x-pcs-safe (schemas/), with the validator it comes from.
 *
 * Controls prove each validator ran: every one refuses text that is no URL or no e-mail, and Django refuses the
 * 1,100-character URL that the edges once called safe. A runtime that is not installed is skipped, saying so (CI
 * installs them: .ci/run).
 *
 *   node --import tsx --test tests/integration/safe-values.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import validator from 'validator';
import { inputCaseFiles } from '../../contract/input-cases.ts';
import { derive, schemaAt } from '../../generation/arbitraries.ts';
import { callbackBase, customerBody } from '../../generation/bodies.ts';
import { classifyField } from '../../judgment/input-class.ts';
import type { Target } from '../../settings/target.ts';

const here = (file: string): string => fileURLToPath(new URL(`./validators/${file}`, import.meta.url));
const seed = 26;
const sampleSize = 300;

interface Refusal {
  validator: string;
  kind: 'url' | 'email';
  value: string;
  reason: string;
}

interface Verdicts {
  ran: string[];
  skipped: Array<{ validator: string; reason: string }>;
  refused: Refusal[];
}

const runId = 'cc-20261128-a1b2c3';
const safeUrls = fc.sample(derive(schemaAt('create-transaction-body', '/callback_url')) as fc.Arbitrary<string>, {
  numRuns: sampleSize,
  seed,
});
const safeEmails = fc.sample(derive(schemaAt('customer', '/email')) as fc.Arbitrary<string>, {
  numRuns: sampleSize,
  seed,
});
/** The must-accept values of the input cases at a pointer (tests/input-cases). */
const mustAcceptCases = (pointer: string): string[] =>
  inputCaseFiles().flatMap(({ cases }) =>
    cases
      .filter((entry) => entry.pointer === pointer && entry.class === 'must-accept')
      .map((entry) => String(entry.value)),
  );
const suiteEmail = customerBody({ runId } as Target).email;
const urls = [...new Set([...safeUrls, ...mustAcceptCases('/callback_url'), `${callbackBase}/${runId}`])];
const emails = [...new Set([...safeEmails, suiteEmail])];

const controls = { url: ['not a url'], email: ['not an e-mail'] } as const;
/** The value that showed the missing bound on a Django REST framework server: refused by Django's URLField. */
const tooLongUrl = `https://example.com${'/x'.repeat(550)}`;

test('the values checked are the safe layer\'s: each is "must accept" by the suite\'s own classification', () => {
  for (const url of urls)
    assert.equal(classifyField('create-transaction-body', '/callback_url', url).class, 'must-accept', url);
  for (const email of emails)
    assert.equal(classifyField('create-customer-body', '/email', email).class, 'must-accept', email);
  assert.equal(classifyField('create-transaction-body', '/callback_url', tooLongUrl).class, 'accept-or-refuse');
});

const lines = (entries: Array<{ kind: 'url' | 'email'; value: string }>): string =>
  entries.map((entry) => JSON.stringify(entry)).join('\n');
const everything = [
  ...urls.map((value) => ({ kind: 'url' as const, value })),
  ...emails.map((value) => ({ kind: 'email' as const, value })),
];
const controlEntries = [
  ...controls.url.map((value) => ({ kind: 'url' as const, value })),
  ...controls.email.map((value) => ({ kind: 'email' as const, value })),
  { kind: 'url' as const, value: tooLongUrl },
];

/** Why a runtime cannot run here, or null when it can. */
function missing(command: string, args: string[], what: string): string | null {
  const probe = spawnSync(command, args, { encoding: 'utf8', timeout: 30_000 });
  return probe.status === 0 ? null : `${what} is not installed here (${command} ${args.join(' ')} failed)`;
}

function run(command: string, args: string[], input: string): string {
  const result = spawnSync(command, args, { input, encoding: 'utf8', timeout: 180_000, maxBuffer: 32 * 1024 * 1024 });
  assert.equal(result.status, 0, `${command} ${args.join(' ')} failed: ${result.stderr || result.error?.message}`);
  return result.stdout;
}

/** Refusals of the values, listed one per line (a failure names each value and the validator that refused it). */
function assertNoneRefused(refused: readonly Refusal[]): void {
  const shown = refused
    .slice(0, 20)
    .map((entry) => `  ${entry.validator} refused ${entry.kind} ${entry.value}: ${entry.reason}`);
  assert.deepEqual(
    shown,
    [],
    `safe values that mainstream validators refuse (${refused.length}):\n${shown.join('\n')}`,
  );
}

/** Every validator that ran refused every control of its kind (an e-mail validator names e-mail). */
function assertControlsRefused(verdicts: Verdicts): void {
  for (const name of verdicts.ran) {
    const refused = new Set(verdicts.refused.filter((entry) => entry.validator === name).map((entry) => entry.value));
    const expected = name.toLowerCase().includes('mail') ? controls.email : controls.url;
    for (const control of expected) assert.ok(refused.has(control), `${name} accepted the control ${control}`);
  }
}

function checkScript(command: string, args: string[], runtime: string, onlyDjango = false): void {
  const verdicts = JSON.parse(run(command, args, lines(everything))) as Verdicts;
  const controlVerdicts = JSON.parse(run(command, args, lines(controlEntries))) as Verdicts;
  for (const skip of verdicts.skipped)
    process.stdout.write(`# ${runtime}: ${skip.validator} skipped: ${skip.reason}\n`);
  assert.ok(verdicts.ran.length > 0, `${runtime}: no validator ran`);
  assertNoneRefused(verdicts.refused);
  assertControlsRefused(controlVerdicts);
  if (onlyDjango) {
    const django = controlVerdicts.refused.some(
      (entry) => entry.validator.startsWith('Django') && entry.value === tooLongUrl,
    );
    assert.ok(django, "Django's URLField accepted a URL of more than 200 characters");
  }
}

const python = '/usr/bin/python3';
const pythonMissing = existsSync(python)
  ? missing(python, ['-c', 'import django'], "Debian's python3-django")
  : `${python} (Debian's Python) is not installed here`;
test(
  "Python: Django's URLField and EmailField validators, pydantic 1's HttpUrl and EmailStr",
  { skip: pythonMissing ?? false },
  () => checkScript(python, [here('python_validators.py')], 'Python', true),
);

test(
  'PHP: filter_var(FILTER_VALIDATE_URL, FILTER_VALIDATE_EMAIL)',
  { skip: missing('php', ['-v'], 'PHP') ?? false },
  () => checkScript('php', [here('php_filter_var.php')], 'PHP'),
);

test(
  "Rails' formats: URI::DEFAULT_PARSER.make_regexp, URI.parse, URI::MailTo::EMAIL_REGEXP",
  { skip: missing('ruby', ['-e', 'require "uri"'], 'Ruby') ?? false },
  () => checkScript('ruby', [here('rails_formats.rb')], 'Ruby'),
);

test('Java: java.net.URI (RFC 2396) with an http(s) scheme and a host', {
  skip: missing('javac', ['-version'], 'A JDK (javac)') ?? false,
}, () => {
  // Single-file source launch: the JDK compiles UriCheck.java in memory.
  const refused = run('java', [here('UriCheck.java')], urls.join('\n'))
    .split('\n')
    .filter(Boolean);
  assert.deepEqual(refused.slice(0, 20), [], `safe URLs java.net.URI refuses (${refused.length})`);
  const controlRefused = run('java', [here('UriCheck.java')], controls.url.join('\n'))
    .split('\n')
    .filter(Boolean);
  assert.equal(controlRefused.length, controls.url.length, 'java.net.URI accepted a control');
});

test('validator.js: isURL and isEmail with their default options', () => {
  const refused: Refusal[] = [
    ...urls
      .filter((value) => !validator.isURL(value))
      .map((value) => ({ validator: 'validator.js isURL', kind: 'url' as const, value, reason: 'false' })),
    ...emails
      .filter((value) => !validator.isEmail(value))
      .map((value) => ({ validator: 'validator.js isEmail', kind: 'email' as const, value, reason: 'false' })),
  ];
  assertNoneRefused(refused);
  for (const control of controls.url) assert.equal(validator.isURL(control), false, control);
  for (const control of controls.email) assert.equal(validator.isEmail(control), false, control);
});
