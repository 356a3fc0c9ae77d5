/**
 * What judged traffic's reports say, from exchanges written by hand through the judge and its
 * session (reporters/judging-session.ts, traffic-collector.ts, traffic-report.ts): client findings
 * counted once per request, a request outside the reference counted as the client's (and only when
 * it went to the API), the summary's first line when --fail-on-client decides the exit code, the
 * suite itself named as the client, why a rule was not exercised with a request that would have
 * been; and where the proxy writes its reports beside a run of the suite it carried.
 *
 *   node --import tsx --test tests/unit/traffic-report.test.ts
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { classifyBody } from '../../judge/body-class.ts';
import { mustAcceptCreation, mustAcceptSend } from '../../judge/must-accept-example.ts';
import type { JudgeOptions } from '../../judge/traffic-judge.ts';
import type { TrafficExchange } from '../../judge/traffic-exchange.ts';
import { judgeOptions, pinned, trafficSequence } from './traffic-exchanges.ts';
import { CountedRecords } from '../../judgment/counted-records.ts';
import type { VerdictRecord } from '../../judgment/verdict-record.ts';
import { noteProxiedRun, proxiedRuns, proxyReportPlaces } from '../../output/proxied-runs.ts';
import { JudgingSession } from '../../reporters/judging-session.ts';

const scratch = mkdtempSync(join(tmpdir(), 'cc-traffic-report-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const key = 'sk_sandbox_traffic_report_0001';
const base = 'http://127.0.0.1:9/v1';
const now = Date.parse('2026-11-28T01:24:44Z');
const stamp = new Date(now).toISOString();
const options = (overrides: Partial<JudgeOptions> = {}): JudgeOptions => judgeOptions(key, now, overrides);

const next = trafficSequence();
function exchange(
  method: string,
  url: string,
  status: number,
  answer: unknown,
  body?: unknown,
  credential: string | null = key,
): TrafficExchange {
  return next({
    method,
    url: url.startsWith('http') ? url : `${base}${url}`,
    status,
    responseBody: answer === undefined ? '' : JSON.stringify(answer),
    requestBody: body === undefined ? undefined : JSON.stringify(body),
    credential,
    source: (entry) => ({ kind: 'har', file: 'client.har', entry }),
    at: now,
  });
}

const creation = { description: 'x', amount: 1500, currency: { iso: 'XOF' } };
const created = (id: number) => ({
  id,
  reference: `trx_${id}`,
  status: 'pending',
  amount: 1500,
  description: 'x',
  callback_url: '',
  currency_id: 1,
  customer_id: null,
  mode: null,
  custom_metadata: {},
  created_at: stamp,
  updated_at: stamp,
});
const error = (status: number) => ({ error: { status, message: 'no' } });

let reportIndex = 0;
function report(session: JudgingSession, extra: { failOnClient?: boolean; suiteRuns?: string[] } = {}) {
  const outputDir = join(scratch, `report-${reportIndex++}`);
  mkdirSync(outputDir);
  const verdict = session.report({
    outputDir,
    allureResultsDir: join(outputDir, 'allure-results'),
    header: { target: 'recorded traffic', environment: 'recorded', runId: 'cc-test', finishedAt: stamp, traffic: true },
    origin: 'client.har',
    skipped: [],
    credentialsRecorded: true,
    notes: [],
    ...extra,
  });
  const read = (name: string) => readFileSync(join(outputDir, name), 'utf8');
  return { verdict, read };
}

describe('client findings in the reports', () => {
  test('one broken request is one finding, listed once', () => {
    const session = new JudgingSession(options());
    session.take(
      exchange('POST', '/transactions/mtn', 400, error(400), {
        token: 'tok_1',
        phone_number: { number: 22997000001, country: 'BJ' },
      }),
    );
    const { verdict, read } = report(session);
    assert.equal(verdict.clientFindings, 1);
    const listed = read('client-findings.md')
      .split('\n')
      .filter((line) => line.startsWith('- '));
    assert.equal(listed.length, 1, listed.join('\n'));
    assert.match(listed[0]!, /phone_number\/number/);
  });

  test('a request outside the reference is a finding, not judged; alone it fails the run by --fail-on-client', () => {
    const session = new JudgingSession(options());
    session.take(exchange('POST', '/transactions', 201, created(4301), creation));
    session.take(exchange('POST', '/mtn', 404, error(404), { token: 'tok_1' }));
    const { verdict, read } = report(session, { failOnClient: true });
    assert.equal(verdict.serverFindings, 0);
    assert.equal(verdict.clientFindings, 1);
    assert.equal(verdict.judged, 1, 'the exchange outside the reference is not counted as judged');
    assert.match(
      verdict.summary[0]!,
      /^collect-conformance: summary: 1 client finding\(s\) fail the run \(--fail-on-client\); /,
    );
    assert.match(
      read('client-findings.md'),
      /POST \/v1\/mtn → 404: at method and path: expected an operation the reference defines/,
    );
    assert.match(read('traffic-coverage.md'), /### Outside the reference \(1,/);
  });

  test('without --fail-on-client, or with a server finding, the first line is the server’s', () => {
    const session = new JudgingSession(options());
    session.take(exchange('POST', '/transactions', 201, created(4302), creation));
    session.take(exchange('POST', '/mtn', 404, error(404), { token: 'tok_1' }));
    assert.match(report(session).verdict.summary[0]!, /^collect-conformance: summary: no rule broken; /);
  });

  test('requests to another service of a recording (no operation of the reference there) are no findings', () => {
    const session = new JudgingSession(options({ basePath: undefined }));
    session.take(exchange('POST', 'https://analytics.example/v1/collect', 204, undefined, { event: 'x' }));
    session.take(exchange('POST', '/transactions', 201, created(4303), creation));
    const { verdict } = report(session);
    assert.equal(verdict.clientFindings, 0);
  });

  test('the suite as the client: its findings are said to be its own deliberate invalid requests', () => {
    const session = new JudgingSession(options());
    session.take(exchange('POST', '/transactions', 400, error(400), { ...creation, amount: 'abc' }));
    const { verdict, read } = report(session, { suiteRuns: ['/tmp/reports'] });
    const text = verdict.summary.join('\n');
    assert.match(text, /client findings: 1 request\(s\) \(the suite's own deliberate invalid requests;/);
    assert.match(
      text,
      /^ {2}client: collect-conformance's own run \(its reports: \/tmp\/reports\): its client findings/m,
    );
    assert.match(read('client-findings.md'), /deliberate invalid requests/);
  });
});

describe('why a rule was not exercised', () => {
  test('sends that were all accept or refuse: which input made them so, and what a must-accept one looks like', () => {
    const session = new JudgingSession(options());
    session.take(exchange('POST', '/transactions', 201, created(4401), { ...creation, description: 'café' }));
    session.take(
      exchange('POST', '/transactions/4401/token', 200, { token: 'tok_4401', url: 'https://pay.example/tok_4401' }),
    );
    session.take(
      exchange('POST', '/transactions/mtn', 400, error(400), {
        token: 'tok_4401',
        phone_number: { number: '+33612345678', country: 'FR' },
      }),
    );
    const coverage = report(session).read('traffic-coverage.md');
    const line = (ruleId: string) =>
      coverage.split('\n').find((candidate) => new RegExp(`^- (?:[A-Z0-9-]+, )*${ruleId}[ ,]`).test(candidate));
    for (const ruleId of ['SEND-2XX', 'SEND-TOKEN-AS-RETURNED', 'TXN-CREATE-2XX']) {
      assert.match(line(ruleId) ?? '', /only a request owed acceptance exercises it, and none came/, ruleId);
      assert.match(line(ruleId) ?? '', /one owed acceptance: POST \/transactions/, ruleId);
    }
    assert.match(line('SEND-2XX')!, /the first accept or refuse sent .*"\+33612345678".*target's own value/);
    assert.match(line('TXN-CREATE-2XX')!, /"café"/);
    // An operation the traffic never called: said once, for all its rules.
    assert.match(coverage, /^- getCurrency: no exchange of it/m);
  });

  test('the requests shown as owed acceptance are, for the judge: must accept', () => {
    const values = { pinned, paymentMode: 'mtn' };
    const creationBody = classifyBody(
      'create-transaction-body',
      JSON.stringify(mustAcceptCreation(values)),
      'application/json',
      {},
      pinned,
    );
    assert.equal(creationBody.kind === 'classified' && creationBody.input.class, 'must-accept');
    const send = classifyBody(
      'send-transaction-body',
      JSON.stringify(mustAcceptSend(values, 'tok_1')),
      'application/json',
      { '/token': () => true },
      pinned,
    );
    assert.equal(send.kind === 'classified' && send.input.class, 'must-accept');
  });
});

describe('records counted, not repeated', () => {
  test('the first of a key is kept without its curl line and transcript; the others add to its count', () => {
    const counted = new CountedRecords();
    const record: VerdictRecord = {
      rule: 'BALANCE-2XX',
      kind: 'held',
      violations: [],
      exchange: {
        operation: 'getBalance',
        method: 'GET',
        path: '/balances/1',
        status: 200,
        curl: 'curl x',
        transcript: 't',
      },
    };
    const first = counted.count('k', record);
    assert.deepEqual(first?.exchange, { operation: 'getBalance', method: 'GET', path: '/balances/1', status: 200 });
    assert.equal(counted.count('k', { ...record, count: 3 }), undefined);
    assert.equal(first?.count, 4);
    assert.ok(counted.count('other', record) !== undefined);
  });
});

describe('the proxy’s reports beside a run of the suite it carried', () => {
  test('a run through the proxy notes where its reports go; the proxy then writes its own in proxy/', () => {
    const file = join(scratch, 'runs.jsonl');
    const env = { COLLECT_CONFORMANCE_PROXY_RUNS: file, COLLECT_CONFORMANCE_PROXY_URL: 'http://127.0.0.1:4100/v1' };
    noteProxiedRun(env, 'http://127.0.0.1:4100/v1/', {
      outputDir: '/w/reports',
      allureResultsDir: '/w/reports/allure-results',
    });
    noteProxiedRun(env, 'http://127.0.0.1:4999/v1', {
      outputDir: '/w/other',
      allureResultsDir: '/w/other/allure-results',
    });
    const runs = proxiedRuns(file);
    assert.deepEqual(runs, [{ outputDir: '/w/reports', allureResultsDir: '/w/reports/allure-results' }]);
    assert.deepEqual(
      proxyReportPlaces({ outputDir: '/w/reports', allureResultsDir: '/w/reports/allure-results' }, runs),
      {
        outputDir: '/w/reports/proxy',
        allureResultsDir: '/w/reports/proxy/allure-results',
        moved: true,
      },
    );
    assert.deepEqual(
      proxyReportPlaces({ outputDir: '/w/traffic', allureResultsDir: '/w/traffic/allure-results' }, runs),
      {
        outputDir: '/w/traffic',
        allureResultsDir: '/w/traffic/allure-results',
        moved: false,
      },
    );
    assert.deepEqual(proxiedRuns(join(scratch, 'missing.jsonl')), []);
  });
});
