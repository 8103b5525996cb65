import { describe, expect, it } from 'vitest';
import { nearestToRunningOut, type CountedBucket } from '../../../server/access/headers.js';
import { quotasFor, tiersIncluding, windowOf } from '../../../src/contract/tiers.js';

describe('windows', () => {
  const midnight = Date.UTC(2026, 11, 31, 24, 0, 0); // 2027-01-01 00:00 UTC
  it('daily buckets run from 00:00 UTC to 00:00 UTC', () => {
    expect(windowOf('calls/day', midnight - 1)).toEqual({ id: '2026-12-31', endMs: midnight, seconds: 86400 });
    expect(windowOf('batch/day', midnight)).toEqual({ id: '2027-01-01', endMs: midnight + 86_400_000, seconds: 86400 });
  });
  it('the minute bucket is the clock minute', () => {
    const a = windowOf('calls/min', midnight - 1);
    const b = windowOf('calls/min', midnight);
    expect(a.endMs).toBe(midnight);
    expect(b.endMs).toBe(midnight + 60_000);
    expect(a.id).not.toBe(b.id);
    expect(windowOf('calls/min', midnight + 59_999).id).toBe(b.id);
  });
});

describe('tiers', () => {
  it('commercial keys override calls/day and calls/min only; other tiers ignore overrides', () => {
    expect(quotasFor('commercial', { daily: 7, perMinute: 3 })).toMatchObject({
      'calls/day': 7,
      'calls/min': 3,
      'batch/day': 10000,
      'csv/day': null,
      'packs/day': 50,
    });
    expect(quotasFor('commercial', { daily: null, perMinute: null })).toMatchObject({ 'calls/day': 100000, 'calls/min': 300 });
    expect(quotasFor('academic', { daily: 7 })['calls/day']).toBe(5000);
  });
  it('packs are in the developer and commercial tiers', () => {
    expect(tiersIncluding('packs/day')).toEqual(['developer', 'commercial']);
    expect(tiersIncluding('calls/day')).toEqual(['free', 'academic', 'developer', 'commercial']);
  });
});

describe('the bucket nearest to running out', () => {
  const b = (bucket: CountedBucket['bucket'], limit: number | null, used: number, endMs: number): CountedBucket => ({
    bucket,
    limit,
    used,
    window: { id: '', endMs, seconds: 60 },
  });
  it('has the fewest calls left; on a tie the later reset; never an unlimited bucket', () => {
    expect(nearestToRunningOut([b('calls/day', 100, 10, 2), b('calls/min', 5, 1, 1)])!.bucket).toBe('calls/min');
    expect(nearestToRunningOut([b('calls/min', 5, 5, 1), b('calls/day', 100, 100, 2)])!.bucket).toBe('calls/day');
    expect(nearestToRunningOut([b('csv/day', null, 50, 2), b('calls/min', 120, 100, 1)])!.bucket).toBe('calls/min');
    expect(nearestToRunningOut([b('csv/day', null, 1, 2)])).toBeUndefined();
  });
});
