import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeItem, ChangesResponse } from '../../src/contract/changes.js';
import { CAUSE_KINDS } from '../../src/contract/vocabulary.js';
import { CHANGES_DB, CHANGES_SQL, filterSql } from '../../src/snapshot/changes-store.js';
import { currentSnapshotDir, publishedSnapshotIds } from '../../src/snapshot/published.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { getJson, startServer, type RunningServer } from '../helpers/server.js';
import { expectedBody, queryOf, type ChangesCase } from './changes-expected.js';
import { demoSeriesSnapshotsDir } from '../helpers/demo-series-dir.js';

/**
 * Filtered /changes (contract 10) on the evolving demo, read from the snapshot's changes database:
 * for every cause kind, an industry, min_abs_delta bounds, their combinations and pages up to and
 * past the last, the shim answers the bytes worked out from the static pages' whole list with the
 * contract's filter, apart from any SQL.
 */
const API = '/api/v1';
let server: RunningServer;
let template: ChangesResponse;
let list: { industry: string; item: ChangeItem }[];
const get = (path: string) => getJson(`${server.base}${API}${path}`);

beforeAll(async () => {
  const dir = demoSeriesSnapshotsDir;
  server = await startServer(dir);
  // Every static page of /changes, in order; the first as it was served, key order included.
  template = (await get('/changes')).body as ChangesResponse;
  const items = [...template.data];
  for (let n = 2; n <= template.meta.page_count; n++) items.push(...((await get(`/changes/page/${n}`)).body as ChangesResponse).data);
  // Each company's industry: this month's, or the previous month's for a company that left.
  const [before, after] = publishedSnapshotIds(dir).map((id) => SnapshotStore.open(join(dir, id))) as [SnapshotStore, SnapshotStore];
  try {
    list = items.map((item) => ({ industry: (after.company(item.ticker) ?? before.company(item.ticker))!.industry, item }));
  } finally {
    before.close();
    after.close();
  }
}, 60_000);
afterAll(() => server?.close());

/** The industries of the changed companies, most changes first. */
function industriesByCount(): string[] {
  const counts = new Map<string, number>();
  for (const { industry } of list) counts.set(industry, (counts.get(industry) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([name]) => name);
}

describe('GET /changes?… answers what the static list gives under the contract’s filter', () => {
  it('for every cause kind, industries, min_abs_delta bounds, their combinations, and pages up to and past the end', async () => {
    const [top, second] = industriesByCount() as [string, string];
    const added = list.find((c) => c.item.change === 'added')!;
    const last = Math.ceil(list.length / 200);
    const cases: ChangesCase[] = [
      // With no parameter at all /changes is the static file: `limit` alone asks the shim for the same page.
      { limit: 200 },
      { page: 2 },
      { page: last },
      { page: last + 1 },
      { limit: 7, page: 3 },
      { limit: 1, page: list.length },
      { page: 999_999_999_999_999 },
      ...CAUSE_KINDS.map((cause) => ({ cause })),
      { cause: 'timeliness', limit: 10, page: 4 },
      { cause: 'flag_raised', limit: 50, page: 2 },
      { cause: 'penalty_new', page: 9 },
      { cause: 'penalty_new', limit: 200, page: 999_999_999_999_999 },
      { industry: top },
      { industry: second },
      { industry: top, limit: 3, page: 2 },
      { industry: top, limit: 200, page: 2 },
      { industry: '不存在的產業' },
      ...[0, 1, 4, 5, 6, 10, 30, 100].map((n) => ({ min_abs_delta: n })),
      { min_abs_delta: 5, limit: 50, page: 3 },
      { min_abs_delta: 5, limit: 200, page: 3 },
      { cause: 'timeliness', industry: top },
      { cause: 'flag_raised', industry: second, limit: 2, page: 2 },
      { cause: added.item.causes[0]!.kind, industry: added.industry },
      { cause: 'flag_raised', min_abs_delta: 5 },
      { cause: 'flag_cleared', min_abs_delta: 6 },
      { industry: top, min_abs_delta: 5, limit: 4, page: 2 },
      { cause: 'timeliness', industry: top, min_abs_delta: 5, limit: 2, page: 3 },
      { cause: 'timeliness', industry: top, min_abs_delta: 6 },
    ];
    let nonEmptyDeepPages = 0;
    for (const c of cases) {
      const q = queryOf(c);
      const expected = expectedBody(template, list, c);
      const res = await get(`/changes?${q}`);
      expect(res.status, q).toBe(200);
      expect(res.text, q).toBe(expected);
      if ((c.page ?? 1) > 1 && JSON.parse(expected).data.length > 0) nonEmptyDeepPages++;
    }
    // The cases mean something: every kind matches some company, and later pages are not all empty.
    for (const cause of CAUSE_KINDS) expect(JSON.parse(expectedBody(template, list, { cause })).meta.total, cause).toBeGreaterThan(0);
    expect(nonEmptyDeepPages).toBeGreaterThanOrEqual(8);
  });

  it('every filter reads an index in the contract’s order: no table scan, no sort', () => {
    const db = new Database(join(currentSnapshotDir(demoSeriesSnapshotsDir)!, CHANGES_DB), { readonly: true });
    try {
      const plan = (sql: string, params: unknown[]) =>
        (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join(' | ');
      const plans = [plan(CHANGES_SQL.firstBelow, [5]), plan(CHANGES_SQL.range, [0, 200])];
      for (const f of [{ cause: 'timeliness' as const }, { industry: 'x' }, { cause: 'timeliness' as const, industry: 'x' }]) {
        const sql = filterSql(f)!;
        plans.push(plan(sql.count, [...sql.values, 10]), plan(sql.page, [...sql.values, 10, 200, 0]));
      }
      for (const p of plans) {
        expect(p).toMatch(/^SEARCH /);
        expect(p).not.toMatch(/SCAN|TEMP B-TREE/);
      }
    } finally {
      db.close();
    }
  });
});
