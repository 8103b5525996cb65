/**
 * The demo's MOENV files, as MOENV open data v2 serves them (moenv-v2.ts), in pages of 1,000 as a
 * fetch keeps them, each column named by its API key:
 * - penalties (EMS_P_46): a JSON array, the companies' penalties, then those of outside businesses.
 *   Free-text details come from a per-row random stream; decision numbers carry a running serial,
 *   so each is unique;
 * - the GHG registry (GHG_P_01): the `{fields, records}` answer, the sites of year(D) − 2 then
 *   year(D) − 1.
 */
import { formatDay, rocYear, yearOf } from '../../demo-model/dates.js';
import { formatTq, withThousands } from '../../demo-model/format.js';
import { sicName } from '../../demo-model/industries.js';
import type { Business, Penalty, Universe } from '../../demo-model/model.js';
import { address, CENTRAL_AGENCY, COUNTIES, VIOLATIONS } from '../../demo-model/names.js';
import { hash32, Rng } from '../../demo-model/random.js';
import { demoTable, type RowOf } from '../kit/demo-tables.js';
import { registryLayout } from './moenv-ghg-registry.js';
import { penaltyLayout } from './moenv-penalties.js';
import { MOENV_PAGE, moenvPageFile } from './moenv-v2.js';

/** A row of the penalty file as served (not the fact a reader yields from it). */
type PenaltyFileRow = RowOf<typeof penaltyLayout>;

const EMS_LETTERS = 'ABEFHJKMNPQRSTUVWXYZG';

/** 管制事業編號: a county letter + 7 digits, stable per business. */
function emsNo(b: Business): string {
  const letter = EMS_LETTERS[b.county % EMS_LETTERS.length] ?? 'A';
  return `${letter}${String(hash32('ems', b.uniformNo) % 10_000_000).padStart(7, '0')}`;
}

function facts(rng: Rng, base: string): string {
  const r = rng.next();
  // A few free texts carry a comma and double quotes, or a line break, as real files do.
  if (r < 0.03) return `${base}，經稽查人員現場採樣,檢測結果"不合格"`;
  if (r < 0.035) return `${base}\n經複查仍未改善`;
  return base;
}

function row(u: Universe, b: Business, p: Penalty, serial: number): PenaltyFileRow {
  const rng = Rng.of(u.seed, 'penalty-row', serial);
  const v = VIOLATIONS[p.violation] ?? VIOLATIONS[0];
  if (!v) throw new Error('no violations defined');
  const county = COUNTIES[p.agency >= 0 ? p.agency : b.county] ?? COUNTIES[0];
  if (!county) throw new Error('no counties defined');
  const agency = p.agency >= 0 ? county : CENTRAL_AGENCY;
  const place = address(rng, county, rng.pick(county.towns));
  const hasDeadline = rng.chance(0.5);
  const deadline = p.day + rng.int(30, 120);
  const petition = rng.chance(0.05);
  return {
    emsNo: emsNo(b),
    facilityName: b.legalName,
    uniformNo: b.uniformNo,
    agencyName: agency.agency,
    documentNo: `${agency.prefix}第${rocYear(yearOf(p.day))}${String(serial).padStart(7, '0')}號`,
    transgressDate: formatDay(p.transgressDay, p.transgressStyle),
    transgressLaw: v.law,
    transgressType: v.type,
    facts: facts(rng, v.fact),
    penaltyDate: formatDay(p.day, p.penaltyStyle),
    penaltyMoney: p.moneyCommas ? withThousands(p.money) : String(p.money),
    gist: v.article,
    subject: `處新臺幣${withThousands(p.money)}元罰鍰`,
    otherPenalty: rng.chance(0.3) ? '環境講習2小時' : '',
    illegalGain: p.serious && rng.chance(0.3) ? String(Math.round(p.money / 2)) : '',
    serious: p.serious ? '是' : '否',
    improveDeadline: hasDeadline ? formatDay(deadline, p.penaltyStyle) : '',
    improved: hasDeadline ? (deadline <= u.asof && rng.chance(0.85) ? '是' : '否') : '',
    petition: petition ? '是' : '否',
    petitionResult: petition ? rng.pick(['訴願駁回', '撤銷原處分', '審理中']) : '',
    paid: rng.chance(0.9) ? '是' : '否',
    facilityAddress: place,
    transgressAddress: place,
    transgressor: b.legalName,
  };
}

function* penaltyRows(u: Universe): Generator<PenaltyFileRow> {
  let serial = 0;
  for (const list of [u.companies, u.others] as const) {
    for (const b of list) {
      const sorted = [...b.penalties].sort((p, q) => p.day - q.day || p.money - q.money);
      for (const p of sorted) yield row(u, b, p, p.serial ?? ++serial);
    }
  }
}

const LIABLE_TQ = 25_000 * 10_000;

/** Registry sites for year(D) − 2 then year(D) − 1: companies first, then outside businesses. */
function* registryRows(u: Universe): Generator<RowOf<typeof registryLayout>> {
  for (const year of [u.year - 2, u.year - 1]) {
    for (const list of [u.companies, u.others] as const) {
      for (const b of list) {
        for (const s of b.sites) {
          const y = s.years.find((v) => v.year === year);
          if (!y) continue;
          const total = y.direct + y.indirect;
          const co2 = Math.round(y.direct * 0.97);
          const ch4 = Math.round(y.direct * 0.02);
          yield {
            year: String(rocYear(year)),
            uniformNo: b.uniformNo,
            companyName: b.legalName,
            city: COUNTIES[s.county]?.name ?? '',
            town: s.town,
            industryName: sicName(s.code),
            industryCode: s.code,
            cause: s.code.startsWith('35') ? '電力或燃氣供應業' : total >= LIABLE_TQ ? '年排放量達2.5萬公噸CO2e以上' : '其他指定應盤查登錄排放源',
            co2: formatTq(co2),
            ch4: formatTq(ch4),
            n2o: formatTq(Math.max(0, y.direct - co2 - ch4)),
            hfcs: '0',
            pfcs: '0',
            sf6: '0',
            nf3: '0',
            // As MOENV serves it: tot is the site total, the gases (direct) plus tot2 (energy-indirect).
            indirect: formatTq(y.indirect),
            total: formatTq(total),
          };
        }
      }
    }
  }
}

const pagesOf = (dataset: string) => ({ size: MOENV_PAGE, file: (n: number) => moenvPageFile(dataset, n) });

export const penaltyDemo = demoTable(penaltyLayout, 'key', { kind: 'json', pages: pagesOf('EMS_P_46') }, penaltyRows);
export const registryDemo = demoTable(registryLayout, 'key', { kind: 'json', wrapped: true, pages: pagesOf('GHG_P_01') }, registryRows);
