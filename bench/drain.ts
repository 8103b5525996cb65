import { load, median, medianRatio, type LoadRequest, type LoadResult } from './load.js';
import { cpuMs, startShim, type Running } from './servers.js';

/**
 * "the drain adds nothing outside shutdown". The graceful shutdown's machinery
 * (server/shutdown.ts: a first 'request' listener that keeps each response in the list of those in
 * flight, so that a signal can still mark them `Connection: close`) against the same shim without
 * it (bench/unmetered-shim.ts, BENCH_DRAIN=1 and 0: no keys or quotas in either, so the
 * difference is that machinery alone), on the company-file fast path and on a computed endpoint
 * through Express. In rounds, the order swapped every other round; the ratio is the median of each
 * round's own ratio, with the shims' CPU per request from /proc in the same runs.
 */
export interface DrainFigures {
  name: string;
  /** req/s of each round, without the machinery and with it. */
  without: number[];
  with: number[];
  p99: { without: number; with: number };
  cpuUs: { without: number | null; with: number | null };
}

/** At least this share of the req/s without: the same within the noise of this machine's runs. */
export const DRAIN_TARGET = 0.97;

export const drainRatio = (d: DrainFigures) => medianRatio(d.with, d.without);

type InRounds = <T>(fns: (() => T | Promise<T>)[], times?: number) => Promise<T[][]>;

export async function measureDrain(
  published: string,
  port: number,
  requests: Record<string, LoadRequest[]>,
  o: { seconds: number; rounds: number; inRounds: InRounds; log: (m: string) => void; companies: number },
): Promise<DrainFigures[]> {
  const shims = await Promise.all([
    startShim(published, port, { BENCH_DRAIN: '0' }, 'bench/unmetered-shim.ts'),
    startShim(published, port + 1, { BENCH_DRAIN: '1' }, 'bench/unmetered-shim.ts'),
  ]);
  const figures: DrainFigures[] = [];
  try {
    const cases: [string, LoadRequest[]][] = [
      ['static company file (fast path)', requests.static!],
      ['ranking by industry (Express)', requests['ranking industry']!],
    ];
    for (const [name, reqs] of cases) {
      const cpu: [number[], number[]] = [[], []];
      const run = (k: 0 | 1) => async (): Promise<LoadResult> => {
        const before = cpuMs(shims[k].pid);
        const r = await load(shims[k].base, reqs, { seconds: o.seconds, connections: 10 });
        const after = cpuMs(shims[k].pid);
        if (before !== null && after !== null && r.rps > 0) cpu[k].push((1000 * (after - before)) / (r.rps * o.seconds));
        return r;
      };
      for (const s of shims) await load(s.base, reqs, { seconds: 1, connections: 4 });
      const [off = [], on = []] = await o.inRounds([run(0), run(1)], Math.max(o.rounds, 7));
      const us = (xs: number[]) => (xs.length > 0 ? median(xs) : null);
      const d: DrainFigures = {
        name,
        without: off.map((r) => r.rps),
        with: on.map((r) => r.rps),
        p99: { without: median(off.map((r) => r.p99)), with: median(on.map((r) => r.p99)) },
        cpuUs: { without: us(cpu[0]), with: us(cpu[1]) },
      };
      figures.push(d);
      o.log(
        `${o.companies}: ${name}: without the drain ${median(d.without).toFixed(0)} req/s, with it ${median(d.with).toFixed(0)} req/s: ${drainRatio(d).toFixed(3)}×; CPU ${d.cpuUs.without?.toFixed(0)} / ${d.cpuUs.with?.toFixed(0)} µs`,
      );
    }
  } finally {
    await Promise.all(shims.map((s: Running) => s.stop()));
  }
  return figures;
}

/** The target rows and the section of bench/results.md. */
export function drainTargetRows(
  companies: number,
  figures: DrainFigures[],
  n: (x: number, digits?: number) => string,
  met: (ok: boolean) => string,
): string[] {
  return figures.map(
    (d) =>
      `| ${d.name}: the drain's machinery ≥ ${DRAIN_TARGET}× its req/s without (${n(companies)} companies) | ${n(drainRatio(d), 3)}× | ${met(drainRatio(d) >= DRAIN_TARGET)} |`,
  );
}

export function drainSection(figures: DrainFigures[], n: (x: number, digits?: number) => string): string[] {
  const runs = (xs: number[]) => xs.map((x) => n(x)).join(', ');
  const us = (x: number | null) => (x === null ? '—' : n(x));
  return [
    '',
    "Graceful shutdown outside shutdown: the shim without keys or quotas, with the shutdown's machinery (BENCH_DRAIN=1) and without it; in rounds, the ratio the median of the ratios within each round; the shim's own CPU per request from /proc in the same runs.",
    '',
    '| endpoint | without req/s (runs) | with req/s (runs) | ratio | p99 ms without / with | shim CPU µs per request: without / with |',
    '|---|---|---|---:|---:|---:|',
    ...figures.map(
      (d) =>
        `| ${d.name} | ${runs(d.without)} | ${runs(d.with)} | **${n(drainRatio(d), 3)}×** | ${n(d.p99.without, 1)} / ${n(d.p99.with, 1)} | ${us(d.cpuUs.without)} / ${us(d.cpuUs.with)} |`,
    ),
  ];
}
