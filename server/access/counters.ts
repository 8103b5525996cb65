import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import { createClient } from 'redis';
import { QUOTA_BUCKETS, type QuotaBucket } from '../../src/contract/vocabulary.js';
import { silentLogger, type Logger } from '../kit/logger.js';
import { ClientTable, DEFAULT_MEMORY_CLIENTS } from './client-table.js';
import { Outage } from './outage.js';
import { counterLifetimeMs, type Window } from '../../src/contract/tiers.js';
import { OAUTH_LIMITERS, OAUTH_RATE_LIMITS, type OAuthLimiter } from '../../src/contract/oauth.js';

/** One bucket's counters: per client (a key id or an IP: the caller's partition) and window. */
export interface BucketCounter {
  /** Counts one call; resolves to the client's hits in the window, this one included. */
  increment(partition: string, window: Window): Promise<number>;
  /** Takes one call back (a refused call is taken back from the buckets it did not spend). */
  decrement(partition: string, window: Window): Promise<void>;
  /** The client's hits in the window: 0 when it has none there. */
  get(partition: string, window: Window): Promise<number>;
}

/**
 * Where quota counters live: in this process's memory by default, or in Redis so several shims
 * share one quota. A failure rejects: the meter serves the call uncounted.
 */
export interface Counters {
  readonly kind: 'memory' | 'redis';
  bucket(bucket: QuotaBucket): BucketCounter;
  /**
   * A store for the express-rate-limit limiter of an OAuth endpoint (server/oauth/index.ts), kept where
   * the quota counters are and bounded as they are: the SDK's own MemoryStore kept an entry per
   * client address without a cap, even with REDIS_URL. A new store at each call (express-rate-limit
   * refuses one store shared by two limiters).
   */
  limiter(name: OAuthLimiter): Store;
  /** Whether the counters answer now (GET /readyz, the `esg_redis_up` metric). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Counters in memory, for at most `maxClients` clients (QUOTA_MEMORY_CLIENTS; client-table.ts).
 * OAuth's limiters count in a table of their own with the same cap, so a flood of one endpoint's
 * addresses forgets other addresses there, never the quotas of metered calls: at most two full
 * tables, some 25 MB each at the default.
 */
export function memoryCounters(o: { maxClients?: number } = {}): Counters {
  const maxClients = o.maxClients ?? DEFAULT_MEMORY_CLIENTS;
  const table = new ClientTable(maxClients, QUOTA_BUCKETS.length);
  let limiters: ClientTable | undefined;
  return {
    kind: 'memory',
    bucket(bucket) {
      const slot = QUOTA_BUCKETS.indexOf(bucket);
      return {
        increment: async (partition, window) => table.increment(slot, partition, window.id),
        decrement: async (partition, window) => table.decrement(slot, partition, window.id),
        get: async (partition, window) => table.get(slot, partition, window.id),
      };
    },
    limiter(name) {
      limiters ??= new ClientTable(maxClients, OAUTH_LIMITERS.length);
      return new TableStore(limiters, OAUTH_LIMITERS.indexOf(name), OAUTH_RATE_LIMITS[name].windowMs);
    },
    ping: async () => true,
    async close() {
      table.close();
      limiters?.close();
    },
  };
}

/**
 * An express-rate-limit store over one slot of a ClientTable. Its windows are fixed (they start at
 * multiples of `windowMs` since 1970) where MemoryStore started a client's window at its first hit:
 * the table keeps one window id per client and slot, and so a client once forgotten and back starts
 * from 0 like any new one. A client may so make up to twice the limit across a window's end.
 */
class TableStore implements Store {
  readonly localKeys = true;

  constructor(
    private readonly table: ClientTable,
    private readonly slot: number,
    private readonly windowMs: number,
  ) {}

  increment(key: string): ClientRateLimitInfo {
    const window = Math.floor(Date.now() / this.windowMs);
    return { totalHits: this.table.increment(this.slot, key, window), resetTime: new Date((window + 1) * this.windowMs) };
  }

