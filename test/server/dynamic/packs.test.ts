import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../../src/contract/common.js';
import { registryResponseSchema } from '../../../src/contract/registry.js';
import { currentSnapshotDir } from '../../../src/snapshot/published.js';
import { SnapshotStore, type CompanyRecord } from '../../../src/snapshot/store.js';
import { startMetered, T0, type Metered } from '../access/harness.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';

/**
 * POST /packs (contract 4.7, quotas 6) on the real shim over the 1,800-company demo snapshot, with
 * keys and quotas. Packs are unzipped with Debian's `unzip` and checked with `sha256sum -c`, as a
 * reader would; every file is compared with what the API serves for the same path.
 */
let shim: Metered;
let store: SnapshotStore;
let companies: CompanyRecord[];
let work: string;
let commercial: string;

beforeAll(async () => {
  const snapshotsDir = demoSnapshotsDir;
  shim = await startMetered(snapshotsDir);
  store = SnapshotStore.open(currentSnapshotDir(snapshotsDir)!);
  companies = [...store.companies()];
  work = mkdtempSync(join(tmpdir(), 'esg-packs-'));
  commercial = shim.newKey('commercial');
});
afterAll(async () => {
  store?.close();
  await shim?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

interface PackAnswer {
  status: number;
  headers: Headers;
  bytes: Buffer;
  json: any;
}

async function pack(body: unknown, o: { key?: string | null; contentType?: string; raw?: string } = {}): Promise<PackAnswer> {
  const headers: Record<string, string> = { 'Content-Type': o.contentType ?? 'application/json' };
  const key = o.key === undefined ? commercial : o.key;
  if (key !== null) headers['X-API-Key'] = key;
  const res = await fetch(`${shim.base}/api/v1/packs`, { method: 'POST', headers, body: o.raw ?? JSON.stringify(body) });
  const bytes = Buffer.from(await res.arrayBuffer());
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, bytes, json };
}

function expectEnvelope(a: PackAnswer, status: number, code: string, ...mentions: string[]): string {
  expect(a.status, a.bytes.toString()).toBe(status);
  expect(a.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(a.headers.get('content-disposition')).toBeNull();
  expect(errorBodySchema.safeParse(a.json).success).toBe(true);
  expect(a.json.error.code).toBe(code);
  expect(a.json.error.request_id).toBe(a.headers.get('x-request-id'));
  expect(a.json).toMatchObject({
    dataset_snapshot_id: store.meta.dataset_snapshot_id,
    data_asof: store.meta.data_asof,
    methodology_version: store.meta.methodology_version,
  });
  for (const m of mentions) expect(a.json.error.message).toContain(m);
  return a.json.error.message;
}

/** Unzips with Debian's unzip into a fresh folder; returns the pack's top folder. */
function unzip(bytes: Buffer): string {
  const dir = mkdtempSync(join(work, 'unzipped-'));
  writeFileSync(join(dir, 'pack.zip'), bytes);
  execFileSync('unzip', ['-q', 'pack.zip'], { cwd: dir });
  const top = readdirSync(dir).filter((n) => n !== 'pack.zip');
  expect(top).toEqual([`evidence-pack-${store.meta.dataset_snapshot_id}`]);
  return join(dir, top[0]!);
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(relative(dir, join(d, e.name)));
    }
  };
  walk(dir);
  return out.sort();
}

const apiText = async (path: string) => (await fetch(`${shim.base}/api/v1${path}`)).text();

