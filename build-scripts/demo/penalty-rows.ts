/**
 * Rows of the MOENV penalty file (EMS_P_46) from the universe: the companies' penalties, then those
 * of outside businesses. Free-text details come from a per-row random stream; decision numbers
 * carry a running serial, so each is unique.
 */
import { formatDay, rocYear, yearOf } from './dates.js';
import { withThousands } from './format.js';
import type { Business, Penalty, Universe } from './model.js';
import { address, CENTRAL_AGENCY, COUNTIES, VIOLATIONS } from './names.js';
import { hash32, Rng } from './random.js';
import type { penaltyLayout } from '../sources/moenv/moenv-penalties.js';

export type PenaltyRow = Record<keyof (typeof penaltyLayout)['columns'], string>;

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

function row(u: Universe, b: Business, p: Penalty, serial: number): PenaltyRow {
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

export function* penaltyRows(u: Universe): Generator<PenaltyRow> {
  let serial = 0;
  for (const list of [u.companies, u.others] as const) {
    for (const b of list) {
      const sorted = [...b.penalties].sort((p, q) => p.day - q.day || p.money - q.money);
      for (const p of sorted) yield row(u, b, p, p.serial ?? ++serial);
    }
  }
}
