import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factLink, SOURCES, sourceInfo } from '../../build-scripts/sources/index.js';
import { currentSnapshotDir } from '../../src/snapshot/published.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { officiallyValid } from '../helpers/ubn.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/**
 * A link audit over the whole demo snapshot: every source_url and deep_link is its source's record
 * form (naming that fact's record) where the catalogue has one that covers the fact, else the
 * dataset itself; and no link carries a business number that could be a real one.
 */
let store: SnapshotStore;
beforeAll(() => {
  store = SnapshotStore.open(currentSnapshotDir(demoSnapshotsDir)!);
});
afterAll(() => store.close());

const all = <T>(sql: string) => store.db.prepare(sql).all() as T[];

/** The record form of a source as a regex, each `{name}` a captured value. */
function recordPattern(sourceId: string): { regex: RegExp; names: string[] } {
  const form = sourceInfo(sourceId).record_link!;
  const names: string[] = [];
  const source = form.template
    .split(/(\{\w+\})/)
    .map((part) => {
      const m = /^\{(\w+)\}$/.exec(part);
      if (!m) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(m[1]!);
      return '([^&/#?]+)';
    })
    .join('');
  return { regex: new RegExp(`^${source}$`), names };
}
function recordValues(sourceId: string, url: string): Record<string, string> {
  const { regex, names } = recordPattern(sourceId);
  const m = regex.exec(url);
  expect(m, `${url} is not the record form of ${sourceId}`).not.toBeNull();
  const values: Record<string, string> = {};
  names.forEach((n, i) => {
    const v = decodeURIComponent(m![i + 1]!);
    if (values[n] !== undefined) expect(v, `{${n}} twice in ${url}`).toBe(values[n]);
    values[n] = v;
  });
  return values;
}

describe('link audit of the demo snapshot', () => {
  it('every penalty links to its own record: the company’s business number, the penalty date as both bounds', () => {
    const rows = all<{ url: string; date: string; uniform_no: string; source_id: string }>(
      'SELECT p.source_url AS url, p.date, c.uniform_no, p.source_id FROM penalties p JOIN companies c USING (ticker)',
    );
    expect(rows.length).toBeGreaterThan(500);
    for (const r of rows) {
      expect(sourceInfo(r.source_id).record_link, r.source_id).not.toBeNull();
      expect(recordValues(r.source_id, r.url)).toEqual({ uniform_no: r.uniform_no, date: r.date });
    }
  });

  it('a report links to its file (GenPlus download id, or the old MOPS file), else to its GenPlus page for the company and year', () => {
    const rows = all<{ ticker: string; url: string; year: number; market_type: string }>(
      'SELECT a.ticker, a.deep_link AS url, a.year, c.market_type FROM assurances a JOIN companies c USING (ticker)',
    );
    expect(rows.length).toBeGreaterThan(500);
    const kinds = new Set<string>();
    for (const r of rows) {
      const old = `https://mopsov.twse.com.tw/server-java/FileDownLoad?step=9&filePath=/home/html/nas/protect/t100/&fileName=${r.ticker}_${r.year - 1911}.pdf`;
      const page = `https://esggenplus.twse.com.tw/inquiry/report?market=${r.market_type === 'listed' ? 0 : 1}&year=${r.year}&companyCode=${r.ticker}&lang=zh-TW`;
      if (r.year <= 2022) {
        expect(r.url, `${r.ticker} ${r.year}`).toBe(old);
        kinds.add('old');
      } else if (r.url === page) {
        kinds.add('page');
      } else {
        expect(r.url, `${r.ticker} ${r.year}`).toMatch(
          /^https:\/\/esggenplus\.twse\.com\.tw\/api\/api\/MopsSustainReport\/data\/FileStream\?id=[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
        );
        expect(r.url).not.toContain('00000000-0000-0000-0000-000000000000');
        kinds.add('file');
      }
    }
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['file', 'page']));
  });

  it('a source without a record form links every fact to its dataset; a marker without a value is a bug', () => {
    expect(factLink('SRC-TWSE-ESG-GHG', { ticker: 'D1101', year: 2025 })).toBe(sourceInfo('SRC-TWSE-ESG-GHG').homepage_url);
    expect(() => factLink('SRC-MOENV-EMS_P_46', { uniform_no: '12345675' })).toThrow(/no value for \{date\}/);
  });

  it('facts of sources without a record form link to the dataset, and the registry says so', () => {
    const links = [
      ...all<{ url: string; source_id: string }>('SELECT deep_link AS url, source_id FROM carbon_disclosures'),
      ...all<{ url: string; source_id: string }>(
        'SELECT registry_deep_link AS url, registry_source_id AS source_id FROM carbon_disclosures WHERE registry_source_id IS NOT NULL',
      ),
      ...all<{ url: string; source_id: string }>('SELECT deep_link AS url, source_id FROM carbon_fees'),
    ];
    expect(links.length).toBeGreaterThan(3000);
    for (const l of links) {
      expect(sourceInfo(l.source_id).record_link, l.source_id).toBeNull();
      expect(l.url).toBe(sourceInfo(l.source_id).homepage_url);
    }
    for (const s of SOURCES) {
      const registry = store.sources().find((x) => x.source_id === s.source_id);
      if (!registry) continue;
      // Report links are built per filing by its reader (a file where one exists), not from a record form.
      const perFiling = s.source_id === 'SRC-MOPS-ESGREPORT';
      expect(registry.description, s.source_id).toMatch(
        s.record_link || perFiling ? /links to its record|links to its file/ : /No record-level link is known/,
      );
    }
  });

  it('no link names a business number that passes the official check', () => {
    const urls = all<{ url: string }>(
      `SELECT source_url AS url FROM penalties UNION ALL SELECT deep_link FROM carbon_disclosures UNION ALL SELECT deep_link FROM carbon_fees
       UNION ALL SELECT deep_link FROM assurances`,
    ).map((r) => r.url);
    // A GenPlus download id is a UUID, whose hex runs may hold eight digits: not a business number.
    const numbers = urls.flatMap(
      (u) => u.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '').match(/(?<!\d)\d{8}(?!\d)/g) ?? [],
    );
    expect(numbers.length).toBeGreaterThan(500);
    expect(numbers.filter(officiallyValid)).toEqual([]);
  });
});
