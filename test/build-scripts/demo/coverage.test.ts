import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ARCHETYPES, expectedResult } from '../../../build-scripts/demo/archetypes.js';
import { generateDemo } from '../../../build-scripts/demo/generate.js';
import { tickerFor } from '../../../build-scripts/demo/ids.js';
import { DEMO_SERIES_START } from '../../../build-scripts/demo/series.js';
import { evaluateDemo } from './reference-methodology.js';

const BRANCHES = [
  'disclosure:scope12',
  'disclosure:no-scope12',
  'disclosure:scope3',
  'disclosure:no-scope3',
  'timeliness:10',
  'timeliness:5',
  'timeliness:0-older',
  'timeliness:0-none',
  'assurance:reasonable',
  'assurance:limited',
  'assurance:none',
  'assurance:halved-reasonable',
  'assurance:halved-limited',
  'compliance:clean',
  'compliance:count',
  'compliance:tier-4',
  'compliance:tier-8',
  'compliance:tier-12',
  'compliance:serious',
  'compliance:floor',
  'consistency:1',
  'consistency:2',
  'consistency:3',
  'consistency:4',
  'consistency:5',
  'verdict:credible',
  'verdict:decent',
  'verdict:questionable',
  'verdict:poor',
];
const FLAGS = ['GF-A01', 'GF-C01', 'GF-D01', 'GF-D02', 'GF-F01', 'GF-P01', 'GF-P02', 'GF-V01'];

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

// The default demo (as of 31 October, after the reporting deadline: E(D) = year(D) − 1), and the
// evolving demo's first month (31 August, the deadline itself: E(D) = year(D) − 2).
describe.each([
  [1800, 'the default date', undefined],
  [50, 'the default date', undefined],
  [1800, DEMO_SERIES_START, DEMO_SERIES_START],
])('methodology coverage with %i companies as of %s', (companies, _, asof) => {
  it('makes every branch and flag occur, and each archetype scores as intended', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'demo-cov-'));
    dirs.push(dir);
    await generateDemo({ outDir: dir, companies, ...(asof ? { asof } : {}) });
    const { results, obligated, notes, asof: D } = evaluateDemo(dir);
    expect(notes).toEqual([]);
    const branches = new Set([...results.values()].flatMap((r) => r.branches));
    const flags = new Set([...results.values()].flatMap((r) => r.flags));
    for (const b of BRANCHES) expect(branches.has(b), b).toBe(true);
    for (const f of FLAGS) expect(flags.has(f), f).toBe(true);
    ARCHETYPES.forEach((a, i) => {
      const r = results.get(tickerFor(i, companies));
      expect(r, a.id).toBeDefined();
      const expected = expectedResult(a, D);
      expect({ id: a.id, score: r?.score, flags: r?.flags }).toEqual({ id: a.id, score: expected.score, flags: [...expected.flags].sort() });
    });
    // Ties in score.
    const scores = [...results.values()].map((r) => r.score);
    expect(new Set(scores).size).toBeLessThan(scores.length);
    if (companies === 1800) {
      expect(obligated).toBeGreaterThan(100);
      expect(obligated).toBeLessThan(170);
    }
  });
});
