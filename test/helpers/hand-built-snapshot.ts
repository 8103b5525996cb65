import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CompanyRow } from '../../build-scripts/sources/company-lists/company-profile.js';
import type { ConductRow, EtfFund, ReportFiling } from '../../build-scripts/sources/kit/facts.js';
import { SourceTally } from '../../build-scripts/sources/kit/tally.js';
import { twseDisclosureBreachesModule } from '../../build-scripts/sources/disclosure-conduct/twse-disclosure-breaches.js';
import { twseSanctionsModule } from '../../build-scripts/sources/disclosure-conduct/twse-sanctions.js';
import { computeCompanies } from '../../build-scripts/snapshot/compute.js';
import { computeEtfs } from '../../build-scripts/snapshot/etf-stats.js';
import type { AssuredReport, SourceData } from '../../build-scripts/snapshot/load-sources.js';
import { writeSnapshotDb } from '../../build-scripts/snapshot/write-db.js';

/**
 * A tiny snapshot built from hand-made adapter output (what load-sources hands the builder), through
 * the real compute, ETF statistics and database writer: the assurance kinds and the ETF coverage
 * fields without the demo's adapters. Four companies:
 *   H0001  CPA assurance (reasonable) with a third-party verifier beside it
 *   H0002  third-party verification only (limited), no standard stated
 *   H0003  CPA assurance (limited) with no verifier, and two rows of disclosure conduct (CONDUCT): a
 *          recent exchange penalty for a late material-information filing (NT$30,000) and an older FSC
 *          sanction whose fine is in its decision text
 *   H0004  no assurance
 * and two funds: HE001 (SITCA, 1 % cut-off, one holding outside the universe) and HE002 (every
 * holding listed, none covered).
 */
export const ASOF = '2026-10-31';

const company = (ticker: string, shortName: string): CompanyRow => ({
  ticker,
  legalName: `${shortName}股份有限公司`,
  shortName,
  industryCode: '24',
  industry: '半導體業',
  uniformNo: `9000000${ticker.slice(-1)}`,
  paidInCapital: null,
  marketType: 'listed',
  listedOn: null,
  sourceId: 'SRC-TWSE-COMPANY',
});

const report = (ticker: string, year: number, assurance: NonNullable<ReportFiling['assurance']>, link: string): AssuredReport => ({
  ticker,
  year,
  assurance,
  link,
  sourceId: 'SRC-MOPS-ESGREPORT',
});

export const REPORT_LINKS = {
  H0001: 'https://esggenplus.twse.com.tw/api/api/MopsSustainReport/data/FileStream?id=h0001-2025',
  H0002: 'https://esggenplus.twse.com.tw/inquiry/report?code=H0002&year=2024',
  H0003: 'https://mopsov.twse.com.tw/server-java/FileDownLoad?step=9&fileName=H0003_2022.pdf',
} as const;

/** The TWSE conduct datasets' URLs, as their modules' registry entries give them. */
export const CONDUCT_SOURCES = {
  'SRC-TWSE-DISCLOSURE-BREACHES': { url: twseDisclosureBreachesModule.info.homepage_url },
  'SRC-TWSE-SANCTIONS': { url: twseSanctionsModule.info.homepage_url },
} as const;

/** H0003's disclosure conduct: a breach 5 months before ASOF (GF-S01) and a sanction 43 months before (no GF-S02). */
export const CONDUCT: ConductRow[] = [
  {
    ticker: 'H0003',
    kind: 'breach',
    date: '2026-05-14',
    summary: '該公司未依規定於事實發生之日起次一營業日交易時間開始二小時前輸入重大訊息。',
    rule: '臺灣證券交易所股份有限公司對有價證券上市公司重大訊息之查證暨公開處理程序第4條; 第11條',
    fine: 30_000,
    decision: null,
    recordId: 't187ap23_L:H0003:2026-05-14:5f1c2a',
    sourceUrl: CONDUCT_SOURCES['SRC-TWSE-DISCLOSURE-BREACHES'].url,
    sourceId: 'SRC-TWSE-DISCLOSURE-BREACHES',
  },
  {
    ticker: 'H0003',
    kind: 'sanction',
    date: '2023-03-08',
    summary: '該公司財務報告有虛偽不實之情事。',
    rule: '證券交易法第20條第2項',
    fine: null,
    decision: '處新臺幣48萬元罰鍰',
    recordId: 't187ap22_L:H0003:2023-03-08:9b07d4',
    sourceUrl: CONDUCT_SOURCES['SRC-TWSE-SANCTIONS'].url,
    sourceId: 'SRC-TWSE-SANCTIONS',
  },
];

