/**
 * A property's generated cases, run several at a time (http/in-flight.ts says how many),
 * without giving up what makes a failure reproducible.
 *
 * fast-check runs a property's cases one after another. Here the cases are drawn first, with
 * fc.sample of the property's arbitrary, its examples first, and the run's seed: the same values,
 * in the same order, that fc.check draws with that seed (tests/unit/in-flight.test.ts holds the
 * two together), so case i is the case of path "i". They run in flight; on a failure nothing more starts, the cases
 * already started end, and the failure of the lowest index is the one reported: every lower case had
 * started and passed, so it does not depend on the order answers came in. The property runner then
 * replays that case alone by its path, and fast-check shrinks it as it would have
 * (generation/properties.ts): the seed, path and minimal counterexample are those of a run
 * of one case at a time.
 */
import { inFlight } from '../http/in-flight.ts';

/** What fast-check's RunDetails says of a run, as the property runner reports it. */
export interface CaseRunDetails<T> {
  failed: boolean;
  interrupted: boolean;
  seed: number;
  numRuns: number;
  numShrinks: number;
  counterexample: [T] | null;
  counterexamplePath: string | null;
  errorInstance: unknown;
}

export interface CasesInFlight<T, F> {
  details: CaseRunDetails<T>;
  /** The lowest index of a failing case, if one failed. */
  failedIndex: number | undefined;
  /** That case's failure, as runOne returned it. */
  failure: F | undefined;
  /** The budget ran out before any case ended: only what ran of the first case was checked. */
  stoppedInFirstCase: boolean;
}

/**
 * Runs the drawn cases in flight until one fails, all have run, or the budget (ms) is spent; then
 * stops starting cases and calls onBudget (which stops the cases still running). runOne gives the
 * failure of a case, or undefined when it passed (or was abandoned); it must not reject.
 */
export async function casesInFlight<T, F>(
  drawn: ReadonlyArray<[T]>,
  seed: number,
  runOne: (value: T) => Promise<F | undefined>,
  budgetMs: number,
  onBudget: () => void,
  limit: () => number,
): Promise<CasesInFlight<T, F>> {
  const deadline = performance.now() + budgetMs;
  let interrupted = false;
  let ended = 0;
  let failedIndex: number | undefined;
  let failure: F | undefined;
  const timer = setTimeout(() => {
    interrupted = true;
    onBudget();
  }, budgetMs);
  try {
    await inFlight(
      drawn.length,
      limit,
      async (index) => {
        const found = await runOne((drawn[index] as [T])[0]);
        if (found === undefined) {
          // A case abandoned when the budget stopped the property did not end: only those before it count.
          if (!interrupted) ended++;
          return true;
        }
        // The cases still running end as they would (each request is bounded by its timeout): the failure
        // found is reported, and shrunk, whatever the budget says meanwhile.
        clearTimeout(timer);
        if (failedIndex === undefined || index < failedIndex) {
          failedIndex = index;
          failure = found;
        }
        return false;
      },
      () => {
        if (performance.now() < deadline) return true;
        if (failedIndex === undefined) interrupted = true;
        return false;
      },
    );
  } finally {
    clearTimeout(timer);
  }
  const failed = failedIndex !== undefined;
  return {
    details: {
      failed,
      // A failure found is reported whatever the budget did meanwhile.
      interrupted: interrupted && !failed,
      seed,
      numRuns: failed ? (failedIndex as number) + 1 : ended,
      numShrinks: 0,
      counterexample: failed ? (drawn[failedIndex as number] as [T]) : null,
      counterexamplePath: failed ? String(failedIndex) : null,
      errorInstance: failed ? (failure as { error?: unknown }).error : null,
    },
    failedIndex,
    failure,
    stoppedInFirstCase: interrupted && !failed && ended === 0,
  };
}

/** A seed as fast-check draws one when none is given: a 32-bit integer from the clock and Math.random. */
export function freshSeed(): number {
  return (Date.now() ^ (Math.random() * 0x100000000)) | 0;
}
