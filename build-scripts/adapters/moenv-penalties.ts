import { z } from 'zod';
import { agencyCode } from './agencies.js';
import { penaltyLayout } from './layouts.js';
import { readLayout, type RejectLog } from './read-layout.js';
import { amount, isoDate, requiredText, text, uniformNo, yesNo } from './values.js';

/** SRC-MOENV-EMS_P_46: one penalty decision, linked to a company by 統一編號. */
export interface PenaltyRow {
  uniformNo: string;
  recordId: string;
  agency: string;
  agencyName: string;
  date: string;
  fine: number;
  serious: boolean;
  summary: string;
}

const schema = z
  .object({
    uniformNo,
    documentNo: requiredText,
    agencyName: requiredText,
    penaltyDate: isoDate,
    penaltyMoney: amount,
    serious: yesNo,
    facts: text,
    subject: text,
    transgressLaw: text,
  })
  .transform((r, ctx) => {
    const agency = agencyCode(r.agencyName);
    if (agency === null) {
      ctx.addIssue({ code: 'custom', path: ['agencyName'], message: `unknown agency "${r.agencyName}"` });
      return z.NEVER;
    }
    return { ...r, agency };
  });

/** Streams the penalty file (the real one has ~400k rows). */
export async function* readPenalties(dir: string, rejects: RejectLog): AsyncGenerator<PenaltyRow> {
  for await (const { row } of readLayout(dir, penaltyLayout, schema, rejects)) {
    yield {
      uniformNo: row.uniformNo,
      recordId: row.documentNo,
      agency: row.agency,
      agencyName: row.agencyName,
      date: row.penaltyDate,
      fine: row.penaltyMoney,
      serious: row.serious,
      summary: row.facts || row.subject || row.transgressLaw || '(no summary in source)',
    };
  }
}
