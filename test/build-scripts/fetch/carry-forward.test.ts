import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchSources, SourceFetchError, type FetchOptions } from '../../../build-scripts/fetch/fetch-sources.js';
import { refresh } from '../../../build-scripts/refresh.js';
import { silentProgress } from '../../../build-scripts/snapshot/progress.js';
import { API_KEY, PATHS, publisherHandlers, replayEnv, SAMPLE_GHG } from './publishers.js';
import { jsonReply, startReplay, type Replay } from './replay-server.js';

/**
 * Contract section 9: a monthly refresh survives one publisher's bad day. A source that answers
 * empty (the exchanges' GHG datasets answer `[]` between disclosure seasons), is blocked (TWSE's
 * security page), answers a not-found page where data was expected (TWSE's `t187ap46_L_12`) or fails
 * through its retries keeps its previous good answers, byte for byte, while they are younger than its
 * limit, and the registry, the summary and the pages say so. Older, or never fetched, the refresh
 * fails and the previous snapshot stays current. A changed form is never carried.
 */

const root = mkdtempSync(join(tmpdir(), 'carry-forward-'));
let replay: Replay;
beforeAll(async () => {
  replay = await startReplay(publisherHandlers());
});
afterAll(async () => {
  await replay.close();
  rmSync(root, { recursive: true, force: true });
});

const http = { retryBaseMs: 1, retryMaxMs: 5, minIntervalMs: 0, timeoutMs: 5_000, attempts: 2 };
const env = () => ({ ...replayEnv(replay.base), MOENV_API_KEY: API_KEY });
const day = (iso: string) => new Date(`${iso}T03:00:00Z`);
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const folder = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((f) => [f, sha256(join(dir, f))]),
  );
const fetchInto = (outDir: string, now: Date, over: Partial<FetchOptions> = {}) =>
  fetchSources({ outDir, env: env(), log: () => undefined, http, now: () => now, asof: '2026-07-31', ...over });

/**
 * TWSE's not-found page, as `t187ap46_L_12` served it on 2025-11-23 (test/fixtures/genuine/failure-shapes):
 * its body and Content-Type from the caller's wrapper (the wrapper's other headers describe the gzip
 * transfer of the original, not these bytes).
 */
const NOT_FOUND = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../fixtures/genuine/failure-shapes/GET__opendata_t187ap46_L_12.json'), 'utf8'),
).response as { status_code: number; headers: Record<string, string>; body: string };
const notFoundFault = () =>
  ({ kind: 'reply', reply: { status: NOT_FOUND.status_code, type: NOT_FOUND.headers['Content-Type']!, body: Buffer.from(NOT_FOUND.body) } }) as const;

/** TWSE's security page as served to a blocked client (HTTP 200, text/html). */
const SECURITY_PAGE =
  '<html><head><title>Security</title></head><body><p>因為安全性考量，您所執行的頁面無法呈現，請關閉瀏覽器後重新開啟。</p><p>The page cannot be displayed.</p></body></html>';

