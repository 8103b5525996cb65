import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAUSE_KINDS } from '../../../src/contract/vocabulary.js';
import { currentSnapshotDir } from '../../../src/snapshot/published.js';
import { SnapshotStore } from '../../../src/snapshot/store.js';
import { TOOLS } from '../../../server/mcp/tools.js';
import { startMetered, type Metered } from '../access/harness.js';
import { answerOf, connectClient, toolErrorOf } from './harness.js';
import { demoSeriesSnapshotsDir } from '../../helpers/demo-series-dir.js';

/**
 * The MCP endpoint against a started shim, through a client built on the official SDK: it lists the
 * tools and resources, calls every tool, and each answer is the body the HTTP API gives for the same
 * request, in the same snapshot (the evolving demo's second month, so there are changes to explain).
 */
let m: Metered;
let client: Client;
let store: SnapshotStore;
let key: string;
const enc = encodeURIComponent;

beforeAll(async () => {
  const dir = demoSeriesSnapshotsDir;
  m = await startMetered(dir);
  key = m.newKey('commercial', { daily: 1e6, perMinute: 1e6 });
  store = SnapshotStore.open(currentSnapshotDir(dir)!);
  client = await connectClient(m.base, { 'X-API-Key': key });
});
afterAll(async () => {
  await client?.close();
  store?.close();
  await m?.close();
});

/** The API's body for a path, asked with the same key. */
async function api(path: string): Promise<Record<string, unknown>> {
  const res = await m.call(path, { key });
  expect(res.status, `${path}: ${res.text}`).toBe(200);
  return res.body as Record<string, unknown>;
}

