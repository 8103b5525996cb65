import { describe, expect, it } from 'vitest';
import { snapshotKindOf, SnapshotKindError } from '../../../build-scripts/snapshot/snapshot-kind.js';

const DIR = '/sources';
const DEMO = ['D1101', 'D1102', 'D1103', 'D1104'];
const REAL = ['1101', '2330', '6488'];

const kindOf = (tickers: string[], more: { manifestKind?: 'demo' | 'production'; requested?: 'demo' | 'production' } = {}) =>
  snapshotKindOf({ sourcesDir: DIR, tickers, ...more });

describe('a snapshot’s kind follows its sources', () => {
  it('demo tickers make a demo, real ones production, when no kind is asked for', () => {
    expect(kindOf(DEMO)).toBe('demo');
    expect(kindOf(REAL)).toBe('production');
  });

  it('the kind asked for is granted when the sources agree', () => {
    expect(kindOf(DEMO, { requested: 'demo' })).toBe('demo');
    expect(kindOf(REAL, { requested: 'production' })).toBe('production');
    expect(kindOf(DEMO, { manifestKind: 'demo', requested: 'demo' })).toBe('demo');
  });

  it('refuses production for demo sources, whatever the manifest says, and says why', () => {
    for (const manifestKind of [undefined, 'demo', 'production'] as const) {
      expect(() => kindOf(DEMO, { manifestKind, requested: 'production' })).toThrow(SnapshotKindError);
    }
    expect(() => kindOf(DEMO, { requested: 'production' })).toThrow(
      /refused to publish a production snapshot: the sources in \/sources are the demo universe's fictional companies \(every company ticker starts with D \(D1101, D1102, D1103, …\)\)/,
    );
  });

  it('a fetch’s manifest (kind production) over demo data is still a demo', () => {
    expect(kindOf(DEMO, { manifestKind: 'production' })).toBe('demo');
  });

  it('refuses demo for real sources: the demo disclaimer would call real companies fictional', () => {
    expect(() => kindOf(REAL, { requested: 'demo' })).toThrow(/refused to publish a demo snapshot: .* real listings \(1101, 2330, 6488\).*fictional/);
  });

  it('a folder mixing demo and real companies is neither', () => {
    for (const requested of [undefined, 'demo', 'production'] as const) {
      expect(() => kindOf([...DEMO, '2330'], { requested })).toThrow(
        /mix the demo universe's fictional companies \(4 tickers starting with D.*real listings \(1: 2330\)/,
      );
    }
  });

  it('a manifest that says demo over real tickers lies about the folder', () => {
    expect(() => kindOf(REAL, { manifestKind: 'demo' })).toThrow(/manifest\.json says kind "demo", but the 3 companies are real listings/);
  });

  it('with no companies, the demo marker, else the kind asked for, else production', () => {
    expect(kindOf([], { manifestKind: 'demo' })).toBe('demo');
    expect(() => kindOf([], { manifestKind: 'demo', requested: 'production' })).toThrow(/its manifest\.json says kind "demo"/);
    expect(kindOf([], { requested: 'demo' })).toBe('demo');
    expect(kindOf([])).toBe('production');
  });
});
