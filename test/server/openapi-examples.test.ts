import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { currentSnapshotDir } from '../../src/snapshot/published.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/**
 * The examples of the published OpenAPI document (what Scalar shows on /docs/): every named schema
 * and every JSON body has one, each is valid against its schema, and each is real: the snapshot's
 * own bodies. On the evolving demo (what `npm start` publishes), whose second month has changes.
 */
type Json = Record<string, any>;
let server: RunningServer;
let store: SnapshotStore;
let doc: Json;
let ajv: Ajv2020;

beforeAll(async () => {
  const dir = inject('demoSeriesSnapshotsDir');
  server = await startServer(dir);
  store = SnapshotStore.open(currentSnapshotDir(dir)!);
  doc = (await (await fetch(`${server.base}/api/v1/openapi.json`)).json()) as Json;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  // Component schemas by their $ref, as the document names them; `example` is an annotation to Ajv.
  ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
});
afterAll(async () => {
  store?.close();
  await server?.close();
});

const resolve = (schema: Json): Json => (schema.$ref ? { $ref: `doc${schema.$ref}` } : { ...schema, $id: undefined });
function validate(schema: Json, value: unknown): string[] {
  const check = ajv.compile({ ...resolve(schema), $schema: undefined });
  return check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
}
const componentOf = (schema: Json) => (schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!] : null);

/** Every JSON media type in the document: 200 bodies, error bodies and request bodies. */
function mediaTypes(): { where: string; media: Json }[] {
  const out: { where: string; media: Json }[] = [];
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const [method, op] of Object.entries<Json>(item)) {
      const body = op.requestBody?.content?.['application/json'];
      if (body) out.push({ where: `${method} ${path} request`, media: body });
      for (const [status, r] of Object.entries<Json>(op.responses ?? {})) {
        const res = r.$ref ? doc.components.responses[r.$ref.split('/').pop()!] : r;
        const media = res.content?.['application/json'];
        if (media?.schema) out.push({ where: `${method} ${path} ${status}`, media });
      }
    }
  }
  return out;
}

describe('examples in the OpenAPI document', () => {
  it('every named schema has one, valid against it', () => {
    const names = Object.keys(doc.components.schemas);
    expect(names.length).toBeGreaterThan(25);
    for (const name of names) {
      const schema = doc.components.schemas[name];
      expect(schema.example, `${name} has no example`).toBeDefined();
      expect(validate({ $ref: `#/components/schemas/${name}` }, schema.example), name).toEqual([]);
    }
  });

  it('every JSON body has one (its own, or its schema\'s), valid against its schema', () => {
    const media = mediaTypes();
    expect(media.length).toBeGreaterThan(100);
    for (const { where, media: m } of media) {
      const example = m.example ?? componentOf(m.schema)?.example;
      expect(example, `${where} has no example`).toBeDefined();
      expect(validate(m.schema, example), where).toEqual([]);
    }
  });

  it('no example is a bare placeholder: no "string" where a value goes', () => {
    expect(JSON.stringify(doc)).not.toMatch(/"example":"string"/);
    for (const name of Object.keys(doc.components.schemas)) expect(JSON.stringify(doc.components.schemas[name].example)).not.toMatch(/^"string"$/);
  });

  it('the examples are the snapshot\'s own bodies, byte for byte where the API has a file', async () => {
    const api = async (path: string) => (await fetch(`${server.base}/api/v1${path}`)).json();
    const ops = doc.paths;
    const company = ops['/api/v1/company/{ticker}'].get.responses['200'].content['application/json'].example;
    expect(store.company(company.company.ticker)).toBeDefined();
    expect(company).toEqual(await api(`/company/${company.company.ticker}`));
    expect(doc.components.schemas.CompanySummary.example).toEqual(company.company);
    const canonical = ops['/api/v1/company/{ticker}/canonical'].get.responses['200'].content['application/json'].example;
    expect(canonical).toEqual(await api(`/company/${canonical.ticker}/canonical`));
    expect(canonical.penalties.length).toBeGreaterThan(0);
    expect(doc.components.schemas.Penalty.example).toEqual(canonical.penalties[0]);
    expect(ops['/api/v1/company/{ticker}/history'].get.responses['200'].content['application/json'].example).toEqual(await api(`/company/${canonical.ticker}/history`));
    expect(ops['/api/v1/methodology'].get.responses['200'].content['application/json'].example).toEqual(await api('/methodology'));
    expect(ops['/api/v1/snapshots'].get.responses['200'].content['application/json'].example).toEqual(await api('/snapshots'));
    expect(ops['/api/v1/'].get.responses['200'].content['application/json'].example).toEqual(await api('/'));
    // The computed ones are the answers to small real requests.
    expect(ops['/api/v1/ranking'].get.responses['200'].content['application/json'].example).toEqual(await api('/ranking?limit=2'));
    const compare = ops['/api/v1/compare'].get.responses['200'].content['application/json'].example;
    expect(compare).toEqual(await api(`/compare?tickers=${compare.data.map((d: Json) => d.ticker).join(',')}`));
    expect(ops['/api/v1/changes'].get.responses['200'].content['application/json'].example).toEqual(await api('/changes?limit=2'));
    const registry = ops['/api/v1/sources/registry'].get.responses['200'].content['application/json'].example;
    expect(registry).toEqual(await api(`/sources/registry?owner_org=${registry.data[0].owner_org}`));
    const batchRequest = ops['/api/v1/batch'].post.requestBody.content['application/json'].example;
    const batch = await (await fetch(`${server.base}/api/v1/batch`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(batchRequest) })).json();
    expect(ops['/api/v1/batch'].post.responses['200'].content['application/json'].example).toEqual(batch);
    const error = doc.components.schemas.Error.example;
    const notFound = (await api(`/company/${error.error.message.split(': ')[1]}`)) as Json;
    expect({ ...error, error: { ...error.error, request_id: notFound.error.request_id } }).toEqual(notFound);
    const packsRequest = ops['/api/v1/packs'].post.requestBody.content['application/json'].example;
    for (const t of packsRequest.tickers) expect(store.company(t)).toBeDefined();
  });
});
