import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, startServer, type RunningServer } from '../../helpers/server.js';
import { API_KEY, GENPLUS_2330_FILE, PATHS, publisherHandlers, replayEnv, SAMPLE_GHG, sitcaWrongPeriod, TPEX_COMPANY } from './publishers.js';
import { jsonReply, startReplay, type Fault, type Replay } from './replay-server.js';

/**
 * The first real run, rehearsed on loopback: `npm run fetch` with only the FETCH_URL_* variables
 * pointing at a replay of every publisher's real form, then `npm run snapshot`, then the API as a
 * caller sees it. Then each fault of the new sources, refused with the source named while the
 * previous sources folder and the previous snapshot stay as they were, in the same run.
 */

const root = mkdtempSync(join(tmpdir(), 'real-forms-'));
const sources = join(root, 'sources');
const snapshots = join(root, 'snapshots');
let replay: Replay;
let server: RunningServer;

function run(script: 'fetch' | 'snapshot' | 'refresh', args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', `build-scripts/cli/${script}.ts`, ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...replayEnv(replay.base),
      MOENV_API_KEY: API_KEY,
      FETCH_MIN_INTERVAL_MS: '0',
      FETCH_RETRY_BASE_MS: '1',
      SNAPSHOTS_DIR: snapshots,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const folder = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((f) => [f, sha256(join(dir, f))]),
  );
const current = () => readlinkSync(join(snapshots, 'current'));

beforeAll(async () => {
  replay = await startReplay(publisherHandlers());
  const fetched = await run('fetch', ['--out', sources]);
  expect(fetched.stderr).not.toContain(API_KEY);
  expect(fetched.status, fetched.stderr).toBe(0);
  const built = await run('snapshot', ['--sources', sources]);
  expect(built.status, built.stderr).toBe(0);
  expect(built.stdout).toMatch(/left out, unmatched: 示範不存在永續ETF證券投資信託基金 \(no fund code\)/);
  expect(built.stdout).toMatch(/SRC-MOENV-EMS_P_46 .* duplicates 1/);
  server = await startServer(snapshots);
}, 180_000);
afterAll(async () => {
  await server?.close();
  await replay?.close();
  rmSync(root, { recursive: true, force: true });
});

