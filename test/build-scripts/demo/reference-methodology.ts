/**
 * An independent, test-only reading of methodology 1.1 (api-v1 §7) over the demo files, used to
 * prove that every branch and every flag occurs in the demo data. Not the project's implementation.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cbamProductsLayout } from '../../../build-scripts/sources/cbam-products/cbam-products.js';
import { registryLayout } from '../../../build-scripts/sources/moenv/moenv-ghg-registry.js';
import { penaltyLayout } from '../../../build-scripts/sources/moenv/moenv-penalties.js';
import { tpexCompanyLayout } from '../../../build-scripts/sources/company-lists/tpex-company.js';
import { tpexGhgLayout } from '../../../build-scripts/sources/ghg-disclosures/tpex-esg-ghg.js';
import { twseCompanyLayout } from '../../../build-scripts/sources/company-lists/twse-company.js';
import { twseGhgLayout } from '../../../build-scripts/sources/ghg-disclosures/twse-esg-ghg.js';
import { tpexBreachLayout } from '../../../build-scripts/sources/disclosure-conduct/tpex-disclosure-breaches.js';
import { tpexSanctionLayout } from '../../../build-scripts/sources/disclosure-conduct/tpex-sanctions.js';
import { twseBreachLayout } from '../../../build-scripts/sources/disclosure-conduct/twse-disclosure-breaches.js';
import { twseSanctionLayout } from '../../../build-scripts/sources/disclosure-conduct/twse-sanctions.js';
import { recordsAt } from './csv-parse.js';

const DAY = 86_400_000;
const dayOf = (y: number, m: number, d: number) => Math.round(Date.UTC(y, m - 1, d) / DAY);

/** ISO `2024-05-21`, ROC `113/05/21` or `1130521` → day number. */
export function parseAnyDate(s: string): number {
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m) return dayOf(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{2,3})\/(\d{2})\/(\d{2})$/.exec(s) ?? /^(\d{3})(\d{2})(\d{2})$/.exec(s);
  if (m) return dayOf(Number(m[1]) + 1911, Number(m[2]), Number(m[3]));
  throw new Error(`unparseable date ${s}`);
}

function monthsBack(D: number, n: number): number {
  const t = new Date(D * DAY);
  const idx = t.getUTCFullYear() * 12 + t.getUTCMonth() - n;
  const y = Math.floor(idx / 12);
  const mo = idx - y * 12 + 1;
  const last = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return dayOf(y, mo, Math.min(t.getUTCDate(), last));
}

/** A MOENV dataset's pages as a fetch keeps them (`GHG_P_01.0001.json`, …), in order. */
const pages = (dir: string, dataset: string) =>
  readdirSync(dir)
    .filter((f) => new RegExp(`^${dataset}\\.\\d{4}\\.json$`).test(f))
    .sort()
    .map((f) => join(dir, f));

/**
 * Report filings from the GenPlus answers (shared/spec/sources.md), in the MOPS column names this
 * reference reads: a CPA's opinion, else a verifier's standard. The old form (years up to 2022)
 * states no opinion type: a CPA there counts as limited, the methodology's documented reading.
 */
function genplusReports(dir: string): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  for (const f of readdirSync(dir).sort()) {
    const m = /^esggenplus-(\d{4})-(sii|otc)\.json$/.exec(f);
    if (!m) continue;
    const year = String(Number(m[1]) - 1911);
    for (const r of (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { data: Record<string, string | null>[] }).data) {
      if (Number(m[1]) <= 2022) {
        out.push({ ticker: r.companY_ID!, year, cpaOpinion: r.acC_A ? '有限確信' : '', thirdPartyStandard: r.surE_A ? (r.acC_S ?? '') : '' });
      } else {
        out.push({
          ticker: r.code!,
          year,
          cpaOpinion: r.partnerOrganization ? (r.accOptionType ?? '') : '',
          thirdPartyStandard: r.valiProvider ? (r.thirdStd ?? '') : '',
        });
      }
    }
  }
  return out;
}

const num = (s: string | undefined): number | null => (s === undefined || s === '' ? null : Number(s.replace(/,/g, '')));
/** A disclosed figure as the exchanges write it: `N/A` when the company has none. */
const figure = (s: string | undefined): number | null => (s === 'N/A' ? null : num(s));

export interface Evaluation {
  ticker: string;
  score: number;
  flags: string[];
  branches: string[];
}

