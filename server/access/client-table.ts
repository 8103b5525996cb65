/** QUOTA_MEMORY_CLIENTS when unset: about 25 MB of counters at the most (see the README). */
export const DEFAULT_MEMORY_CLIENTS = 100_000;

/** A client counted in no window for this long has no count that matters: the longest window is a day. */
const MAX_IDLE_SECONDS = 86_400;
const SWEEP_EVERY_MS = 60_000;

/**
 * One client's counts in a single array, as it is the one allocation per client (a class holding
 * two arrays took about 90 bytes a client more): [0] the second it was last counted (since the table
 * began), then per bucket slot `i` the id of the window it counts in at [1 + 2i] and its hits at
 * [2 + 2i]. A window id other than the caller's is an earlier window: its hits no longer count.
 */
type Counts = (number | string | undefined)[];
/** A window's id: the quota buckets' are strings (tiers.ts), OAuth's limiters' the window's number since 1970. */
type WindowId = string | number;

/**
 * Quota counters in this process's memory (no REDIS_URL), for at most `maxClients` clients (a key
 * id or an IP), so no number of distinct clients can grow the heap past a fixed size. One Map from
 * client to counts, kept in the order clients were last counted (a Map iterates in insertion
 * order; a client counted again in a later second is moved to the end): when a new client comes
 * and the table is full, the first entry, the client idle longest, is forgotten (its counts start
 * again from 0 if it returns). A minute timer drops clients idle for over a day, whose windows
 * have all ended, so a quiet shim gives the memory back. express-rate-limit's MemoryStore kept a
 * counter object and a Date per client and bucket for twice the window (two days), without a cap:
 * about 540 bytes a client (calls/day and calls/min); here about 250, its Map entry and name
 * included (test/server/access/bounded.test.ts measures it at a million clients).
 */
export class ClientTable {
  private readonly clients = new Map<string, Counts>();
  /**
   * Where eviction has got to, kept from one eviction to the next. A Map leaves a hole where an
   * entry was deleted until it next rehashes, and a fresh iterator walks every hole from the
   * start: evicting through `keys().next()` each time made a call on a full table some twenty times
   * slower (bench/results.md). A live iterator goes on from where it stopped, and still meets entries in the Map's
   * order (those moved to the end or added since included), as the language defines it.
   */
  private evictor: Iterator<string> = this.clients.keys();
  private readonly epochMs = Date.now();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    readonly maxClients: number,
    private readonly slots: number,
  ) {
    if (!Number.isSafeInteger(maxClients) || maxClients < 1) throw new Error(`maxClients must be a whole number from 1; got ${maxClients}`);
    this.sweeper = setInterval(() => this.sweep(), SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  /** How many clients are tracked now. */
  get size(): number {
    return this.clients.size;
  }

  /** Counts one call of `client` in slot `slot`'s window `windowId`; the hits with it. */
  increment(slot: number, client: string, windowId: WindowId): number {
    const now = this.seconds();
    let counts = this.clients.get(client);
    if (counts === undefined) {
      if (this.clients.size >= this.maxClients) this.evictIdlest();
      counts = new Array<number | string | undefined>(1 + 2 * this.slots);
      counts[0] = now;
      this.clients.set(client, counts);
    } else if (counts[0] !== now) {
      // To the end of the order; within one second it stays where it is (the order is by second).
      this.clients.delete(client);
      this.clients.set(client, counts);
      counts[0] = now;
    }
    const at = 1 + 2 * slot;
    if (counts[at] !== windowId) {
      counts[at] = windowId;
      counts[at + 1] = 0;
    }
    return (counts[at + 1] = (counts[at + 1] as number) + 1);
  }

  /** Takes one call back (a refused call's other buckets); never below 0, never a client it does not hold. */
  decrement(slot: number, client: string, windowId: WindowId): void {
    const counts = this.clients.get(client);
    const at = 1 + 2 * slot;
    if (counts !== undefined && counts[at] === windowId && (counts[at + 1] as number) > 0) counts[at + 1] = (counts[at + 1] as number) - 1;
  }

  /** The hits of `client` in the window; 0 when it has none there (unused, or forgotten). Not a use: the order stays. */
  get(slot: number, client: string, windowId: WindowId): number {
    const counts = this.clients.get(client);
    const at = 1 + 2 * slot;
    return counts !== undefined && counts[at] === windowId ? (counts[at + 1] as number) : 0;
  }

  /** Forgets `client`'s count in slot `slot`, whatever its window. */
  reset(slot: number, client: string): void {
    const counts = this.clients.get(client);
    if (counts !== undefined) counts[1 + 2 * slot] = undefined;
  }

  close(): void {
    clearInterval(this.sweeper);
    this.clients.clear();
  }

  private seconds(): number {
    return Math.floor((Date.now() - this.epochMs) / 1000);
  }

  private evictIdlest(): void {
    let next = this.evictor.next();
    // Done once it has passed the last entry (the table was emptied): a new one starts at the front.
    if (next.done) next = (this.evictor = this.clients.keys()).next();
    if (!next.done) this.clients.delete(next.value);
  }

  /** Drops clients idle for over a day; they are at the front, so it stops at the first one that is not. */
  private sweep(): void {
    const oldest = this.seconds() - MAX_IDLE_SECONDS;
    for (const [client, counts] of this.clients) {
      if ((counts[0] as number) >= oldest) return;
      this.clients.delete(client);
    }
  }
}

/** QUOTA_MEMORY_CLIENTS: unset or empty takes the default; anything but a whole number from 1 is refused. */
export function memoryClientsFrom(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_MEMORY_CLIENTS;
  if (!/^[1-9]\d{0,14}$/.test(value)) throw new Error(`QUOTA_MEMORY_CLIENTS must be a whole number of clients from 1; got ${value}`);
  return Number(value);
}
