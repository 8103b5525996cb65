/** An entry and whether it was read since it last came to the back of the queue. */
interface Slot<V> {
  value: V;
  used: boolean;
}

/**
 * A cache bounded by total weight (entry count by default, or e.g. bytes) that keeps what is read
 * and lets go of what is not: least-recently-used by second chance (the CLOCK algorithm). Entries
 * queue in the Map's insertion order; a read only marks its entry, and eviction takes the oldest
 * unmarked entry, sending each marked one it passes to the back unmarked. Used for values derived
 * from an immutable snapshot, so entries never need invalidating.
 *
 * A read does not touch the Map. Moving each hit to the back (delete, then set) made the shim's
 * long-lived Maps rebuild their tables every few hundred hits: a POST /batch reads 100 entries, and
 * the discarded tables were half of what a paced load left in the old generation for the
 * mark-compacts to take back (bench/results.md). Now the Map changes only when something is added.
 */
export class Lru<V> {
  private readonly entries = new Map<string, Slot<V>>();
  private weight = 0;

  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  get(key: string): V | undefined {
    const slot = this.entries.get(key);
    if (slot === undefined) return undefined;
    slot.used = true;
    return slot.value;
  }

  set(key: string, value: V): void {
    const w = this.weigh(value);
    if (w > this.maxWeight / 16) return; // one huge value must not flush everything else
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.weight -= this.weigh(old.value);
    }
    this.entries.set(key, { value, used: false });
    this.weight += w;
    this.evict(key);
  }

  /**
   * Down to the bound: at most two passes, as each marked entry passed is unmarked. The entry just
   * added is passed over, so that a cache whose every entry was read since cannot let the newcomer
   * go; nor can it let go first an entry read since, as marking every new entry would.
   */
  private evict(added: string): void {
    while (this.weight > this.maxWeight) {
      const [key, slot] = this.entries.entries().next().value!;
      this.entries.delete(key);
      if (slot.used || key === added) {
        slot.used = false;
        this.entries.set(key, slot);
      } else {
        this.weight -= this.weigh(slot.value);
      }
    }
  }
}