  get(key: string): ClientRateLimitInfo {
    const window = Math.floor(Date.now() / this.windowMs);
    return { totalHits: this.table.get(this.slot, key, window), resetTime: new Date((window + 1) * this.windowMs) };
  }

  decrement(key: string): void {
    this.table.decrement(this.slot, key, Math.floor(Date.now() / this.windowMs));
  }

  resetKey(key: string): void {
    this.table.reset(this.slot, key);
  }
}

/**
 * rate-limit-redis loads its Lua script once, in init(), which runs before the client has even
 * connected; a failed load is then awaited by every later call, and the store never counts again.
 * This store loads it whenever the client becomes ready (at start and after every reconnect), and
 * again after a failure, so counting resumes as soon as Redis is back. Only its increment is used:
 * a count is read with a plain GET (see redisCounters).
 */
class RecoveringRedisStore extends RedisStore {
  override async init(options: Parameters<RedisStore['init']>[0]): Promise<void> {
    this.windowMs = options.windowMs;
    this.loadScripts();
  }

  override async increment(key: string): Promise<ClientRateLimitInfo> {
    try {
      return await super.increment(key);
    } catch (e) {
      this.loadScripts();
      throw e;
    }
  }

  loadScripts(): void {
    this.incrementScriptSha = this.loadIncrementScript();
    // Still down: the next call fails (and is served uncounted); nothing to report twice.
    this.incrementScriptSha.catch(() => {});
  }
}

/**
 * Fails a command Redis has not answered within `timeoutMs`, so a Redis that hangs (accepts, never
 * answers) cannot hang metered calls: they go uncounted instead. One timer watches every command;
 * node-redis's per-command timeout starts a timer per command, which took a metered call from
 * about 300 to 550 µs (measured here, one call at a time against a local Redis).
 */
function commandDeadline(timeoutMs: number) {
  const pending = new Set<{ due: number; reject: (e: Error) => void }>();
  const timer = setInterval(
    () => {
      const now = performance.now();
      for (const p of pending) {
        if (p.due > now) continue;
        pending.delete(p);
        p.reject(new Error(`Redis gave no answer within ${timeoutMs} ms`));
      }
    },
    Math.max(10, timeoutMs / 5),
  );
  timer.unref();
  return {
    watch<T>(command: Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const entry = { due: performance.now() + timeoutMs, reject };
        pending.add(entry);
        command.then(
          (value) => {
            pending.delete(entry);
            resolve(value);
          },
          (e: unknown) => {
            pending.delete(entry);
            reject(e);
          },
        );
      });
    },
    stop: () => clearInterval(timer),
  };
}

export interface RedisCountersOptions {
  /** A command that takes longer fails, and the request is served uncounted. */
  commandTimeoutMs?: number;
  /** Key prefix, so several services can share one Redis. */
  prefix?: string;
  /** Connection lost and back, one line each (never the URL, which may hold a password). */
  logger?: Logger;
}

/**
 * Counters in Redis (REDIS_URL). Commands never wait in an offline queue: while Redis is
 * unreachable they fail at once and the meter serves the request uncounted (fails open); the
 * client reconnects by itself within a second of Redis coming back. The counters are Redis keys
 * with a lifetime (PX): they last across a restart of the shim, and across a restart of Redis as
 * far as Redis's own persistence (AOF or RDB) keeps them; the shim does not own that setting, and
 * says once at connect when Redis keeps nothing.
 */
