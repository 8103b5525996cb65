import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import Database from 'better-sqlite3';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvField } from '../../../build-scripts/downloads/csv.js';
import { splitUstarPath, ustarFileHeader } from '../../../build-scripts/downloads/ustar.js';
import { writeDownloads, type DownloadFile } from '../../../build-scripts/downloads/write-downloads.js';
import { SNAPSHOT_DDL } from '../../../src/snapshot/schema.js';
import { parseCsv } from '../../helpers/csv-parse.js';

const DATA_TABLES = [
  'assurances',
  'carbon_disclosures',
  'carbon_fees',
  'cbam_products',
  'companies',
  'disclosure_conduct',
  'etf_holdings',
  'etfs',
  'flags',
  'penalties',
  'registry_sites',
  'source_files',
  'sources',
];
const PUBLISHED_AT = '2025-03-01T08:30:00Z';
const LONG_DIR = 'api/v1/company/a-directory-name-long-enough/to-push-the-whole-path/past-one-hundred-bytes-of-ustar-name';
const TRICKY = 'Comma, "quote" and\nnewline 臺灣';

/** A small snapshot database using the real DDL, with awkward values where CSV quoting matters. */
function makeDb(path: string): void {
  const db = new Database(path);
  db.exec(SNAPSHOT_DDL);
  const meta: Record<string, string> = {
    dataset_snapshot_id: '2025-03-01.2',
    data_asof: '2025-02-28',
    methodology_version: '1.0',
    kind: 'demo',
    published_at: PUBLISHED_AT,
    registry_year: '2023',
    service_host: 'esg.example.org',
  };
  for (const [k, v] of Object.entries(meta)) db.prepare('INSERT INTO meta VALUES (?, ?)').run(k, v);
  const file = db.prepare('INSERT INTO source_files VALUES (?, ?, ?, ?, ?, ?)');
  file.run('SRC-TWSE-COMPANY', 't187ap03_L.json', 'https://openapi.twse.com.tw/v1/opendata/t187ap03_L', '2025-02-28T06:00:00Z', 1234, 'a'.repeat(64));
  file.run('SRC-MOENV-EMS_P_46', 'EMS_P_46.csv', null, '2025-02-28T06:01:00Z', 99, 'b'.repeat(64));
  const src = db.prepare('INSERT INTO sources VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)');
  src.run(
    'SRC-TWSE-COMPANY',
    '上市公司基本資料',
    'TWSE',
    '臺灣證券交易所',
    0,
    'OGDL-Taiwan-1.0',
    'OGDL',
    'https://data.gov.tw/license',
    'daily',
    'https://openapi.twse.com.tw/v1/opendata/t187ap03_L',
    TRICKY,
    3,
    '2025-02-28T00:00:00Z',
  );
  src.run(
    'SRC-MOENV-EMS_P_46',
    '列管事業污染源裁處資料',
    'MOENV',
    '環境部',
    1,
    'OGDL-Taiwan-1.0',
    'OGDL',
    'https://data.gov.tw/license',
    'monthly',
    'https://data.moenv.gov.tw/dataset/detail/EMS_P_46',
    'Penalties',
    2,
    '2025-02-28T00:00:00Z',
  );
  const co = db.prepare('INSERT INTO companies VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const breakdown = JSON.stringify([{ component: 'disclosure', points: 20, max_points: 35, detail: 'scope 1, "2"' }]);
  co.run(
    2,
    '2330',
    '台積電',
    '台灣積體電路製造股份有限公司',
    '22099131',
    'listed',
    '24',
    '半導體業',
    'SRC-TWSE-COMPANY',
    1,
    '["aluminium","iron_steel"]',
    71,
    'decent',
    1,
    66.7,
    'limited',
    1,
    '["GF-P01","GF-D02"]',
    '["penalty, recent","no scope 3"]',
    breakdown,
  );
  co.run(
    1,
    '1101',
    '台泥',
    '台灣水泥股份有限公司',
    '11913502',
    'listed',
    '01',
    '水泥工業',
    'SRC-TWSE-COMPANY',
    1,
    '["cement"]',
    40,
    'poor',
    3,
    0,
    'none',
    0,
    '[]',
    '[]',
    breakdown,
  );
  co.run(
    3,
    '6488',
    TRICKY,
    'X',
    '12345678',
    'otc',
    '24',
    '半導體業',
    'SRC-TWSE-COMPANY',
    0,
    '[]',
    55,
    'questionable',
    2,
    33.3,
    'reasonable',
    0,
    '[]',
    '[]',
    '[]',
  );
  // A virtual table (and its shadow tables) is not data to download, should a snapshot ever hold one.
  db.exec("CREATE VIRTUAL TABLE company_search USING fts5 (search_text, tokenize = 'trigram')");
  const search = db.prepare('INSERT INTO company_search (rowid, search_text) VALUES (?, ?)');
  for (const [id, t] of [
    [1, '1101\n台泥'],
    [2, '2330\n台積電'],
    [3, '6488\nX'],
  ] as const)
    search.run(id, t);
  const pen = db.prepare('INSERT INTO penalties VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  pen.run('1101', 'R-2', 'EPB-KH', '高雄市政府環境保護局', '2024-05-01', 120000.5, 0, TRICKY, 'SRC-MOENV-EMS_P_46', 'https://example.org/r2');
  pen.run('1101', 'R-1', 'EPB-KH', '高雄市政府環境保護局', '2024-06-01', 1e9, 1, 'serious', 'SRC-MOENV-EMS_P_46', 'https://example.org/r1');
  const conduct = db.prepare('INSERT INTO disclosure_conduct VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  conduct.run('2330', 'C-2', 'breach', '2024-07-01', TRICKY, '證券交易法第36條', 50_000, null, 'SRC-TWSE-T187AP23_L', 'https://example.org/c');
  conduct.run('2330', 'C-1', 'sanction', '2023-01-05', '未依規定申報', null, null, '糾正', 'SRC-TWSE-T187AP22_L', 'https://example.org/c2');
  const disc = db.prepare('INSERT INTO carbon_disclosures VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  disc.run(
    '2330',
    2023,
    123456.78,
    9876543.21,
    null,
    1,
    0,
    'consolidated',
    '2024-08-01',
    'SRC-TWSE-COMPANY',
    'https://example.org/d',
    10_000_000.5,
    'SRC-TWSE-COMPANY',
    'https://example.org/g',
    0,
    '已完成合併財務報表之母子公司',
  );
  // A boundary in the company's own words, over two lines (a CSV cell quoted with its line break).
  const plants = '本公司雲林廠\n"南投廠"';
  disc.run('1101', 2022, 0.1, null, 5, 0, 0, 'other', '2023-08-01', 'SRC-TWSE-COMPANY', 'https://example.org/d2', null, null, null, 1, plants);
  const fee = db.prepare('INSERT INTO carbon_fees VALUES (?, ?, ?, ?, ?, ?, ?)');
  fee.run('1101', 1, 'registry ≥ 25,000 t', 2023, 'SRC-TWSE-COMPANY', 'https://example.org/f', 25_000);
  fee.run('2330', 0, 'not listed', null, 'SRC-TWSE-COMPANY', 'https://example.org/f2', null);
  fee.run('6488', 0, '', null, 'SRC-TWSE-COMPANY', 'https://example.org/f3', null);
  const assurance = db.prepare('INSERT INTO assurances VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  assurance.run(
    '2330',
    'KPMG',
    'limited',
    2023,
    'SRC-TWSE-COMPANY',
    'https://example.org/a',
    'cpa',
    '確信準則3000號',
    JSON.stringify([{ provider: 'BSI, "Taiwan"', standard: 'AA1000' }]),
  );
  assurance.run('1101', 'SGS', 'limited', 2022, 'SRC-TWSE-COMPANY', 'https://example.org/a2', 'third_party', null, '[]');
  const flag = db.prepare('INSERT INTO flags VALUES (?, ?, ?, ?, ?, ?)');
  flag.run('2330', 'GF-P01', 'warning', 'penalty, recent', 'SRC-MOENV-EMS_P_46', 0);
  flag.run('2330', 'GF-D02', 'info', 'no scope 3', 'SRC-TWSE-COMPANY', 1);
  flag.run('1101', 'GF-P02', 'critical', 'many penalties', 'SRC-MOENV-EMS_P_46', 0);
  const site = db.prepare('INSERT INTO registry_sites VALUES (?, ?, ?, ?, ?, ?)');
  site.run(2023, '11913502', '1101', '01', 5000000, 120000);
  site.run(2023, '99999999', null, '24', 30000.25, 0);
  const prod = db.prepare('INSERT INTO cbam_products VALUES (?, ?, ?)');
  prod.run('1101', 'cement', 'Portland cement');
  prod.run('1101', 'cement', 'Portland cement'); // duplicate rows are allowed in a table without a key
  const etf = db.prepare('INSERT INTO etfs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  etf.run('0050', '元大台灣50', '2024-12-31', 2, 2, 55.5, 40, 50, 'SRC-TWSE-COMPANY', '2024Q4', 0.01, 0.565);
  etf.run('00878', 'Empty', '2024-12-31', 0, 0, null, null, null, 'SRC-TWSE-COMPANY', '2024Q4', 0, 0);
  const hold = db.prepare('INSERT INTO etf_holdings VALUES (?, ?, ?, ?, ?)');
  hold.run('0050', 2, '1101', '台泥', 0.015);
  hold.run('0050', 1, '2330', '台積電', 0.55);
  db.exec('ANALYZE'); // adds sqlite_stat1, which is SQLite's, not data
  db.close();
}

/** The JSON tree: a few files, one path longer than 100 bytes, and some to be excluded. */
function makeTree(root: string): string[] {
  const files: Record<string, string> = {
    'api/v1/index.json': '{"ok":true}\n',
    'api/v1/companies/2330.json': JSON.stringify({ ticker: '2330', name: '台積電' }),
    'api/v1/companies/1101.json': '{"ticker":"1101"}',
    'api/v1/empty.json': '',
    [`${LONG_DIR}/2330-summary-file.json`]: '{"long":true}',
    'api/v1/downloads/2025-01-01/old.csv': 'a,b\n', // excluded
    'api/v1/ranking.json': 'x'.repeat(700_000), // several blocks and gzip chunks
    'index.html': '<!doctype html>',
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  expect(`${LONG_DIR}/2330-summary-file.json`.length).toBeGreaterThan(100);
  return Object.keys(files)
    .filter((p) => !exclude(p))
    .sort();
}
const exclude = (rel: string) => rel.startsWith('api/v1/downloads/');

const sha256 = (buf: Buffer) => createHash('sha256').update(buf).digest('hex');

let work: string;
let dbPath: string;
let treeDir: string;
let outA: string;
let outB: string;
let treeFiles: string[];
let result: DownloadFile[];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'downloads-test-'));
  dbPath = join(work, 'snapshot.sqlite');
  treeDir = join(work, 'tree');
  makeDb(dbPath);
  treeFiles = makeTree(treeDir);
  outA = join(work, 'out-a');
  outB = join(work, 'out-b');
  result = await writeDownloads({ dbPath, treeDir, outDir: outA, excludeFromArchive: exclude });
  await writeDownloads({ dbPath, treeDir, outDir: outB, excludeFromArchive: exclude });
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('writeDownloads', () => {
  it('returns every file in the folder, sorted by name, with matching size, hash and mediatype', () => {
    const names = readdirSync(outA).sort();
    expect(result.map((f) => f.name)).toEqual(names);
    expect(names).toEqual(
      ['CITATION.cff', 'SHA256SUMS', 'api-v1-tree.tar.gz', ...DATA_TABLES.map((t) => `${t}.csv`), 'datapackage.json', 'snapshot.sqlite'].sort(),
    );
    for (const f of result) {
      const buf = readFileSync(join(outA, f.name));
      expect(f.bytes).toBe(buf.length);
      expect(f.sha256).toBe(sha256(buf));
    }
    const mediatype = Object.fromEntries(result.map((f) => [f.name, f.mediatype]));
    expect(mediatype).toMatchObject({
      'companies.csv': 'text/csv',
      'snapshot.sqlite': 'application/vnd.sqlite3',
      'datapackage.json': 'application/json',
      'CITATION.cff': 'application/x-yaml',
      'api-v1-tree.tar.gz': 'application/gzip',
      SHA256SUMS: 'text/plain',
    });
  });

  it('writes one CSV per data table with every row, in key order, no BOM, \\n line ends', () => {
    const db = new Database(dbPath, { readonly: true });
    try {
      for (const t of DATA_TABLES) {
        const text = readFileSync(join(outA, `${t}.csv`), 'utf8');
        expect(text.charCodeAt(0)).not.toBe(0xfeff);
        expect(text).not.toMatch(/\r\n/);
        const [header, ...rows] = parseCsv(text);
        const cols = (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(t) as { name: string }[]).map((c) => c.name);
        expect(header).toEqual(cols);
        const count = (db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n;
        expect(rows.length, t).toBe(count);
        expect(count).toBeGreaterThan(0);
      }
    } finally {
      db.close();
    }
    const companies = parseCsv(readFileSync(join(outA, 'companies.csv'), 'utf8'));
    expect(companies.slice(1).map((r) => r[0])).toEqual(['1', '2', '3']); // by primary key, not insertion order
    const c3 = companies[3]!;
    expect(c3[2]).toBe(TRICKY);
    expect(c3[14]).toBe('33.3');
    expect(JSON.parse(companies[2]![19]!)).toEqual([{ component: 'disclosure', points: 20, max_points: 35, detail: 'scope 1, "2"' }]);
    const disclosures = parseCsv(readFileSync(join(outA, 'carbon_disclosures.csv'), 'utf8'));
    expect(disclosures[1]).toEqual([
      '1101',
      '2022',
      '0.1',
      '',
      '5',
      '0',
      '0',
      'other',
      '2023-08-01',
      'SRC-TWSE-COMPANY',
      'https://example.org/d2',
      '',
      '',
      '',
      '1',
      '本公司雲林廠\n"南投廠"',
    ]);
    // The assurance's verifications are a JSON array column (`array` in the Data Package), its kind and standard text.
    const assurances = parseCsv(readFileSync(join(outA, 'assurances.csv'), 'utf8'));
    expect(assurances[0]!.slice(6)).toEqual(['kind', 'standard', 'verifications']);
    expect(assurances[1]!.slice(6)).toEqual(['third_party', '', '[]']);
    expect(assurances[2]!.slice(6, 8)).toEqual(['cpa', '確信準則3000號']);
    expect(JSON.parse(assurances[2]![8]!)).toEqual([{ provider: 'BSI, "Taiwan"', standard: 'AA1000' }]);
    const etfs = parseCsv(readFileSync(join(outA, 'etfs.csv'), 'utf8'));
    expect(etfs[0]!.slice(8)).toEqual(['source_id', 'holdings_period', 'holdings_min_weight', 'listed_weight']);
    expect(etfs[1]!.slice(9)).toEqual(['2024Q4', '0.01', '0.565']);
    const penalties = parseCsv(readFileSync(join(outA, 'penalties.csv'), 'utf8'));
    expect(penalties.slice(1).map((r) => [r[1], r[5]])).toEqual([
      ['R-1', '1000000000'],
      ['R-2', '120000.5'],
    ]);
    expect(readdirSync(outA).some((n) => /meta|company_search|sqlite_stat/.test(n))).toBe(false);
  });

  it('quotes CSV fields only when RFC 4180 requires it', () => {
    expect(csvField('plain text 臺灣')).toBe('plain text 臺灣');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(1e21)).toBe('1e+21');
    expect(() => csvField(Buffer.from('x'))).toThrow();
    expect(() => csvField(Infinity)).toThrow();
  });

  it('copies the database byte for byte', () => {
    expect(sha256(readFileSync(join(outA, 'snapshot.sqlite')))).toBe(sha256(readFileSync(dbPath)));
  });

  it('writes a SHA256SUMS that sha256sum -c accepts, covering every other file', () => {
    const r = spawnSync('sha256sum', ['-c', '--strict', 'SHA256SUMS'], { cwd: outA, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const listed = readFileSync(join(outA, 'SHA256SUMS'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => l.split('  ')[1]);
    expect(listed).toEqual(
      readdirSync(outA)
        .filter((n) => n !== 'SHA256SUMS')
        .sort(),
    );
  });

  it('writes a datapackage.json valid against the Data Package v2.0 profile, with true sizes and hashes', () => {
    const profile = JSON.parse(readFileSync(new URL('../../fixtures/datapackage-v2.0-profile.json', import.meta.url), 'utf8'));
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addFormat('textarea', true);
    const validate = ajv.compile(profile);
    const dp = JSON.parse(readFileSync(join(outA, 'datapackage.json'), 'utf8'));
    expect(validate(dp), JSON.stringify(validate.errors, null, 2)).toBe(true);

    expect(dp.$schema).toBe('https://datapackage.org/profiles/2.0/datapackage.json');
    expect(dp.name).toBe('esg-credibility-2025-03-01-2');
    expect(dp.version).toBe('2025-03-01.2');
    expect(dp.created).toBe(PUBLISHED_AT);
    expect(dp.licenses).toEqual([{ name: 'OGDL-Taiwan-1.0', path: 'https://data.gov.tw/license', title: expect.any(String) }]);
    expect(dp.sources).toEqual([
      { title: '列管事業污染源裁處資料', path: 'https://data.moenv.gov.tw/dataset/detail/EMS_P_46' },
      { title: '上市公司基本資料', path: 'https://openapi.twse.com.tw/v1/opendata/t187ap03_L' },
    ]);
    expect(dp.description).toMatch(/snapshot\.sqlite/);
    expect(dp.description).toMatch(/fictional/);
    expect(dp.resources.map((r: { name: string }) => r.name)).toEqual(DATA_TABLES);
    for (const r of dp.resources) {
      const buf = readFileSync(join(outA, r.path));
      expect(r).toMatchObject({ format: 'csv', mediatype: 'text/csv', encoding: 'utf-8', bytes: buf.length, hash: `sha256:${sha256(buf)}` });
    }
    const companies = dp.resources.find((r: { name: string }) => r.name === 'companies');
    const field = (n: string) => companies.schema.fields.find((f: { name: string }) => f.name === n);
    expect(companies.schema.primaryKey).toEqual(['id']);
    expect(companies.schema.uniqueKeys).toEqual([['ticker']]);
    expect(field('id')).toEqual({ name: 'id', type: 'integer' });
    expect(field('percentile')).toEqual({ name: 'percentile', type: 'number' });
    expect(field('ticker')).toEqual({ name: 'ticker', type: 'string' });
    expect(field('cbam_exposed')).toEqual({ name: 'cbam_exposed', type: 'boolean', trueValues: ['1'], falseValues: ['0'] });
    expect(field('top_flags')).toMatchObject({ name: 'top_flags', type: 'array' });
    const fieldOf = (table: string, n: string) =>
      dp.resources.find((r: { name: string }) => r.name === table).schema.fields.find((f: { name: string }) => f.name === n);
    expect(fieldOf('assurances', 'verifications')).toMatchObject({ name: 'verifications', type: 'array' });
    expect(fieldOf('assurances', 'kind')).toEqual({ name: 'kind', type: 'string' });
    expect(fieldOf('assurances', 'standard')).toEqual({ name: 'standard', type: 'string' });
    expect(fieldOf('etfs', 'holdings_period')).toEqual({ name: 'holdings_period', type: 'string' });
    expect(fieldOf('etfs', 'holdings_min_weight')).toEqual({ name: 'holdings_min_weight', type: 'number' });
    expect(fieldOf('etfs', 'listed_weight')).toEqual({ name: 'listed_weight', type: 'number' });
    const flags = dp.resources.find((r: { name: string }) => r.name === 'flags');
    expect(flags.schema.primaryKey).toEqual(['ticker', 'flag_id']);
    const penalties = dp.resources.find((r: { name: string }) => r.name === 'penalties');
    expect(penalties.schema.primaryKey).toBeUndefined();
    // The conduct table is described: what its rows are, and what each column holds.
    const conduct = dp.resources.find((r: { name: string }) => r.name === 'disclosure_conduct');
    expect(conduct.description).toMatch(/t187ap23.*t187ap22/);
    expect(conduct.schema.fields.map((f: { name: string }) => f.name)).toEqual([
      'ticker',
      'record_id',
      'kind',
      'date',
      'summary',
      'rule',
      'fine',
      'decision',
      'source_id',
      'source_url',
    ]);
    for (const f of conduct.schema.fields) expect(f.description, f.name).toEqual(expect.any(String));
    expect(fieldOf('disclosure_conduct', 'kind')).toMatchObject({ type: 'string', constraints: { enum: ['breach', 'sanction'] } });
    expect(fieldOf('disclosure_conduct', 'fine')).toMatchObject({ type: 'number' });
    expect(dp.description).toMatch(/disclosure conduct/);
  });

  it('writes disclosure_conduct.csv: every conduct row, a missing rule, fine or decision as an empty cell', () => {
    const rows = parseCsv(readFileSync(join(outA, 'disclosure_conduct.csv'), 'utf8'));
    expect(rows[0]).toEqual(['ticker', 'record_id', 'kind', 'date', 'summary', 'rule', 'fine', 'decision', 'source_id', 'source_url']);
    expect(rows.slice(1).map((r) => [r[0], r[2], r[3], r[5], r[6], r[7]])).toEqual([
      ['2330', 'sanction', '2023-01-05', '', '', '糾正'],
      ['2330', 'breach', '2024-07-01', '證券交易法第36條', '50000', ''],
    ]);
    expect(rows[2]?.[4]).toBe(TRICKY);
  });

  it('writes a CITATION.cff naming the snapshot, as-of date and demo status', () => {
    const text = readFileSync(join(outA, 'CITATION.cff'), 'utf8');
    expect(text).toMatch(/^cff-version: 1\.2\.0\n/);
    expect(text).toContain('type: dataset\n');
    expect(text).toContain('title: "ESG Disclosure Credibility Score, snapshot 2025-03-01.2"\n');
    expect(text).toContain('version: "2025-03-01.2"\n');
    expect(text).toContain('date-released: "2025-03-01"\n');
    expect(text).toContain('license-url: "https://data.gov.tw/license"\n');
    expect(text).toMatch(/abstract: ".*as of 2025-02-28.*fictional.*"\n/);
  });

  const hasPyYaml = spawnSync('python3', ['-c', 'import yaml'], { encoding: 'utf8' }).status === 0;
  it.skipIf(!hasPyYaml)('writes CITATION.cff as YAML that a YAML parser reads back', () => {
    const out = execFileSync(
      'python3',
      ['-c', 'import sys, yaml, json; print(json.dumps(yaml.safe_load(open(sys.argv[1], encoding="utf-8"))))', join(outA, 'CITATION.cff')],
      { encoding: 'utf8' },
    );
    const cff = JSON.parse(out);
    expect(cff).toMatchObject({
      'cff-version': '1.2.0',
      type: 'dataset',
      version: '2025-03-01.2',
      'date-released': '2025-03-01',
      authors: [{ name: expect.any(String), website: 'https://esg.example.org/' }],
    });
  });

  it('archives exactly the tree files minus the excluded ones, with fixed metadata, and unpacks to the same bytes', () => {
    const archive = join(outA, 'api-v1-tree.tar.gz');
    const listed = execFileSync('tar', ['-tzf', archive], { encoding: 'utf8' }).trimEnd().split('\n');
    expect(listed).toEqual(treeFiles);
    expect(listed).toContain(`${LONG_DIR}/2330-summary-file.json`);

    const verbose = execFileSync('tar', ['--numeric-owner', '--full-time', '-tvzf', archive], {
      encoding: 'utf8',
      env: { ...process.env, TZ: 'UTC' },
    })
      .trimEnd()
      .split('\n');
    for (const line of verbose) expect(line).toMatch(/^-rw-r--r-- 0\/0 +\d+ 2025-03-01 08:30:00 /);

    const gz = readFileSync(archive);
    expect([...gz.subarray(0, 3)]).toEqual([0x1f, 0x8b, 8]);
    expect(gz.readUInt32LE(4)).toBe(0); // gzip header mtime: fixed
    expect(gz[3]! & 0x08).toBe(0); // no original file name stored

    const unpacked = join(work, 'unpacked');
    mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', archive, '-C', unpacked]);
    for (const rel of treeFiles) expect(sha256(readFileSync(join(unpacked, rel))), rel).toBe(sha256(readFileSync(join(treeDir, rel))));
    expect(statSync(join(unpacked, 'api/v1/empty.json')).size).toBe(0);
  });

  it('gives byte-identical folders on two runs', () => {
    const a = readdirSync(outA).sort();
    expect(readdirSync(outB).sort()).toEqual(a);
    for (const name of a) expect(sha256(readFileSync(join(outB, name))), name).toBe(sha256(readFileSync(join(outA, name))));
  });

  it('refuses a non-empty download folder', async () => {
    await expect(writeDownloads({ dbPath, treeDir, outDir: outA, excludeFromArchive: exclude })).rejects.toThrow(/not empty/);
  });

  it('never archives the download folder itself when it lies inside the tree', async () => {
    const tree = join(work, 'tree-with-downloads');
    const files = makeTree(tree);
    const out = join(tree, 'api/v1/downloads/2025-03-01.2');
    await writeDownloads({ dbPath, treeDir: tree, outDir: out, excludeFromArchive: exclude });
    await expect(
      writeDownloads({ dbPath, treeDir: tree, outDir: join(tree, 'api/v1/downloads/again'), excludeFromArchive: () => false }),
    ).resolves.toBeDefined();
    const listed = execFileSync('tar', ['-tzf', join(tree, 'api/v1/downloads/again/api-v1-tree.tar.gz')], { encoding: 'utf8' })
      .trimEnd()
      .split('\n');
    // With nothing excluded by the caller, the earlier folder is archived, but the one being written is not.
    expect(listed.filter((p) => p.startsWith('api/v1/downloads/again/'))).toEqual([]);
    expect(listed).toContain('api/v1/downloads/2025-03-01.2/companies.csv');
    expect(files.every((f) => listed.includes(f))).toBe(true);
  });
});

describe('ustar paths', () => {
  it('keeps short paths in name and splits long ones at a slash', () => {
    expect(splitUstarPath('a/b.json').prefix.length).toBe(0);
    const long = `${'d'.repeat(120)}/${'e'.repeat(30)}/f.json`;
    const { name, prefix } = splitUstarPath(long);
    expect(`${prefix}/${name}`).toBe(long);
    expect(name.length).toBeLessThanOrEqual(100);
    expect(prefix.length).toBeLessThanOrEqual(155);
  });

  it('fails loudly when no split fits', () => {
    expect(() => splitUstarPath(`dir/${'n'.repeat(101)}`)).toThrow(/too long/);
    expect(() => splitUstarPath(`${'p'.repeat(160)}/x.json`)).toThrow(/too long/);
    expect(() => splitUstarPath('../x')).toThrow(/clean relative/);
  });

  it('writes a checksum tar accepts', () => {
    const h = ustarFileHeader('a.json', 3, 0);
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i]!;
    expect(parseInt(h.subarray(148, 154).toString('ascii'), 8)).toBe(sum);
    expect(h.subarray(257, 265).toString('latin1')).toBe('ustar\u000000');
  });
});
