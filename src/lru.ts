/**
 * A least-recently-used cache bounded by total weight (entry count by default, or e.g. bytes).
 * Used for values derived from an immutable snapshot, so entries never need invalidating.
 */
export class Lru<V> {
  private readonly entries = new Map<string, V>();
  private weight = 0;

  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key); // most recently used goes last
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: V): void {
    const w = this.weigh(value);
    if (w > this.maxWeight / 16) return; // one huge value must not flush everything else
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.weight -= this.weigh(old);
    }
    this.entries.set(key, value);
    this.weight += w;
    while (this.weight > this.maxWeight) {
      const [oldestKey, oldest] = this.entries.entries().next().value!;
      this.entries.delete(oldestKey);
      this.weight -= this.weigh(oldest);
    }
  }
}
