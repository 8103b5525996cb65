import type { Logger } from '../kit/logger.js';
import type { Metrics } from '../kit/metrics.js';
import { memoryCounters, redisCounters } from './counters.js';
import { DEFAULT_KEYS_DB, KeyStore } from './key-store.js';
import { Meter } from './meter.js';

export { memoryClientsFrom } from './client-table.js';
export { Meter, type MeterOptions } from './meter.js';

/** Keys and quotas, as createApp takes them. */
export type Access = Meter;

export interface AccessSettings {
  /** KEYS_DB. */
  keysDb?: string;
  /** REDIS_URL; counters in memory without it. */
  redisUrl?: string;
  /** QUOTA_MEMORY_CLIENTS: how many clients the in-memory counters track at the most. */
  memoryClients?: number;
  logger?: Logger;
  metrics?: Metrics;
}

/** Keys and quotas from the service's settings (server/index.ts reads them from the environment). */
export function openAccess(s: AccessSettings): Access {
  const counters = s.redisUrl ? redisCounters(s.redisUrl, { logger: s.logger }) : memoryCounters({ maxClients: s.memoryClients });
  return new Meter({ keys: KeyStore.open(s.keysDb ?? DEFAULT_KEYS_DB), counters, logger: s.logger, metrics: s.metrics });
}