describe('a pack for three companies', () => {
  let answer: PackAnswer;
  let dir: string;
  let tickers: string[];

  beforeAll(async () => {
    // One with penalties, one OTC, one other: a spread of sources.
    const penalised = companies.find((c) => store.factsOf(c).penalties.length > 0)!;
    const otc = companies.find((c) => c.market_type === 'otc' && c.ticker !== penalised.ticker)!;
    const other = companies.find((c) => c.ticker !== penalised.ticker && c.ticker !== otc.ticker)!;
    tickers = [penalised.ticker, otc.ticker, other.ticker];
    answer = await pack({ tickers });
    dir = unzip(answer.bytes);
  });

  it('answers a zip to download, named by the snapshot, never cached, counted', () => {
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/zip');
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="evidence-pack-${store.meta.dataset_snapshot_id}.zip"`);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('etag')).toBeNull();
    expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.headers.get('ratelimit')).toMatch(/^"[a-z/]+";r=\d+;t=\d+$/);
    expect(answer.bytes.subarray(0, 4)).toEqual(Buffer.from('PK\x03\x04', 'latin1'));
  });

  it('holds exactly the files the contract names, per company and once for the pack', () => {
    const sorted = [...tickers].sort();
    expect(filesUnder(dir)).toEqual(
      [
        'README.md',
        'CITATION.cff',
        'SHA256SUMS',
        'companies.csv',
        'methodology.json',
        'sources.json',
        ...sorted.flatMap((t) => [`companies/${t}/summary.json`, `companies/${t}/canonical.json`, `companies/${t}/history.json`]),
      ].sort(),
    );
  });

  it('verifies with sha256sum -c, and SHA256SUMS lists every other file', () => {
    const out = execFileSync('sha256sum', ['-c', '--strict', 'SHA256SUMS'], { cwd: dir, encoding: 'utf8' });
    const listed = out
      .trim()
      .split('\n')
      .map((l) => l.replace(/: OK$/, ''));
    expect(listed.sort()).toEqual(filesUnder(dir).filter((f) => f !== 'SHA256SUMS'));
  });

  it('each JSON file is byte for byte what the API serves for that path', async () => {
    for (const t of tickers) {
      expect(readFileSync(join(dir, 'companies', t, 'summary.json'), 'utf8')).toBe(await apiText(`/company/${t}`));
      expect(readFileSync(join(dir, 'companies', t, 'canonical.json'), 'utf8')).toBe(await apiText(`/company/${t}/canonical`));
      expect(readFileSync(join(dir, 'companies', t, 'history.json'), 'utf8')).toBe(await apiText(`/company/${t}/history`));
    }
    expect(readFileSync(join(dir, 'methodology.json'), 'utf8')).toBe(await apiText('/methodology'));
    expect(readFileSync(join(dir, 'CITATION.cff'), 'utf8')).toBe(await apiText(`/downloads/${store.meta.dataset_snapshot_id}/CITATION.cff`));
  });

  it('cites exactly the sources its facts use, with the sha256 of their publisher files as the registry has them', async () => {
    const used = new Set<string>();
    for (const t of tickers) {
      for (const m of readFileSync(join(dir, 'companies', t, 'canonical.json'), 'utf8').matchAll(/"source_id":"([^"]+)"/g)) used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(1);
    const sources = registryResponseSchema.parse(JSON.parse(readFileSync(join(dir, 'sources.json'), 'utf8')));
    expect(sources.data.map((s) => s.source_id).sort()).toEqual([...used].sort());
    expect(sources.meta.total).toBe(used.size);
    const registry = JSON.parse(await apiText('/sources/registry'));
    for (const entry of sources.data) {
      expect(entry).toEqual(registry.data.find((s: { source_id: string }) => s.source_id === entry.source_id));
      expect(entry.files.length).toBeGreaterThan(0);
      for (const f of entry.files) expect(f.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    // The registry has sources these companies do not cite (ETF holdings at least): they are left out.
    expect(registry.data.length).toBeGreaterThan(sources.data.length);
  });

  it("companies.csv has the ranking export's header and each company's row from it", async () => {
    const csv = readFileSync(join(dir, 'companies.csv'), 'utf8');
    // As bytes: Response.text() would drop the byte-order mark both files start with.
    const ranking = Buffer.from(
      await (await fetch(`${shim.base}/api/v1/ranking?format=csv`, { headers: { 'X-API-Key': commercial } })).arrayBuffer(),
    ).toString('utf8');
    const [header, ...rows] = csv.trimEnd().split('\n');
    const rankingLines = ranking.trimEnd().split('\n');
    expect(header).toBe(rankingLines[0]);
    expect(rows).toEqual([...tickers].sort().map((t) => rankingLines.find((l) => l.startsWith(`${t},`))));
  });

  it('the README names the snapshot, the request and how to verify', () => {
    const readme = readFileSync(join(dir, 'README.md'), 'utf8');
    expect(readme).toContain(`snapshot ${store.meta.dataset_snapshot_id}`);
    expect(readme).toContain([...tickers].sort().join(', '));
    expect(readme).toContain('sha256sum -c SHA256SUMS');
    expect(readme).toContain(store.meta.service_host);
    expect(readme).toContain('`disclosure_conduct`'); // the canonical view's six sections, named
  });

  it('each canonical.json has the disclosure_conduct section, as every other section', () => {
    for (const t of tickers) {
      const canonical = JSON.parse(readFileSync(join(dir, 'companies', t, 'canonical.json'), 'utf8'));
      expect(Object.keys(canonical), t).toEqual(expect.arrayContaining(['penalties', 'flags', 'disclosure_conduct']));
      expect(Array.isArray(canonical.disclosure_conduct), t).toBe(true);
    }
  });
});

describe('the same request, the same bytes', () => {
  it('asking twice, reordered, in lower case, with duplicates, or in another time zone gives identical bytes', async () => {
    const tickers = companies.slice(10, 16).map((c) => c.ticker);
    const first = await pack({ tickers });
    expect(first.status).toBe(200);
    const again = await pack({ tickers });
    const reordered = await pack({
      tickers: [...tickers]
        .reverse()
        .map((t) => ` ${t.toLowerCase()}`)
        .concat(tickers[0]!),
    });
    const tz = process.env.TZ;
    process.env.TZ = 'Asia/Taipei'; // the shim runs in this process: a zone east of UTC by 8 hours
    try {
      const taipei = await pack({ tickers });
      expect(taipei.bytes.equals(first.bytes)).toBe(true);
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
    expect(again.bytes.equals(first.bytes)).toBe(true);
    expect(reordered.bytes.equals(first.bytes)).toBe(true);
  });

  it("the zip's timestamps are the snapshot's publish time", async () => {
    const a = await pack({ tickers: [companies[0]!.ticker] });
    const file = join(work, 'one.zip');
    writeFileSync(file, a.bytes);
    const listing = execFileSync('zipinfo', ['-T', file], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => l.includes('evidence-pack-'));
    const stamp = store.meta.published_at.replace(/[-:]/g, '').replace('T', '.').slice(0, 15); // yyyymmdd.hhmmss
    expect(listing).toHaveLength(9); // six pack files and three of the one company
    for (const l of listing) expect(l).toContain(stamp);
  });
});

describe('bounds and errors, in the envelope', () => {
  it('50 distinct codes make a pack; 51 is a 400 naming the limit', async () => {
    const fifty = companies.slice(0, 50).map((c) => c.ticker);
    const ok = await pack({ tickers: fifty });
    expect(ok.status).toBe(200);
    const files = filesUnder(unzip(ok.bytes));
    expect(files.filter((f) => f.endsWith('/canonical.json'))).toHaveLength(50);
    expectEnvelope(await pack({ tickers: companies.slice(0, 51).map((c) => c.ticker) }), 400, 'BAD_REQUEST', 'the most is 50');
  });

  it('unknown codes are one 404 naming every one of them, upper-cased', async () => {
    const message = expectEnvelope(await pack({ tickers: [companies[0]!.ticker, 'zz9901', 'ZZ9902'] }), 404, 'NOT_FOUND', 'ZZ9901', 'ZZ9902');
    expect(message).not.toContain(companies[0]!.ticker);
  });

  it('a malformed code, a bad body, or the wrong content type is a 400', async () => {
    expectEnvelope(await pack({ tickers: ['D1101', 'not a code!'] }), 400, 'BAD_REQUEST', 'not a code!');
    expectEnvelope(await pack({ tickers: [] }), 400, 'BAD_REQUEST', 'empty');
    expectEnvelope(await pack({ tickers: ['D1101'], extra: 1 }), 400, 'BAD_REQUEST', 'extra');
    expectEnvelope(await pack(undefined, { raw: '{"tickers": [' }), 400, 'BAD_REQUEST');
    expectEnvelope(await pack({ tickers: ['D1101'] }, { contentType: 'text/plain' }), 400, 'BAD_REQUEST', 'Content-Type');
  });

  it('a body over 64 KiB is a 413', async () => {
    expectEnvelope(await pack(undefined, { raw: JSON.stringify({ tickers: ['x'.repeat(70 * 1024)] }) }), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('GET is a 405 naming POST', async () => {
    const res = await fetch(`${shim.base}/api/v1/packs`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    expect(((await res.json()) as any).error.code).toBe('METHOD_NOT_ALLOWED');
  });
});

describe('packs/day (contract 6)', () => {
  const usage = async (key: string | null) => {
    const res = await fetch(`${shim.base}/api/v1/usage`, { headers: key ? { 'X-API-Key': key } : {} });
    return new Map(((await res.json()) as any).buckets.map((b: { bucket: string; used: number }) => [b.bucket, b.used])) as Map<string, number>;
  };

  it('the free and academic tiers get 403 FORBIDDEN naming the tiers with packs, and it counts as a call', async () => {
    for (const key of [null, shim.newKey('academic')]) {
      const before = await usage(key);
      const message = expectEnvelope(await pack({ tickers: ['D1101'] }, { key }), 403, 'FORBIDDEN', 'developer, commercial');
      expect(message).toContain('evidence packs');
      const after = await usage(key);
      expect(after.get('calls/day')).toBe(before.get('calls/day')! + 1);
      expect(after.get('packs/day')).toBe(0);
    }
  });

  it('a developer key gets 10 a day; a failed pack (404, 400) counts too; the 11th is 429 naming packs/day', async () => {
    shim.clock.now = T0;
    const key = shim.newKey('developer');
    expectEnvelope(await pack({ tickers: ['ZZ9999'] }, { key }), 404, 'NOT_FOUND');
    expectEnvelope(await pack({ tickers: [] }, { key }), 400, 'BAD_REQUEST');
    expect((await usage(key)).get('packs/day')).toBe(2);
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await pack({ tickers: [companies[i]!.ticker] }, { key })).status);
    expect(statuses).toEqual([...Array(8).fill(200), 429]);
    const refused = await pack({ tickers: ['D1101'] }, { key });
    expectEnvelope(refused, 429, 'RATE_LIMITED', 'packs/day');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit')).toMatch(/^"packs\/day";r=0;t=\d+$/);
    // The next UTC day it counts from zero again.
    shim.clock.now = T0 + 86_400_000;
    expect((await pack({ tickers: ['D1101'] }, { key })).status).toBe(200);
    shim.clock.now = T0;
  });
});
