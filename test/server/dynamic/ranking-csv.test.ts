import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS } from '../../../src/views/ranking-csv.js';
import { parseCsv } from '../../helpers/csv-parse.js';
import { useDynamicServer, API, server, store, api, qs, type Filter, type Sort, expected } from './harness.js';

useDynamicServer();

describe('GET /ranking?format=csv', () => {
  async function csvOf(params: Record<string, string>) {
    const res = await fetch(`${server.base}${API}/ranking?${qs({ ...params, format: 'csv' })}`);
    const text = await res.text();
    return { res, text, rows: parseCsv(text) };
  }

  it('sets the CSV headers and has the mode=full columns as its header row', async () => {
    const { res, rows } = await csvOf({});
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="ranking-${store.meta.dataset_snapshot_id}.csv"`);
    expect(res.headers.get('cache-control')).toBe('private, max-age=3600'); // metered: never from a shared cache
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    const full = await api('/ranking?mode=full&limit=1');
    // mode=full's keys, and the conduct section in two cells before the citation.
    const keys = Object.keys(full.body.data[0]);
    expect(rows[0]).toEqual([...keys.slice(0, -1), 'disclosure_conduct_count', 'disclosure_conduct_latest', 'citation']);
    for (const r of rows) expect(r).toHaveLength(CSV_COLUMNS.length);
  });

  it('starts with a UTF-8 byte-order mark, so spreadsheets read Chinese names as UTF-8', async () => {
    const bytes = Buffer.from(
      await (await fetch(`${server.base}${API}/ranking?format=csv&industry=${encodeURIComponent('水泥工業')}`)).arrayBuffer(),
    );
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3, 3 + CSV_COLUMNS[0].length).toString('utf8')).toBe(CSV_COLUMNS[0]);
    expect(bytes.toString('utf8')).toContain('水泥工業');
  });

  it('has one data row per matching company (meta.total of the JSON query), in order, page/limit ignored', async () => {
    const cases: (Filter & { sort?: Sort })[] = [
      {},
      { industry: '半導體業' },
      { gf: 'GF-P01', sort: 'score_asc' },
      { assurance_level: 'reasonable', market_type: 'otc' },
      { q: '晶' },
      { industry: '水泥工業', gf: 'GF-ZZ9' },
    ];
    for (const c of cases) {
      const params = c as Record<string, string>;
      const json = await api(`/ranking?${qs(params)}`);
      const { text, rows } = await csvOf(params);
      expect(rows.length - 1, JSON.stringify(params)).toBe(json.body.meta.total);
      const want = expected(c, c.sort ?? 'score_desc');
      expect(rows.slice(1).map((r) => r[0])).toEqual(want.map((c) => c.ticker));
      // page and limit are ignored.
      const paged = await csvOf({ ...params, page: '3', limit: '1' });
      expect(paged.text).toBe(text);
    }
  });

  it('the conduct cells are the count of the company’s disclosure_conduct rows and the newest date', async () => {
    const { rows } = await csvOf({});
    const header = rows[0]!;
    const count = header.indexOf('disclosure_conduct_count');
    const latest = header.indexOf('disclosure_conduct_latest');
    for (const r of rows.slice(1)) {
      const conduct = store.facts(r[0]!)!.conduct;
      expect(r[count], r[0]).toBe(String(conduct.length));
      expect(r[latest], r[0]).toBe(conduct[0]?.date ?? '');
    }
  });

  it('cells are the mode=full values; arrays are joined with |', async () => {
    const params = { gf: 'GF-P02' };
    const full = await fetchAllFull(params);
    const { rows } = await csvOf(params);
    const header = rows[0]!;
    expect(rows.length - 1).toBe(full.length);
    full.forEach((entry, i) => {
      const row = Object.fromEntries(header.map((k, j) => [k, rows[i + 1]![j]!]));
      for (const k of header) {
        if (!(k in entry)) continue; // the conduct cells: the test above
        const v = entry[k];
        if (k === 'score_breakdown') {
          const parts = row[k]!.split('|');
          expect(parts).toHaveLength(v.length);
          parts.forEach((p: string, j: number) => {
            expect(p).toContain(v[j].component);
            expect(p).toContain(String(v[j].points));
          });
        } else if (Array.isArray(v)) expect(row[k], k).toBe(v.join('|'));
        else expect(row[k], k).toBe(String(v));
      }
    });
    // The citation has commas, so it is a quoted field, and still parses back to the same text.
    expect(full[0].citation).toContain(',');
  });

  it('has a strong ETag and answers If-None-Match with 304', async () => {
    const { res } = await csvOf({ industry: '水泥工業' });
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await fetch(`${server.base}${API}/ranking?${qs({ industry: '水泥工業', format: 'csv' })}`, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const other = await csvOf({ industry: '鋼鐵工業' });
    expect(other.res.headers.get('etag')).not.toBe(etag);
  });

  async function fetchAllFull(params: Record<string, string>): Promise<any[]> {
    const out: any[] = [];
    for (let page = 1; ; page++) {
      const res = await api(`/ranking?${qs({ ...params, mode: 'full', limit: 200, page })}`);
      out.push(...res.body.data);
      if (page >= res.body.meta.page_count) break;
    }
    return out;
  }
});
