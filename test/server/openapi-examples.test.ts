import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorExample, type ErrorExampleFacts } from '../../build-scripts/tree/openapi-error-examples.js';
import { openApiErrorFacts, openApiExamples } from '../../build-scripts/tree/openapi-examples.js';
import { openApiDocument } from '../../src/contract/openapi.js';
import { currentSnapshotDir } from '../../src/snapshot/published.js';
import { SnapshotStore } from '../../src/snapshot/store.js';
import { raw } from '../helpers/raw-http.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { startMetered, type Metered } from './access/harness.js';
import { demoSnapshotsDir } from '../helpers/demo-snapshots-dir.js';
import { demoSeriesSnapshotsDir } from '../helpers/demo-series-dir.js';

/**
 * The examples of the published OpenAPI document (what Scalar shows on /docs/): every named schema
 * and every JSON body (200s, errors, request bodies) has its own, each is valid against its schema,
 * and each is real: the snapshot's own bodies, or the shim's answer to a real request. On the
 * shared demo (a first snapshot: nothing changed yet) and on the evolving demo (what `npm start`
 * publishes), whose second month has changes.
 */
type Json = Record<string, any>;

/** Schemas only a snapshot with a previous one can show: a first snapshot has no change. */
const CHANGE_SCHEMAS = ['ChangeItem', 'ChangeSide', 'ChangeCause'];

