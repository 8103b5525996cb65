import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { errorBodySchema } from '../../../src/contract/common.js';
import { currentSnapshotDir } from '../../../src/snapshot/published.js';
import { SnapshotStore, type CompanyRecord } from '../../../src/snapshot/store.js';
import { fileForUrlPath } from '../../../src/contract/api-paths.js';
import { getJson, startServer, type RunningServer } from '../../helpers/server.js';
import { demoSnapshotsDir } from '../../helpers/demo-snapshots-dir.js';

/**
 * Shared harness of the computed-endpoint suites (one file per endpoint beside this one). The shim's computed endpoints (contract 4.1, 4.2, 4.4–4.6), over real HTTP against a published
 * 1,800-company demo snapshot. Ground truth comes from the snapshot store, opened read-only, and
 * from the static tree the same build rendered.
 */
export const API = '/api/v1';
export const SECTIONS = ['penalties', 'carbon_disclosure', 'carbon_fee', 'assurance', 'flags', 'disclosure_conduct'] as const;
export const ALWAYS = [
  'ok',
  'generated_at',
  'methodology_version',
  'dataset_snapshot_id',
  'data_asof',
  'disclaimer',
  'ticker',
  'company_name_norm',
  'as_of',
];
export const ENVELOPE = ['ok', 'generated_at', 'methodology_version', 'dataset_snapshot_id', 'data_asof'] as const;
export const META_KEYS = ['total', 'page', 'per_page', 'page_count', 'has_prev', 'has_next', 'methodology_version'];

export let server: RunningServer;
export let store: SnapshotStore;
export let treeDir: string;
export let companies: CompanyRecord[];
export let flagsOf: Map<string, Set<string>>;
export let globalRank: Map<string, number>;

/** Registers the suite's setup: a shim on the demo snapshot, and the ground truth from the store. */
export function useDynamicServer(): void {
  beforeAll(async () => {
    const snapshotsDir = demoSnapshotsDir;
    server = await startServer(snapshotsDir);
    store = SnapshotStore.open(currentSnapshotDir(snapshotsDir)!);
    treeDir = join(store.dir, 'tree');
    companies = [...store.companies()];
    flagsOf = new Map(companies.map((c) => [c.ticker, new Set<string>()]));
    for (const { ticker, flag_id } of store.db.prepare('SELECT ticker, flag_id FROM flags').all() as { ticker: string; flag_id: string }[]) {
      flagsOf.get(ticker)!.add(flag_id);
    }
    // Competition ranking over the whole universe (contract 3.1), computed independently of the store.
    const scores = companies.map((c) => c.credibility_score);
    globalRank = new Map(companies.map((c) => [c.ticker, 1 + scores.filter((s) => s > c.credibility_score).length]));
  });
  afterAll(async () => {
    store?.close();
    await server?.close();
  });
}

// ---------------------------------------------------------------------------------------------
// Helpers

export type Res = Awaited<ReturnType<typeof getJson>>;

export const api = (path: string, init?: RequestInit): Promise<Res> => getJson(server.base + API + path, init);

export function qs(params: Record<string, string | number>): string {
  return new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
}

export function staticText(path: string): string {
  return readFileSync(join(treeDir, fileForUrlPath(API + path)), 'utf8');
}

/** The error envelope of contract 2, with the headers of contract 1. Returns the message. */
export function expectError(res: Res, status: number, code: string, ...mentions: string[]): string {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(res.headers.get('cache-control')).toBe('no-store');
  const parsed = errorBodySchema.safeParse(res.body);
  expect(parsed.success, res.text).toBe(true);
  expect(res.body.error.code).toBe(code);
  expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
  expect(res.body).toMatchObject({
    methodology_version: store.meta.methodology_version,
    dataset_snapshot_id: store.meta.dataset_snapshot_id,
    data_asof: store.meta.data_asof,
  });
  for (const m of mentions) expect(res.body.error.message, `message should mention ${m}`).toContain(m);
  return res.body.error.message as string;
}

