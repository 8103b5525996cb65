import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentSnapshotDir } from '../../src/snapshot/published.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { fileForUrlPath } from '../../src/contract/api-paths.js';
import { getJson, startServer, type RunningServer } from '../helpers/server.js';
import { startStaticHost, type StaticHost } from '../helpers/static-host.js';
import { staticCases } from './cases/static-cases.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/**
 * One contract suite, three implementations: for each request of the case list, the body the shim
 * serves, the body a static host serving the tree as nginx does (`try_files $uri.json
 * $uri/index.json`) answers, and the body the view functions compute straight from the snapshot
 * must be the same.
 */
let server: RunningServer;
let host: StaticHost;
let store: SnapshotStore;
let treeDir: string;

beforeAll(async () => {
  const snapshotsDir = demoSnapshotsDir;
  server = await startServer(snapshotsDir);
  store = SnapshotStore.open(currentSnapshotDir(snapshotsDir)!);
  treeDir = join(store.dir, 'tree');
  host = await startStaticHost(treeDir);
});
afterAll(async () => {
  store.close();
  await server.close();
  await host.close();
});

describe('static tree, shim and views agree', () => {
  it('agree body for body on every static resource kind', async () => {
    const all = staticCases(store);
    expect(all.length).toBeGreaterThan(15);
    for (const c of all) {
      const fromFile = readFileSync(join(treeDir, fileForUrlPath(c.url)), 'utf8');
      const shim = await getJson(server.base + c.url);
      expect(shim.status, c.name).toBe(200);
      expect(shim.text, c.name).toBe(fromFile);
      const hosted = await getJson(host.base + c.url);
      expect(hosted.status, `${c.name} on a static host`).toBe(200);
      expect(hosted.text, `${c.name} on a static host`).toBe(fromFile);
      expect(JSON.parse(JSON.stringify(c.view())), c.name).toEqual(JSON.parse(fromFile));
    }
  });

  it('a static host serves the .json spelling of every case too', async () => {
    for (const c of staticCases(store)) {
      const url = c.url.endsWith('/') ? `${c.url}index.json` : c.url.endsWith('.json') ? c.url : `${c.url}.json`;
      const [hosted, shim] = await Promise.all([getJson(host.base + url), getJson(server.base + url)]);
      expect(hosted.status, url).toBe(200);
      expect(shim.status, url).toBe(200);
      expect(shim.text, url).toBe(hosted.text);
    }
  });

  it('answers a path with .json and lower-case codes with the same body and ETag', async () => {
    const t = [...store.companies()][3]!.ticker;
    const plain = await getJson(`${server.base}/api/v1/company/${t}/canonical`);
    const suffixed = await getJson(`${server.base}/api/v1/company/${t.toLowerCase()}/canonical.json`);
    expect(suffixed.status).toBe(200);
    expect(suffixed.text).toBe(plain.text);
    expect(suffixed.headers.get('etag')).toBe(plain.headers.get('etag'));
  });

  it('computes /ranking?page=N to the same bytes as the static page N', async () => {
    for (const n of [1, 2, 17]) {
      const dynamic = await getJson(`${server.base}/api/v1/ranking?page=${n}`);
      const file = readFileSync(join(treeDir, fileForUrlPath(`/api/v1/ranking/page/${n}`)), 'utf8');
      expect(dynamic.text).toBe(file);
    }
  });

  it('computes ?fields= naming all six sections to the static canonical view', async () => {
    const t = 'D1139';
    const dynamic = await getJson(`${server.base}/api/v1/company/${t}/canonical?fields=flags,assurance,carbon,carbon_fee,penalties,conduct`);
    const file = readFileSync(join(treeDir, fileForUrlPath(`/api/v1/company/${t}/canonical`)), 'utf8');
    expect(dynamic.text).toBe(file);
  });

  it('computes the registry with no filter to the static body', async () => {
    const dynamic = await getJson(`${server.base}/api/v1/sources/registry?gov_only=false`);
    expect(dynamic.text).toBe(readFileSync(join(treeDir, fileForUrlPath('/api/v1/sources/registry')), 'utf8'));
  });
});

