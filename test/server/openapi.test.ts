import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/contract/openapi.js';
import { currentSnapshotDir } from '../../src/snapshot/published.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { getJson, startServer, type RunningServer } from '../helpers/server.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';

/**
 * The OpenAPI document is generated from the same schemas that parse requests; these tests hold it to
 * the server's behaviour: every documented enum value is accepted and nothing else, every documented
 * bound is the server's bound, every required parameter is required, and no undocumented parameter
 * is accepted.
 */
interface Param {
  in: string;
  name: string;
  required?: boolean;
  schema: Record<string, any>;
}
type Doc = { paths: Record<string, Record<string, { parameters?: Param[]; requestBody?: any }>> };

let server: RunningServer;
let store: SnapshotStore;
let doc: Doc;
let tickers: string[];
const path = (p: string) =>
  p
    .replace('{ticker}', 'D1101')
    .replace('{code}', store.etfs()[0]!.etf_code)
    .replace('{page}', '1')
    .replace('{id}', store.meta.dataset_snapshot_id)
    .replace('{file}', 'SHA256SUMS');

beforeAll(async () => {
  const snapshotsDir = demoSnapshotsDir;
  server = await startServer(snapshotsDir);
  store = SnapshotStore.open(currentSnapshotDir(snapshotsDir)!);
  doc = JSON.parse(JSON.stringify(openApiDocument(store.meta.methodology_version)));
  tickers = [...store.companies()].slice(0, 200).map((c) => c.ticker);
});
afterAll(async () => {
  store.close();
  await server.close();
});

/** Every GET operation with query parameters, with the values its required parameters need. */
function queryOperations(): { url: string; params: Param[]; base: Record<string, string> }[] {
  return Object.entries(doc.paths).flatMap(([p, ops]) => {
    const params = (ops.get?.parameters ?? []).filter((x) => x.in === 'query');
    if (params.length === 0) return [];
    const base: Record<string, string> = {};
    for (const q of params.filter((x) => x.required)) base[q.name] = q.name === 'tickers' ? tickers.slice(0, 2).join(',') : 'x';
    return [{ url: server.base + path(p), params, base }];
  });
}

async function call(url: string, query: Record<string, string>) {
  return getJson(`${url}?${new URLSearchParams(query)}`);
}
function expectRejected(res: Awaited<ReturnType<typeof getJson>>, name: string, what: string) {
  expect(res.status, `${what}: ${res.text}`).toBe(400);
  expect(res.body.error.message, what).toContain(name);
}

