import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseIsoDay } from '../../build-scripts/demo-model/dates.js';
import { pairsInOrder } from '../../build-scripts/history/company-pass.js';
import { explainChange, explainInFull, unmoved } from '../../build-scripts/history/explain.js';
import { evolveUniverse, type DemoEvent } from '../../build-scripts/demo/evolve.js';
import { DEMO_SERIES_START } from '../../build-scripts/demo/series.js';
import { buildUniverse } from '../../build-scripts/demo/universe.js';
import { changesResponseSchema, type ChangeItem } from '../../src/contract/changes.js';
import { CAUSE_KINDS } from '../../src/contract/vocabulary.js';
import { withinLastMonths } from '../../src/methodology/months.js';
import { publishedSnapshotIds } from '../../src/snapshot/published.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { getJson, startServer, type RunningServer } from '../helpers/server.js';
import { demoSeriesSnapshotsDir } from '../helpers/demo-series-dir.js';

const API = '/api/v1';
let server: RunningServer;
let ids: string[];
let items: ChangeItem[];
let events: DemoEvent[];
const get = (path: string) => getJson(`${server.base}${API}${path}`);
const itemOf = (ticker: string | null) => items.find((i) => i.ticker === ticker)!;
const eventOf = (kind: DemoEvent['kind']) => events.filter((e) => e.kind === kind);

beforeAll(async () => {
  const dir = demoSeriesSnapshotsDir;
  ids = publishedSnapshotIds(dir);
  server = await startServer(dir);
  // Every static page of /changes, in order.
  const first = changesResponseSchema.parse((await get('/changes')).body);
  items = [...first.data];
  for (let n = 2; n <= first.meta.page_count; n++) items.push(...changesResponseSchema.parse((await get(`/changes/page/${n}`)).body).data);
  // The demo's events, worked out again in memory from the same seed.
  events = evolveUniverse(buildUniverse({ seed: 20261101, companies: 1800, asof: parseIsoDay(DEMO_SERIES_START) })).events;
}, 60_000);
afterAll(() => server?.close());

