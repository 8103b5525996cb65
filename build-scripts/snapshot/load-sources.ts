import { readCbamProducts, type CbamProductRow } from '../adapters/cbam-products.js';
import { readTpexCompanies, readTwseCompanies, type CompanyRow } from '../adapters/company-profiles.js';
import { readTpexGhg, readTwseGhg, type GhgDisclosureRow } from '../adapters/esg-ghg.js';
import { readRegistry, type RegistrySiteRow } from '../adapters/moenv-ghg-registry.js';
import { readEsgReports, type EsgReportRow } from '../adapters/mops-esg-report.js';
import { readEtfHoldings, type EtfHoldingRow } from '../adapters/mops-etf-holdings.js';
import { readPenalties, type PenaltyRow } from '../adapters/moenv-penalties.js';
import type { RejectLog } from '../adapters/read-layout.js';
import type { Progress } from './progress.js';
import type { AssuredLevel } from '../../src/contract/vocabulary.js';

/** Everything the adapters read, joined onto the company universe (keyed by ticker). */
export interface SourceData {
  companies: Map<string, CompanyRow>;
  penalties: Map<string, PenaltyRow[]>;
  disclosures: Map<string, GhgDisclosureRow>;
  /** The company's most recent report that was assured (assurance may be older than the latest report). */
  assurances: Map<string, EsgReportRow & { provider: string; level: AssuredLevel }>;
  registrySites: Map<string, RegistrySiteRow[]>;
  latestRegistryYear: number | null;
  cbamProducts: Map<string, CbamProductRow[]>;
  etfHoldings: Map<string, EtfHoldingRow[]>;
  /** Rows read (accepted by an adapter) per source id. */
  rowsRead: Map<string, number>;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Runs every adapter over a sources folder. Rows that link to no company in the universe are dropped. */
export async function loadSources(dir: string, rejects: RejectLog, progress: Progress): Promise<SourceData> {
  const rowsRead = new Map<string, number>();
  const count = (id: string) => rowsRead.set(id, (rowsRead.get(id) ?? 0) + 1);

  const companies = new Map<string, CompanyRow>();
  for (const [read, id] of [[readTwseCompanies, 'SRC-TWSE-COMPANY'], [readTpexCompanies, 'SRC-TPEX-COMPANY']] as const) {
    for await (const c of read(dir, rejects)) {
      count(id);
      if (companies.has(c.ticker)) rejects.add(c.sourceId, 0, `duplicate ticker ${c.ticker}: kept the first profile`);
      else companies.set(c.ticker, c);
    }
  }
  progress.step(`companies: ${companies.size}`);
  const byUniformNo = new Map([...companies.values()].map((c) => [c.uniformNo, c.ticker]));

  const cbamProducts = new Map<string, CbamProductRow[]>();
  for await (const p of readCbamProducts(dir, rejects)) if (companies.has(p.ticker)) push(cbamProducts, p.ticker, p);

  const assurances: SourceData['assurances'] = new Map();
  for await (const r of readEsgReports(dir, rejects)) {
    count('SRC-MOPS-ESGREPORT');
    if (!companies.has(r.ticker) || r.provider === null || r.level === null) continue;
    const prev = assurances.get(r.ticker);
    if (!prev || r.year > prev.year) assurances.set(r.ticker, { ...r, provider: r.provider, level: r.level });
  }

  const disclosures = new Map<string, GhgDisclosureRow>();
  for (const read of [readTwseGhg, readTpexGhg]) {
    for await (const d of read(dir, rejects)) {
      count(d.sourceId);
      const prev = disclosures.get(d.ticker);
      if (companies.has(d.ticker) && (!prev || d.year > prev.year)) disclosures.set(d.ticker, d);
    }
  }
  progress.step(`disclosures: ${disclosures.size}, assured companies: ${assurances.size}`);

  const registrySites = new Map<string, RegistrySiteRow[]>();
  let latestRegistryYear: number | null = null;
  for await (const s of readRegistry(dir, rejects)) {
    count('SRC-MOENV-GHG_P_01');
    latestRegistryYear = Math.max(latestRegistryYear ?? s.year, s.year);
    const ticker = byUniformNo.get(s.uniformNo);
    if (ticker) push(registrySites, ticker, s);
  }

  const penalties = new Map<string, PenaltyRow[]>();
  let penaltyRows = 0;
  for await (const p of readPenalties(dir, rejects)) {
    count('SRC-MOENV-EMS_P_46');
    if (++penaltyRows % 100_000 === 0) progress.step(`penalties read: ${penaltyRows}`);
    const ticker = byUniformNo.get(p.uniformNo);
    if (ticker) push(penalties, ticker, p);
  }
  progress.step(`penalties: ${penaltyRows} read, linked to ${penalties.size} companies`);

  const etfHoldings = new Map<string, EtfHoldingRow[]>();
  for await (const h of readEtfHoldings(dir, rejects)) {
    count('SRC-MOPS-ETF-HOLDINGS');
    push(etfHoldings, h.fundCode, h);
  }

  return { companies, penalties, disclosures, assurances, registrySites, latestRegistryYear, cbamProducts, etfHoldings, rowsRead };
}
