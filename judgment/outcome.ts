/**
 * The verdict on the answer to an input of a known class (judgment/input-class.ts):
 *
 * - must accept: a 2xx, and the answer conforms (`accepted`, for the value as sent);
 * - must refuse: a 4xx (never a 2xx, never a 5xx);
 * - accept or refuse: a 4xx; or a 2xx whose answer conforms and carries the value as the
 *   server read it (`accepted` holds for at least one reading); never a 5xx. With --strict, a
 *   lenient reading must be refused. Without it, an input --strict would refuse that the
 *   target accepted passes, and is reported as lenient (annotation, matrix, Allure label,
 *   console warning), so that what --strict would fail stays visible.
 */
import { isClientError, isSuccess, type Violation } from './checks.ts';
import { effectiveClass, type ClassifiedInput } from './input-class.ts';
import type { Exchange } from '../http/exchange.ts';
import type { Reading } from './readings.ts';

export interface InputVerdict {
  violations: Violation[];
  /** Set when the target accepted what --strict refuses (default mode): one line saying so. */
  lenient: string | null;
}

/** Checks of an accepted answer, for one reading of the input. */
export type AcceptedChecks = (reading: Reading) => Violation[];

function readingText(reading: Reading): string {
  switch (reading.kind) {
    case 'as-sent':
      return 'as sent';
    case 'coerced':
      return `${reading.how}`;
    case 'absent':
      return reading.how;
  }
}

/** The input's class and reason, as the expected side of a status violation says it. */
function classText(input: ClassifiedInput, strict: boolean): string {
  const klass = effectiveClass(input, strict);
  const strictNote = klass !== input.class ? '; --strict refuses what only a lenient reading makes valid' : '';
  return `${input.what}: ${klass.replace(/-/g, ' ')} (${input.why}${strictNote})`;
}

/** The field an input sets, for the status violation of its answer. */
const subjectOf = (input: ClassifiedInput): { subject?: string } =>
  input.subject === undefined ? {} : { subject: input.subject };

export function judgeInput(
  exchange: Pick<Exchange, 'status'>,
  input: ClassifiedInput,
  strict: boolean,
  accepted: AcceptedChecks,
): InputVerdict {
  const klass = effectiveClass(input, strict);
  const status = String(exchange.status);
  if (klass === 'must-refuse') {
    return {
      violations: isClientError(exchange.status)
        ? []
        : [
            {
              location: 'status',
              expected: `a 4xx status; input ${classText(input, strict)}`,
              actual: status,
              ...subjectOf(input),
            },
          ],
      lenient: null,
    };
  }
  if (klass === 'must-accept') {
    if (!isSuccess(exchange.status))
      return {
        violations: [
          {
            location: 'status',
            expected: `a 2xx status; input ${classText(input, strict)}`,
            actual: status,
            ...subjectOf(input),
          },
        ],
        lenient: null,
      };
    return { violations: accepted(input.readings[0] ?? { kind: 'as-sent', value: undefined }), lenient: null };
  }
  // accept or refuse
  if (isClientError(exchange.status)) return { violations: [], lenient: null };
  if (!isSuccess(exchange.status)) {
    return {
      violations: [
        {
          location: 'status',
          expected:
            `a 4xx (refused) or a 2xx with a conforming answer (accepted), ` +
            `never a 5xx; input ${classText(input, strict)}`,
          actual: status,
          ...subjectOf(input),
        },
      ],
      lenient: null,
    };
  }
  let first: Violation[] | undefined;
  for (const reading of input.readings) {
    const violations = accepted(reading);
    if (violations.length === 0) {
      const lenient = input.strictRefuses
        ? `${input.what} accepted with ${status} (${readingText(reading)}); --strict requires a 4xx`
        : null;
      return { violations: [], lenient };
    }
    first ??= violations.map((violation) => ({
      ...violation,
      expected: `${violation.expected} (the input accepted ${readingText(reading)}: ${input.what})`,
    }));
  }
  return { violations: first ?? [], lenient: null };
}
