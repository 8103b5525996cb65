/**
 * The evolving demo: a first month generated from (seed, companies), then each later month derived
 * from the one before by the documented events of evolve.ts. Each month is written into its own
 * folder, `<outDir>/<n>/` (1, 2, …). The first month is as of 31 August, the reporting deadline
 * itself, so the second (30 September) is past it: E(D), the expected reporting year, moves from
 * 2024 to 2025 and the disclosures still for 2024 lose timeliness points. Same options, same bytes.
 */
import { join } from 'node:path';
import { parseIsoDay } from '../demo-model/dates.js';
import { evolveUniverse, type DemoEvent } from './evolve.js';
import { writeUniverse, type GenerateDemoResult } from './generate.js';
import { buildUniverse } from './universe.js';

export const DEMO_SERIES_START = '2026-08-31';
const DEFAULTS = { companies: 1800, seed: 20261101, months: 2 } as const;

export interface DemoMonth extends GenerateDemoResult {
  dir: string;
  /** What changed from the month before (empty for the first). */
  events: DemoEvent[];
}

export async function generateDemoSeries(o: {
  outDir: string;
  companies?: number;
  seed?: number;
  months?: number;
  asof?: string;
}): Promise<DemoMonth[]> {
  const months = o.months ?? DEFAULTS.months;
  let universe = buildUniverse({
    seed: o.seed ?? DEFAULTS.seed,
    companies: o.companies ?? DEFAULTS.companies,
    asof: parseIsoDay(o.asof ?? DEMO_SERIES_START),
  });
  const out: DemoMonth[] = [];
  let events: DemoEvent[] = [];
  for (let m = 0; m < months; m++) {
    if (m > 0) ({ universe, events } = evolveUniverse(universe));
    const result = await writeUniverse(join(o.outDir, String(m + 1)), universe);
    out.push({ ...result, dir: join(o.outDir, String(m + 1)), events });
  }
  return out;
}