export function evaluateDemo(dir: string): { asof: string; results: Map<string, Evaluation>; obligated: number; notes: string[] } {
  const read = (file: string) => readFileSync(join(dir, file), 'utf8');
  const manifest = JSON.parse(read('manifest.json')) as { asof: string };
  const [y0, m0, d0] = manifest.asof.split('-').map(Number) as [number, number, number];
  const D = dayOf(y0, m0, d0);
  // E(D): reports for the year before are due by 31 August, so from 1 September E = year(D) − 1.
  const E = D >= dayOf(y0, 9, 1) ? y0 - 1 : y0 - 2;
  const notes: string[] = [];

  const companies = [
    ...recordsAt(join(dir, twseCompanyLayout.file), twseCompanyLayout.columns),
    ...recordsAt(join(dir, tpexCompanyLayout.file), tpexCompanyLayout.columns),
  ];
  const ghg = new Map<string, Record<string, string>>();
  for (const l of [twseGhgLayout, tpexGhgLayout]) for (const r of recordsAt(join(dir, l.file), l.columns)) ghg.set(r.ticker as string, r);
  const reports = new Map<string, Record<string, string>[]>();
  for (const r of genplusReports(dir)) {
    const list = reports.get(r.ticker as string) ?? [];
    list.push(r);
    reports.set(r.ticker as string, list);
  }
  const registry = pages(dir, 'GHG_P_01').flatMap((page) => recordsAt(page, registryLayout.columns));
  const latestRegistryYear = Math.max(...registry.map((r) => Number(r.year) + 1911));
  const sitesBy = new Map<string, Record<string, string>[]>();
  for (const r of registry) {
    const list = sitesBy.get(r.uniformNo as string) ?? [];
    list.push(r);
    sitesBy.set(r.uniformNo as string, list);
  }
  const penaltiesBy = new Map<string, Record<string, string>[]>();
  for (const r of pages(dir, 'EMS_P_46').flatMap((page) => recordsAt(page, penaltyLayout.columns))) {
    const list = penaltiesBy.get(r.uniformNo as string) ?? [];
    list.push(r);
    penaltiesBy.set(r.uniformNo as string, list);
  }
  // 1.2: disclosure conduct, by ticker: each row's kind (from its file) and 發函日期 (ROC compact).
  const conductBy = new Map<string, { kind: 'breach' | 'sanction'; day: number }[]>();
  const conductFiles = [
    [twseBreachLayout, 'breach'],
    [tpexBreachLayout, 'breach'],
    [twseSanctionLayout, 'sanction'],
    [tpexSanctionLayout, 'sanction'],
  ] as const;
  for (const [layout, kind] of conductFiles) {
    for (const r of recordsAt(join(dir, layout.file), layout.columns)) {
      const list = conductBy.get(r.ticker as string) ?? [];
      list.push({ kind, day: parseAnyDate(r.date as string) });
      conductBy.set(r.ticker as string, list);
    }
  }
  const cbamTickers = new Set(recordsAt(join(dir, cbamProductsLayout.file), cbamProductsLayout.columns).map((r) => r.ticker as string));

  const levelOf = (r: Record<string, string>): 'none' | 'limited' | 'reasonable' => {
    if (r.cpaOpinion === '合理確信') return 'reasonable';
    if (r.cpaOpinion === '有限確信') return 'limited';
    if ((r.thirdPartyStandard ?? '').includes('高度保證')) return 'reasonable';
    if ((r.thirdPartyStandard ?? '').includes('中度保證')) return 'limited';
    return 'none';
  };

  let obligatedCount = 0;
  const results = new Map<string, Evaluation>();
  for (const c of companies) {
    const ticker = c.ticker as string;
    const branches: string[] = [];
    const flags: string[] = [];
    const g = ghg.get(ticker);
    const disc = g
      ? {
          year: Number(g.reportYear) + 1911,
          s1: figure(g.scope1),
          s2: figure(g.scope2),
          s3: figure(g.scope3),
          v1: g.scope1Verified === '是',
          v2: g.scope2Verified === '是',
        }
      : null;
    if (disc && disc.s1 === null && disc.s2 === null && disc.s3 === null) notes.push(`${ticker}: disclosure with no figure`);

    // Carbon fee.
    const sites = sitesBy.get(c.uniformNo as string) ?? [];
    const obligated = sites.some((s) => {
      if (Number(s.year) + 1911 !== latestRegistryYear) return false;
      const code = s.industryCode as string;
      const div = Number(code.slice(0, 2));
      return code.startsWith('35') || (div >= 8 && div <= 34 && Number(s.total) >= 25_000);
    });
    if (obligated) obligatedCount++;
    const cbam = ['01', '10', '23'].includes(c.industryCode as string) || cbamTickers.has(ticker);

    // Disclosure (35).
    let disclosure = 0;
    if (disc && disc.s1 !== null && disc.s2 !== null) {
      disclosure += 20;
      branches.push('disclosure:scope12');
    } else branches.push('disclosure:no-scope12');
    if (disc && disc.s3 !== null) {
      disclosure += 5;
      branches.push('disclosure:scope3');
    } else branches.push('disclosure:no-scope3');
    if (disc && disc.year >= E) {
      disclosure += 10;
      branches.push('timeliness:10');
    } else if (disc && disc.year === E - 1) {
      disclosure += 5;
      branches.push('timeliness:5');
    } else branches.push(disc ? 'timeliness:0-older' : 'timeliness:0-none');

    // Assurance (25): the latest report; cross-checked with the latest assured report.
    const reps = [...(reports.get(ticker) ?? [])].sort((p, q) => Number(q.year) - Number(p.year));
    const latest = reps[0];
    const latestAssured = reps.find((r) => levelOf(r) !== 'none');
    if ((latest ? levelOf(latest) : 'none') !== 'none' ? latest !== latestAssured : latestAssured !== undefined) {
      notes.push(`${ticker}: latest report and latest assured report disagree`);
    }
    const level = latest ? levelOf(latest) : 'none';
    let assurance = level === 'reasonable' ? 25 : level === 'limited' ? 15 : 0;
    branches.push(`assurance:${level}`);
    if (assurance > 0 && disc && latest && Number(latest.year) + 1911 < disc.year) {
      assurance = Math.floor(assurance / 2);
      branches.push(`assurance:halved-${level}`);
    }

    // Compliance (30).
    const all = (penaltiesBy.get(c.uniformNo as string) ?? []).map((p) => ({
      day: parseAnyDate(p.penaltyDate as string),
      fine: num(p.penaltyMoney) ?? 0,
      serious: p.serious === '是',
    }));
    const from36 = monthsBack(D, 36);
    const from12 = monthsBack(D, 12);
    const recent = all.filter((p) => p.day > from36 && p.day <= D);
    const sum = recent.reduce((s, p) => s + p.fine, 0);
    const tier = sum >= 100_000_000 ? 12 : sum >= 10_000_000 ? 8 : sum >= 1_000_000 ? 4 : 0;
    const serious = recent.some((p) => p.serious);
    const raw = 30 - 4 * recent.length - tier - (serious ? 6 : 0);
    const compliance = Math.max(0, raw);
    if (recent.length > 0) branches.push('compliance:count');
    if (tier > 0) branches.push(`compliance:tier-${tier}`);
    if (serious) branches.push('compliance:serious');
    if (raw < 0) branches.push('compliance:floor');
    if (recent.length === 0) branches.push('compliance:clean');

    // Consistency (10).
    let consistency: number;
    if (cbam && (!disc || disc.s1 === null)) {
      consistency = 0;
      branches.push('consistency:1');
    } else if (!obligated) {
      consistency = 10;
      branches.push('consistency:2');
    } else if (!disc) {
      consistency = 0;
      branches.push('consistency:3');
    } else if (disc.s1 !== null && disc.s2 !== null && disc.v1 && disc.v2) {
      consistency = 10;
      branches.push('consistency:4');
    } else {
      consistency = 5;
      branches.push('consistency:5');
    }

    // Flags.
    if (obligated && !(disc && disc.year >= E)) flags.push('GF-F01');
    if (recent.length >= 3 || serious) flags.push('GF-P02');
    if (disc && (disc.s1 !== null || disc.s2 !== null || disc.s3 !== null) && level === 'none') flags.push('GF-A01');
    if (all.some((p) => p.day > from12 && p.day <= D)) flags.push('GF-P01');
    if (disc && disc.year < E) flags.push('GF-D01');
    if (cbam && (!disc || disc.s1 === null)) flags.push('GF-C01');
    if (disc) {
      const regRows = sites.filter((s) => Number(s.year) + 1911 === disc.year);
      if (regRows.length > 0) {
        if (disc.s1 === null || disc.s2 === null) notes.push(`${ticker}: registry comparison with a missing scope`);
        const reg = regRows.reduce((s, r) => s + Number(r.total), 0);
        const own = (disc.s1 ?? 0) + (disc.s2 ?? 0);
        if (Math.abs(own - reg) > 0.1 * reg) flags.push('GF-V01');
      }
    }
    if (disc && disc.s3 === null) flags.push('GF-D02');
    const from24 = monthsBack(D, 24);
    const conduct = (conductBy.get(ticker) ?? []).filter((x) => x.day > from24 && x.day <= D);
    if (conduct.some((x) => x.kind === 'breach')) flags.push('GF-S01');
    if (conduct.some((x) => x.kind === 'sanction')) flags.push('GF-S02');

    const score = disclosure + assurance + compliance + consistency;
    branches.push(`verdict:${score >= 80 ? 'credible' : score >= 60 ? 'decent' : score >= 40 ? 'questionable' : 'poor'}`);
    results.set(ticker, { ticker, score, flags: flags.sort(), branches });
  }
  return { asof: manifest.asof, results, obligated: obligatedCount, notes };
}
