import { openAccess } from './access/index.js';
import { createApp } from './app.js';
import { createHttpServer } from './serve.js';
import { rankingIndex } from './context.js';
import { jsonLogger } from './logger.js';
import { publishedSnapshotSource } from './snapshot-source.js';
import { snapshotsDirFromEnv } from '../src/snapshot/published.js';

/**
 * Reads the environment and listens. `npm start` first runs build-scripts/cli/ensure-snapshot.ts,
 * which publishes the demo snapshot on a fresh clone.
 */
const env = process.env;
const port = Number(env.PORT ?? 8080);
const host = env.HOST ?? '0.0.0.0';
const snapshotsDir = snapshotsDirFromEnv(env);
const logger = jsonLogger();

function trustProxyFrom(value: string | undefined): number | string | undefined {
  if (value === undefined || value === '') return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  if (value === 'true') throw new Error('TRUST_PROXY=true would trust any client-supplied X-Forwarded-For; give a hop count or addresses');
  return value;
}

if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number; got ${env.PORT}`);
  process.exit(2);
}

// Build the in-memory ranking index when a snapshot opens, not on the first ranking request.
const snapshots = publishedSnapshotSource(snapshotsDir, { onOpen: (store) => rankingIndex(store), logger });
const access = openAccess({ keysDb: env.KEYS_DB || undefined, redisUrl: env.REDIS_URL || undefined, logger });
const app = createApp({ snapshots, logger, trustProxy: trustProxyFrom(env.TRUST_PROXY), access });
const server = createHttpServer(app, snapshots).listen(port, host, () => {
  const { meta } = snapshots.current();
  logger.info('listening', { url: `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}/api/v1/`, snapshot: meta.dataset_snapshot_id, kind: meta.kind, quota_counters: env.REDIS_URL ? 'redis' : 'memory' });
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close(() => {
      snapshots.close();
      void access.close().finally(() => process.exit(0));
    });
    setTimeout(() => process.exit(0), 5000).unref();
  });
}
