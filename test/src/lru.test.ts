import { describe, expect, it, vi } from 'vitest';
import { Lru } from '../../src/lru.js';

/** The keys among `all` that the cache holds (reading marks them, as any read does). */
const held = <V>(lru: Lru<V>, all: string[]) => all.filter((k) => lru.get(k) !== undefined);
const names = (n: number, prefix = 'k') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('Lru (second chance)', () => {
  it('keeps at most its bound, letting go first the entries not read since they last came round', () => {
    const lru = new Lru<number>(16);
    names(16).forEach((k, i) => lru.set(k, i));
    lru.set('new', 16); // none read: the oldest, k0, goes
    expect(lru.get('k0')).toBeUndefined();
    expect(lru.get('new')).toBe(16);
    expect(held(lru, names(16)).length).toBe(15);
    lru.get('k2');
    lru.set('newer', 17); // k1 unread since the pass, and the oldest: it goes; k2 was read and stays
    expect(lru.get('k1')).toBeUndefined();
    expect(lru.get('k2')).toBe(2);
    expect(lru.get('newer')).toBe(17);
  });

  it('keeps an entry read often while a stream of new ones passes through', () => {
    const lru = new Lru<number>(16);
    lru.set('hot', 0);
    for (let i = 0; i < 200; i++) {
      expect(lru.get('hot')).toBe(0);
      lru.set(`s${i}`, i);
    }
    expect(lru.get('hot')).toBe(0);
    expect(held(lru, names(200, 's')).length).toBe(15);
    expect(lru.get('s199')).toBe(199); // the newest of the stream is there
  });

  it('bounds by weight, replaces a key without counting it twice, and refuses one value over a sixteenth of the bound', () => {
    const lru = new Lru<string>(160, (s) => s.length);
    lru.set('x', 'abcd');
    lru.set('x', 'abcdefgh'); // replaced: 8, not 12
    names(19).forEach((k) => lru.set(k, '12345678')); // 8 + 19 × 8 = 160: all fit
    expect(lru.get('x')).toBe('abcdefgh');
    expect(held(lru, names(19)).length).toBe(19);
    lru.set('big', 'y'.repeat(11)); // over 160 / 16: not kept, nothing let go
    expect(lru.get('big')).toBeUndefined();
    expect(held(lru, ['x', ...names(19)]).length).toBe(20);
    lru.set('more', '12345678'); // 168 > 160: one entry goes, and the newcomer stays
    expect(held(lru, ['x', ...names(19)]).length).toBe(19);
    expect(lru.get('more')).toBe('12345678');
  });

  it('reads without changing its Map (a hit that moved its entry made long-lived Maps rebuild their tables)', () => {
    const lru = new Lru<number>(1_000);
    names(500).forEach((k, i) => lru.set(k, i));
    const set = vi.spyOn(Map.prototype, 'set');
    const del = vi.spyOn(Map.prototype, 'delete');
    try {
      for (let round = 0; round < 20; round++) for (const k of names(500)) lru.get(k);
      expect(set).not.toHaveBeenCalled();
      expect(del).not.toHaveBeenCalled();
    } finally {
      set.mockRestore();
      del.mockRestore();
    }
  });
});
