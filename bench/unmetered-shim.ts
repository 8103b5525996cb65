import { createApp } from '../server/app.js';
import { rankingIndex } from '../server/context.js';
import { createHttpServer } from '../server/serve.js';
import { publishedSnapshotSource } from '../server/snapshot-source.js';

/**
 * The baseline of the metering benchmark: the shim exactly as server/index.ts builds it, but without
 * keys and quotas, so the difference from `npm start` is the metering alone. Bench use only.
 */
const env = process.env;
const snapshots = publishedSnapshotSource(env.SNAPSHOTS_DIR!, { onOpen: (store) => rankingIndex(store) });
const server = createHttpServer(createApp({ snapshots }), snapshots).listen(Number(env.PORT), env.HOST ?? '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
