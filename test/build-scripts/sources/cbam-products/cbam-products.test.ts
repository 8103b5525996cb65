import { describe, expect, it } from 'vitest';
import { readCbamProducts, type CbamProductRow } from '../../../../build-scripts/sources/cbam-products/cbam-products.js';
import { MissingColumnError, RejectLog } from '../../../../build-scripts/adapters/read-layout.js';
import { fixtureDirs } from '../../adapters/fixture-dir.js';

const FILE = 'cbam_products.csv';
const fixtureDir = fixtureDirs('adapter-cbam-');
const sourceDir = (content: string | null) => fixtureDir(content === null ? {} : { [FILE]: content });
async function read(content: string | null, rejects = new RejectLog()): Promise<CbamProductRow[]> {
  const out: CbamProductRow[] = [];
  for await (const r of readCbamProducts(sourceDir(content), rejects)) out.push(r);
  return out;
}

describe('readCbamProducts (project-curated, optional)', () => {
  it('reads by-product sectors', async () => {
    const rejects = new RejectLog();
    expect(await read(`公司代號,CBAM部門,產品\nd1234,aluminium,鋁錠\nD1722,fertilisers,尿素\n`, rejects)).toEqual([
      { ticker: 'D1234', sector: 'aluminium', product: '鋁錠' },
      { ticker: 'D1722', sector: 'fertilisers', product: '尿素' },
    ]);
    expect(rejects.count).toBe(0);
  });

  it('a missing file is fine: no rows, no rejects', async () => {
    const rejects = new RejectLog();
    expect(await read(null, rejects)).toEqual([]);
    expect(rejects.count).toBe(0);
  });

  it('rejects sectors mapped by industry, unknown sectors and empty products', async () => {
    const rejects = new RejectLog();
    const rows = await read(
      `產品,備註,CBAM部門,公司代號\n水泥,x,cement,D1101\n鋁,x,aluminum,D1102\n,x,aluminium,D1103\n鋁板,x,aluminium,D1104\n`,
      rejects,
    );
    expect(rows).toEqual([{ ticker: 'D1104', sector: 'aluminium', product: '鋁板' }]);
    expect(rejects.rejects.map((r) => `${r.file}:${r.line}: ${r.reason.split(':')[0]}`)).toEqual([
      'cbam_products.csv:2: CBAM部門',
      'cbam_products.csv:3: CBAM部門',
      'cbam_products.csv:4: 產品',
    ]);
  });

  it('a present file missing a required column throws MissingColumnError', async () => {
    const err = await read(`公司代號,產品\nD1234,鋁錠\n`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingColumnError);
    expect((err as Error).message).toContain(FILE);
    expect((err as Error).message).toContain('CBAM部門');
  });
});