describe('a refresh whose GHG disclosure source answers [] between seasons', () => {
  const sources = join(root, 'refresh-sources');
  const snapshots = join(root, 'refresh-snapshots');
  const run = (now: Date) =>
    refresh({
      sourcesDir: sources,
      snapshotsDir: snapshots,
      env: env(),
      now,
      assertScale: 0.001,
      http,
      log: () => undefined,
      progress: silentProgress,
    });
  const current = () => readlinkSync(join(snapshots, 'current'));
  const tree = (id: string, path: string) => readFileSync(join(snapshots, id, 'tree', path), 'utf8');
  /** A company's facts without what names the snapshot (its id, dates and citation). */
  const facts = (id: string, ticker: string) => {
    const { dataset_snapshot_id, published_at, citation, ...rest } = JSON.parse(tree(id, `api/v1/company/${ticker}/canonical.json`));
    (void dataset_snapshot_id, published_at, citation);
    return JSON.stringify(rest).replaceAll(id, '<id>');
  };
  let first: string;
  let second: string;
  let ghgBytes: string;

  beforeAll(async () => {
    first = (await run(day('2026-08-01'))).built.id;
    ghgBytes = sha256(join(sources, 't187ap46_L_1.json'));
    replay.fault(PATHS.twseGhg, { kind: 'reply', reply: jsonReply([]) });
    const r = await run(day('2026-08-20'));
    second = r.built.id;
    expect(r.fetched.carriedForward['SRC-TWSE-ESG-GHG']).toMatchObject({ attempted_at: '2026-08-20T03:00:00Z' });
  }, 600_000);

  it('publishes, keeping the previous answer byte for byte where the next refresh finds it', () => {
    expect(current()).toBe(second);
    expect(second).not.toBe(first);
    expect(sha256(join(sources, 't187ap46_L_1.json'))).toBe(ghgBytes);
    const manifest = JSON.parse(readFileSync(join(sources, 'manifest.json'), 'utf8'));
    expect(manifest.carried_forward['SRC-TWSE-ESG-GHG'].reason).toMatch(/answered empty/);
    expect(manifest.files.find((f: { file: string }) => f.file === 't187ap46_L_1.json').retrieved_at).toBe('2026-08-01T03:00:00Z');
  });

  it('the registry entry says carried_forward; every other source says null', () => {
    const registry = JSON.parse(tree(second, 'api/v1/sources/registry.json')).data as {
      source_id: string;
      carried_forward: unknown;
      retrieved_at: string;
    }[];
    const ghg = registry.find((s) => s.source_id === 'SRC-TWSE-ESG-GHG')!;
    expect(ghg.carried_forward).toEqual({ attempted_at: '2026-08-20T03:00:00Z', reason: expect.stringMatching(/^the publisher answered empty/) });
    expect(ghg.retrieved_at).toBe('2026-08-01T03:00:00Z');
    expect(registry.filter((s) => s.carried_forward !== null).map((s) => s.source_id)).toEqual(['SRC-TWSE-ESG-GHG']);
    const before = JSON.parse(tree(first, 'api/v1/sources/registry.json')).data as { carried_forward: unknown }[];
    expect(before.every((s) => s.carried_forward === null)).toBe(true);
  });

  it('the sources page says so, in both languages', () => {
    const en = tree(second, 'sources/index.html');
    expect(en).toMatch(
      /Carried forward<\/dt><dd class="carried-forward">The publisher’s latest answer \(asked [^)]+\) gave nothing usable: the publisher answered empty/,
    );
    const zh = tree(second, 'zh-TW/sources/index.html');
    expect(zh).toMatch(/沿用前次資料<\/dt><dd class="carried-forward">發布機關最近一次的回應（[^）]+擷取）是空的/);
    expect(tree(first, 'sources/index.html')).not.toContain('carried-forward');
  });

  it("nothing else changes: the companies' facts are those of the month before", () => {
    for (const ticker of ['2330', '1101', '6488']) expect(facts(second, ticker), ticker).toBe(facts(first, ticker));
  });

  it("past the source's limit (annual: 400 days) the refresh fails naming the source, and the previous snapshot stays current", async () => {
    replay.fault(PATHS.twseGhg, { kind: 'reply', reply: jsonReply([]) });
    const before = folder(sources);
    const err = await run(day('2027-09-15')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceFetchError);
    expect((err as Error).message).toMatch(
      /^SRC-TWSE-ESG-GHG: the publisher answered empty .*cannot carry forward: the previous answers \(retrieved 2026-08-01T03:00:00Z\) are 410 days old, older than the 400-day limit of a annual source/,
    );
    expect(current()).toBe(second);
    expect(folder(sources)).toEqual(before);
  }, 120_000);

  it('a renamed key is never carried: the answer is kept, and the build fails naming the source and the key', async () => {
    // As many records as the month before (so no count assertion speaks first), each with 公司代號 renamed.
    const renamed = ['2330', '1101'].map((code) => {
      const r: Record<string, string> = { ...SAMPLE_GHG, 公司代碼: code };
      delete r['公司代號'];
      return r;
    });
    replay.fault(PATHS.twseGhg, { kind: 'reply', reply: jsonReply(renamed) });
    const err = await run(day('2026-09-01')).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/SRC-TWSE-ESG-GHG t187ap46_L_1\.json: missing required column or key "公司代號"/);
    expect(current()).toBe(second);
    const manifest = JSON.parse(readFileSync(join(sources, 'manifest.json'), 'utf8'));
    expect(manifest.carried_forward?.['SRC-TWSE-ESG-GHG']).toBeUndefined();
  }, 300_000);
});