describe('the OpenAPI document and the server agree', () => {
  it('documents query parameters on every computed GET endpoint', () => {
    expect(
      queryOperations()
        .map((o) => o.url.replace(server.base, ''))
        .sort(),
    ).toEqual(['/api/v1/changes', '/api/v1/company/D1101/canonical', '/api/v1/compare', '/api/v1/ranking', '/api/v1/sources/registry']);
  });

  it('accepts every documented enum value and rejects any other, naming the parameter', async () => {
    let checked = 0;
    for (const op of queryOperations()) {
      for (const p of op.params.filter((x) => x.schema.enum)) {
        for (const value of p.schema.enum as string[]) {
          const res = await call(op.url, { ...op.base, [p.name]: value });
          expect(res.status, `${op.url} ${p.name}=${value}`).toBe(200);
          checked++;
        }
        expectRejected(await call(op.url, { ...op.base, [p.name]: 'not-a-value' }), p.name, `${op.url} ${p.name}=not-a-value`);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(13);
  });

  it('holds integer parameters to their documented minimum, maximum and default', async () => {
    const ranking = queryOperations().find((o) => o.url.endsWith('/ranking'))!;
    for (const p of ranking.params.filter((x) => x.schema.type === 'integer')) {
      const { minimum, maximum } = p.schema as { minimum: number; maximum?: number };
      expect((await call(ranking.url, { [p.name]: String(minimum) })).status, `${p.name}=${minimum}`).toBe(200);
      expectRejected(await call(ranking.url, { [p.name]: String(minimum - 1) }), p.name, `${p.name}=${minimum - 1}`);
      expectRejected(await call(ranking.url, { [p.name]: '1.5' }), p.name, `${p.name}=1.5`);
      if (maximum !== undefined) {
        expect((await call(ranking.url, { [p.name]: String(maximum) })).status, `${p.name}=${maximum}`).toBe(200);
        expectRejected(await call(ranking.url, { [p.name]: String(maximum + 1) }), p.name, `${p.name}=${maximum + 1}`);
      }
    }
    const limit = ranking.params.find((x) => x.name === 'limit')!.schema.default as number;
    expect((await call(ranking.url, {})).body.meta.per_page).toBe(limit);
  });

  it('holds text parameters to their documented length and pattern', async () => {
    for (const op of queryOperations()) {
      for (const p of op.params.filter((x) => x.schema.maxLength !== undefined)) {
        const max = p.schema.maxLength as number;
        expect((await call(op.url, { ...op.base, [p.name]: '水'.repeat(max) })).status, `${p.name} of ${max}`).toBe(200);
        expectRejected(await call(op.url, { ...op.base, [p.name]: '水'.repeat(max + 1) }), p.name, `${p.name} of ${max + 1}`);
      }
      for (const p of op.params.filter((x) => x.schema.pattern !== undefined)) {
        const bad = 'no match';
        expect(new RegExp(p.schema.pattern).test(bad)).toBe(false);
        expectRejected(await call(op.url, { ...op.base, [p.name]: bad }), p.name, `${p.name}=${bad}`);
      }
    }
  });

  it('holds ticker lists to their documented distinct counts, in queries and bodies', async () => {
    const compare = queryOperations().find((o) => o.url.endsWith('/compare'))!;
    const list = compare.params.find((x) => x.name === 'tickers')!.schema;
    const [min, max] = [list['x-distinct-min'] as number, list['x-distinct-max'] as number];
    expect((await call(compare.url, { tickers: tickers.slice(0, min).join(',') })).status).toBe(200);
    expect((await call(compare.url, { tickers: tickers.slice(0, max).join(',') })).status).toBe(200);
    expect((await call(compare.url, { tickers: [...tickers.slice(0, max), tickers[0]!].join(',') })).status, 'duplicates do not count').toBe(200);
    expectRejected(await call(compare.url, { tickers: tickers.slice(0, min - 1).join(',') }), 'tickers', 'too few');
    expectRejected(await call(compare.url, { tickers: tickers.slice(0, max + 1).join(',') }), 'tickers', 'too many');

    const body = doc.paths['/api/v1/batch']!.post!.requestBody.content['application/json'].schema.properties.tickers;
    const post = (t: string[]) =>
      getJson(`${server.base}/api/v1/batch`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ tickers: t }),
      });
    expect((await post(tickers.slice(0, body['x-distinct-max']))).status).toBe(200);
    expectRejected(await post(tickers.slice(0, body['x-distinct-max'] + 1)), 'tickers', 'batch too large');
    expectRejected(await post(tickers.slice(0, body.minItems - 1)), 'tickers', 'batch empty');
  });

  it('documents the errors every request may get, and each happens as documented', async () => {
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const codes = Object.keys((op as { responses: Record<string, unknown> }).responses);
        if (p === '/api/v1/openapi.json') continue;
        expect(codes, `${method} ${p}`).toEqual(expect.arrayContaining(['405', '414', '431']));
        if (method === 'post') expect(codes, `${method} ${p}`).toContain('413');
      }
    }
    const url = server.base + path('/api/v1/company/{ticker}');
    expect((await fetch(url, { method: 'DELETE' })).status).toBe(405);
    expect((await fetch(`${url}?${'x'.repeat(9000)}`)).status).toBe(414);
    expect((await fetch(url, { headers: { 'X-Big': 'a'.repeat(20_000) } })).status).toBe(431);
  });

  it('describes the assurance kind, the ETF coverage fields and a licence that is none', () => {
    const schemas = (doc as unknown as { components: { schemas: Record<string, any> } }).components.schemas;
    const assurance = schemas.Assurance!.properties;
    expect(assurance.kind.enum).toEqual(['cpa', 'third_party']);
    expect(assurance.standard.type).toEqual(['string', 'null']);
    expect(assurance.verifications.items.$ref).toBe('#/components/schemas/Verification');
    expect(schemas.Verification!.required).toEqual(['provider', 'standard']);
    const etf = schemas.EtfResponse!;
    for (const key of ['holdings_source_id', 'holdings_period', 'holdings_min_weight', 'listed_weight']) {
      expect(etf.required, key).toContain(key);
      expect(etf.properties[key].description, key).toMatch(/\w/);
    }
    expect(etf.properties.holdings_period.pattern).toBe('^\\d{4}Q[1-4]$');
    expect(etf.properties.holdings.items.properties.weight.description).toMatch(/fraction/i);
    expect(schemas.SourceEntry!.properties.licence.$ref).toBe('#/components/schemas/Licence');
    expect(schemas.Licence!.properties.id.description).toContain('`none`');
    expect(schemas.Licence!.description).toMatch(/without an open-data licence/);
  });

  it('states real integer bounds only, a type on every nullable, and each operation in one of the document’s groups', () => {
    // zod's .int() bounds integers at ±Number.MAX_SAFE_INTEGER, which Scalar shows as "min -9007199254740991";
    // a nullable union without a type is what Scalar's document check warns about (see openapi-for-renderers.ts).
    const safeBounds: string[] = [];
    const untypedUnions: string[] = [];
    const visit = (node: unknown, at: string): void => {
      if (Array.isArray(node)) return node.forEach((v, i) => visit(v, `${at}/${i}`));
      if (typeof node !== 'object' || node === null) return;
      const o = node as Record<string, unknown>;
      for (const key of ['minimum', 'maximum'])
        if (typeof o[key] === 'number' && Math.abs(o[key] as number) === Number.MAX_SAFE_INTEGER) safeBounds.push(`${at}/${key}`);
      const union = (o.anyOf ?? o.oneOf) as { type?: unknown }[] | undefined;
      if (union?.some((b) => b.type === 'null') && o.type === undefined) untypedUnions.push(at);
      for (const [k, v] of Object.entries(o)) visit(v, `${at}/${k}`);
    };
    visit(doc, '');
    expect(safeBounds).toEqual([]);
    expect(untypedUnions).toEqual([]);
    const schemas = (doc as unknown as { components: { schemas: Record<string, any> } }).components.schemas;
    // Real bounds stay, and so does the meaning of a nullable reference.
    expect([schemas.ChangeItem!.properties.score_delta.minimum, schemas.ChangeItem!.properties.score_delta.maximum]).toEqual([-100, 100]);
    expect(schemas.SourceFile!.properties.bytes).toEqual({ type: 'integer', minimum: 0 });
    expect(schemas.SourceFile!.properties.url).toEqual({ type: ['string', 'null'], format: 'uri' });
    expect(schemas.ChangeCause!.properties.component.enum).toEqual(['disclosure', 'assurance', 'compliance', 'consistency', null]);
    expect(schemas.ChangeItem!.properties.before).toEqual({
      anyOf: [{ $ref: '#/components/schemas/ChangeSide' }, { type: 'null' }],
      type: ['object', 'null'],
    });
    const groups = (doc as unknown as { tags: { name: string }[] }).tags.map((t) => t.name);
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) expect((op as { tags?: string[] }).tags, `${method} ${p}`).toEqual([expect.toBeOneOf(groups)]);
    }
  });

  it('requires every required parameter and accepts no undocumented one', async () => {
    for (const op of queryOperations()) {
      for (const p of op.params.filter((x) => x.required)) {
        const { [p.name]: _dropped, ...rest } = op.base;
        expectRejected(await call(op.url, rest), p.name, `${op.url} without ${p.name}`);
      }
      expectRejected(await call(op.url, { ...op.base, undocumented: '1' }), 'undocumented', `${op.url}?undocumented`);
    }
  });
});
