import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.js';
import { createHttpServer } from '../../server/serve.js';
import { publishedSnapshotSource, type SnapshotSource } from '../../server/kit/snapshot-source.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/**
 * The shim's HTTP server (the tail): requests and responses are born with the Express
 * app's prototypes, so Express's per-request `Object.setPrototypeOf` changes nothing and V8 makes no
 * hidden class per request (bench/results.md: that garbage was what filled the old generation).
 */
let source: SnapshotSource;
let app: ReturnType<typeof createApp>;
let http: ReturnType<typeof createHttpServer>;
let base: string;
const arrivals: { req: unknown; res: unknown }[] = [];

beforeAll(async () => {
  source = publishedSnapshotSource(demoSnapshotsDir);
  app = createApp({ snapshots: source });
  http = createHttpServer(app, source);
  // Before the server's own handler, so before Express has touched either object.
  http.prependListener('request', (req: IncomingMessage, res: ServerResponse) =>
    arrivals.push({ req: Object.getPrototypeOf(req), res: Object.getPrototypeOf(res) }),
  );
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterAll(async () => {
  http.closeAllConnections();
  await new Promise((r) => http.close(r));
  source.close();
});

describe('requests born with the app prototypes', () => {
  it('a computed answer and a company file: both objects arrive with app.request and app.response', async () => {
    const ticker = source.current().firstTickers(1)[0]!;
    arrivals.length = 0;
    const ranking = await fetch(`${base}/api/v1/ranking?sort=score_asc&page=1`);
    expect(ranking.status).toBe(200);
    expect((await ranking.json()).data.length).toBeGreaterThan(0);
    const file = await fetch(`${base}/api/v1/company/${ticker}`);
    expect(file.status).toBe(200);
    expect(JSON.stringify(await file.json())).toContain(`"${ticker}"`);
    expect(arrivals).toHaveLength(2);
    for (const a of arrivals) {
      expect(a.req).toBe(app.request);
      expect(a.res).toBe(app.response);
    }
  });

  it('Express methods from those prototypes still answer: a bad query is the contract error envelope', async () => {
    const res = await fetch(`${base}/api/v1/ranking?sort=sideways`);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBeTypeOf('string');
  });
});