describe("fetch, snapshot and serve from the publishers' real forms", () => {
  it('publishes a production snapshot of the replayed companies', async () => {
    const { body } = await getJson(`${server.base}/api/v1/snapshots`);
    expect(body.data[0].kind).toBe('production');
    const c = await getJson(`${server.base}/api/v1/company/2330/canonical`);
    expect(c.status).toBe(200);
    expect(c.body.disclaimer).not.toMatch(/fictional/i);
  });

  it("shows a listed and an OTC company's scope 1 and 2", async () => {
    const tsmc = (await getJson(`${server.base}/api/v1/company/2330/canonical`)).body.carbon_disclosure;
    expect([tsmc.scope1, tsmc.scope2, tsmc.source_id]).toEqual([
      Number(SAMPLE_GHG['範疇一排放量(噸CO2e)']),
      Number(SAMPLE_GHG['範疇二排放量(噸CO2e)']),
      'SRC-TWSE-ESG-GHG',
    ]);
    const gwc = (await getJson(`${server.base}/api/v1/company/6488/canonical`)).body.carbon_disclosure;
    expect([gwc.scope1, gwc.scope2, gwc.source_id]).toEqual([12345.6, 67890.1, 'SRC-TPEX-ESG-GHG']);
  });

  it('shows assurance with its kind, provider, standard and verifications', async () => {
    const tsmc = (await getJson(`${server.base}/api/v1/company/2330/canonical`)).body.assurance;
    expect(tsmc).toMatchObject({
      kind: 'cpa',
      provider: '資誠聯合會計師事務所',
      level: 'limited',
      standard: '確信準則3000號',
      year: 2025,
      source_id: 'SRC-MOPS-ESGREPORT',
    });
    expect(tsmc.verifications).toEqual([{ provider: '台灣檢驗科技股份有限公司', standard: 'AA1000' }]);
    expect(tsmc.deep_link).toBe(`https://esggenplus.twse.com.tw/api/api/MopsSustainReport/data/FileStream?id=${GENPLUS_2330_FILE}`);
    const tcc = (await getJson(`${server.base}/api/v1/company/1101/canonical`)).body.assurance;
    expect(tcc).toMatchObject({ kind: 'third_party', provider: '英國標準協會', level: 'limited', standard: 'ISAE 3000', year: 2025 });
    expect(tcc.deep_link).toBe('https://esggenplus.twse.com.tw/inquiry/report?market=0&year=2025&companyCode=1101&lang=zh-TW');
    const gwc = (await getJson(`${server.base}/api/v1/company/6488/canonical`)).body.assurance;
    expect(gwc).toMatchObject({ kind: 'cpa', level: 'reasonable', provider: '安侯建業聯合會計師事務所' });
  });

  it('links each penalty to its record, and counts a decision served twice once', async () => {
    const penalties = (await getJson(`${server.base}/api/v1/company/2330/canonical`)).body.penalties;
    expect(penalties).toHaveLength(3);
    const first = penalties.find((p: { record_id: string }) => p.record_id === '竹市環字第1130000號');
    expect(first.source_url).toBe(
      'https://prtr.moenv.gov.tw/api/v1/Penalty?UniformNo=22099131&StartDate=2024-05-21&EndDate=2024-05-21&PageNumber=1&PageSize=-1',
    );
  });

  it('rates the ESG ETF with its period, the 1 % floor and the listed weight; a non-ESG fund is not rated', async () => {
    const etf = (await getJson(`${server.base}/api/v1/etf/00850`)).body;
    expect(etf).toMatchObject({
      holdings_source_id: 'SRC-SITCA-ETF-HOLDINGS',
      holdings_period: '2025Q3',
      holdings_asof: '2025-09-30',
      holdings_min_weight: 0.01,
      listed_weight: 0.3509,
      total: 3,
      covered: 2,
    });
    expect(etf.holdings.map((h: { ticker: string; weight: number }) => [h.ticker, h.weight])).toEqual([
      ['2330', 0.3282],
      ['1101', 0.0125],
      ['US0378331005', 0.0102],
    ]);
    expect((await getJson(`${server.base}/api/v1/etf/0050`)).status).toBe(404);
    const list = (await getJson(`${server.base}/api/v1/etf`)).body;
    expect(list.data.map((e: { etf_code: string }) => e.etf_code)).toEqual(['00850']);
  });

  it('names every answer in the registry, with the sha256 the publisher served', async () => {
    const registry = (await getJson(`${server.base}/api/v1/sources/registry`)).body.data;
    const sitca = registry.find((s: { source_id: string }) => s.source_id === 'SRC-SITCA-ETF-HOLDINGS');
    expect(sitca.is_government).toBe(false);
    expect(sitca.licence.id).toBe('none');
    expect(sitca.files.map((f: { file: string }) => f.file)).toEqual([
      'sitca-IN2630-202509-AH11.html',
      'sitca-IN2630-202509-AL11.html',
      'sitca-IN2630-form.html',
    ]);
    for (const f of sitca.files) expect(f.sha256).toBe(sha256(join(sources, f.file)));
    const genplus = registry.find((s: { source_id: string }) => s.source_id === 'SRC-MOPS-ESGREPORT');
    expect(genplus.files.find((f: { file: string }) => f.file === 'esggenplus-2025-sii.json').url).toBe(`${replay.base}${PATHS.genplus}`);
  });
});

