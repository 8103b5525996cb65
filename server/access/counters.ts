import { MemoryStore, type ClientRateLimitInfo, type Store } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import { createClient } from 'redis';
import type { QuotaBucket } from '../../src/contract/vocabulary.js';
import { silentLogger, type Logger } from '../logger.js';

/**
 * Where quota counters live. express-rate-limit wants one store per limiter, so this makes one per
 * bucket: in this process's memory by default, or in Redis so several shims share one quota.
 */
export interface Counters {
  readonly kind: 'memory' | 'redis';
  storeFor(bucket: QuotaBucket): Store;
  /** Whether the counters answer now (GET /readyz, the `esg_redis_up` metric). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export function memoryCounters(): Counters {
  const stores: MemoryStore[] = [];
  return {
    kind: 'memory',
    storeFor() {
      const store = new MemoryStore();
      stores.push(store);
      return store;
    },
    ping: async () => true,
    async close() {
      for (const s of stores) s.shutdown();
    },
  };
}

/**
 * rate-limit-redis loads its Lua scripts once, in init(), which runs before the client has even
 * connected; a failed load is then awaited by every later call, and the store never counts again.
 * This store loads them whenever the client becomes ready (at start and after every reconnect),
 * and again after a failure, so counting resumes as soon as Redis is back.
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

  override async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    try {
      return await super.get(key);
    } catch (e) {
      this.loadScripts();
      throw e;
    }
  }

  loadScripts(): void {
    this.incrementScriptSha = this.loadIncrementScript();
    this.getScriptSha = this.loadGetScript();
    // Still down: the next call fails (and is served uncounted); nothing to report twice.
    this.incrementScriptSha.catch(() => {});
    this.getScriptSha.catch(() => {});
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
  const timer = setInterval(() => {
    const now = performance.now();
    for (const p of pending) {
      if (p.due > now) continue;
      pending.delete(p);
      p.reject(new Error(`Redis gave no answer within ${timeoutMs} ms`));
    }
  }, Math.max(10, timeoutMs / 5));
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
 * client reconnects by itself within a second of Redis coming back.
 */
export function redisCounters(url: string, o: RedisCountersOptions = {}): Counters {
  const timeout = o.commandTimeoutMs ?? 500;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 1000, reconnectStrategy: (retries: number) => Math.min(50 * (retries + 1), 1000) },
  });
  // The connection's own ups and downs, one line each (the meter reports what they mean for calls,
  // once per outage). Without an 'error' listener an error would crash the process; while Redis is
  // down the client errs on every reconnect attempt, so only the first is logged.
  const logger = o.logger ?? silentLogger;
  let connected: boolean | null = null;
  client.on('error', (e: Error) => {
    if (connected === false) return;
    logger.warn(connected ? 'redis connection lost: reconnecting' : 'redis unreachable: reconnecting', { error: e.message });
    connected = false;
  });
  const stores: RecoveringRedisStore[] = [];
  client.on('ready', () => {
    logger.info(connected === false ? 'redis connected again' : 'redis connected');
    connected = true;
    stores.forEach((s) => s.loadScripts());
  });
  client.connect().catch(() => {});
  const deadline = commandDeadline(timeout);
  const sendCommand = (...args: string[]) => deadline.watch(client.sendCommand(args)) as Promise<never>;
  return {
    kind: 'redis',
    storeFor(bucket) {
      const store = new RecoveringRedisStore({ sendCommand, prefix: `${o.prefix ?? 'esg:quota:'}${bucket}:` });
      stores.push(store);
      return store;
    },
    ping: () => deadline.watch(client.ping()).then(() => true, () => false),
    async close() {
      deadline.stop();
      if (client.isOpen) await client.close().catch(() => client.destroy());
      else client.destroy();
    },
  };
}
