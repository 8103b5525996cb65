import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentSnapshotDir } from '../../src/snapshot/published.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { getJson, startServer, type RunningServer } from '../helpers/server.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/**
 * GF-V01 compares a disclosure with the government registry's total for the same year. Every company's
 * GF-V01 must be recomputable from the API alone: the canonical view shows the registry fact, and
 * /methodology gives the tolerance.
 */
let server: RunningServer;
let tickers: string[];
beforeAll(async () => {
  const snapshotsDir = demoSnapshotsDir;
  server = await startServer(snapshotsDir);
  const store = SnapshotStore.open(currentSnapshotDir(snapshotsDir)!);
  tickers = [...store.companies()].map((c) => c.ticker);
  store.close();
});
afterAll(() => server.close());

describe('GF-V01 from the API alone', () => {
  it('every company’s GF-V01 follows from its canonical view and /methodology', async () => {
    const methodology = (await getJson(`${server.base}/api/v1/methodology`)).body;
    const tolerance =
      Number(/differs by more than (\d+) %/.exec(methodology.flags.find((f: { id: string }) => f.id === 'GF-V01').raised_when)![1]) / 100;
    expect(methodology.definitions.registry_total).toContain('carbon_disclosure.registry');
    let raised = 0;
    let withRegistry = 0;
    for (let i = 0; i < tickers.length; i += 50) {
      const views = await Promise.all(
        tickers.slice(i, i + 50).map(async (t) => (await getJson(`${server.base}/api/v1/company/${t}/canonical`)).body),
      );
      for (const v of views) {
        const d = v.carbon_disclosure;
        const r = d?.registry;
        if (r) {
          withRegistry++;
          expect(r.year, v.ticker).toBe(d.year);
          expect(r.source_id, v.ticker).toBe(v.carbon_fee.source_id);
        }
        const expected = Boolean(
          r &&
          d.scope1 !== null &&
          d.scope2 !== null &&
          r.total_tco2e > 0 &&
          Math.abs(d.scope1 + d.scope2 - r.total_tco2e) / r.total_tco2e > tolerance,
        );
        const flag = v.flags.find((f: { id: string }) => f.id === 'GF-V01');
        expect(Boolean(flag), v.ticker).toBe(expected);
        if (flag) {
          raised++;
          expect(flag.source_id).toBe(r.source_id);
        }
      }
    }
    expect(raised).toBeGreaterThan(5);
    expect(withRegistry).toBeGreaterThan(raised);
  });
});
