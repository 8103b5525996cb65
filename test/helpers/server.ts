import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp, type AppOptions } from '../../server/app.js';
import { createHttpServer } from '../../server/serve.js';
import { publishedSnapshotSource, type SnapshotSource } from '../../server/kit/snapshot-source.js';

export interface RunningServer {
  base: string;
  source: SnapshotSource;
  close(): Promise<void>;
}

/** Starts the shim on a loopback port: `port`, or one chosen by the OS. */
export async function startServer(snapshotsDir: string, options: Partial<AppOptions> = {}, port = 0): Promise<RunningServer> {
  const source = options.snapshots ?? publishedSnapshotSource(snapshotsDir);
  const app = createApp({ ...options, snapshots: source });
  const server: Server = await new Promise((resolve) => {
    const s = createHttpServer(app, source).listen(port, '127.0.0.1', () => resolve(s));
  });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    source,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          source.close();
          resolve();
        });
      }),
  };
}

export async function getJson(url: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: any; text: string }> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text };
}

/**
 * Waits until the server answers with snapshot `id`: it looks at `current` at most once a second,
 * when asked, so a fixed wait of a second after each publish was mostly idle. Asks /api/v1/ every
 * 50 ms, and fails naming what it served if `id` is not served within `ms`.
 */
export async function untilServing(server: RunningServer, id: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const served = (await getJson(`${server.base}/api/v1/`)).body?.dataset_snapshot_id;
    if (served === id) return;
    if (Date.now() > deadline) throw new Error(`still serving ${served} ${ms} ms after ${id} was published`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
