import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { FileLayout } from '../../adapters/layouts.js';
import { opt, req } from '../../adapters/layouts.js';
import { readLayout, type RejectLog } from '../../adapters/read-layout.js';
import { code, publisherDate, optionalAmount } from '../../adapters/values.js';
import type { ConductKind } from '../../../src/contract/vocabulary.js';
import type { ConductRow } from '../kit/facts.js';
import { ExactCopies, type SourceTally } from '../kit/tally.js';

/**
 * The exchanges' disclosure-conduct datasets (shared/spec/sources.md, "SRC-TWSE-SANCTIONS and the
 * three sources beside it"): t187ap23 (the exchange's penalties for disclosure breaches, kind
 * `breach`) and t187ap22 (FSC Securities and Futures Bureau sanctions, kind `sanction`), each served
 * by TWSE (`_L`, Chinese keys) and TPEx (`_O`, `Date`/`SecuritiesCompanyCode`/`CompanyName` beside
 * Chinese keys). Every value is a string; 發函日期 is ROC compact (`1141113`). Texts are hard-wrapped
 * (CRLF inside 違規事由, article fields ending in `\n`) and carry HTML references (`&#8194;`).
 */

/** Keys of both exchanges: TWSE's Chinese key first, TPEx's English key beside it. */
const common = {
  reportDate: req('出表日期', 'Date'),
  date: req('發函日期'),
  ticker: req('股票代號', 'SecuritiesCompanyCode'),
  companyName: opt('公司名稱', 'CompanyName'),
  summary: req('違規事由'),
} as const;

/** t187ap23: two article fields and the amount in units of NT$10,000 (`裁罰金額(萬)` at TWSE, `裁罰金額` at TPEx). */
export const breachColumns = {
  ...common,
  filingArticle: req('違反資訊申報作業辦法條款'),
  materialArticle: req('違反重大訊息之查證暨公開處理程序條款'),
  fine: req('裁罰金額(萬)', '裁罰金額'),
} as const;
export type BreachKey = keyof typeof breachColumns;

/** t187ap22: the law breached and the decision as text (a fine appears only inside it). */
export const sanctionColumns = {
  ...common,
  rule: req('違反法規'),
  decision: req('裁處情形'),
} as const;
export type SanctionKey = keyof typeof sanctionColumns;

/**
 * A served text as the API shows it: references already decoded and ends trimmed by the reader
 * (cleanText); here every run of whitespace that holds a line break becomes one space (the
 * publisher's hard wrap, `財務\r\n報告`, `第 31\r\n款`). Other spaces stay as served (`&#8194;` is
 * U+2002 EN SPACE).
 */
export const unwrap = (s: string) => s.replace(/\s*[\r\n]\s*/g, ' ').trim();

/** A text that may be empty: null then. */
const optionalText = z.string().transform((s) => {
  const t = unwrap(s);
  return t === '' ? null : t;
});
const requiredText = z.string().transform(unwrap).pipe(z.string().min(1, 'must not be empty'));

/** NT$ from an amount in units of NT$10,000 (`3.0` → 30000); empty is null. */
const tenThousands = optionalAmount.transform((n) => (n === null ? null : Math.round(n * 10000)));

const commonSchema = {
  reportDate: publisherDate,
  date: publisherDate,
  ticker: code,
  summary: requiredText,
};

const breachSchema = z.object({ ...commonSchema, filingArticle: optionalText, materialArticle: optionalText, fine: tenThousands });
const sanctionSchema = z.object({ ...commonSchema, rule: optionalText, decision: optionalText });

/** The dataset's name, from its file (`t187ap23_L.json` → `t187ap23_L`): the prefix of every record id. */
const datasetOf = (file: string) => file.replace(/\.[^.]+$/, '');

const digest = (s: string) => createHash('sha1').update(s).digest('hex').slice(0, 10);

interface Parsed {
  reportDate: string;
  date: string;
  ticker: string;
  summary: string;
  rule: string | null;
  fine: number | null;
  decision: string | null;
}

/**
 * Streams one dataset's rows as conduct records. Every row is yielded, a code that is not a listed
 * company too (the loader counts it); a company has several rows. A row's identity is (code,
 * 發函日期, 違規事由): an exact copy of an earlier row is skipped (counted as a duplicate); rows that
 * share the identity but differ in another field are all kept, the second and later with `:2`, `:3`
 * after the record id. Each row's 出表日期 (TPEx's `Date`) stamps the source's publisher_date.
 */
function conductReader<K extends string>(
  layout: FileLayout<K>,
  kind: ConductKind,
  schema: z.ZodType<Parsed, Partial<Record<K, string>>>,
  url: string,
) {
  const dataset = datasetOf(layout.file);
  return async function* (dir: string, rejects: RejectLog, tally?: SourceTally): AsyncGenerator<ConductRow> {
    const counts = tally?.of(layout.sourceId);
    const copies = counts ? new ExactCopies(counts) : null;
    const perId = new Map<string, number>();
    for await (const { row, raw } of readLayout(dir, layout, schema, rejects)) {
      tally?.stamp(layout.sourceId, row.reportDate);
      const id = `${dataset}:${row.ticker}:${row.date}:${digest(row.summary)}`;
      if (copies && !copies.first(id, Object.values<string>(raw))) continue;
      const n = (perId.get(id) ?? 0) + 1;
      perId.set(id, n);
      yield {
        ticker: row.ticker,
        kind,
        date: row.date,
        summary: row.summary,
        rule: row.rule,
        fine: row.fine,
        decision: row.decision,
        recordId: n === 1 ? id : `${id}:${n}`,
        sourceUrl: url,
        sourceId: layout.sourceId,
      };
    }
  };
}

/** A reader of t187ap23 (either exchange): kind `breach`, both article fields joined by `; `, the fine in NT$. */
export function breachReader(layout: FileLayout<BreachKey>, url: string) {
  const schema = breachSchema.transform((r): Parsed => ({
    reportDate: r.reportDate,
    date: r.date,
    ticker: r.ticker,
    summary: r.summary,
    rule: [r.filingArticle, r.materialArticle].filter((a) => a !== null).join('; ') || null,
    fine: r.fine,
    decision: null,
  }));
  return conductReader(layout, 'breach', schema, url);
}

/** A reader of t187ap22 (either exchange): kind `sanction`, 違反法規 the rule, 裁處情形 the decision, no fine. */
export function sanctionReader(layout: FileLayout<SanctionKey>, url: string) {
  const schema = sanctionSchema.transform((r): Parsed => ({
    reportDate: r.reportDate,
    date: r.date,
    ticker: r.ticker,
    summary: r.summary,
    rule: r.rule,
    fine: null,
    decision: r.decision,
  }));
  return conductReader(layout, 'sanction', schema, url);
}