describe('what the fetch carries forward, and what it never does', () => {
  const young = join(root, 'young');
  beforeAll(() => fetchInto(young, day('2026-07-01')), 120_000);

  it('TWSE\'s security page is recognised and named "blocked by the publisher"; the previous answer stands in', async () => {
    const out = join(root, 'blocked');
    await fetchInto(out, day('2026-07-01'));
    const before = sha256(join(out, 't187ap03_L.json'));
    replay.fault(PATHS.twseCompany, { kind: 'reply', reply: { type: 'text/html; charset=utf-8', body: Buffer.from(SECURITY_PAGE) } });
    const r = await fetchInto(out, day('2026-07-03'), { only: ['SRC-TWSE-COMPANY'] });
    expect(r.carriedForward['SRC-TWSE-COMPANY']!.reason).toMatch(
      /^blocked by the publisher \(GET .*t187ap03_L.* blocked by the publisher: its security page/,
    );
    expect(sha256(join(out, 't187ap03_L.json'))).toBe(before);
  }, 120_000);

  it('a blocked daily source whose previous answers are 8 days old fails (limit 7 days)', async () => {
    const out = join(root, 'blocked-old');
    await fetchInto(out, day('2026-07-01'));
    replay.fault(PATHS.twseCompany, { kind: 'reply', reply: { type: 'text/html; charset=utf-8', body: Buffer.from(SECURITY_PAGE) } });
    await expect(fetchInto(out, day('2026-07-09'), { only: ['SRC-TWSE-COMPANY'] })).rejects.toThrow(
      /^SRC-TWSE-COMPANY: blocked by the publisher .*older than the 7-day limit of a daily source/,
    );
  }, 120_000);

  it('TWSE\'s genuine not-found page (HTTP 200 text/html, only <img src="404.png">) is a failed answer: the previous answer stands in', async () => {
    expect(NOT_FOUND.status_code).toBe(200);
    expect(NOT_FOUND.headers['Content-Type']).toBe('text/html; charset=utf-8');
    const out = join(root, 'not-found');
    await fetchInto(out, day('2026-07-01'));
    const before = sha256(join(out, 't187ap46_L_1.json'));
    replay.fault(PATHS.twseGhg, notFoundFault());
    // An annual source: 364 days is within its 400-day limit.
    const r = await fetchInto(out, day('2027-06-30'), { only: ['SRC-TWSE-ESG-GHG'] });
    expect(r.carriedForward['SRC-TWSE-ESG-GHG']).toEqual({
      attempted_at: '2027-06-30T03:00:00Z',
      reason: expect.stringMatching(/^a not-found page where data was expected \(GET .*t187ap46_L_1.*: a not-found page with status 200/),
    });
    expect(sha256(join(out, 't187ap46_L_1.json'))).toBe(before);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.carried_forward['SRC-TWSE-ESG-GHG'].reason).toMatch(/^a not-found page/);
    expect(manifest.files.find((f: { file: string }) => f.file === 't187ap46_L_1.json').retrieved_at).toBe('2026-07-01T03:00:00Z');

    // Past the limit (405 days after the answers kept), the fetch fails naming the source and leaves the folder.
    const kept = folder(out);
    replay.fault(PATHS.twseGhg, notFoundFault());
    await expect(fetchInto(out, day('2027-08-10'), { only: ['SRC-TWSE-ESG-GHG'] })).rejects.toThrow(
      /^SRC-TWSE-ESG-GHG: a not-found page where data was expected .*cannot carry forward: .* 405 days old, older than the 400-day limit of a annual source/,
    );
    expect(folder(out)).toEqual(kept);
  }, 120_000);

  it('the not-found page for a source never fetched into the folder fails naming the source: nothing to carry', async () => {
    replay.fault(PATHS.twseGhg, notFoundFault());
    const err = await fetchInto(join(root, 'not-found-never'), day('2026-07-01'), { only: ['SRC-TWSE-ESG-GHG'] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceFetchError);
    expect((err as SourceFetchError).sourceId).toBe('SRC-TWSE-ESG-GHG');
    expect((err as Error).message).toMatch(/^SRC-TWSE-ESG-GHG: a not-found page where data was expected .*cannot carry forward: no previous answers/);
  }, 60_000);

  it('a source unavailable through every retry (503) is carried; a monthly one 46 days later is not', async () => {
    const out = join(root, 'unavailable');
    await fetchInto(out, day('2026-07-01'));
    replay.fault(PATHS.penalties, { kind: 'status', status: 503 }, { kind: 'status', status: 503 });
    const r = await fetchInto(out, day('2026-08-01'), { only: ['SRC-MOENV-EMS_P_46'] });
    expect(r.carriedForward['SRC-MOENV-EMS_P_46']!.reason).toMatch(/^unavailable after every retry \(.*HTTP 503, still after 2 attempts\)/);
    expect(readdirSync(out).filter((f) => f.startsWith('EMS_P_46.'))).toHaveLength(3);
    replay.fault(PATHS.penalties, { kind: 'status', status: 503 }, { kind: 'status', status: 503 });
    await expect(fetchInto(out, day('2026-08-16'), { only: ['SRC-MOENV-EMS_P_46'] })).rejects.toThrow(
      /older than the 45-day limit of a monthly source/,
    );
  }, 120_000);

  it('an empty answer for a source never fetched into the folder fails: nothing to carry', async () => {
    replay.fault(PATHS.tpexGhg, { kind: 'reply', reply: jsonReply([]) });
    await expect(fetchInto(join(root, 'never'), day('2026-07-01'))).rejects.toThrow(
      /^SRC-TPEX-ESG-GHG: the publisher answered empty .*cannot carry forward: no previous answers/,
    );
  }, 120_000);

  it.each([
    ['any other HTML page', { kind: 'html-200' } as const, /an HTML page with status 200/],
    [
      'an HTML page with a 404 image and text of its own',
      {
        kind: 'reply',
        reply: { type: 'text/html', body: Buffer.from('<html><body><img src="404.png"><p>系統維護中，請稍後再試</p></body></html>') },
      } as const,
      /an HTML page with status 200/,
    ],
    [
      'an HTML page titled 404 with other images',
      {
        kind: 'reply',
        reply: { type: 'text/html', body: Buffer.from('<html><head><title>404</title></head><body><img src="logo.png"></body></html>') },
      } as const,
      /an HTML page with status 200/,
    ],
    [
      'an HTML page titled 404 larger than a not-found page',
      {
        kind: 'reply',
        reply: { type: 'text/html', body: Buffer.from(`<html><head><title>404</title></head><body>${' '.repeat(5000)}</body></html>`) },
      } as const,
      /an HTML page with status 200/,
    ],
    [
      'JSON in another encoding (Big5)',
      {
        kind: 'reply',
        reply: { type: 'application/json', body: Buffer.from([0x5b, 0x7b, 0x22, 0xa4, 0xbd, 0xa5, 0x71, 0x22, 0x3a, 0x22, 0x31, 0x22, 0x7d, 0x5d]) },
      } as const,
      /not UTF-8/,
    ],
    ['a 404', { kind: 'status', status: 404 } as const, /HTTP 404/],
  ])(
    '%s is a changed form: never carried, the fetch fails naming the source',
    async (_, fault, message) => {
      const before = folder(young);
      replay.fault(PATHS.twseCompany, fault);
      const err = await fetchInto(young, day('2026-07-02'), { only: ['SRC-TWSE-COMPANY'] }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SourceFetchError);
      expect((err as SourceFetchError).sourceId).toBe('SRC-TWSE-COMPANY');
      expect((err as Error).message).toMatch(message);
      expect((err as Error).message).not.toMatch(/carr/);
      expect(folder(young)).toEqual(before);
    },
    60_000,
  );
});
