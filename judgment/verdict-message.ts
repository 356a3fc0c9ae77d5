/**
 * The message a person reads, rendered from a verdict record: the rule and its kind, the
 * operation and the request, each location with the expected and actual value, the rule's
 * sentence, the reference's words, and a curl command (key masked) that repeats the request.
 * Nothing reads these messages back: the reporters read the records they come from.
 */
import { rule } from '../contract/rules.ts';
import { curlCommand, formatExchange, type Exchange } from '../http/exchange.ts';
import { redact } from '../settings/secrets.ts';
import type { Violation } from './checks.ts';
import type { ExchangeRef, VerdictRecord } from './verdict-record.ts';
import { causeId } from './cause-keys.ts';

/** The reference to an exchange a record keeps: its request named as messages name it, and its masked curl line. */
export function exchangeRef(exchange: Exchange, attachment?: string): ExchangeRef {
  return {
    operation: exchange.operation,
    method: exchange.method,
    path: new URL(exchange.url).pathname,
    status: exchange.status,
    curl: redact(curlCommand(exchange)),
    ...(attachment === undefined ? {} : { attachment }),
  };
}

/** How much of a failing exchange a record keeps as text (a generated body may be megabytes long). */
const transcriptLimit = 16_000;

/** A record of a rule broken (or held, with no violations) by an exchange. */
export function checkRecord(
  ruleId: string,
  exchange: Exchange,
  violations: Violation[],
  options: { precondition?: boolean; lenient?: string } = {},
): VerdictRecord {
  return {
    rule: ruleId,
    kind: violations.length > 0 ? 'broken' : options.lenient !== undefined ? 'lenient' : 'held',
    ...(options.precondition ? { precondition: true } : {}),
    operation: exchange.operation,
    exchange:
      violations.length > 0
        ? { ...exchangeRef(exchange), transcript: formatExchange(exchange).slice(0, transcriptLimit) }
        : exchangeRef(exchange),
    violations: violations.map((violation) => ({ ...violation })),
    ...(options.lenient !== undefined && violations.length === 0 ? { lenient: options.lenient } : {}),
  };
}

/** "POST /v1/transactions → 201", as messages and step titles name a request. */
export function requestLine(ref: Pick<ExchangeRef, 'method' | 'path' | 'status'>): string {
  return `${ref.method} ${ref.path} → ${ref.status}`;
}

/** One line of a violation: where, what was expected, what came. */
export function violationLine(violation: Violation): string {
  return `at ${violation.location}: expected ${violation.expected}, actual ${violation.actual}`;
}

/** The first line of a broken record's message: the rule, its kind, the operation and the request. */
export function headline(record: VerdictRecord): string {
  const entry = rule(record.rule);
  const request = record.exchange === undefined ? '' : `: ${requestLine(record.exchange)}`;
  return (
    `${record.precondition ? 'precondition failed: ' : ''}` +
    `${record.rule} (${entry.kind}) violated by ${record.operation ?? 'an operation'}${request}`
  );
}

/** The whole message of a broken record (masked): what Playwright, JUnit and Allure show for it. */
export function renderVerdict(record: VerdictRecord): string {
  const entry = rule(record.rule);
  const lines = [
    headline(record),
    ...record.violations.map((violation) => `  ${violationLine(violation)}`),
    `  rule: ${entry.text}`,
    `  reference: ${entry.section}: "${entry.reference}"`,
    ...(record.exchange?.curl === undefined ? [] : [`  reproduce: ${record.exchange.curl}`]),
    // Names the assertion in the form Playwright's JUnit reporter reads as an assertion: the test is a <failure>
    // (a non-conformance), not an <error> (what a broken suite or an unreachable target gives).
    `  assertion: expect(answer).toSatisfyRule(${JSON.stringify(record.rule)})`,
    // The cause in the run's summary and reports that this failure is one of (reporters/causes.ts).
    `  cause: ${[...new Set(record.violations.map(causeId))].join(', ')}`,
    ...(record.detail ?? []),
  ];
  return redact(lines.join('\n'));
}

/** The message of a rule broken by an exchange (the record it renders is checkRecord's). */
export function ruleFailureMessage(ruleId: string, exchange: Exchange, violations: Violation[]): string {
  return renderVerdict(checkRecord(ruleId, exchange, violations));
}
