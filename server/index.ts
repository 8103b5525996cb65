import type { Server } from 'node:http';
import type { Access } from './access/index.js';
import { memoryClientsFrom } from './access/client-table.js';
import { DEFAULT_KEYS_DB } from './access/key-store.js';
import { downloadLimitsFromEnv } from '../src/contract/downloads.js';
import { logLevelFrom, stderrLogger, type LogLevel } from './kit/logger.js';
import {
  flagSetting,
  listenSettingError,
  hostSetting,
  mailSetting,
  mcpAllowedOriginsSetting,
  msSetting,
  portSetting,
  redisUrlSetting,
  SettingError,
  snapshotsDirSetting,
  trustProxySetting,
} from './kit/settings.js';
import { handleShutdown, SHUTDOWN_DEFAULTS, type Shutdown } from './shutdown.js';
import { snapshotsDirFromEnv } from '../src/snapshot/published.js';
import { urls } from '../src/contract/urls.js';

/**
 * Reads the environment and listens. `npm start` runs server/start.ts, which first publishes the
 * demo snapshot on a fresh clone, then loads this file in the same process.
 */
const env = process.env;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

/** A setting read and checked (server/kit/settings.ts), or one line saying what is wrong with it, and exit 2. */
function setting<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    fail((e as Error).message);
  }
}

const port = setting(() => portSetting(env, 'PORT', 8080));
const host = setting(() => hostSetting(env, 'HOST', '0.0.0.0'));
const metricsPort = setting(() => portSetting(env, 'METRICS_PORT'));
const metricsHost = setting(() => hostSetting(env, 'METRICS_HOST', '127.0.0.1'));
const graceMs = setting(() => msSetting(env, 'SHUTDOWN_GRACE_MS', SHUTDOWN_DEFAULTS.graceMs));
const drainMs = setting(() => msSetting(env, 'SHUTDOWN_DRAIN_MS', SHUTDOWN_DEFAULTS.drainMs));
const trustProxy = setting(() => trustProxySetting(env, host));
const level: LogLevel = setting(() => logLevelFrom(env.LOG_LEVEL));
const snapshotsDir = setting(() => snapshotsDirSetting(snapshotsDirFromEnv(env)));
const downloads = downloadLimitsFromEnv(env, fail);
const redisUrl = setting(() => redisUrlSetting(env));
const memoryClients = setting(() => memoryClientsFrom(env.QUOTA_MEMORY_CLIENTS));
const mcpAllowedOrigins = setting(() => mcpAllowedOriginsSetting(env));
const mail = setting(() => mailSetting(env));
const oauthClientMetadataPrivate = setting(() => flagSetting(env, 'OAUTH_CLIENT_METADATA_PRIVATE'));
// Every setting is read and checked before the rest of the server is loaded: a bad one is said in
// about a second, without loading Express, the MCP SDK, SQLite or the mail and metrics clients.
const [
  { openAccess },
  { createApp },
  { smtpMailer },
  { createHttpServer },
  { rankingIndex },
  { createMetrics, metricsAddress, startMetricsServer },
  { publishedSnapshotSource },
] = await Promise.all([
  import('./access/index.js'),
  import('./app.js'),
  import('./access/key-mail.js'),
  import('./serve.js'),
  import('./routes/context.js'),
  import('./kit/metrics.js'),
  import('./kit/snapshot-source.js'),
]);
const logger = stderrLogger(level);
// Without SMTP_URL no mail is sent and /keys/ says keys come from the operator: `npm start` as before.
const mailer = mail && smtpMailer(mail);

// Build the in-memory ranking index when a snapshot opens, not on the first ranking request.
const snapshots = publishedSnapshotSource(snapshotsDir, { onOpen: (store) => rankingIndex(store), logger });
// Metrics only when they are served: the event-loop monitor and per-request counting cost nothing otherwise.
const metrics =
  metricsPort === undefined ? undefined : createMetrics({ snapshots, redisUp: redisUrl ? () => access.countersReachable() : undefined });
const access: Access = setting(() => {
  try {
    return openAccess({ keysDb: env.KEYS_DB || undefined, redisUrl, memoryClients, logger, metrics });
  } catch (e) {
    throw new SettingError(`KEYS_DB=${env.KEYS_DB || DEFAULT_KEYS_DB}: cannot open the key store (${(e as Error).message})`);
  }
});
let shutdown: Shutdown | undefined;
const app = createApp({
  snapshots,
  logger,
  trustProxy,
  access,
  metrics,
  downloads,
  mcpAllowedOrigins,
  mailer,
  oauthClientMetadataPrivate,
  stopping: () => shutdown?.stopping === true,
});
const server = createHttpServer(app, snapshots);
let metricsServer: Server | undefined;

shutdown = handleShutdown({
  server,
  logger,
  drainMs,
  graceMs,
  release: async () => {
    metricsServer?.close();
    metricsServer?.closeAllConnections();
    snapshots.close();
    mailer?.close();
    await access.close();
  },
});

server.once('error', (e: NodeJS.ErrnoException) => {
  const bad = listenSettingError(e, ['HOST', host], ['PORT', port]);
  if (bad) fail(bad);
  logger.error('cannot listen', { host, port, error: e.message });
  void logger.flush?.().finally(() => process.exit(1));
});
server.listen(port, host, async () => {
  if (metrics && metricsPort !== undefined) {
    try {
      metricsServer = await startMetricsServer(metrics, metricsPort, metricsHost);
    } catch (e) {
      const bad = listenSettingError(e as NodeJS.ErrnoException, ['METRICS_HOST', metricsHost], ['METRICS_PORT', metricsPort]);
      if (bad) fail(bad);
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
    url: `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}${urls.index}`,
    ...snapshot,
    quota_counters: redisUrl ? 'redis' : 'memory',
    keys_by_mail: mail ? mail.publicUrl : null,
    metrics: metricsServer ? metricsAddress(metricsServer) : null,
    log_level: level,
    shutdown_drain_ms: drainMs,
    shutdown_grace_ms: graceMs,
  });
});
