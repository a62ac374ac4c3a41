/** The closest known word to a misspelt one (Levenshtein distance at most 2), for "did you mean" hints. */
export function closest(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    const d = distance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  return best;
}

function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The hint for an unknown option key. */
export function unknownKeyHint(key: string, known: readonly string[]): string {
  const guess = closest(key, known);
  return guess ? `Did you mean "${guess}"? Known options: ${known.join(", ")}.` : `Known options: ${known.join(", ")}.`;
}
