/**
 * Competition ranking (1, 2, 2, 4) by score descending, and percentile =
 * round(100 × companies with a strictly lower score / companies, 1). Computed once per snapshot.
 */
export function rankScores(scores: readonly number[]): { rank: number; percentile: number }[] {
  const n = scores.length;
  const sorted = [...scores].sort((a, b) => b - a);
  // For each distinct score: how many are strictly higher (rank − 1) and strictly lower.
  const higher = new Map<number, number>();
  sorted.forEach((s, i) => {
    if (!higher.has(s)) higher.set(s, i);
  });
  return scores.map((s) => {
    const above = higher.get(s)!;
    const equal = sorted.lastIndexOf(s) - above + 1;
    const lower = n - above - equal;
    return { rank: above + 1, percentile: Math.round((1000 * lower) / n) / 10 };
  });
}