export function handBuiltSources(): SourceData {
  const companies = new Map([
    ['H0001', company('H0001', '甲科技')],
    ['H0002', company('H0002', '乙電子')],
    ['H0003', company('H0003', '丙材料')],
    ['H0004', company('H0004', '丁半導體')],
  ]);
  const assurances = new Map<string, AssuredReport>([
    [
      'H0001',
      report(
        'H0001',
        2025,
        {
          kind: 'cpa',
          provider: '示範聯合會計師事務所',
          level: 'reasonable',
          standard: '確信準則3000號',
          verifications: [{ provider: 'BSI Taiwan', standard: 'AA1000AS v3' }],
        },
        REPORT_LINKS.H0001,
      ),
    ],
    [
      'H0002',
      report('H0002', 2024, { kind: 'third_party', provider: 'SGS Taiwan', level: 'limited', standard: null, verifications: [] }, REPORT_LINKS.H0002),
    ],
    [
      'H0003',
      report(
        'H0003',
        2022,
        { kind: 'cpa', provider: '示範會計師事務所', level: 'limited', standard: '確信準則3000號', verifications: [] },
        REPORT_LINKS.H0003,
      ),
    ],
  ]);
  const etfs = new Map<string, EtfFund>([
    [
      'HE001',
      {
        code: 'HE001',
        name: '示範ESG永續',
        period: '2026Q3',
        asof: '2026-09-30',
        minWeight: 0.01,
        sourceId: 'SRC-SITCA-ETF-HOLDINGS',
        holdings: [
          { code: 'H0001', name: '甲科技', weight: 0.3282 },
          { code: 'H0002', name: '乙電子', weight: 0.1 },
          { code: 'H0004', name: '丁半導體', weight: 0.07 },
          { code: '2330', name: '台積電', weight: 0.12341 },
        ],
      },
    ],
    [
      'HE002',
      {
        code: 'HE002',
        name: '示範海外',
        period: '2026Q2',
        asof: '2026-06-30',
        minWeight: 0,
        sourceId: 'SRC-MOPS-ETF-HOLDINGS',
        holdings: [
          { code: 'AAPL', name: 'Apple', weight: 0.6 },
          { code: 'CASH', name: '現金', weight: 0.4 },
        ],
      },
    ],
  ]);
  return {
    kind: 'demo',
    companies,
    penalties: new Map(),
    conduct: new Map([['H0003', CONDUCT]]),
    disclosures: new Map(),
    assurances,
    registrySites: new Map(),
    latestRegistryYear: null,
    cbamProducts: new Map(),
    etfs,
    rowsRead: new Map(),
    tally: new SourceTally(),
    warnings: [],
  };
}

/** Builds the hand-made snapshot database into `<dir>/snapshot.sqlite` (the layout SnapshotStore.open reads); returns dir. */
export function writeHandBuiltSnapshot(dir: string, data: SourceData = handBuiltSources()): string {
  mkdirSync(dir, { recursive: true });
  const companies = computeCompanies(data, ASOF);
  const byTicker = new Map(companies.map((c) => [c.profile.ticker, c]));
  const etfs = computeEtfs(data.etfs, (t) => {
    const c = byTicker.get(t);
    return c && { score: c.score.credibility_score, hasAssurance: c.assurance !== null };
  });
  writeSnapshotDb(join(dir, 'snapshot.sqlite'), {
    meta: {
      dataset_snapshot_id: '2026-11-01',
      data_asof: ASOF,
      kind: 'demo',
      published_at: '2026-11-01T00:00:00Z',
      registry_year: '',
      service_host: 'esg.example.org',
    },
    companies,
    etfs,
    data,
    retrievedAt: () => '2026-11-01T00:00:00Z',
    carriedForward: () => null,
    sourceFiles: [],
  });
  return dir;
}