describe('downloads', () => {
  it('serves every file /snapshots lists, with its size, sha256, type and a validator', async () => {
    const list = (await getJson(`${server.base}/api/v1/snapshots`)).body;
    const files = list.data[0].files as { path: string; bytes: number; sha256: string; mediatype: string }[];
    expect(files.map((f) => f.path.split('/').pop())).toEqual(
      expect.arrayContaining(['datapackage.json', 'SHA256SUMS', 'snapshot.sqlite', 'CITATION.cff', 'api-v1-tree.tar.gz', 'companies.csv']),
    );
    for (const f of files) {
      const res = await fetch(server.base + f.path);
      const body = Buffer.from(await res.arrayBuffer());
      expect(res.status, f.path).toBe(200);
      expect(body.length, f.path).toBe(f.bytes);
      expect(createHash('sha256').update(body).digest('hex'), f.path).toBe(f.sha256);
      expect(res.headers.get('content-type'), f.path).toContain(f.mediatype);
      const etag = res.headers.get('etag')!;
      expect(etag, f.path).toMatch(/^"[0-9a-f]{64}"$/);
      expect((await fetch(server.base + f.path, { headers: { 'If-None-Match': etag } })).status, f.path).toBe(304);
    }
  });
});

describe('contract headers on every success', () => {
  it('sets JSON type, CORS, caching, a strong ETag and a request id; 304 on If-None-Match; HEAD has no body', async () => {
    const url = `${server.base}/api/v1/company/D1101`;
    const res = await fetch(url);
    await res.arrayBuffer();
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    const again = await fetch(url, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');

    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(etag);
    expect(head.headers.get('content-length')).toBe(res.headers.get('content-length'));
    expect(await head.text()).toBe('');

    const ids = new Set(await Promise.all([1, 2, 3].map(async () => (await fetch(url)).headers.get('x-request-id'))));
    expect(ids.size).toBe(3);
  });

  it('the company-file fast path and the Express path send the same headers and body', async () => {
    const canonicalSpelling = await fetch(`${server.base}/api/v1/company/D1101`); // fast path
    const otherSpelling = await fetch(`${server.base}/api/v1/company/d1101.json`); // through Express
    const strip = (h: Headers) => [...h.entries()].filter(([k]) => !['x-request-id', 'date'].includes(k));
    expect(strip(canonicalSpelling.headers)).toEqual(strip(otherSpelling.headers));
    expect(await canonicalSpelling.text()).toBe(await otherSpelling.text());
  });

  it("metered answers are private, static files public: a shared cache can neither leak a caller's quota nor skip counting", async () => {
    const metered = [
      '/ranking?limit=5',
      '/ranking?format=csv&q=D11',
      '/company/D1101/canonical?fields=flags',
      '/compare?tickers=D1101,D1102',
      '/sources/registry?gov_only=true',
      '/changes?limit=2',
    ];
    for (const path of metered) {
      const res = await fetch(`${server.base}/api/v1${path}`);
      await res.arrayBuffer();
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('private, max-age=3600');
      const again = await fetch(`${server.base}/api/v1${path}`, { headers: { 'If-None-Match': res.headers.get('etag')! } });
      expect([again.status, again.headers.get('cache-control')], path).toEqual([304, 'private, max-age=3600']);
    }
    for (const path of ['/ranking', '/company/D1101/canonical', '/sources/registry', '/changes', '/methodology']) {
      const res = await fetch(`${server.base}/api/v1${path}`);
      await res.arrayBuffer();
      expect(res.headers.get('cache-control'), path).toBe('public, max-age=3600');
    }
  });

  it('answers an OPTIONS preflight with 204 and the allowed methods and headers', async () => {
    const res = await fetch(`${server.base}/api/v1/compare`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://example.org', 'Access-Control-Request-Method': 'GET' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toBe('Content-Type, X-API-Key');
    expect(res.headers.get('access-control-max-age')).toBe('86400');
  });

  it('every body carries the snapshot fields and generated_at is the publish time', async () => {
    for (const c of staticCases(store).filter((x) => x.name !== 'openapi')) {
      const { body } = await getJson(server.base + c.url);
      expect(body).toMatchObject({
        ok: true,
        generated_at: store.meta.published_at,
        methodology_version: '1.2',
        dataset_snapshot_id: store.meta.dataset_snapshot_id,
        data_asof: store.meta.data_asof,
      });
    }
  });

  it('serves health and readiness outside /api/v1', async () => {
    expect((await getJson(`${server.base}/healthz`)).status).toBe(200);
    const ready = await getJson(`${server.base}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body.dataset_snapshot_id).toBe(store.meta.dataset_snapshot_id);
  });
});
