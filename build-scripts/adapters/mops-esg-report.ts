import { z } from 'zod';
import { esgReportLayout } from './layouts.js';
import { readLayout, type RejectLog } from './read-layout.js';
import { code, optionalIsoDate, text, year } from './values.js';
import type { AssuredLevel } from '../../src/contract/vocabulary.js';

/** SRC-MOPS-ESGREPORT: one sustainability-report filing and how it was assured. */
export interface EsgReportRow {
  ticker: string;
  year: number;
  provider: string | null;
  level: AssuredLevel | null;
  uploadDate: string | null;
}

/** Reasonable (合理/高度) or limited (有限/中度) from an opinion type or assurance standard text. */
function levelOf(text: string): AssuredLevel | null {
  if (/合理|高度|reasonable|high/i.test(text)) return 'reasonable';
  if (/有限|中度|limited|moderate/i.test(text)) return 'limited';
  return null;
}

const schema = z
  .object({
    year,
    ticker: code,
    thirdParty: text,
    thirdPartyStandard: text,
    cpa: text,
    cpaOpinion: text,
    uploadDate: optionalIsoDate,
  })
  .transform((r, ctx) => {
    // A CPA's assurance takes precedence over a third-party verification of the same report.
    const provider = r.cpa || r.thirdParty || null;
    const basis = r.cpa ? r.cpaOpinion : r.thirdPartyStandard;
    const level = provider ? levelOf(basis) : null;
    if (provider && level === null) {
      ctx.addIssue({ code: 'custom', path: [r.cpa ? 'cpaOpinion' : 'thirdPartyStandard'], message: `cannot tell the assurance level from "${basis}"` });
      return z.NEVER;
    }
    return { ticker: r.ticker, year: r.year, provider, level, uploadDate: r.uploadDate };
  });

export async function* readEsgReports(dir: string, rejects: RejectLog): AsyncGenerator<EsgReportRow> {
  for await (const { row } of readLayout(dir, esgReportLayout, schema, rejects)) yield row;
}