describe('each fault of a new source is refused, naming the source, and nothing is lost', () => {
  const cases: [string, string, Fault[], RegExp][] = [
    [
      'GenPlus answers success: false',
      PATHS.genplus,
      [{ kind: 'reply', reply: jsonReply({ code: 500, success: false, data: null, message: '系統忙碌中' }) }],
      /SRC-MOPS-ESGREPORT: .*not a successful GenPlus answer \(success: false.*系統忙碌中/,
    ],
    ['GenPlus answers an HTML page', PATHS.genplus, [{ kind: 'html-200' }], /SRC-MOPS-ESGREPORT: .*an HTML page with status 200/],
  ];

  it.each(cases)(
    '%s',
    async (_, path, faults, message) => {
      const before = folder(sources);
      const snapshot = current();
      replay.fault(path, ...faults);
      const r = await run('fetch', ['--out', sources]);
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(folder(sources)).toEqual(before);
      expect(current()).toBe(snapshot);
    },
    120_000,
  );

  it('SITCA answering another period than asked is refused', async () => {
    const before = folder(sources);
    // The form page first (normal), then the AH11 query answered with another period's table.
    replay.fault(PATHS.sitca, { kind: 'pass' }, { kind: 'reply', reply: sitcaWrongPeriod() });
    const r = await run('fetch', ['--out', sources, '--only', 'SRC-SITCA-ETF-HOLDINGS']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/SRC-SITCA-ETF-HOLDINGS: .*202509.*202503|SRC-SITCA-ETF-HOLDINGS: .*202503.*202509/);
    expect(folder(sources)).toEqual(before);
  }, 120_000);

  it("a SITCA session that loses the previous answer's hidden fields gets no table, and is refused", async () => {
    const before = folder(sources);
    replay.fault(
      PATHS.sitca,
      { kind: 'pass' },
      {
        kind: 'reply',
        reply: { type: 'text/html; charset=utf-8', body: Buffer.from('<html><body><form><p>查詢逾時，請重新查詢</p></form></body></html>') },
      },
    );
    const r = await run('fetch', ['--out', sources, '--only', 'SRC-SITCA-ETF-HOLDINGS']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/SRC-SITCA-ETF-HOLDINGS: /);
    expect(folder(sources)).toEqual(before);
  }, 120_000);

  it('an empty company list is carried forward (contract 9) and says so; a tenth of last month is refused by its assertion', async () => {
    const before = folder(sources);
    replay.fault(PATHS.twseCompany, { kind: 'reply', reply: jsonReply([]) });
    const empty = await run('fetch', ['--out', sources, '--only', 'SRC-TWSE-COMPANY']);
    expect(empty.status, empty.stderr).toBe(0);
    expect(empty.stdout).toMatch(/Carried forward SRC-TWSE-COMPANY: the publisher answered empty \(0 records\)/);
    expect(folder(sources)['t187ap03_L.json']).toBe(before['t187ap03_L.json']);
    // One record where 2,345 were: the relative assertion refuses it (and the absolute minimum), naming the source.
    const once = await run('fetch', ['--out', sources, '--only', 'SRC-TWSE-COMPANY']);
    expect(once.status, once.stderr).toBe(0);
    const kept = folder(sources);
    replay.fault(PATHS.penalties, { kind: 'reply', reply: jsonReply({ records: [{ ban: '22099131' }] }) });
    const drop = await run('fetch', ['--out', sources, '--only', 'SRC-MOENV-EMS_P_46']);
    expect(drop.status).toBe(1);
    expect(drop.stderr).toMatch(/SRC-MOENV-EMS_P_46: assertion minRecords failed: 1 records|SRC-MOENV-EMS_P_46: assertion minOfPrevious failed/);
    expect(folder(sources)).toEqual(kept);
  }, 120_000);

  it('a renamed key fails the build naming the source and the key; the previous snapshot stays current', async () => {
    const snapshot = current();
    const renamed: Record<string, string> = { ...TPEX_COMPANY, UnifiedBusinessNo: TPEX_COMPANY['UnifiedBusinessNo.'] };
    delete renamed['UnifiedBusinessNo.'];
    replay.fault(PATHS.tpexCompany, { kind: 'reply', reply: jsonReply([renamed]) });
    const other = join(root, 'renamed');
    const fetched = await run('fetch', ['--out', other]);
    expect(fetched.status, fetched.stderr).toBe(0);
    const built = await run('snapshot', ['--sources', other]);
    expect(built.status).toBe(1);
    expect(built.stderr).toMatch(
      /SRC-TPEX-COMPANY mopsfin_t187ap03_O\.json: missing required column or key "UnifiedBusinessNo\. \/ 營利事業統一編號"/,
    );
    expect(current()).toBe(snapshot);
    expect((await getJson(`${server.base}/api/v1/company/6488`)).status).toBe(200);
  }, 180_000);

  it('a folder that does not exist is named with what to do', async () => {
    const built = await run('snapshot', ['--sources', join(root, 'nowhere')]);
    expect(built.status).toBe(1);
    expect(built.stderr).toMatch(/does not exist: run `npm run fetch -- --out .*nowhere` first/);
  });
});

describe('npm run refresh: fetch, build, check and publish in one command', () => {
  it('publishes a new snapshot and says what each source gave', async () => {
    const before = current();
    const r = await run('refresh', ['--sources', join(root, 'monthly')]);
    expect(r.status, r.stderr).toBe(0);
    // GenPlus: the antiforgery token's answer and 24 POSTs (2014–2025, two markets).
    expect(r.stdout).toMatch(/SRC-MOPS-ESGREPORT\s+25 files\s+4 records/);
    expect(r.stdout).toMatch(/Published snapshot \S+ \(data as of \d{4}-\d{2}-\d{2}\)/);
    expect(current()).not.toBe(before);
    expect((await getJson(`${server.base}/api/v1/company/2330`)).body.dataset_snapshot_id).toBe(current());
  }, 180_000);

  it('exits non-zero on a failing source and leaves the current snapshot as it was', async () => {
    const before = current();
    replay.fault(PATHS.genplus, { kind: 'reply', reply: jsonReply({ code: 500, success: false, data: null, message: 'busy' }) });
    const r = await run('refresh', ['--sources', join(root, 'monthly')]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/refresh failed: SRC-MOPS-ESGREPORT: /);
    expect(r.stderr).toMatch(/The current snapshot is unchanged/);
    expect(current()).toBe(before);
  }, 180_000);
});
