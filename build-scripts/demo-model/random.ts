/**
 * Seeded pseudo-random numbers for the demo generator. Never Math.random: the same seed must give
 * the same universe, byte for byte.
 *
 * `hash32` derives independent streams (per company, per purpose) from the seed, so adding one
 * company or one kind of fact does not shift the random draws of everything else.
 */

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit hash of numbers and strings (murmur3-style mixing). Deterministic, not cryptographic. */
export function hash32(...parts: ReadonlyArray<number | string>): number {
  let h = 0x9e3779b9;
  const add = (v: number) => {
    h = fmix32((h ^ Math.imul(v >>> 0, 0xcc9e2d51)) + 0x1b873593);
  };
  for (const p of parts) {
    if (typeof p === 'number') {
      add(p >>> 0);
      add(Math.floor(p / 4294967296) >>> 0);
    } else {
      add(p.length);
      for (let i = 0; i < p.length; i++) add(p.charCodeAt(i));
    }
  }
  return h;
}

/** sfc32 generator with a few helpers. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = hash32(seed, 1);
    this.b = hash32(seed, 2);
    this.c = hash32(seed, 3);
    this.d = hash32(seed, 4) | 1;
    for (let i = 0; i < 12; i++) this.u32();
  }

  /** A stream derived from the given parts (e.g. `Rng.of(seed, 'company', i)`). */
  static of(...parts: ReadonlyArray<number | string>): Rng {
    return new Rng(hash32(...parts));
  }

  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform in [lo, hi). */
  range(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** Integer uniform in [lo, hi] (both inclusive). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Index drawn with probability proportional to its weight. */
  weighted(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i] as number;
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Log-normal with the given median and log-space sigma. */
  lognormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** Number of extra events: geometric with success probability p (0, 1, 2, …). */
  geometric(p: number, max: number): number {
    let n = 0;
    while (n < max && !this.chance(p)) n++;
    return n;
  }

  /** In-place Fisher–Yates shuffle. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const t = items[i] as T;
      items[i] = items[j] as T;
      items[j] = t;
    }
    return items;
  }
}
