import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { factLink, SOURCES, sourceInfo } from '../../build-scripts/adapters/catalogue.js';
import { currentSnapshotDir } from '../../src/snapshot/published.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { officiallyValid } from '../helpers/ubn.js';

/**
 * A link audit over the whole demo snapshot: every source_url and deep_link is its source's record
 * form (naming that fact's record) where the catalogue has one that covers the fact, else the
 * dataset itself; and no link carries a business number that could be a real one.
 */
let store: SnapshotStore;
beforeAll(() => {
  store = SnapshotStore.open(currentSnapshotDir(inject('demoSnapshotsDir'))!);
});
afterAll(() => store.close());

const all = <T>(sql: string) => store.db.prepare(sql).all() as T[];

/** The record form of a source as a regex, each `{name}` a captured value. */
function recordPattern(sourceId: string): { regex: RegExp; names: string[] } {
  const form = sourceInfo(sourceId).record_link!;
  const names: string[] = [];
  const source = form.template.split(/(\{\w+\})/).map((part) => {
    const m = /^\{(\w+)\}$/.exec(part);
    if (!m) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    names.push(m[1]!);
    return '([^&/#?]+)';
  }).join('');
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

  it('a report links to its file for years the record form covers, else to the report inquiry', () => {
    const rows = all<{ ticker: string; url: string; year: number; source_id: string }>('SELECT ticker, deep_link AS url, year, source_id FROM assurances');
    expect(rows.length).toBeGreaterThan(500);
    for (const r of rows) {
      const form = sourceInfo(r.source_id).record_link!;
      if (r.year <= form.until_year!) expect(recordValues(r.source_id, r.url)).toEqual({ ticker: r.ticker, roc_year: String(r.year - 1911) });
      else expect(r.url, `${r.ticker} ${r.year}`).toBe(sourceInfo(r.source_id).homepage_url);
    }
  });

  it('the report record form takes ROC years and stops where MOPS stopped holding the files', () => {
    expect(factLink('SRC-MOPS-ESGREPORT', { ticker: 'D1101', year: 2021, roc_year: 110 }))
      .toBe('https://mopsov.twse.com.tw/mops/web/ajax_t100sb11?step=2&co_id=D1101&year=110&filename=D1101_110.pdf');
    expect(factLink('SRC-MOPS-ESGREPORT', { ticker: 'D1101', year: 2022, roc_year: 111 })).toBe(sourceInfo('SRC-MOPS-ESGREPORT').homepage_url);
    expect(() => factLink('SRC-MOENV-EMS_P_46', { uniform_no: '12345675' })).toThrow(/no value for \{date\}/);
  });

  it('facts of sources without a record form link to the dataset, and the registry says so', () => {
    const links = [
      ...all<{ url: string; source_id: string }>('SELECT deep_link AS url, source_id FROM carbon_disclosures'),
      ...all<{ url: string; source_id: string }>('SELECT registry_deep_link AS url, registry_source_id AS source_id FROM carbon_disclosures WHERE registry_source_id IS NOT NULL'),
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
      expect(registry.description, s.source_id).toMatch(s.record_link ? /links to its record|links to its file/ : /No record-level link is known/);
    }
  });

  it('no link names a business number that passes the official check', () => {
    const urls = all<{ url: string }>(
      `SELECT source_url AS url FROM penalties UNION ALL SELECT deep_link FROM carbon_disclosures UNION ALL SELECT deep_link FROM carbon_fees
       UNION ALL SELECT deep_link FROM assurances`,
    ).map((r) => r.url);
    const numbers = urls.flatMap((u) => u.match(/(?<!\d)\d{8}(?!\d)/g) ?? []);
    expect(numbers.length).toBeGreaterThan(500);
    expect(numbers.filter(officiallyValid)).toEqual([]);
  });
});
