/**
 * The official 統一編號 check (Ministry of Finance), written for the tests independently of the demo
 * generator: weights 1,2,1,2,1,2,4,1; each product's two digits summed; valid when the total is
 * divisible by 5. A seventh digit 7 (product 28 → 10) may count as 1 or as 0, so either total may be
 * the one that divides.
 */
export function officiallyValid(ubn: string): boolean {
  const weights = [1, 2, 1, 2, 1, 2, 4, 1];
  const digitSum = (n: number) =>
    String(n)
      .split('')
      .reduce((s, d) => s + Number(d), 0);
  const products = [...ubn].map((d, i) => digitSum(Number(d) * weights[i]!));
  const totals =
    ubn[6] === '7' ? [0, 1].map((seventh) => products.reduce((s, p, i) => s + (i === 6 ? seventh : p), 0)) : [products.reduce((s, p) => s + p, 0)];
  return totals.some((t) => t % 5 === 0);
}