describe('GET /changes on the evolving demo', () => {
  it('explains the second month against the first, every cause kind occurring', async () => {
    expect(ids.length).toBe(2);
    const body = (await get('/changes')).body;
    expect(body.from_snapshot_id).toBe(ids[0]);
    expect(body.dataset_snapshot_id).toBe(ids[1]);
    expect(body.meta.total).toBe(items.length);
    const kinds = new Set(items.flatMap((i) => i.causes.map((c) => c.kind)));
    expect([...kinds].sort()).toEqual([...CAUSE_KINDS].sort());
  });

  it('for every changed company (the whole demo), the causes’ points sum to score_delta, which is after − before', () => {
    expect(items.length).toBeGreaterThan(100);
    for (const i of items) {
      expect(
        i.causes.reduce((s, c) => s + (c.points ?? 0), 0),
        i.ticker,
      ).toBe(i.score_delta);
      expect(i.score_delta, i.ticker).toBe((i.after?.credibility_score ?? 0) - (i.before?.credibility_score ?? 0));
      for (const c of i.causes) expect(c.component === null, `${i.ticker} ${c.kind}`).toBe(c.points === null);
    }
  });

  it('sorted by |score_delta| descending, then ticker', () => {
    const sorted = [...items].sort((a, b) => Math.abs(b.score_delta) - Math.abs(a.score_delta) || (a.ticker < b.ticker ? -1 : 1));
    expect(items.map((i) => i.ticker)).toEqual(sorted.map((i) => i.ticker));
  });

  it('before and after are what each snapshot served', async () => {
    for (const i of items.slice(0, 40)) {
      for (const [side, id] of [
        [i.before, ids[0]],
        [i.after, ids[1]],
      ] as const) {
        const res = await get(`/snapshots/${id}/company/${i.ticker}`);
        if (side === null) {
          expect(res.status).toBe(404);
          continue;
        }
        const history = (await get(`/snapshots/${id}/company/${i.ticker}/history`)).body.data[0];
        expect(side).toEqual({
          credibility_score: res.body.company.credibility_score,
          verdict: res.body.company.verdict,
          rank: res.body.company.rank,
          flags: history.flags,
        });
      }
    }
  });

  it('new penalties: compliance points as methodology 7.1 gives them, with the penalty source', () => {
    const expected = new Map([
      [80_000, -4],
      [2_000_000, -4 - 4 - 6],
      [12_000_000, -4 - 8],
    ]);
    const news = eventOf('penalty_new');
    expect(news.length).toBe(3);
    for (const e of news) {
      const fine = Number(/NT\$(\d+)/.exec(e.detail)![1]);
      const causes = itemOf(e.ticker).causes.filter((c) => c.kind === 'penalty_new');
      expect(causes).toEqual([expect.objectContaining({ component: 'compliance', points: expected.get(fine), source_id: 'SRC-MOENV-EMS_P_46' })]);
    }
  });

  it('penalties ageing out: the 36-month window gives back compliance points, the 12-month one only a flag window', () => {
    const [out36] = eventOf('penalty_ages_out_36');
    const aged = itemOf(out36!.ticker).causes.filter((c) => c.kind === 'penalty_aged_out');
    expect(aged.length).toBeGreaterThan(0);
    expect(aged[0]).toMatchObject({ component: 'compliance', source_id: 'SRC-MOENV-EMS_P_46' });
    expect(aged[0]!.points).toBeGreaterThanOrEqual(4);
    const [out12] = eventOf('penalty_ages_out_12');
    expect(itemOf(out12!.ticker).causes).toContainEqual(
      expect.objectContaining({ kind: 'penalty_aged_out', component: null, points: null, source_id: 'SRC-MOENV-EMS_P_46' }),
    );
  });

  it('a new disclosure (+35: both scopes, scope 3, timely), a corrected one (+5: scope 3 added), with the exchange file as source', () => {
    const [fresh] = eventOf('disclosure_new');
    expect(itemOf(fresh!.ticker).causes).toContainEqual(
      expect.objectContaining({
        kind: 'disclosure_new',
        component: 'disclosure',
        points: 35,
        source_id: expect.stringMatching(/^SRC-(TWSE|TPEX)-ESG-GHG$/),
      }),
    );
    const [fixed] = eventOf('disclosure_corrected');
    expect(itemOf(fixed!.ticker).causes).toContainEqual(
      expect.objectContaining({
        kind: 'disclosure_changed',
        component: 'disclosure',
        points: 5,
        source_id: expect.stringMatching(/^SRC-(TWSE|TPEX)-ESG-GHG$/),
      }),
    );
    expect(itemOf(fixed!.ticker).causes).toContainEqual(
      expect.objectContaining({ kind: 'flag_cleared', points: null, detail: expect.stringContaining('GF-D02') }),
    );
  });

  it('an assurance upgrade (limited → reasonable: +10, or +5 when halved), with the report source', async () => {
    const [up] = eventOf('assurance_upgrade');
    const canonical = (await get(`/company/${up!.ticker}/canonical`)).body;
    const halved = canonical.carbon_disclosure !== null && canonical.assurance.year < canonical.carbon_disclosure.year;
    expect(itemOf(up!.ticker).causes).toContainEqual(
      expect.objectContaining({ kind: 'assurance_changed', component: 'assurance', points: halved ? 5 : 10, source_id: 'SRC-MOPS-ESGREPORT' }),
    );
  });

  it('a new carbon-fee obligation moves consistency, with the registry source', async () => {
    const [fee] = eventOf('carbon_fee_new');
    const history = (await get(`/company/${fee!.ticker}/history`)).body.data;
    const consistency = (e: any) => e.score_breakdown.find((c: any) => c.component === 'consistency').points;
    expect(itemOf(fee!.ticker).causes).toContainEqual(
      expect.objectContaining({
        kind: 'carbon_fee_changed',
        component: 'consistency',
        points: consistency(history[0]) - consistency(history[1]),
        source_id: 'SRC-MOENV-GHG_P_01',
      }),
    );
    expect((await get(`/company/${fee!.ticker}/canonical`)).body.carbon_fee.obligated).toBe(true);
  });

  it('the reporting deadline: E(D) moves from 2024 to 2025 on 1 September, so a 2024 disclosure drops from 10 to 5 timeliness points, sourced to the disclosure', async () => {
    expect(ids).toEqual(['2026-09-01', '2026-10-01']);
    const timely = items.find((i) => i.causes.length > 0 && i.causes.every((c) => c.kind === 'timeliness' || c.kind.startsWith('flag_')))!;
    const cause = timely.causes.find((c) => c.kind === 'timeliness')!;
    const canonical = (await get(`/company/${timely.ticker}/canonical`)).body;
    expect(canonical.carbon_disclosure.year).toBe(2024);
    expect(cause).toMatchObject({ component: 'disclosure', points: -5, source_id: canonical.carbon_disclosure.source_id });
    expect(timely.causes).toContainEqual(
      expect.objectContaining({ kind: 'flag_raised', source_id: canonical.carbon_disclosure.source_id, detail: expect.stringContaining('GF-D01') }),
    );
    // D1101 (README): perfect in the first month, a year late in the second.
    expect(itemOf('D1101')).toMatchObject({ before: { credibility_score: 100 }, score_delta: -5 });
    expect(itemOf('D1101').causes).toContainEqual(expect.objectContaining({ kind: 'timeliness', component: 'disclosure', points: -5 }));
  });

  it('a CBAM mapping change is the methodology’s (no fact source); listings and delistings count every component', () => {
    const [cbam] = eventOf('cbam_mapping');
    expect(itemOf(cbam!.ticker).causes).toContainEqual(
      expect.objectContaining({ kind: 'methodology_changed', component: 'consistency', points: -10, source_id: null }),
    );
    const [listed] = eventOf('listing');
    const added = itemOf(listed!.ticker);
    expect(added).toMatchObject({ change: 'added', before: null, score_delta: added.after!.credibility_score });
    expect(added.causes.map((c) => [c.kind, c.component, c.source_id])).toEqual(
      ['disclosure', 'assurance', 'compliance', 'consistency'].map((c) => ['company_added', c, 'SRC-TPEX-COMPANY']),
    );
    const [gone] = eventOf('delisting');
    const removed = itemOf(gone!.ticker);
    expect(removed).toMatchObject({ change: 'removed', after: null, score_delta: -removed.before!.credibility_score });
    expect(removed.causes.every((c) => c.kind === 'company_removed')).toBe(true);
  });

  it('a company whose rank alone moved is absent', () => {
    const [a, b] = ids.map((id) => SnapshotStore.open(join(demoSeriesSnapshotsDir, id))) as [SnapshotStore, SnapshotStore];
    try {
      const listed = new Set(items.map((i) => i.ticker));
      let rankOnly = 0;
      for (const t of b.tickers()) {
        const x = a.facts(t);
        const y = b.facts(t)!;
        if (!x) continue;
        const same =
          x.company.credibility_score === y.company.credibility_score &&
          x.company.verdict === y.company.verdict &&
          JSON.stringify(x.flags.map((f) => f.flag_id)) === JSON.stringify(y.flags.map((f) => f.flag_id)) &&
          JSON.stringify(x.penalties.map((p) => p.record_id)) === JSON.stringify(y.penalties.map((p) => p.record_id)) &&
          x.disclosure?.scope3 === y.disclosure?.scope3 &&
          x.disclosure?.year === y.disclosure?.year &&
          x.assurance?.level === y.assurance?.level &&
          x.carbonFee.obligated === y.carbonFee.obligated &&
          // A penalty leaving its 12- or 36-month window is a change of facts (penalty_aged_out), listed even with nothing else moving.
          x.penalties.every((p) =>
            [12, 36].every((m) => withinLastMonths(p.date, a.meta.data_asof, m) === withinLastMonths(p.date, b.meta.data_asof, m)),
          );
        if (same && x.company.rank !== y.company.rank) {
          rankOnly++;
          expect(listed.has(t), t).toBe(false);
        }
      }
      expect(rankOnly).toBeGreaterThan(0);
    } finally {
      a.close();
      b.close();
    }
  });
});

