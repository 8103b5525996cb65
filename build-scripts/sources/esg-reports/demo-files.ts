/**
 * The demo's sustainability-report filings in the form TWSE ESG GenPlus serves them
 * (shared/spec/sources.md): one answer per report year and market, `{code, success, data, message}`,
 * the new keys from report year 2023 and the old MOPS keys in odd case before, every value a string
 * or null. The same file names a fetch writes, one for every year a fetch as of the demo's date asks
 * for, so the real adapter beside it (mops-esg-report.ts) reads the demo exactly as it reads GenPlus.
 */
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { reportYears } from './mops-esg-report.js';
import { formatIsoDay } from '../../demo-model/dates.js';
import { industry } from '../../demo-model/industries.js';
import type { Company, EsgReport, Universe } from '../../demo-model/model.js';
import { CPA_OPINION, CPA_STANDARD, THIRD_PARTY_BODIES, THIRD_PARTY_STANDARD } from '../../demo-model/names.js';
import { Rng } from '../../demo-model/random.js';

const NO_FILE = '00000000-0000-0000-0000-000000000000';
const MARKETS = [
  { market: 'listed', name: 'sii' },
  { market: 'otc', name: 'otc' },
] as const;

/** A download id as GenPlus gives them (a UUID), fixed by the seed; about one filing in ten has none. */
function downloadId(u: Universe, c: Company, year: number): string {
  if (Rng.of(u.seed, 'genplus-file', c.index, year).chance(0.1)) return NO_FILE;
  const h = createHash('sha256').update(`${u.seed}/${c.ticker}/${year}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const slash = (iso: string) => iso.replace(/-/g, '/');

/**
 * A verifier beside the CPA firm, as some real filings name one (about one CPA filing in six, fixed
 * by the seed): shown as the assurance's `verifications`, never scored.
 */
function alsoVerifiedBy(u: Universe, c: Company, year: number): string | null {
  const rng = Rng.of(u.seed, 'genplus-verifier', c.index, year);
  return rng.chance(1 / 6) ? rng.pick(THIRD_PARTY_BODIES) : null;
}

function newRecord(u: Universe, c: Company, r: EsgReport): Record<string, string | null> {
  const a = r.assurance;
  const id = downloadId(u, c, r.year);
  const verifier = a.kind === 'cpa' ? alsoVerifiedBy(u, c, r.year) : null;
  return {
    code: c.ticker,
    name: c.legalName,
    shortName: c.shortName,
    enName: null,
    enShortName: '',
    sector: industry(c.industry).name,
    reason: r.mandatory ? '依規定申報' : '屬自願確信/保證者',
    reportingInterval: `${r.year}/01/01~${r.year}/12/31`,
    complianceNotes: 'GRI準則',
    partnerOrganization: a.kind === 'cpa' ? a.firm : '',
    stdCompliance: a.kind === 'cpa' ? CPA_STANDARD : null,
    accOptionType: a.kind === 'cpa' ? CPA_OPINION[a.level] : '',
    aConfirmTarget: a.kind === 'cpa' ? '溫室氣體排放量等指標' : null,
    valiProvider: a.kind === 'third' ? a.body : (verifier ?? ''),
    thirdStd: a.kind === 'third' ? THIRD_PARTY_STANDARD[a.level] : verifier !== null ? THIRD_PARTY_STANDARD.limited : null,
    thirdPartyVerify: a.kind === 'third' || verifier !== null ? '是' : '否',
    twDocLink: `https://example.invalid/${c.ticker}/esg-${r.year}.pdf`,
    twFirstReportDownloadId: id,
    twEditReportDownloadId: NO_FILE,
    twCommencementDate: slash(formatIsoDay(r.uploadDay)),
    twRevisionDate: null,
    contactInfo: null,
    note: null,
  };
}

/** The old MOPS columns (report years up to 2022): no CPA opinion type is served in this form. */
function oldRecord(c: Company, r: EsgReport): Record<string, string | null> {
  const a = r.assurance;
  const roc = r.year - 1911;
  return {
    companY_ID: c.ticker,
    companY_ABBR_NAME: c.shortName,
    englisH_ABBR_NAME: null,
    sub: r.mandatory ? '依規定申報' : '自願申報',
    duratioN_B: `${roc}/01/01`,
    duratioN_E: `${roc}/12/31`,
    cS_A1: 'GRI準則',
    surE_A: a.kind === 'third' ? a.body : '',
    acC_S: a.kind === 'third' ? THIRD_PARTY_STANDARD[a.level] : '',
    acC_A: a.kind === 'cpa' ? a.firm : '',
    filE_NAME: `${c.ticker}_${roc}.pdf`,
    useR_DATE1: slash(formatIsoDay(r.uploadDay)),
    weB_INFO: null,
    memo: null,
  };
}

/** Writes `esggenplus-<year>-<sii|otc>.json` for every year and market a fetch as of the demo's date asks for. */
export async function writeGenplusDemoFiles(dir: string, u: Universe): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const year of reportYears(formatIsoDay(u.asof))) {
    for (const m of MARKETS) {
      const data = u.companies.flatMap((c) => {
        if (c.market !== m.market) return [];
        const r = c.reports.find((x) => x.year === year);
        return r ? [year <= 2022 ? oldRecord(c, r) : newRecord(u, c, r)] : [];
      });
      const file = `esggenplus-${year}-${m.name}.json`;
      await writeFile(join(dir, file), JSON.stringify({ code: 200, success: true, data, message: null }), 'utf8');
      counts[file] = data.length;
    }
  }
  return counts;
}
