/**
 * A verdict is a record, not a sentence: every judgment the suite makes (a check of the registry,
 * an input's outcome, a precondition, a rule left unchecked because another broke first or the
 * test was skipped, a lenient pass, a target that could not be reached) is one VerdictRecord. The
 * reporters (matrix, rule coverage, JUnit, Allure labels, the closing summary, the exit code) read
 * records only; the message a person reads is rendered from a record (verdict-message.ts). Records
 * come from a Playwright test (attached to its result: verdict-sink.ts) or from any other source
 * of judged exchanges, such as traffic the suite did not make itself.
 */
import type { Violation } from './checks.ts';

export type { Violation } from './checks.ts';

/**
 * What a record says of its rule:
 * - held: the rule was checked and holds; lenient: it holds only through a lenient reading (--strict fails it);
 * - broken: the target broke the rule (a non-conformance);
 * - blocked: not checked, because a step the check needed broke another rule first;
 * - skipped: not checked, for the reason given (a variable not set, a write refused on live...);
 * - unavailable, rate-limited: not decided, because the target could not be reached or kept answering 429;
 * - suite-error: not decided, because of an error of the suite itself.
 */
export const verdictKinds = [
  'held',
  'lenient',
  'broken',
  'blocked',
  'skipped',
  'unavailable',
  'rate-limited',
  'suite-error',
] as const;
export type VerdictKind = (typeof verdictKinds)[number];

/** The exchange a record judged: enough to name it, and where its masked request and answer are. */
export interface ExchangeRef {
  operation: string;
  method: string;
  /** The path relative to the base address (/transactions/12/token). */
  path: string;
  status: number;
  /** The name of the attachment (or traffic entry) holding the masked request and answer. */
  attachment?: string;
  /** A curl command that repeats the request, the key masked. */
  curl?: string;
  /** The masked request and answer as text, kept for a broken rule (a report shows them beside the failure). */
  transcript?: string;
}

/** Where a record came from: a test of the suite, an exchange seen by the proxy, an entry of a recorded HAR. */
export type VerdictSource =
  | { kind: 'test'; title: string; location: string }
  | { kind: 'proxy'; exchange: number }
  | { kind: 'har'; file: string; entry: number };

export interface VerdictRecord {
  rule: string;
  kind: VerdictKind;
  /** Held or broken as a precondition: a step the test relied on, not the rule the test is about. */
  precondition?: boolean;
  operation?: string;
  exchange?: ExchangeRef;
  /** Where the answer broke the rule (status, header or JSON pointer), with the expected and actual value. */
  violations: Violation[];
  /** lenient: what --strict would refuse in the answer. */
  lenient?: string;
  /** skipped, blocked, unavailable, rate-limited, suite-error: why, in one line. */
  reason?: string;
  /** blocked: the rule whose failure stopped the check. */
  blockedBy?: string;
  /** held and lenient records of the same rule, operation and status are counted, not repeated. */
  count?: number;
  /** More lines of a generated failure: seed, path, the minimal counterexample, the replay command. */
  detail?: string[];
  source?: VerdictSource;
}

/** The attachment a test's records travel in, from the worker to the reporters (and through blob reports). */
export const verdictAttachment = {
  name: 'verdict-records.json',
  contentType: 'application/vnd.collect-conformance.verdicts+json',
} as const;

/** The annotation of a test that failed only on causes other tests reported first: their titles. */
export const sameCauseAnnotation = 'same cause as';

export interface VerdictAttachmentBody {
  version: 1;
  records: VerdictRecord[];
}

/** The records of an attachment body; an unreadable body (another version, a corrupt file) holds none. */
export function recordsOfAttachment(body: Buffer | string | undefined): VerdictRecord[] {
  if (body === undefined) return [];
  try {
    const parsed = JSON.parse(
      typeof body === 'string' ? body : body.toString('utf8'),
    ) as Partial<VerdictAttachmentBody>;
    return parsed.version === 1 && Array.isArray(parsed.records) ? parsed.records : [];
  } catch {
    return [];
  }
}

/** True for the records that decide nothing about the target's conformance of their rule. */
export const isUndecided = (record: Pick<VerdictRecord, 'kind'>): boolean =>
  record.kind === 'unavailable' || record.kind === 'rate-limited' || record.kind === 'suite-error';

/** True for the records of a check that was made (held, lenient or broken). */
export const isChecked = (record: Pick<VerdictRecord, 'kind'>): boolean =>
  record.kind === 'held' || record.kind === 'lenient' || record.kind === 'broken';