describe('GET /changes?… (filtered, computed)', () => {
  it('?page=N is the static page, byte for byte', async () => {
    expect((await get('/changes?page=2')).text).toBe((await get('/changes/page/2')).text);
    expect((await get('/changes/page/1')).text).toBe((await get('/changes')).text);
  });

  it('cause, industry and min_abs_delta filter; limit and page page', async () => {
    const news = (await get('/changes?cause=penalty_new')).body;
    expect(news.data.map((i: ChangeItem) => i.ticker).sort()).toEqual(
      eventOf('penalty_new')
        .map((e) => e.ticker)
        .sort(),
    );
    const big = (await get('/changes?min_abs_delta=30')).body;
    expect(big.data.length).toBeGreaterThan(0);
    expect(big.data.every((i: ChangeItem) => Math.abs(i.score_delta) >= 30)).toBe(true);
    expect(big.meta.total).toBe(items.filter((i) => Math.abs(i.score_delta) >= 30).length);
    const industry =
      (await get(`/company/${items[0]!.ticker}`)).body.company?.industry ??
      (await get(`/snapshots/${ids[0]}/company/${items[0]!.ticker}`)).body.company.industry;
    const inIndustry = (await get(`/changes?industry=${encodeURIComponent(industry)}&limit=5&page=1`)).body;
    expect(inIndustry.meta.per_page).toBe(5);
    expect(inIndustry.data.length).toBeLessThanOrEqual(5);
    expect(inIndustry.data.map((i: ChangeItem) => i.ticker)).toContain(items[0]!.ticker);
    const past = (await get('/changes?cause=penalty_new&page=9')).body;
    expect(past.data).toEqual([]);
  });

  it('bad parameters are 400 naming them', async () => {
    for (const [q, name] of [
      ['cause=bogus', 'cause'],
      ['min_abs_delta=101', 'min_abs_delta'],
      ['min_abs_delta=-1', 'min_abs_delta'],
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['x=1', 'x'],
    ]) {
      const res = await get(`/changes?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.message, q).toContain(name);
    }
  });
});

describe('the shortcut for unmoved companies', () => {
  it('gives exactly the full explanation, for the demo months and for a month whose as-of date moves within a year', () => {
    const dir = demoSeriesSnapshotsDir;
    const [first, second] = ids.map((id) => SnapshotStore.open(join(dir, id))) as [SnapshotStore, SnapshotStore];
    try {
      const all = (s: SnapshotStore) => s.factsBetween('', '~');
      const side = (s: SnapshotStore, asof = s.meta.data_asof) => ({ asof, methodologyVersion: s.meta.methodology_version });
      // The demo's months cross the reporting deadline, so the companies still on 2024 (or older)
      // disclosures move; the same facts a month later, E(D) unchanged, move only where a penalty
      // leaves a window.
      const asof = second.meta.data_asof;
      const monthAfter = `${asof.slice(0, 5)}${String(Number(asof.slice(5, 7)) + 1).padStart(2, '0')}${asof.slice(7, 10)}`;
      expect(monthAfter.slice(0, 4)).toBe(asof.slice(0, 4));
      const cases = [
        { before: all(first), after: all(second), from: side(first), to: side(second) },
        { before: all(second), after: all(second), from: side(second), to: side(second, monthAfter) },
      ];
      let shortcuts = 0;
      for (const c of cases) {
        for (const { ticker, before, after } of pairsInOrder(c.before, c.after)) {
          expect(explainChange(ticker, before, after, c.from, c.to)).toEqual(explainInFull(ticker, before, after, c.from, c.to));
          if (before && after && unmoved(before, after, c.from, c.to)) shortcuts++;
        }
      }
      // The shortcut is taken often enough for the comparison to mean something.
      expect(shortcuts).toBeGreaterThan(1000);
    } finally {
      first.close();
      second.close();
    }
  });
});
