import { z } from 'zod';
import { registryLayout } from './layouts.js';
import { readLayout, type RejectLog } from './read-layout.js';
import { amount, text, uniformNo, year } from './values.js';

/** SRC-MOENV-GHG_P_01: one site's registered emissions for one year. */
export interface RegistrySiteRow {
  year: number;
  uniformNo: string;
  industryCode: string;
  direct: number;
  indirect: number;
}

const schema = z.object({
  year,
  uniformNo,
  industryCode: text.pipe(z.string().regex(/^[A-Z]?\d{2,6}$/, 'not an industry code')),
  direct: amount,
  indirect: amount,
});

export async function* readRegistry(dir: string, rejects: RejectLog): AsyncGenerator<RegistrySiteRow> {
  for await (const { row } of readLayout(dir, registryLayout, schema, rejects)) {
    yield { ...row, industryCode: row.industryCode.replace(/^[A-Z]/, '') };
  }
}
