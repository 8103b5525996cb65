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
import {
  API_KEY,
  GENPLUS_COOKIE,
  GENPLUS_NULL_YEAR,
  genplusHandlers,
  PAGE,
  PATHS,
  PENALTY_ROWS,
  publisherHandlers,
  replayEnv,
  SAMPLE_GHG,
} from './publishers.js';
import { jsonReply, startReplay, type Replay } from './replay-server.js';

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
const folderHashes = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((f) => [f, sha256(join(dir, f))]),
  );
const leftovers = () => readdirSync(root).filter((n) => /\.(fetch|old)-/.test(n));

describe('npm run fetch against a replay of the publishers', () => {
  const out = join(root, 'today');

  beforeAll(async () => {
    // Transient faults on the way: each is retried and the fetch still succeeds.
    replay.fault(PATHS.twseCompany, { kind: 'status', status: 429, retryAfter: '0' });
    replay.fault(PATHS.tpexGhg, { kind: 'status', status: 503 }, { kind: 'status', status: 503 }, { kind: 'status', status: 503 });
    replay.fault(PATHS.genplus, { kind: 'reset-mid-body' });
    await fetchSources(options(out));
  });

  it('keeps every answer as served, each in the manifest with URL, method, body, status, bytes, sha256 and records', () => {
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.kind).toBe('production');
    expect(manifest.asof).toBe('2026-07-31');
    const files = manifest.files.map((f: { file: string }) => f.file);
    expect(readdirSync(out).sort()).toEqual([...files, 'manifest.json'].sort());
    for (const f of manifest.files) {
      expect(f.sha256, f.file).toBe(sha256(join(out, f.file)));
      expect(f.bytes, f.file).toBe(readFileSync(join(out, f.file)).length);
      expect(f.http_status).toBe(200);
      expect(f.retrieved_at).toBe('2026-08-01T02:03:04Z');
    }
    const byFile = Object.fromEntries(manifest.files.map((f: { file: string }) => [f.file, f]));
    expect(byFile['t187ap03_L.json']).toMatchObject({ url: `${replay.base}${PATHS.twseCompany}`, method: 'GET', records: 2 });
    // GenPlus: the antiforgery token's GET, then one POST per report year and market, old years at /old, the body as sent.
    const genplus = manifest.files.filter((f: { source_id: string }) => f.source_id === 'SRC-MOPS-ESGREPORT');
    expect(genplus).toHaveLength(1 + 2 * (2025 - 2014 + 1));
    expect(byFile['esggenplus-2025-otc.json']).toMatchObject({
      method: 'POST',
      url: `${replay.base}${PATHS.genplus}`,
      request_body: '{"year":2025,"marketType":1,"industryNameList":[],"companyCodeList":[]}',
      records: 1,
    });
    expect(byFile['esggenplus-2021-sii.json']).toMatchObject({ method: 'POST', url: `${replay.base}${PATHS.genplusOld}`, records: 1 });
    // SITCA: the form page, then one POST per class for the newest period, without the echoed state.
    expect(byFile['sitca-IN2630-form.html']).toMatchObject({ method: 'GET' });
    expect(byFile['sitca-IN2630-202509-AH11.html']).toMatchObject({ method: 'POST' });
    expect(byFile['sitca-IN2630-202509-AH11.html'].request_body).not.toMatch(/vs-\d/);
    expect(byFile['sitca-IN2630-202509-AL11.html']).toMatchObject({ method: 'POST' });
    expect(manifest.sources['SRC-MOENV-EMS_P_46']).toEqual({ records: PENALTY_ROWS, previous_records: null });
  });

  it("sends what the publishers need: JSON POST with Origin and Referer; the form POST with the previous answer's state and cookie", () => {
    const post = replay.received.find((r) => r.url.pathname === PATHS.genplus && r.method === 'POST')!;
    expect(post.headers['content-type']).toMatch(/application\/json/);
    expect(post.headers.origin).toBe('https://esggenplus.twse.com.tw');
    expect(post.headers.referer).toMatch(/^https:\/\/esggenplus\.twse\.com\.tw\/inquiry\/report\?market=\d&year=\d{4}$/);
    const forms = replay.received.filter((r) => r.url.pathname === PATHS.sitca && r.method === 'POST');
    expect(forms).toHaveLength(2);
    expect(forms.map((f) => new URLSearchParams(f.body).get('__VIEWSTATE'))).toEqual(['vs-1', 'vs-2']);
    expect(forms.every((f) => /ASP\.NET_SessionId=sess\d/.test(String(f.headers.cookie)))).toBe(true);
  });

  it('GenPlus: GETs the antiforgery token first (kept, 0 records) and sends it, with its cookie, on every POST; `data: null` is a year of 0 records', () => {
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    const byFile = Object.fromEntries(manifest.files.map((f: { file: string }) => [f.file, f]));
    expect(byFile['esggenplus-antiforgery-token.json']).toMatchObject({
      source_id: 'SRC-MOPS-ESGREPORT',
      method: 'GET',
      url: `${replay.base}${PATHS.genplusToken}`,
      http_status: 200,
      records: 0,
    });
    const token = JSON.parse(readFileSync(join(out, 'esggenplus-antiforgery-token.json'), 'utf8')).data as string;
    // The first fetch of this suite: its token GET came before its first POST, and each of its POSTs carried that token and its cookie.
    const genplus = replay.received.filter((r) => r.url.pathname.startsWith('/api/api/'));
    const first = genplus.findIndex((r) => r.url.pathname === PATHS.genplusToken);
    expect(first).toBe(0);
    const posts = genplus.filter((r) => r.method === 'POST' && r.headers.requestverificationtoken === token);
    // 24 POSTs, and the one retried after the connection reset.
    expect(posts).toHaveLength(24 + 1);
    for (const p of posts) expect(String(p.headers.cookie)).toContain(`${GENPLUS_COOKIE}=`);
    expect(genplus.slice(0, 26).every((r) => r.url.pathname === PATHS.genplusToken || r.headers.requestverificationtoken === token)).toBe(true);
    for (const market of ['sii', 'otc']) expect(byFile[`esggenplus-${GENPLUS_NULL_YEAR}-${market}.json`].records).toBe(0);
    expect(JSON.parse(readFileSync(join(out, `esggenplus-${GENPLUS_NULL_YEAR}-sii.json`), 'utf8')).data).toBeNull();
  });

  it('keeps each MOENV page as served, never the key', () => {
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    const pages = manifest.files.filter((f: { source_id: string }) => f.source_id === 'SRC-MOENV-EMS_P_46');
    expect(pages.map((p: { file: string }) => p.file)).toEqual(['EMS_P_46.0001.json', 'EMS_P_46.0002.json', 'EMS_P_46.0003.json']);
    expect(pages.map((p: { records: number }) => p.records)).toEqual([PAGE, PAGE, PENALTY_ROWS - 2 * PAGE]);
    expect(pages.map((p: { url: string }) => new URL(p.url).searchParams.get('offset'))).toEqual(['0', '1000', '2000']);
    const text = readFileSync(join(out, 'manifest.json'), 'utf8');
    expect(text).not.toContain(API_KEY);
    expect(logs.join('\n')).not.toContain(API_KEY);
  });

  it('retried the 429, the three 503s and the connection reset', () => {
    const log = logs.join('\n');
    expect(log).toMatch(/t187ap03_L: HTTP 429; retrying/);
    expect(log.match(/t187ap46_O_1: HTTP 503; retrying/g)).toHaveLength(3);
    expect(log).toMatch(/MopsSustainReport\/data: body cut off after \d+ bytes/);
  });

  it('builds a snapshot whose facts trace to the answers as served', async () => {
    const snapshotsDir = join(root, 'snapshots');
    const result = await buildAndPublish({
      sourcesDir: out,
      snapshotsDir,
      kind: 'production',
      now: new Date('2026-08-02T00:00:00Z'),
      assertScale: 0.001,
      progress: silentProgress,
    });
    expect(result.summary.rejects.count).toBe(0);
    expect(result.summary.tally.of('SRC-MOENV-EMS_P_46').duplicates).toBe(1);
    const canonical = JSON.parse(readFileSync(join(result.dir, 'tree/api/v1/company/2330/canonical.json'), 'utf8'));
    const d = canonical.carbon_disclosure;
    expect({
      scope1: d.scope1,
      scope2: d.scope2,
      scope3: d.scope3,
      year: d.year,
      boundary: d.boundary,
      boundary_text: d.boundary_text,
      s1: d.scope1_verified,
      s2: d.scope2_verified,
      s3: d.scope3_verified,
    }).toEqual({
      scope1: Number(SAMPLE_GHG['範疇一排放量(噸CO2e)']),
      scope2: Number(SAMPLE_GHG['範疇二排放量(噸CO2e)']),
      scope3: Number(SAMPLE_GHG['範疇三排放量(噸CO2e)']),
      year: Number(SAMPLE_GHG.報告年度) + 1911,
      boundary: 'consolidated',
      boundary_text: SAMPLE_GHG['範疇一資料邊界 '],
      s1: true,
      s2: true,
      s3: true,
    });
    // 1101's scope 3, served N/A, is null and unverified.
    const d1101 = JSON.parse(readFileSync(join(result.dir, 'tree/api/v1/company/1101/canonical.json'), 'utf8')).carbon_disclosure;
    expect([d1101.scope3, d1101.scope3_verified, d1101.boundary]).toEqual([null, false, 'parent']);
    // Penalties read through `ban`, with NT$/comma amounts and 年月日, slash and compact ROC dates; the decision served twice counts once.
    const dates = canonical.penalties.map((p: { date: string }) => p.date).sort();
    expect(dates).toEqual(['2014-12-29', '2024-05-21', '2024-05-21']);
    expect(canonical.penalties.map((p: { fine: number }) => p.fine).sort((a: number, b: number) => a - b)).toEqual([1234, 60000, 100000]);
    // The registry names every answer with its URL, retrieval time and sha256; so does the download table.
    const registry = JSON.parse(readFileSync(join(result.dir, 'tree/api/v1/sources/registry.json'), 'utf8'));
    const moenv = registry.data.find((s: { source_id: string }) => s.source_id === 'SRC-MOENV-EMS_P_46');
    expect(moenv.files.map((f: { file: string; sha256: string }) => [f.file, f.sha256])).toEqual(
      ['EMS_P_46.0001.json', 'EMS_P_46.0002.json', 'EMS_P_46.0003.json'].map((f) => [f, sha256(join(out, f))]),
    );
    const genplus = registry.data.find((s: { source_id: string }) => s.source_id === 'SRC-MOPS-ESGREPORT');
    expect(genplus.files).toHaveLength(1 + 24);
    const table = parseCsv(readFileSync(join(result.dir, `tree/api/v1/downloads/${result.id}/source_files.csv`), 'utf8'));
    expect(table[0]).toEqual(['source_id', 'file', 'url', 'retrieved_at', 'bytes', 'sha256']);
    expect(table.length - 1).toBe(readdirSync(out).length - 1);
    const db = new Database(join(result.dir, 'snapshot.sqlite'), { readonly: true });
    try {
      expect(db.prepare("SELECT industry FROM companies WHERE ticker = '6488'").pluck().get()).toBe('半導體業');
      expect(db.prepare("SELECT uniform_no FROM companies WHERE ticker = '6488'").pluck().get()).toBe('24591271');
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
    await expect(
      buildAndPublish({
        sourcesDir: changed,
        snapshotsDir: join(root, 'snapshots-changed'),
        kind: 'production',
        now: new Date(),
        assertScale: 0.001,
        progress: silentProgress,
      }),
    ).rejects.toThrow(/t187ap46_O_1\.json: sha256 .* is not what the fetch recorded/);
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
    [
      'a MOENV page cut to invalid JSON',
      PATHS.penalties,
      'SRC-MOENV-EMS_P_46',
      { kind: 'truncated-json' } as const,
      /EMS_P_46\.0001\.json.*truncated JSON/,
    ],
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

  it('a 503 that persists fails after the attempts allowed when there is nothing to carry forward', async () => {
    replay.fault(PATHS.registry, ...Array.from({ length: 4 }, () => ({ kind: 'status', status: 503 }) as const));
    // A new folder: no previous answers (carry-forward.test.ts has the folder that has them).
    await expect(fetchSources(options(join(root, 'kept-503')))).rejects.toThrow(
      /^SRC-MOENV-GHG_P_01: unavailable after every retry \(GET .*: HTTP 503, still after 4 attempts\); cannot carry forward: no previous answers/,
    );
    expect(replay.requests.filter((u) => u.pathname === PATHS.registry)).toHaveLength(4);
    expect(folderHashes(out)).toEqual(before);
    expect(leftovers()).toEqual([]);
  });

  it('MOENV answers 401 to a wrong key; without a key nothing is requested from MOENV', async () => {
    const wrong = await fetchSources(options(out, { env: { ...replayEnv(replay.base), MOENV_API_KEY: 'wrong-key-123' } })).then(
      () => new Error('resolved'),
      (e: unknown) => e as Error,
    );
    expect(wrong.message).toMatch(/^SRC-MOENV-EMS_P_46: GET .*: HTTP 401 \(is the API key set and valid\?\)/);
    expect(wrong.message).not.toContain('wrong-key-123');
    expect(logs.join('\n')).not.toContain('wrong-key-123');
    replay.requests.length = 0;
    await expect(fetchSources(options(out, { env: replayEnv(replay.base) }))).rejects.toThrow(
      /MOENV_API_KEY is not set; SRC-MOENV-EMS_P_46 and SRC-MOENV-GHG_P_01 need it/,
    );
    // Checked before any download: nothing at all was requested.
    expect(replay.requests).toEqual([]);
    expect(folderHashes(out)).toEqual(before);
  });

  it('--only refreshes one source and keeps the others from the previous folder', async () => {
    const only = join(root, 'only');
    await fetchSources(options(only, { now: () => new Date('2026-07-01T00:00:00Z') }));
    const old = folderHashes(only);
    await fetchSources(options(only, { only: ['SRC-TWSE-COMPANY'], now: () => new Date('2026-07-02T00:00:00Z') }));
    const manifest = JSON.parse(readFileSync(join(only, 'manifest.json'), 'utf8'));
    expect(manifest.files.map((f: { file: string }) => f.file).sort()).toEqual(
      readdirSync(only)
        .filter((f) => f !== 'manifest.json')
        .sort(),
    );
    expect(manifest.retrieved_at['SRC-TWSE-COMPANY']).toBe('2026-07-02T00:00:00Z');
    expect(manifest.retrieved_at['SRC-MOENV-EMS_P_46']).toBe('2026-07-01T00:00:00Z');
    const now = folderHashes(only);
    for (const f of Object.keys(old)) if (f !== 'manifest.json') expect(now[f], f).toBe(old[f]);
  });

  it('says "no network" at once when no host resolves, and requests nothing', async () => {
    replay.requests.length = 0;
    const err = (await fetchSources(
      options(out, { resolveHost: async (h) => Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${h}`), { code: 'ENOTFOUND' })) }),
    ).then(
      () => new Error('resolved'),
      (e: unknown) => e,
    )) as Error;
    expect(err.message).toMatch(/cannot start the fetch:\n  - cannot resolve 127\.0\.0\.1 \(ENOTFOUND\): no network or DNS on this machine/);
    expect(replay.requests).toEqual([]);
    expect(folderHashes(out)).toEqual(before);
  });

  it('enters a file placed by hand in the manifest as such, with its sha256', async () => {
    const placed = join(root, 'placed');
    await fetchSources(options(placed, { only: ['SRC-TWSE-COMPANY'] }));
    writeFileSync(
      join(placed, 'esg_report.csv'),
      '\ufeff年份,公司代號,第三方驗證單位名稱,第三方驗證採用標準,會計師確信驗證單位,會計師確信意見類型\n113,2330,,,安侯建業聯合會計師事務所,合理確信\n',
    );
    await fetchSources(options(placed, { only: ['SRC-TWSE-COMPANY'] }));
    const manifest = JSON.parse(readFileSync(join(placed, 'manifest.json'), 'utf8'));
    const entry = manifest.files.find((f: { file: string }) => f.file === 'esg_report.csv');
    expect(entry).toMatchObject({
      source_id: 'SRC-MOPS-ESGREPORT',
      url: null,
      method: null,
      placed_by_hand: true,
      sha256: sha256(join(placed, 'esg_report.csv')),
    });
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
    expect(stderr).toMatch(/fetch failed: SRC-TWSE-COMPANY: GET .*: an HTML page with status 200/);
    expect(stderr).not.toContain(API_KEY);
    expect(folderHashes(out)).toEqual(before);
    expect(existsSync(join(out, 'manifest.json'))).toBe(true);
  }, 60_000);
});

describe("GenPlus's antiforgery token", () => {
  let own: Replay;
  const genplusOnly = (outDir: string, base: string): FetchOptions => ({
    outDir,
    only: ['SRC-MOPS-ESGREPORT'],
    env: replayEnv(base),
    log: (m) => logs.push(m),
    http: { retryBaseMs: 1, retryMaxMs: 20, minIntervalMs: 0, timeoutMs: 5_000, attempts: 2 },
    now: () => new Date('2026-08-01T02:03:04Z'),
    asof: '2026-07-31',
  });
  afterAll(() => own?.close());

  it('the replay refuses a POST without the token and its cookie (400), as an antiforgery filter does', async () => {
    const issued: string[] = [];
    own = await startReplay({ ...publisherHandlers(), ...genplusHandlers({ issued }) });
    const body = JSON.stringify({ year: 2025, marketType: 0, industryNameList: [], companyCodeList: [] });
    const bare = await fetch(`${own.base}${PATHS.genplus}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(bare.status).toBe(400);
    const got = await fetch(`${own.base}${PATHS.genplusToken}`);
    const token = ((await got.json()) as { data: string }).data;
    expect(token).toBe(issued[0]);
    const cookie = got.headers.getSetCookie()[0]!.split(';')[0]!;
    const headerOnly = await fetch(`${own.base}${PATHS.genplus}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', RequestVerificationToken: token },
      body,
    });
    expect(headerOnly.status).toBe(400);
    const both = await fetch(`${own.base}${PATHS.genplus}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', RequestVerificationToken: token, cookie },
      body,
    });
    expect(both.status).toBe(200);
    await own.close();
  });

  it('without the token endpoint (404) the fetch goes on without the header, says so once, and keeps no token answer', async () => {
    own = await startReplay({ ...publisherHandlers(), ...genplusHandlers({ antiforgery: false }) });
    const dir = join(root, 'genplus-no-token');
    const before = logs.length;
    const result = await fetchSources(genplusOnly(dir, own.base));
    expect(result.counts['SRC-MOPS-ESGREPORT']!.records).toBe(4);
    const posts = own.received.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(24);
    expect(posts.every((r) => r.headers.requestverificationtoken === undefined)).toBe(true);
    expect(own.received.filter((r) => r.url.pathname === PATHS.genplusToken)).toHaveLength(1);
    expect(logs.slice(before).filter((m) => /antiforgery/.test(m))).toEqual([
      `SRC-MOPS-ESGREPORT: no antiforgery token endpoint (HTTP 404 at ${own.base}${PATHS.genplusToken}); posting without a RequestVerificationToken header`,
    ]);
    expect(readdirSync(dir)).not.toContain('esggenplus-antiforgery-token.json');
    await own.close();
  });

  it.each([
    ["GenPlus's envelope with no token in it", jsonReply({ code: 200, success: true, data: null, message: null })],
    ['another key', jsonReply({ xsrfToken: 'CfDJ8-another-key-0123456789abcdef' })],
    ['an empty object', jsonReply({})],
  ])('a 200 token answer in a form we do not know (%s) fails naming SRC-MOPS-ESGREPORT, before any POST', async (_, reply) => {
    own = await startReplay({ ...publisherHandlers(), ...genplusHandlers() });
    own.fault(PATHS.genplusToken, { kind: 'reply', reply });
    const dir = join(root, 'genplus-unknown-token');
    const err = await fetchSources(genplusOnly(dir, own.base)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceFetchError);
    expect((err as SourceFetchError).sourceId).toBe('SRC-MOPS-ESGREPORT');
    expect((err as Error).message).toMatch(
      /^SRC-MOPS-ESGREPORT: GET .*esggenplus-antiforgery-token\.json.*SRC-MOPS-ESGREPORT esggenplus-antiforgery-token\.json: the antiforgery answer holds no token in a form we know/,
    );
    expect(own.received.filter((r) => r.method === 'POST')).toEqual([]);
    expect(existsSync(dir)).toBe(false);
    await own.close();
  });
});
