import { createApp } from '../server/app.js';
import { rankingIndex } from '../server/routes/context.js';
import { silentLogger } from '../server/kit/logger.js';
import { createHttpServer } from '../server/serve.js';
import { handleShutdown, type Shutdown } from '../server/shutdown.js';
import { publishedSnapshotSource } from '../server/kit/snapshot-source.js';

/**
 * The baseline of the metering benchmark: the shim exactly as server/index.ts builds it, but without
 * keys and quotas, so the difference from `npm start` is the metering alone. With BENCH_DRAIN=1 it
 * also has the graceful shutdown's machinery (server/shutdown.ts), which the drain benchmark
 * (bench/drain.ts) weighs against the same shim without it. Bench use only.
 */
const env = process.env;
const snapshots = publishedSnapshotSource(env.SNAPSHOTS_DIR!, { onOpen: (store) => rankingIndex(store) });
let shutdown: Shutdown | undefined;
const server = createHttpServer(createApp({ snapshots, stopping: () => shutdown?.stopping === true }), snapshots).listen(
  Number(env.PORT),
  env.HOST ?? '127.0.0.1',
);
if (env.BENCH_DRAIN === '1')
  shutdown = handleShutdown({ server, logger: silentLogger, drainMs: 0, graceMs: 1000, release: async () => snapshots.close() });
else process.on('SIGTERM', () => server.close(() => process.exit(0)));
