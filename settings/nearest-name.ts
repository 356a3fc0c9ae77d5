/**
 * The suggestion for a mistyped name (a variable, a flag, an operation): the known name at the
 * smallest edit distance, when it is near enough to be what was meant.
 */

/** Edit distance (insertions, deletions, substitutions). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The known name nearest to `name`, compared as `fold` writes both (upper case for variables, lower
 * case for flags), or undefined when even the nearest is too far to be a correction.
 */
export function nearestName(
  name: string,
  known: readonly string[],
  fold: (text: string) => string = (text) => text,
): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(fold(name), fold(candidate));
    if (best === undefined || distance < best.distance) best = { name: candidate, distance };
  }
  // Beyond a third of the name, a suggestion is a guess, not a correction.
  return best !== undefined && best.distance <= Math.max(2, Math.floor(name.length / 3)) ? best.name : undefined;
}
