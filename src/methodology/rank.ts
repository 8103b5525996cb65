/**
 * Competition ranking (1, 2, 2, 4) by score descending, and percentile =
 * round(100 × companies with a strictly lower score / companies, 1). Computed once per snapshot,
 * in O(n log n): counts per distinct score, then running sums.
 */
export function rankScores(scores: readonly number[]): { rank: number; percentile: number }[] {
  const n = scores.length;
  const counts = new Map<number, number>();
  for (const s of scores) counts.set(s, (counts.get(s) ?? 0) + 1);
  const distinct = [...counts.keys()].sort((a, b) => b - a);
  const higher = new Map<number, number>();
  let above = 0;
  for (const s of distinct) {
    higher.set(s, above);
    above += counts.get(s)!;
  }
  return scores.map((s) => {
    const h = higher.get(s)!;
    const lower = n - h - counts.get(s)!;
    return { rank: h + 1, percentile: Math.round((1000 * lower) / n) / 10 };
  });
}