export function expectBadParam(res: Res, param: string): void {
  const message = expectError(res, 400, 'BAD_REQUEST');
  expect(message, `400 message should name the parameter "${param}"`).toMatch(new RegExp(`\\b${param}\\b`));
}

export function expectSuccessEnvelope(res: Res): void {
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(res.body).toMatchObject({
    ok: true,
    generated_at: store.meta.published_at,
    methodology_version: store.meta.methodology_version,
    dataset_snapshot_id: store.meta.dataset_snapshot_id,
    data_asof: store.meta.data_asof,
  });
}

export interface Filter {
  industry?: string;
  assurance_level?: string;
  market_type?: string;
  gf?: string;
  q?: string;
}
export type Sort = 'score_desc' | 'score_asc';

export const byTicker = (a: CompanyRecord, b: CompanyRecord) => (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0);

/** The matching companies in contract order, computed in JS from the store's full list. */
export function expected(f: Filter, sort: Sort = 'score_desc'): CompanyRecord[] {
  const q = f.q?.toLowerCase();
  return companies
    .filter((c) => f.industry === undefined || c.industry === f.industry)
    .filter((c) => f.assurance_level === undefined || c.assurance_level === f.assurance_level)
    .filter((c) => f.market_type === undefined || c.market_type === f.market_type)
    .filter((c) => f.gf === undefined || flagsOf.get(c.ticker)!.has(f.gf.toUpperCase()))
    .filter((c) => q === undefined || [c.ticker, c.company_name, c.company_name_norm].some((s) => s.toLowerCase().includes(q)))
    .sort(
      (a, b) => (sort === 'score_desc' ? b.credibility_score - a.credibility_score : a.credibility_score - b.credibility_score) || byTicker(a, b),
    );
}

export function expectRankingMeta(meta: any, total: number, page: number, perPage: number): void {
  const pageCount = total === 0 ? 0 : Math.ceil(total / perPage);
  expect(Object.keys(meta).sort()).toEqual([...META_KEYS].sort());
  expect(meta).toEqual({
    total,
    page,
    per_page: perPage,
    page_count: pageCount,
    has_prev: page > 1,
    has_next: page < pageCount,
    methodology_version: store.meta.methodology_version,
  });
}

/** Pages through a ranking query with limit=200, checking every page's meta; returns all entries. */
export async function fetchAll(params: Record<string, string>, expectedTotal: number): Promise<any[]> {
  const entries: any[] = [];
  for (let page = 1; ; page++) {
    const res = await api(`/ranking?${qs({ ...params, limit: 200, page })}`);
    expectSuccessEnvelope(res);
    expectRankingMeta(res.body.meta, expectedTotal, page, 200);
    entries.push(...res.body.data);
    if (page >= res.body.meta.page_count) break;
  }
  return entries;
}

/** Asserts the query returns exactly `expected(filter, sort)`, with global ranks. */
export async function expectExactly(params: Record<string, string>, filter: Filter, sort: Sort = 'score_desc'): Promise<CompanyRecord[]> {
  const want = expected(filter, sort);
  const got = await fetchAll(params, want.length);
  expect(got.map((e) => e.ticker)).toEqual(want.map((c) => c.ticker));
  for (const e of got) {
    expect(Object.keys(e).sort()).toEqual(['company_name', 'credibility_score', 'rank', 'ticker', 'verdict']);
    expect(e.rank).toBe(store.company(e.ticker)!.rank);
    expect(e.rank).toBe(globalRank.get(e.ticker));
  }
  // Spot-check ranks against GET /company/{t}: filters never renumber them.
  for (const e of [got[0], got[got.length - 1], got[Math.floor(got.length / 2)]].filter(Boolean)) {
    const res = await api(`/company/${e.ticker}`);
    expect(res.body.company.rank).toBe(e.rank);
    expect(res.body.company.credibility_score).toBe(e.credibility_score);
  }
  return want;
}

// ---------------------------------------------------------------------------------------------