describe.each([
  ['the shared demo (a first snapshot)', demoSnapshotsDir],
  ['the evolving demo (second month)', demoSeriesSnapshotsDir],
] as const)('examples in the OpenAPI document of %s', (_name, snapshotsDir) => {
  let server: RunningServer;
  let metered: Metered;
  let store: SnapshotStore;
  let doc: Json;
  let facts: ErrorExampleFacts;
  let ajv: Ajv2020;
  let firstSnapshot: boolean;

  beforeAll(async () => {
    const dir = snapshotsDir;
    server = await startServer(dir);
    metered = await startMetered(dir);
    const snapshotDir = currentSnapshotDir(dir)!;
    store = SnapshotStore.open(snapshotDir);
    doc = (await (await fetch(`${server.base}/api/v1/openapi.json`)).json()) as Json;
    const tree = join(snapshotDir, 'tree');
    facts = openApiErrorFacts(store, tree, JSON.parse(readFileSync(join(tree, 'api/v1/snapshots.json'), 'utf8')));
    firstSnapshot = (await api('/changes')).from_snapshot_id === null;
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    // Component schemas by their $ref, as the document names them; `example` is an annotation to Ajv.
    ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
  });
  afterAll(async () => {
    store?.close();
    await server?.close();
    await metered?.close();
  });

  const api = async (path: string) => (await fetch(`${server.base}/api/v1${path}`)).json() as Promise<Json>;
  const resolve = (schema: Json): Json => (schema.$ref ? { $ref: `doc${schema.$ref}` } : { ...schema, $id: undefined });
  function validate(schema: Json, value: unknown): string[] {
    const check = ajv.compile({ ...resolve(schema), $schema: undefined });
    return check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
  }
  const okExample = (path: string, method = 'get') => doc.paths[path][method].responses['200'].content['application/json'].example;

  /** Every JSON media type with a schema: 200 bodies, error bodies, request bodies, shared responses. */
  function mediaTypes(): { where: string; op: string | null; status: string | null; media: Json }[] {
    const out: { where: string; op: string | null; status: string | null; media: Json }[] = [];
    for (const [name, r] of Object.entries<Json>(doc.components.responses ?? {})) {
      const media = r.content?.['application/json'];
      if (media?.schema) out.push({ where: `components.responses.${name}`, op: null, status: null, media });
    }
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const [method, op] of Object.entries<Json>(item)) {
        const key = `${method.toUpperCase()} ${path}`;
        const body = op.requestBody?.content?.['application/json'];
        if (body?.schema) out.push({ where: `${key} request`, op: op.operationId, status: null, media: body });
        for (const [status, r] of Object.entries<Json>(op.responses ?? {})) {
          const media = r.content?.['application/json'];
          if (media?.schema) out.push({ where: `${key} ${status}`, op: op.operationId, status, media });
        }
      }
    }
    return out;
  }

  it('every named schema has one, valid against it', () => {
    const names = Object.keys(doc.components.schemas);
    expect(names.length).toBeGreaterThan(25);
    for (const name of names) {
      const schema = doc.components.schemas[name];
      if (firstSnapshot && CHANGE_SCHEMAS.includes(name)) {
        expect(schema.example, `${name}: a first snapshot has no change to show`).toBeUndefined();
        continue;
      }
      expect(schema.example, `${name} has no example`).toBeDefined();
      expect(validate({ $ref: `#/components/schemas/${name}` }, schema.example), name).toEqual([]);
    }
  });

  it('every JSON body, request and response, 200 and error, has its own, valid against its schema', () => {
    const media = mediaTypes();
    expect(media.length).toBeGreaterThan(150);
    for (const { where, media: m } of media) {
      expect(m.example, `${where} has no example`).toBeDefined();
      expect(validate(m.schema, m.example), where).toEqual([]);
    }
    // Every error status of every operation is there, each with its own code.
    const errors = media.filter((m) => m.status !== null && m.status !== '200');
    expect(new Set(errors.map((m) => m.status))).toEqual(new Set(['400', '401', '403', '404', '405', '410', '413', '414', '429', '431', '502']));
    const codeOf: Record<string, string> = {
      400: 'BAD_REQUEST',
      401: 'UNAUTHORIZED',
      403: 'FORBIDDEN',
      404: 'NOT_FOUND',
      405: 'METHOD_NOT_ALLOWED',
      410: 'GONE',
      413: 'PAYLOAD_TOO_LARGE',
      414: 'URI_TOO_LONG',
      429: 'RATE_LIMITED',
      431: 'HEADERS_TOO_LARGE',
      502: 'UPSTREAM_FAILURE',
    };
    for (const { where, status, media: m } of errors) expect(m.example.error.code, where).toBe(codeOf[status!]);
  });

  it('no example is a bare placeholder: no "string" where a value goes', () => {
    const text = JSON.stringify(doc);
    expect(text).not.toMatch(/"example":"string"/);
    for (const { where, media } of mediaTypes()) expect(JSON.stringify(media.example), where).not.toMatch(/^"string"$/);
  });

  it('is the same for the same snapshot: the examples are a pure function of it', () => {
    const tree = join(currentSnapshotDir(snapshotsDir)!, 'tree');
    const snapshots = JSON.parse(readFileSync(join(tree, 'api/v1/snapshots.json'), 'utf8'));
    const made = () => JSON.parse(JSON.stringify(openApiDocument(store.meta.methodology_version, openApiExamples(store, tree, snapshots))));
    expect(made()).toEqual(doc);
    expect(made()).toEqual(doc);
    // One fixed request id in every error example; no clock, no randomness.
    expect(JSON.stringify(doc)).not.toMatch(/"request_id":"(?!00000000-0000-4000-8000-000000000000)/);
  });

  it("the 200 examples are the snapshot's own bodies, byte for byte where the API has a file", async () => {
    const company = okExample('/api/v1/company/{ticker}');
    expect(store.company(company.company.ticker)).toBeDefined();
    expect(company).toEqual(await api(`/company/${company.company.ticker}`));
    expect(doc.components.schemas.CompanySummary.example).toEqual(company.company);
    const canonical = okExample('/api/v1/company/{ticker}/canonical');
    expect(canonical).toEqual(await api(`/company/${canonical.ticker}/canonical`));
    expect(canonical.penalties.length).toBeGreaterThan(0);
    expect(doc.components.schemas.Penalty.example).toEqual(canonical.penalties[0]);
    expect(okExample('/api/v1/company/{ticker}/history')).toEqual(await api(`/company/${canonical.ticker}/history`));
    expect(okExample('/api/v1/methodology')).toEqual(await api('/methodology'));
    expect(okExample('/api/v1/snapshots')).toEqual(await api('/snapshots'));
    expect(okExample('/api/v1/')).toEqual(await api('/'));
    expect(okExample('/api/v1/etf')).toEqual(await api('/etf'));
    const etf = okExample('/api/v1/etf/{code}');
    expect(etf).toEqual(await api(`/etf/${etf.etf_code}`));
    // The static page aliases: their first page, cut to two entries, meta as the page has it.
    const rankingPage = await api('/ranking/page/1');
    expect(okExample('/api/v1/ranking/page/{page}')).toEqual({ ...rankingPage, data: rankingPage.data.slice(0, 2) });
    const changesPage = await api('/changes/page/1');
    expect(okExample('/api/v1/changes/page/{page}')).toEqual({ ...changesPage, data: changesPage.data.slice(0, 2) });
    // The computed ones are the answers to small real requests.
    expect(okExample('/api/v1/ranking')).toEqual(await api('/ranking?limit=2'));
    const compare = okExample('/api/v1/compare');
    expect(compare).toEqual(await api(`/compare?tickers=${compare.data.map((d: Json) => d.ticker).join(',')}`));
    expect(okExample('/api/v1/changes')).toEqual(await api('/changes?limit=2'));
    const registry = okExample('/api/v1/sources/registry');
    expect(registry).toEqual(await api(`/sources/registry?owner_org=${registry.data[0].owner_org}`));
    const batchRequest = doc.paths['/api/v1/batch'].post.requestBody.content['application/json'].example;
    const batch = await (
      await fetch(`${server.base}/api/v1/batch`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(batchRequest),
      })
    ).json();
    expect(okExample('/api/v1/batch', 'post')).toEqual(batch);
    const packsRequest = doc.paths['/api/v1/packs'].post.requestBody.content['application/json'].example;
    for (const t of packsRequest.tickers) expect(store.company(t)).toBeDefined();
    const pack = await fetch(`${server.base}/api/v1/packs`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(packsRequest),
    });
    expect(pack.status).toBe(200);
    expect(pack.headers.get('content-type')).toBe('application/zip');
    await pack.arrayBuffer();
  });

  it("each error example is the shim's answer to the request named beside it", async () => {
    const error = doc.components.schemas.Error.example;
    const notFound = await api(`/company/${error.error.message.split(': ')[1]}`);
    expect({ ...error, error: { ...error.error, request_id: notFound.error.request_id } }).toEqual(notFound);

    const cases = mediaTypes()
      .filter((m) => m.status !== null && m.status !== '200')
      .map((m) => ({ ...m, example: errorExample(m.op, m.status!, facts)! }));
    const shared = mediaTypes().filter((m) => m.where.startsWith('components.responses.'));
    expect(shared.map((m) => m.where).sort()).toEqual([
      'components.responses.Forbidden',
      'components.responses.RateLimited',
      'components.responses.Unauthorized',
    ]);
    for (const m of shared)
      expect(m.media.example, m.where).toEqual(
        errorExample(null, { Unauthorized: '401', Forbidden: '403', RateLimited: '429' }[m.where.split('.').pop()!]!, facts)!.body,
      );

    // Keyless calls in the minute the snapshot was published: the 429's reset time is that minute's end.
    metered.clock.now = Date.parse(store.meta.published_at);
    const order = (s: string) => (s === '429' ? 1 : 0); // the minute's calls are spent only after the others
    let replayed = 0;
    let spent = false;
    for (const c of cases.sort((a, b) => order(a.status!) - order(b.status!))) {
      expect(c.media.example, c.where).toEqual(c.example.body);
      const request = c.example.request;
      if (!request) {
        // A download's 429 takes six downloads running at once from one client: test/server/download-slots.test.ts
        // answers it, with the same message (src/contract/downloads.ts tooManyDownloads).
        const unreplayed = c.where.includes('/downloads/') ? ['410', '429', '502'] : ['410', '502'];
        expect(unreplayed, `${c.where} names no request`).toContain(c.status);
        continue;
      }
      const base = request.metered ? metered.base : server.base;
      if (c.status === '429' && !spent) {
        for (let i = 0; i < 10 && !spent; i++) spent = (await raw(metered.base, '/api/v1/ranking?limit=2')).status === 429;
        expect(spent).toBe(true);
      }
      const res = await raw(base, request.url, request.method, request.headers, request.body);
      expect(res.status, `${c.where}: ${request.method} ${request.url.slice(0, 100)}`).toBe(Number(c.status));
      const body = JSON.parse(res.text);
      expect(body, c.where).toEqual({ ...c.example.body, error: { ...c.example.body.error, request_id: body.error.request_id } });
      replayed++;
    }
    expect(replayed).toBeGreaterThan(100);
  });
});
