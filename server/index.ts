import type { Server } from 'node:http';
import { memoryClientsFrom, openAccess } from './access/index.js';
import { createApp } from './app.js';
import { createHttpServer } from './serve.js';
import { downloadLimitsFromEnv } from './download-slots.js';
import { rankingIndex } from './context.js';
import { logLevelFrom, stderrLogger, type LogLevel } from './logger.js';
import { createMetrics, metricsAddress, startMetricsServer } from './metrics.js';
import { handleShutdown } from './shutdown.js';
import { publishedSnapshotSource } from './snapshot-source.js';
import { snapshotsDirFromEnv } from '../src/snapshot/published.js';

/**
 * Reads the environment and listens. `npm start` runs server/start.ts, which first publishes the
 * demo snapshot on a fresh clone, then loads this file in the same process.
 */
const env = process.env;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

function portFrom(name: string, fallback?: number): number | undefined {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) fail(`${name} must be a port number; got ${value}`);
  return port;
}

function trustProxyFrom(value: string | undefined): number | string | undefined {
  if (value === undefined || value === '') return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  if (value === 'true') throw new Error('TRUST_PROXY=true would trust any client-supplied X-Forwarded-For; give a hop count or addresses');
  return value;
}

const port = portFrom('PORT', 8080)!;
const host = env.HOST ?? '0.0.0.0';
const metricsPort = portFrom('METRICS_PORT');
const metricsHost = env.METRICS_HOST || '127.0.0.1';
const graceMs = env.SHUTDOWN_GRACE_MS ? Number(env.SHUTDOWN_GRACE_MS) : 10_000;
if (!Number.isInteger(graceMs) || graceMs < 0) fail(`SHUTDOWN_GRACE_MS must be a whole number of milliseconds; got ${env.SHUTDOWN_GRACE_MS}`);
const level = ((): LogLevel => {
  try {
    return logLevelFrom(env.LOG_LEVEL);
  } catch (e) {
    fail((e as Error).message);
  }
})();
const snapshotsDir = snapshotsDirFromEnv(env);
const downloads = downloadLimitsFromEnv(env, fail);
const logger = stderrLogger(level);
const redisUrl = env.REDIS_URL || undefined;
const memoryClients = ((): number => {
  try {
    return memoryClientsFrom(env.QUOTA_MEMORY_CLIENTS);
  } catch (e) {
    fail((e as Error).message);
  }
})();

// Build the in-memory ranking index when a snapshot opens, not on the first ranking request.
const snapshots = publishedSnapshotSource(snapshotsDir, { onOpen: (store) => rankingIndex(store), logger });
// Metrics only when they are served: the event-loop monitor and per-request counting cost nothing otherwise.
const metrics = metricsPort === undefined ? undefined : createMetrics({ snapshots, redisUp: redisUrl ? () => access.countersReachable() : undefined });
const access = openAccess({ keysDb: env.KEYS_DB || undefined, redisUrl, memoryClients, logger, metrics });
const app = createApp({ snapshots, logger, trustProxy: trustProxyFrom(env.TRUST_PROXY), access, metrics, downloads });
const server = createHttpServer(app, snapshots);
let metricsServer: Server | undefined;

handleShutdown({
  server,
  logger,
  graceMs,
  release: async () => {
    metricsServer?.close();
    metricsServer?.closeAllConnections();
    snapshots.close();
    await access.close();
  },
});

server.once('error', (e) => {
  logger.error('cannot listen', { host, port, error: e.message });
  void logger.flush?.().finally(() => process.exit(1));
});
server.listen(port, host, async () => {
  if (metrics && metricsPort !== undefined) {
    try {
      metricsServer = await startMetricsServer(metrics, metricsPort, metricsHost);
    } catch (e) {
      logger.error('cannot serve metrics', { host: metricsHost, port: metricsPort, error: (e as Error).message });
      await logger.flush?.();
      process.exit(1);
    }
  }
  let snapshot: Record<string, string> = {};
  try {
    const { meta } = snapshots.current();
    snapshot = { snapshot: meta.dataset_snapshot_id, kind: meta.kind };
  } catch (e) {
    snapshot = { snapshot_error: (e as Error).message };
  }
  logger.info('listening', {
    url: `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}/api/v1/`,
    ...snapshot,
    quota_counters: redisUrl ? 'redis' : 'memory',
    metrics: metricsServer ? metricsAddress(metricsServer) : null,
    log_level: level,
    shutdown_grace_ms: graceMs,
  });
});
