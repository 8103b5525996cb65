import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATASET_CREATOR_NAME } from '../../../build-scripts/pages/dataset-json-ld.js';
import { NO_OPEN_DATA_LICENCE, registryResponseSchema, type RegistryResponse } from '../../../src/contract/registry.js';
import { snapshotsResponseSchema, type SnapshotEntry, type SnapshotsResponse } from '../../../src/contract/snapshots.js';
import { pageUrls } from '../../../src/site/i18n/paths.js';
import { DOWNLOADS_DIR } from '../../../src/contract/api-paths.js';
import { hrefsOf } from '../../site/html.js';
import { getJson, startServer, type RunningServer } from '../../helpers/server.js';
import { demoSeriesSnapshotsDir } from '../../helpers/demo-series-dir.js';

/**
 * The schema.org Dataset that dataset search engines read, on /downloads/ and on each snapshot's
 * folder page, parsed from the pages as a started shim serves them (the evolving demo: two kept
 * snapshots, each with the folder page its own build wrote), and held to the snapshot's real files
 * (hashed here), to /api/v1/snapshots and to CITATION.cff.
 */
let server: RunningServer;
let snapshotsDir: string;
let snapshots: SnapshotsResponse;
let registry: RegistryResponse;

beforeAll(async () => {
  snapshotsDir = demoSeriesSnapshotsDir;
  server = await startServer(snapshotsDir);
  snapshots = snapshotsResponseSchema.parse((await getJson(`${server.base}/api/v1/snapshots`)).body);
  registry = registryResponseSchema.parse((await getJson(`${server.base}/api/v1/sources/registry`)).body);
});
afterAll(async () => {
  await server?.close();
});

const folderOf = (id: string) => join(snapshotsDir, id, 'tree', DOWNLOADS_DIR, id);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

async function html(path: string): Promise<{ text: string; res: Response }> {
  const res = await fetch(server.base + path);
  expect(res.status, path).toBe(200);
  expect(res.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
  return { text: await res.text(), res };
}

/** The page's JSON-LD blocks, parsed. */
function jsonLdOf(page: string): any[] {
  return [...page.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
}

/** One Dataset, checked field by field against the snapshot's entry, its files on disk and the registry. */
function expectDatasetOf(ld: any, entry: SnapshotEntry, pagePath: string): void {
  const id = entry.dataset_snapshot_id;
  expect(ld['@context']).toBe('https://schema.org');
  expect(ld['@type']).toBe('Dataset');
  expect(ld.name).toContain(id);
  expect(ld.name.length).toBeGreaterThan(20);
  expect(ld.description.length).toBeGreaterThan(100);
  expect(ld.version).toBe(id);
  expect(new URL(ld.url).pathname).toBe(pagePath);
  expect(ld.temporalCoverage).toMatch(new RegExp(`/${entry.data_asof}$`));
  expect(ld.isAccessibleForFree).toBe(true);
  // Licences: exactly those the sources grant (a source without one, id `none`, names no licence).
  const licences = new Set(registry.data.filter((s) => s.licence.id !== NO_OPEN_DATA_LICENCE).map((s) => s.licence.url));
  expect(licences.size).toBeGreaterThan(0);
  expect(new Set(ld.license)).toEqual(licences);
  expect(ld.license).toHaveLength(licences.size);
  // The creator is who CITATION.cff says the dataset is by.
  const cff = readFileSync(join(folderOf(id), 'CITATION.cff'), 'utf8');
  const author = /^authors:\n {2}- name: "([^"]+)"/m.exec(cff)![1];
  expect(ld.creator).toMatchObject({ '@type': 'Organization', name: author });
  expect(author).toBe(DATASET_CREATOR_NAME);
  expect(new URL(ld.creator.url).host).toBe(new URL(ld.url).host);
  // One distribution per file of the snapshot, as /snapshots lists them and as they are on disk.
  const onDisk = readdirSync(folderOf(id))
    .filter((n) => n !== 'index.html')
    .sort();
  expect(ld.distribution.map((d: any) => d.name).sort()).toEqual(onDisk);
  expect(ld.distribution.map((d: any) => new URL(d.contentUrl).pathname)).toEqual(entry.files.map((f) => f.path));
  for (const [i, d] of (ld.distribution as any[]).entries()) {
    const f = entry.files[i]!;
    const bytes = readFileSync(join(folderOf(id), nameOf(f.path)));
    expect(d['@type']).toBe('DataDownload');
    expect(new URL(d.contentUrl).host, d.name).toBe(new URL(ld.url).host);
    expect(d.encodingFormat, d.name).toBe(f.mediatype);
    expect(d.sha256, d.name).toBe(sha256(bytes));
    expect(d.sha256, d.name).toBe(f.sha256);
    expect(d.contentSize, d.name).toBe(`${bytes.length} B`);
  }
}