export function redisCounters(url: string, o: RedisCountersOptions = {}): Counters {
  const timeout = o.commandTimeoutMs ?? 500;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    // node-redis 5.9 sends CLIENT SETINFO while connecting and ignores its failure, even a socket
    // closed under it: a reconnect that met a Redis going down then said "ready" on a dead socket
    // and never tried again (every command timed out until the shim restarted; 1 reconnect in 7
    // to a Redis killed and started again, test/server/access/redis-usage.test.ts). Without it
    // nothing is awaited between connect and ready, and a socket that dies is reconnected.
    disableClientInfo: true,
    socket: { connectTimeout: 1000, reconnectStrategy: (retries: number) => Math.min(50 * (retries + 1), 1000) },
  });
  // The connection's own ups and downs, one line each per outage (the meter reports what they mean
  // for calls). Without an 'error' listener an error would crash the process; while Redis is down
  // the client errs on every reconnect attempt, and a Redis still loading its data lets it connect
  // and fail again: the outage is over once the connection has held for a second.
  const logger = o.logger ?? silentLogger;
  let everReady = false;
  let lostAfterReady = false;
  const connection = new Outage({
    started: () => (lostAfterReady = everReady),
    ended: ({ seconds }) => logger.info(lostAfterReady ? 'redis connected again' : 'redis connected', { down_seconds: seconds }),
  });
  client.on('error', (e: Error) => {
    if (!connection.isDown) logger.warn(everReady ? 'redis connection lost: reconnecting' : 'redis unreachable: reconnecting', { error: e.message });
    connection.failed();
  });
  const stores: RecoveringRedisStore[] = [];
  client.on('ready', () => {
    if (!everReady && !connection.isDown) logger.info('redis connected');
    if (!everReady) void warnWithoutPersistence(client, logger);
    everReady = true;
    connection.succeeded();
    stores.forEach((s) => s.loadScripts());
  });
  client.connect().catch(() => {});
  const deadline = commandDeadline(timeout);
  const sendCommand = (...args: string[]) => deadline.watch(client.sendCommand(args)) as Promise<never>;
  const prefix = o.prefix ?? 'esg:quota:';
  return {
    kind: 'redis',
    bucket(bucket) {
      const store = new RecoveringRedisStore({ sendCommand, prefix: `${prefix}${bucket}:` });
      void store.init({ windowMs: counterLifetimeMs(bucket) } as Options);
      stores.push(store);
      const key = (partition: string, window: Window) => `${partition}:${window.id}`;
      return {
        increment: async (partition, window) => (await store.increment(key(partition, window))).totalHits,
        decrement: (partition, window) => store.decrement(key(partition, window)),
        // A plain GET: a missing key is null, i.e. no call counted yet. rate-limit-redis's get script
        // handed Redis 7's nil on as NaN, and /usage showed an unused bucket as unknown.
        get: async (partition, window) => {
          const hits = await sendCommand('GET', store.prefixKey(key(partition, window)));
          return hits === null ? 0 : Number(hits);
        },
      };
    },
    // Keys with the window's lifetime (PX), so Redis holds an address only as long as its window;
    // express-rate-limit calls init with the limiter's windowMs. While Redis is unreachable the
    // limiter lets requests through (passOnStoreError, server/oauth/index.ts), as metering does.
    limiter(name) {
      const store = new RecoveringRedisStore({ sendCommand, prefix: `${prefix}oauth-${name}:` });
      stores.push(store);
      return store;
    },
    ping: () =>
      deadline.watch(client.ping()).then(
        () => true,
        () => false,
      ),
    async close() {
      deadline.stop();
      connection.stop();
      if (client.isOpen) await client.close().catch(() => client.destroy());
      else client.destroy();
    },
  };
}

/**
 * Redis with neither AOF nor RDB save points forgets every count when it restarts: every daily
 * quota starts again. Said once, at the first connect. A managed Redis may refuse CONFIG: then
 * nothing is said.
 */
async function warnWithoutPersistence(client: ReturnType<typeof createClient>, logger: Logger): Promise<void> {
  try {
    const [aof, save] = await Promise.all([client.configGet('appendonly'), client.configGet('save')]);
    if (aof.appendonly !== 'yes' && (save.save ?? '').trim() === '') {
      logger.warn('redis keeps nothing on disk: a restart of Redis starts every quota again (set appendonly yes, or RDB save points)');
    }
  } catch {
    // CONFIG disabled or renamed: docs/keys-and-quotas.md says what to set.
  }
}
