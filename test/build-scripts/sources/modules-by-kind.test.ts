import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RejectLog } from '../../../build-scripts/adapters/read-layout.js';
import { generateDemo } from '../../../build-scripts/demo/generate.js';
import { REFERENCE_LISTS, SOURCE_MODULES } from '../../../build-scripts/sources/index.js';
import { twseCompanyLayout } from '../../../build-scripts/sources/company-lists/twse-company.js';
import { loadSources, MissingSourcesError } from '../../../build-scripts/snapshot/load-sources.js';
import { silentProgress } from '../../../build-scripts/snapshot/progress.js';

/**
 * The snapshot loader reads the modules by the kind their reader yields, never by name: a module
 * added to the list (here, in this test only, a second source of penalties) is checked for presence,
 * read, joined onto the universe, counted and asserted with no other file touched.
 */
const EXTRA_ID = 'SRC-TEST-PENALTIES';
const EXTRA_FILE = 'test-penalties.json';

vi.mock('../../../build-scripts/sources/index.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../build-scripts/sources/index.js')>();
  const { readFileSync: read } = await import('node:fs');
  const { join: joinPath } = await import('node:path');
  const { OGDL_TW, OWNERS } = await import('../../../build-scripts/sources/kit/registry-info.js');
  type Module = (typeof real.SOURCE_MODULES)[number];
  type Penalty = import('../../../build-scripts/sources/kit/facts.js').PenaltyRow;
  const extra: Module = {
    info: {
      source_id: 'SRC-TEST-PENALTIES',
      name: 'penalties of a second publisher (this test only)',
      ...OWNERS.MOENV,
      licence: OGDL_TW,
      update_frequency: 'monthly',
      homepage_url: 'https://example.org/penalties',
      description: 'A module that exists in this test only.',
      record_link: null,
    },
    files: { answers: /^test-penalties\.json$/, placed: [] },
    plan: null,
    read: {
      kind: 'penalties',
      async *read({ dir }) {
        yield* JSON.parse(read(joinPath(dir, 'test-penalties.json'), 'utf8')) as Penalty[];
      },
    },
    assertions: { minRecords: 1, maxRecords: 10 },
  };
  return { ...real, SOURCE_MODULES: [...real.SOURCE_MODULES, extra] };
});

const root = mkdtempSync(join(tmpdir(), 'modules-by-kind-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let company: { ticker: string; uniformNo: string };
beforeAll(async () => {
  await generateDemo({ outDir: root, companies: 50 });
  const first = (JSON.parse(readFileSync(join(root, twseCompanyLayout.file), 'utf8')) as Record<string, string>[])[0]!;
  company = { ticker: first[twseCompanyLayout.columns.ticker.labels[0]!]!, uniformNo: first[twseCompanyLayout.columns.uniformNo.labels[0]!]! };
}, 120_000);

const load = () => loadSources(root, new RejectLog(), silentProgress, { kindOf: () => 'demo', scale: 1 });

describe('a module added to the list is loaded by its kind', () => {
  it('its files missing, the build names it', async () => {
    expect(SOURCE_MODULES.map((m) => m.info.source_id)).toContain(EXTRA_ID);
    const err = await load().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingSourcesError);
    expect((err as Error).message).toContain(`${EXTRA_ID}: none of`);
  });

  it('its rows are read, joined onto the universe with its source id, counted and asserted', async () => {
    const penalty = {
      uniformNo: company.uniformNo,
      recordId: 'TEST-1',
      agency: 'TEST',
      agencyName: '測試機關',
      date: '2026-01-02',
      fine: 1000,
      serious: false,
      summary: '測試',
    };
    const stranger = { ...penalty, uniformNo: null, recordId: 'TEST-2' };
    writeFileSync(join(root, EXTRA_FILE), JSON.stringify([penalty, stranger]));
    const data = await load();
    expect(data.penalties.get(company.ticker)).toContainEqual({ ...penalty, sourceId: EXTRA_ID });
    const counts = data.tally.of(EXTRA_ID);
    expect([counts.records, counts.linked]).toEqual([2, 1]);
    expect(data.rowsRead.get(EXTRA_ID)).toBe(2);
  });
});

describe('no source is named under build-scripts/snapshot/', () => {
  it('no source or reference-list id, and no SRC- literal, is written there', () => {
    const dir = join(import.meta.dirname, '../../../build-scripts/snapshot');
    const ids = [...SOURCE_MODULES.map((m) => m.info.source_id), ...REFERENCE_LISTS.map((l) => l.id)];
    const named = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => {
        const text = readFileSync(join(dir, f), 'utf8');
        return [...ids.filter((id) => text.includes(id)), ...(text.match(/\bSRC-[A-Z0-9]/g) ?? [])].map((x) => `${f}: ${x}`);
      });
    expect(named).toEqual([]);
  });
});