describe('schema.org Dataset JSON-LD', () => {
  it('/downloads/ describes the current snapshot, every file with its URL, type and sha256', async () => {
    const { text } = await html(pageUrls.downloads);
    const [ld, ...more] = jsonLdOf(text);
    expect(more).toEqual([]);
    const current = snapshots.data[0]!;
    expectDatasetOf(ld, current, pageUrls.downloads);
    // Each distribution is served at its URL, byte for byte.
    for (const d of ld.distribution as any[]) {
      const res = await fetch(server.base + new URL(d.contentUrl).pathname);
      expect(res.status, d.name).toBe(200);
      expect(sha256(Buffer.from(await res.arrayBuffer())), d.name).toBe(d.sha256);
    }
  });

  it('each kept snapshot has its own folder page with its own Dataset, and /downloads/ links to it', async () => {
    expect(snapshots.data.length).toBe(2);
    const downloads = hrefsOf((await html(pageUrls.downloads)).text);
    for (const entry of snapshots.data) {
      const folder = pageUrls.downloadFolder(entry.dataset_snapshot_id);
      expect(downloads).toContain(folder);
      const { text } = await html(folder);
      const [ld, ...more] = jsonLdOf(text);
      expect(more).toEqual([]);
      expectDatasetOf(ld, entry, folder);
    }
  });
});

describe('download folder pages', () => {
  it('link every file relatively, with its size and sha256, and are served with a validator', async () => {
    for (const entry of snapshots.data) {
      const folder = pageUrls.downloadFolder(entry.dataset_snapshot_id);
      const { text, res } = await html(folder);
      const relative = hrefsOf(text).filter((h) => !h.startsWith('/') && !h.startsWith('#') && !/^[a-z]+:/.test(h));
      expect(relative).toEqual(entry.files.map((f) => nameOf(f.path)));
      for (const f of entry.files) {
        expect(text, f.path).toContain(f.sha256);
        expect(text, f.path).toContain(`<data value="${f.bytes}"`);
        const served = await fetch(new URL(nameOf(f.path), server.base + folder));
        expect(sha256(Buffer.from(await served.arrayBuffer())), f.path).toBe(f.sha256);
      }
      const etag = res.headers.get('etag')!;
      expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
      expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
      expect((await fetch(server.base + folder, { headers: { 'If-None-Match': etag } })).status).toBe(304);
      // The same page under its file name; the folder without its slash is redirected to it.
      expect(await (await fetch(`${server.base}${folder}index.html`)).text()).toBe(text);
      const bare = await fetch(server.base + folder.slice(0, -1), { redirect: 'manual' });
      expect(bare.status).toBe(301);
      expect(bare.headers.get('location')).toBe(folder);
    }
  });

  it('are not among the files: not in /snapshots, SHA256SUMS or the Data Package, and sha256sum -c still passes', () => {
    for (const entry of snapshots.data) {
      const dir = folderOf(entry.dataset_snapshot_id);
      expect(entry.files.map((f) => nameOf(f.path))).not.toContain('index.html');
      expect(readFileSync(join(dir, 'SHA256SUMS'), 'utf8')).not.toContain('index.html');
      expect(readFileSync(join(dir, 'datapackage.json'), 'utf8')).not.toContain('index.html');
      const check = spawnSync('sha256sum', ['-c', '--strict', 'SHA256SUMS'], { cwd: dir, encoding: 'utf8' });
      expect(check.status, check.stdout + check.stderr).toBe(0);
    }
  });

  it('one wget command fetches a whole folder, which then verifies', async () => {
    const entry = snapshots.data[1]!; // the older snapshot: its page is the one its own build wrote
    const out = mkdtempSync(join(tmpdir(), 'esg-wget-'));
    try {
      const url = `${server.base}${pageUrls.downloadFolder(entry.dataset_snapshot_id)}`;
      // Asynchronously: the server answering wget runs in this process.
      const wget = await new Promise<{ status: number | null; stderr: string }>((resolve, reject) => {
        const child = spawn('wget', ['-q', '-r', '-np', '-nH', '--cut-dirs=4', url], { cwd: out, stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
        child.on('error', reject);
        child.on('close', (status) => resolve({ status, stderr }));
      });
      expect(wget.status, wget.stderr).toBe(0);
      expect(readdirSync(out).sort()).toEqual([...entry.files.map((f) => nameOf(f.path)), 'index.html'].sort());
      const check = spawnSync('sha256sum', ['-c', '--strict', 'SHA256SUMS'], { cwd: out, encoding: 'utf8' });
      expect(check.status, check.stdout + check.stderr).toBe(0);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('an unknown snapshot is 404, a malformed one 400, in the envelope', async () => {
    const unknown = await getJson(`${server.base}/api/v1/downloads/2001-01-01/`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'NOT_FOUND' });
    expect(unknown.body.error.message).toContain('2001-01-01');
    const malformed = await getJson(`${server.base}/api/v1/downloads/latest`, { redirect: 'manual' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatchObject({ code: 'BAD_REQUEST' });
  });
});
