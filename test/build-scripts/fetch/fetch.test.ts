import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildAndPublish } from '../../../build-scripts/build.js';
import { fetchSources, SourceFetchError, type FetchOptions } from '../../../build-scripts/fetch/fetch-sources.js';
import { silentProgress } from '../../../build-scripts/snapshot/progress.js';
import { parseCsv } from '../../helpers/csv-parse.js';
import { API_KEY, PAGE, PATHS, PENALTY_ROWS, publisherHandlers, replayEnv } from './publishers.js';
import { startReplay, type Replay } from './replay-server.js';

const root = mkdtempSync(join(tmpdir(), 'fetch-replay-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let replay: Replay;
beforeAll(async () => {
  replay = await startReplay(publisherHandlers());
});
afterAll(() => replay.close());
beforeEach(() => {
  replay.requests.length = 0;
});

const logs: string[] = [];
/** Fast retries, no politeness delay: the replay server is ours. */
const options = (outDir: string, over: Partial<FetchOptions> = {}): FetchOptions => ({
  outDir,
  env: { ...replayEnv(replay.base), MOENV_API_KEY: API_KEY },
  log: (m) => logs.push(m),
  http: { retryBaseMs: 1, retryMaxMs: 20, minIntervalMs: 0, timeoutMs: 5_000, attempts: 4 },
  now: () => new Date('2026-08-01T02:03:04Z'),
  asof: '2026-07-31',
  ...over,
});

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const folderHashes = (dir: string) => Object.fromEntries(readdirSync(dir).sort().map((f) => [f, sha256(join(dir, f))]));
const leftovers = () => readdirSync(root).filter((n) => /\.(fetch|old)-/.test(n));

describe('npm run fetch against a replay of the publishers', () => {
  const out = join(root, 'today');

  beforeAll(async () => {
    // Transient faults on the way: each is retried and the fetch still succeeds.
    replay.fault(PATHS.twseCompany, { kind: 'status', status: 429, retryAfter: '0' });
    replay.fault(PATHS.tpexGhg, { kind: 'status', status: 503 }, { kind: 'status', status: 503 }, { kind: 'status', status: 503 });
    replay.fault(PATHS.esgReport, { kind: 'reset-mid-body' });
    await fetchSources(options(out));
  });

  it('writes every source in its served form, and a manifest with URL, status, bytes, sha256 and records', () => {
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.kind).toBe('production');
    expect(manifest.asof).toBe('2026-07-31');
    const byFile = Object.fromEntries(manifest.files.map((f: { file: string }) => [f.file, f]));
    expect(Object.keys(byFile).sort()).toEqual([
      'EMS_P_46.json', 'GHG_P_01.json', 'esg_report.csv', 'etf_holdings.csv', 'mopsfin_t187ap03_O.json', 't187ap03_L.json', 't187ap46_L_1.json', 't187ap46_O_1.json',
    ]);
    expect(readdirSync(out).sort()).toEqual([...Object.keys(byFile), 'manifest.json'].sort());
    for (const f of manifest.files) {
      expect(f.sha256, f.file).toBe(sha256(join(out, f.file)));
      expect(f.bytes, f.file).toBe(readFileSync(join(out, f.file)).length);
      expect(f.http_status).toBe(200);
      expect(f.retrieved_at).toBe('2026-08-01T02:03:04Z');
    }
    expect(byFile['t187ap03_L.json'].url).toBe(`${replay.base}${PATHS.twseCompany}`);
    expect(byFile['t187ap03_L.json'].records).toBe(2);
    expect(byFile['esg_report.csv'].records).toBe(2);
    expect(byFile['etf_holdings.csv'].records).toBe(2);
    // The served bytes of a single-response source are kept as they came (BOM, Big5).
    expect(readFileSync(join(out, 'esg_report.csv')).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(manifest.retrieved_at['SRC-MOENV-EMS_P_46']).toBe('2026-08-01T02:03:04Z');
  });

  it('follows MOENV paging to the short page and records each page, never the key', () => {
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    const penalties = manifest.files.find((f: { file: string }) => f.file === 'EMS_P_46.json');
    expect(penalties.records).toBe(PENALTY_ROWS);
    expect(penalties.pages.map((p: { records: number }) => p.records)).toEqual([PAGE, PAGE, PENALTY_ROWS - 2 * PAGE]);
    expect(penalties.pages.map((p: { url: string }) => new URL(p.url).searchParams.get('offset'))).toEqual(['0', '1000', '2000']);
    expect(penalties.url).toBe(`${replay.base}${PATHS.penalties}?format=json&limit=1000`);
    const records = JSON.parse(readFileSync(join(out, 'EMS_P_46.json'), 'utf8'));
    expect(records).toHaveLength(PENALTY_ROWS);
    expect(records[0].ban).toBe('22099131');
    const text = readFileSync(join(out, 'manifest.json'), 'utf8');
    expect(text).not.toContain(API_KEY);
    expect(logs.join('\n')).not.toContain(API_KEY);
  });

  it('retried the 429, the three 503s and the connection reset', () => {
    const log = logs.join('\n');
    expect(log).toMatch(/t187ap03_L: HTTP 429; retrying/);
    expect(log.match(/t187ap46_O_1: HTTP 503; retrying/g)).toHaveLength(3);
    expect(log).toMatch(/esg_report\.csv: body cut off after \d+ bytes/);
  });

  it('builds a snapshot whose sample record is exactly the publisher\'s, tracing to the fetched bytes', async () => {
    const snapshotsDir = join(root, 'snapshots');
    const result = await buildAndPublish({ sourcesDir: out, snapshotsDir, kind: 'production', now: new Date('2026-08-02T00:00:00Z'), progress: silentProgress });
    expect(result.summary.rejects.count).toBe(0);
    const canonical = JSON.parse(readFileSync(join(result.dir, 'tree/api/v1/company/2330/canonical.json'), 'utf8'));
    const d = canonical.carbon_disclosure;
    expect({ scope1: d.scope1, scope2: d.scope2, scope3: d.scope3, year: d.year, boundary: d.boundary, s1: d.scope1_verified, s2: d.scope2_verified }).toEqual({
      scope1: 2196516, scope2: 11130571, scope3: null, year: 2025, boundary: 'consolidated', s1: true, s2: true,
    });
    // Penalties read through `ban`, with NT$/comma amounts and 年月日, slash and compact ROC dates.
    const dates = canonical.penalties.map((p: { date: string }) => p.date).sort();
    expect(dates).toEqual(['2014-12-29', '2024-05-21', '2024-05-21']);
    expect(canonical.penalties.map((p: { fine: number }) => p.fine).sort((a: number, b: number) => a - b)).toEqual([1234, 60000, 100000]);
    // The registry names each file with its URL, retrieval time and sha256; so does the download table.
    const registry = JSON.parse(readFileSync(join(result.dir, 'tree/api/v1/sources/registry.json'), 'utf8'));
    const twse = registry.data.find((s: { source_id: string }) => s.source_id === 'SRC-TWSE-ESG-GHG');
    expect(twse.files).toEqual([{ file: 't187ap46_L_1.json', url: `${replay.base}${PATHS.twseGhg}`, retrieved_at: '2026-08-01T02:03:04Z', bytes: readFileSync(join(out, 't187ap46_L_1.json')).length, sha256: sha256(join(out, 't187ap46_L_1.json')) }]);
    expect(twse.retrieved_at).toBe('2026-08-01T02:03:04Z');
    const table = parseCsv(readFileSync(join(result.dir, `tree/api/v1/downloads/${result.id}/source_files.csv`), 'utf8'));
    expect(table[0]).toEqual(['source_id', 'file', 'url', 'retrieved_at', 'bytes', 'sha256']);
    expect(table.slice(1).map((r) => r[1]).sort()).toEqual(['EMS_P_46.json', 'GHG_P_01.json', 'esg_report.csv', 'etf_holdings.csv', 'mopsfin_t187ap03_O.json', 't187ap03_L.json', 't187ap46_L_1.json', 't187ap46_O_1.json']);
    const db = new Database(join(result.dir, 'snapshot.sqlite'), { readonly: true });
    try {
      expect(db.prepare("SELECT level, provider FROM assurances WHERE ticker = '2330'").get()).toEqual({ level: 'reasonable', provider: '安侯建業聯合會計師事務所' });
      expect(db.prepare("SELECT weight FROM etf_holdings WHERE etf_code = '0050' AND ticker = '2330'").pluck().get()).toBeCloseTo(0.551, 10);
      expect(db.prepare("SELECT industry FROM companies WHERE ticker = '6488'").pluck().get()).toBe('半導體業');
    } finally {
      db.close();
    }
  });

  it('refuses to build from a file changed after the fetch', async () => {
    const changed = join(root, 'changed');
    await fetchSources(options(changed));
    const file = join(changed, 't187ap46_O_1.json');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('12345.6000', '99999.0000'));
    await expect(buildAndPublish({ sourcesDir: changed, snapshotsDir: join(root, 'snapshots-changed'), kind: 'production', now: new Date(), progress: silentProgress }))
      .rejects.toThrow(/t187ap46_O_1\.json: sha256 .* is not what the fetch recorded/);
  });
});

describe('a fetch that cannot complete leaves the previous folder untouched', () => {
  const out = join(root, 'kept');
  let before: Record<string, string>;
  beforeAll(async () => {
    await fetchSources(options(out, { now: () => new Date('2026-07-01T00:00:00Z') }));
    before = folderHashes(out);
  });

  it.each([
    ['truncated JSON', PATHS.twseGhg, 'SRC-TWSE-ESG-GHG', { kind: 'truncated-json' } as const, /truncated JSON/],
    ['an HTML page with status 200', PATHS.tpexCompany, 'SRC-TPEX-COMPANY', { kind: 'html-200' } as const, /HTML page with status 200/],
    ['a MOENV page cut to invalid JSON', PATHS.penalties, 'SRC-MOENV-EMS_P_46', { kind: 'truncated-json' } as const, /page at offset 0: .*truncated JSON/],
    ['a 404', PATHS.registry, 'SRC-MOENV-GHG_P_01', { kind: 'status', status: 404 } as const, /HTTP 404/],
  ])('%s fails naming the source, without retrying', async (_, path, sourceId, fault, message) => {
    replay.fault(path, fault);
    const err = await fetchSources(options(out)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceFetchError);
    expect((err as SourceFetchError).sourceId).toBe(sourceId);
    expect((err as Error).message).toMatch(message);
    expect(replay.requests.filter((u) => u.pathname === path && (u.searchParams.get('offset') ?? '0') === '0')).toHaveLength(1);
    expect(folderHashes(out)).toEqual(before);
    expect(leftovers()).toEqual([]);
  });

  it('a 503 that persists fails after the attempts allowed', async () => {
    replay.fault(PATHS.registry, ...Array.from({ length: 4 }, () => ({ kind: 'status', status: 503 }) as const));
    await expect(fetchSources(options(out))).rejects.toThrow(/^SRC-MOENV-GHG_P_01: HTTP 503, still after 4 attempts/);
    expect(replay.requests.filter((u) => u.pathname === PATHS.registry)).toHaveLength(4);
    expect(folderHashes(out)).toEqual(before);
  });

  it('MOENV answers 401 to a wrong key; without a key nothing is requested from MOENV', async () => {
    const wrong = await fetchSources(options(out, { env: { ...replayEnv(replay.base), MOENV_API_KEY: 'wrong-key-123' } })).then(() => new Error('resolved'), (e: unknown) => e as Error);
    expect(wrong.message).toMatch(/^SRC-MOENV-EMS_P_46: HTTP 401 \(is the API key set and valid\?\)/);
    expect(wrong.message).not.toContain('wrong-key-123');
    expect(logs.join('\n')).not.toContain('wrong-key-123');
    replay.requests.length = 0;
    await expect(fetchSources(options(out, { env: replayEnv(replay.base) }))).rejects.toThrow(/SRC-MOENV-EMS_P_46: MOENV_API_KEY is not set/);
    expect(replay.requests.some((u) => u.pathname.startsWith('/api/v2/'))).toBe(false);
    expect(folderHashes(out)).toEqual(before);
  });

  it('--only refreshes one source and keeps the others from the previous folder', async () => {
    const only = join(root, 'only');
    await fetchSources(options(only, { now: () => new Date('2026-07-01T00:00:00Z') }));
    const old = folderHashes(only);
    await fetchSources(options(only, { only: ['SRC-TWSE-COMPANY'], now: () => new Date('2026-07-02T00:00:00Z') }));
    const manifest = JSON.parse(readFileSync(join(only, 'manifest.json'), 'utf8'));
    expect(manifest.files).toHaveLength(8);
    expect(manifest.retrieved_at['SRC-TWSE-COMPANY']).toBe('2026-07-02T00:00:00Z');
    expect(manifest.retrieved_at['SRC-MOENV-EMS_P_46']).toBe('2026-07-01T00:00:00Z');
    const now = folderHashes(only);
    for (const f of Object.keys(old)) if (f !== 'manifest.json') expect(now[f], f).toBe(old[f]);
  });

  it('the CLI exits non-zero naming the source, and the folder stays as it was', async () => {
    replay.fault(PATHS.twseCompany, { kind: 'html-200' });
    // Asynchronous: the replay server lives in this process and must keep answering.
    const child = spawn(process.execPath, ['--import', 'tsx', 'build-scripts/cli/fetch.ts', '--out', out], {
      env: { ...process.env, ...replayEnv(replay.base), MOENV_API_KEY: API_KEY, FETCH_MIN_INTERVAL_MS: '0', FETCH_RETRY_BASE_MS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(status).toBe(1);
    expect(stderr).toMatch(/fetch failed: SRC-TWSE-COMPANY: an HTML page with status 200/);
    expect(stderr).not.toContain(API_KEY);
    expect(folderHashes(out)).toEqual(before);
    expect(existsSync(join(out, 'manifest.json'))).toBe(true);
  }, 60_000);
});
