import { describe, expect, it } from 'vitest';
import { rankScores } from '../../../src/methodology/rank.js';

describe('rankScores: competition ranking and percentile', () => {
  it('ranks [90, 80, 80, 70] as 1, 2, 2, 4 with percentiles 75, 25, 25, 0', () => {
    expect(rankScores([90, 80, 80, 70])).toEqual([
      { rank: 1, percentile: 75 },
      { rank: 2, percentile: 25 },
      { rank: 2, percentile: 25 },
      { rank: 4, percentile: 0 },
    ]);
  });

  it('keeps the input order (results are per input position)', () => {
    expect(rankScores([70, 80, 90, 80])).toEqual([
      { rank: 4, percentile: 0 },
      { rank: 2, percentile: 25 },
      { rank: 1, percentile: 75 },
      { rank: 2, percentile: 25 },
    ]);
  });

  it('a single company is rank 1, percentile 0', () => {
    expect(rankScores([55])).toEqual([{ rank: 1, percentile: 0 }]);
  });

  it('all equal scores share rank 1 and percentile 0', () => {
    expect(rankScores([50, 50, 50, 50])).toEqual(Array(4).fill({ rank: 1, percentile: 0 }));
  });

  it('an empty universe gives nothing', () => {
    expect(rankScores([])).toEqual([]);
  });

  it('rounds the percentile to one decimal (n = 3)', () => {
    expect(rankScores([3, 2, 1])).toEqual([
      { rank: 1, percentile: 66.7 },
      { rank: 2, percentile: 33.3 },
      { rank: 3, percentile: 0 },
    ]);
  });

  it('rounds the percentile to one decimal (n = 7)', () => {
    const r = rankScores([70, 60, 50, 40, 30, 20, 10]);
    expect(r.map((x) => x.percentile)).toEqual([85.7, 71.4, 57.1, 42.9, 28.6, 14.3, 0]);
    expect(r.map((x) => x.rank)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('counts only strictly lower scores, with ties below and above', () => {
    // 100 > 60 = 60 = 60 > 10 = 10
    expect(rankScores([60, 10, 100, 60, 10, 60])).toEqual([
      { rank: 2, percentile: 33.3 },
      { rank: 5, percentile: 0 },
      { rank: 1, percentile: 83.3 },
      { rank: 2, percentile: 33.3 },
      { rank: 5, percentile: 0 },
      { rank: 2, percentile: 33.3 },
    ]);
  });

  it('handles the extremes 0 and 100', () => {
    expect(rankScores([0, 100])).toEqual([
      { rank: 2, percentile: 0 },
      { rank: 1, percentile: 50 },
    ]);
  });

  it('percentile matches the formula on a larger universe', () => {
    const scores = Array.from({ length: 1001 }, (_, i) => (i * 37) % 101);
    const out = rankScores(scores);
    scores.forEach((s, i) => {
      const lower = scores.filter((x) => x < s).length;
      const higher = scores.filter((x) => x > s).length;
      expect(out[i]!.rank).toBe(higher + 1);
      expect(out[i]!.percentile).toBeCloseTo(Math.round((1000 * lower) / scores.length) / 10, 10);
    });
  });
});