describe('tools', () => {
  it('lists every tool with a description, a JSON Schema for its arguments and one for its answer', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    for (const t of tools) {
      expect(t.description!.length, t.name).toBeGreaterThan(60);
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(t.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
      // Arguments are the API's own parameters, and no other.
      expect((t.inputSchema as { additionalProperties?: unknown }).additionalProperties, t.name).toBe(false);
    }
    const ranking = tools.find((t) => t.name === 'rank_companies')!.inputSchema.properties as Record<
      string,
      { type?: string; maximum?: number; enum?: string[] }
    >;
    expect(ranking.limit).toMatchObject({ type: 'integer', maximum: 200 });
    expect(ranking.sort!.enum).toEqual(['score_desc', 'score_asc']);
    expect(ranking.format).toBeUndefined(); // CSV is the API's, not a tool's
  });

  it('has the conduct section in the answers of get_company_facts and compare_companies, and takes fields=conduct', async () => {
    const { tools } = await client.listTools();
    const json = (name: string) => JSON.stringify(tools.find((t) => t.name === name)!.outputSchema);
    for (const name of ['get_company_facts', 'compare_companies']) {
      expect(json(name), name).toContain('"disclosure_conduct"');
      expect(json(name), name).toMatch(/"enum":\["breach","sanction"\]/);
    }
    const t = [...store.companies()][0]!.ticker;
    const facts = answerOf(await client.callTool({ name: 'get_company_facts', arguments: { ticker: t, fields: ['conduct'] } }));
    expect(facts).toEqual(await api(`/company/${t}/canonical?fields=conduct`));
    expect(Array.isArray(facts.disclosure_conduct)).toBe(true);
    expect(facts.penalties).toBeUndefined();
  });

  it('calls every tool; each answer equals the API response to the same request (same snapshot, same facts)', async () => {
    const companies = [...store.companies()];
    const [a, b, c] = companies.filter((x) => x.top_flags.length > 0);
    const industry = companies[0]!.industry;
    const etf = store.etfs()[0]!;
    const nameFragment = [...a!.company_name].slice(0, 2).join('');
    const changes = await api('/changes?min_abs_delta=1&limit=5');
    const moved = (changes.data as { ticker: string }[])[0]!.ticker;
    const cases: [string, Record<string, unknown>, string][] = [
      ['find_company', { q: nameFragment, limit: 5 }, `/ranking?q=${enc(nameFragment)}&limit=5`],
      ['find_company', { q: a!.ticker.toLowerCase() }, `/ranking?q=${a!.ticker}`],
      ['get_company', { ticker: a!.ticker }, `/company/${a!.ticker}`],
      ['get_company', { ticker: b!.ticker.toLowerCase() }, `/company/${b!.ticker}`],
      ['get_company_facts', { ticker: a!.ticker }, `/company/${a!.ticker}/canonical`],
      ['get_company_facts', { ticker: b!.ticker, fields: ['penalties', 'carbon'] }, `/company/${b!.ticker}/canonical?fields=penalties,carbon`],
      ['get_company_history', { ticker: c!.ticker }, `/company/${c!.ticker}/history`],
      ['compare_companies', { tickers: `${a!.ticker},${b!.ticker},${c!.ticker}` }, `/compare?tickers=${a!.ticker},${b!.ticker},${c!.ticker}`],
      ['compare_companies', { tickers: [b!.ticker, a!.ticker], fields: 'flags' }, `/compare?tickers=${b!.ticker},${a!.ticker}&fields=flags`],
      ['rank_companies', {}, '/ranking?page=1'],
      [
        'rank_companies',
        { industry, sort: 'score_asc', mode: 'full', limit: 7, page: 2 },
        `/ranking?industry=${enc(industry)}&sort=score_asc&mode=full&limit=7&page=2`,
      ],
      ['rank_companies', { gf: 'gf-a01', assurance_level: 'none', limit: 3 }, '/ranking?gf=GF-A01&assurance_level=none&limit=3'],
      ['list_etfs', {}, '/etf'],
      ['get_etf', { code: etf.etf_code }, `/etf/${etf.etf_code}`],
      ['get_changes', { min_abs_delta: 1, limit: 5 }, '/changes?min_abs_delta=1&limit=5'],
      // The tool's pages are of 20 (the API's of 200): the same as asking the API for 20.
      ['get_changes', { cause: 'penalty_new', page: 1 }, '/changes?cause=penalty_new&page=1&limit=20'],
      ['get_methodology', {}, '/methodology'],
    ];
    const called = new Set<string>();
    for (const [name, args, path] of cases) {
      const answer = answerOf(await client.callTool({ name, arguments: args }));
      expect(answer, `${name} ${JSON.stringify(args)} = GET ${path}`).toEqual(await api(path));
      expect(answer).toMatchObject({ dataset_snapshot_id: store.meta.dataset_snapshot_id, methodology_version: store.meta.methodology_version });
      called.add(name);
    }
    expect([...called].sort()).toEqual(TOOLS.map((t) => t.name).sort());

    // One company's change: its item of /changes, alone.
    const one = answerOf(await client.callTool({ name: 'get_changes', arguments: { ticker: moved } }));
    expect(one.data).toEqual([(changes.data as unknown[])[0]]);
    expect(one.meta).toMatchObject({ total: 1, page: 1 });
    // The other filters still apply to it: a cause it lacks leaves nothing.
    const first = (changes.data as { causes: { kind: string }[] }[])[0]!;
    const lacking = CAUSE_KINDS.find((k) => !first.causes.some((c) => c.kind === k))!;
    expect(answerOf(await client.callTool({ name: 'get_changes', arguments: { ticker: moved, cause: lacking } }))).toMatchObject({
      data: [],
      meta: { total: 0 },
    });
  });

  it('"why did its score change": the causes of a company’s move, each fact’s source in the registry', async () => {
    const changes = await api('/changes?min_abs_delta=1&limit=50');
    const item = (changes.data as { ticker: string; change: string; causes: { source_id: string | null }[] }[]).find(
      (x) => x.change === 'changed' && x.causes.some((k) => k.source_id),
    )!;
    expect(item, 'the second month moves some company for a sourced reason').toBeDefined();
    const answer = answerOf(await client.callTool({ name: 'get_changes', arguments: { ticker: item.ticker } }));
    const [got] = answer.data as { score_delta: number; causes: { points: number | null; source_id: string | null; detail: string }[] }[];
    expect(got!.causes.reduce((s, k) => s + (k.points ?? 0), 0)).toBe(got!.score_delta);
    const registry = JSON.parse(((await client.readResource({ uri: 'esg://sources/registry' })).contents[0] as { text: string }).text) as {
      data: { source_id: string }[];
    };
    const known = new Set(registry.data.map((s) => s.source_id));
    for (const k of got!.causes) if (k.source_id) expect(known.has(k.source_id), k.source_id).toBe(true);
    // And the facts tool names a registered source for every fact it states.
    const facts = answerOf(await client.callTool({ name: 'get_company_facts', arguments: { ticker: item.ticker } }));
    const cited = [...JSON.stringify(facts).matchAll(/"source_id":"([^"]+)"/g)].map((x) => x[1]!);
    expect(cited.length).toBeGreaterThan(0);
    for (const id of cited) expect(known.has(id), id).toBe(true);
  });

  it('an unknown ticker or fund is the tool’s error with the API’s 404 message, not a protocol failure', async () => {
    expect(toolErrorOf(await client.callTool({ name: 'get_company', arguments: { ticker: 'ZZZ999' } }))).toMatchObject({
      code: 'NOT_FOUND',
      message: 'Unknown ticker: ZZZ999',
    });
    expect(toolErrorOf(await client.callTool({ name: 'get_etf', arguments: { code: '99999' } }))).toMatchObject({
      code: 'NOT_FOUND',
      message: 'Unknown fund code: 99999',
    });
    expect(toolErrorOf(await client.callTool({ name: 'compare_companies', arguments: { tickers: 'ZZZ998,ZZZ999' } })).message).toBe(
      'Unknown tickers: ZZZ998, ZZZ999',
    );
  });
});

describe('resources', () => {
  it('the methodology, the source registry and the snapshot list: each the API’s body for its path', async () => {
    const { resources } = await client.listResources();
    const paths: Record<string, string> = {
      'esg://methodology': '/methodology',
      'esg://sources/registry': '/sources/registry',
      'esg://snapshots': '/snapshots',
    };
    expect(resources.map((r) => r.uri).sort()).toEqual(Object.keys(paths).sort());
    for (const r of resources) {
      expect(r.description!.length).toBeGreaterThan(20);
      const { contents } = await client.readResource({ uri: r.uri });
      expect(contents).toHaveLength(1);
      expect(contents[0]).toMatchObject({ uri: r.uri, mimeType: 'application/json' });
      expect((contents[0] as { text: string }).text).toBe((await m.call(paths[r.uri]!)).text);
    }
    await expect(client.readResource({ uri: 'esg://nope' })).rejects.toThrow(/Resource not found/);
  });
});
