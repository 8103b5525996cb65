import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenApiExamples } from '../../src/contract/openapi-examples.js';
import type { SnapshotsResponse } from '../../src/contract/snapshots.js';
import { QUOTA_BUCKETS } from '../../src/contract/vocabulary.js';
import { fileForUrlPath } from '../../src/contract/api-paths.js';
import { urls } from '../../src/contract/urls.js';
import type { CompanyFacts, SnapshotStore } from '../../src/snapshot/store.js';
import { changesView } from '../../src/views/changes.js';
import { compareView } from '../../src/views/compare.js';
import { withEnvelope } from '../../src/views/envelope.js';
import { rankingView } from '../../src/views/ranking.js';
import { registryView } from '../../src/views/registry.js';
import { sourceNamesOf } from '../../src/views/source-names.js';
import { usageView } from '../../src/views/usage.js';
import { unknownTickers } from '../../src/contract/named-errors.js';
import { errorExample, type ErrorExampleFacts } from './openapi-error-examples.js';
// The contract's tier table and windows: pure data, kept with the meter that counts them.
import { TIER_QUOTAS, windowOf } from '../../src/contract/tiers.js';

/**
 * Real values for the OpenAPI document's examples, from the snapshot being built: the bodies the
 * tree already holds (read back, byte for byte what the API serves), and for the computed
 * endpoints the view functions the shim answers with, on a small real request (`?limit=2`, two
 * companies to compare, one owner's sources). Called once the tree and /snapshots are written.
 * The static page aliases (/ranking/page/N, /changes/page/N) show their first page, cut to two
 * entries. Each error is the shim's answer to a real request (openapi-error-examples.ts).
 * A first snapshot has no changes: its ChangeItem, ChangeSide and ChangeCause have no example.
 */

/**
 * The company the examples show: among the first 2,000, the one whose facts fill the most schemas
 * (penalties, flags, a CPA's other verifications, a disclosure, an assurance).
 */
function richest(store: SnapshotStore): CompanyFacts {
  let best: CompanyFacts | null = null;
  let bestScore = -1;
  for (const facts of store.factsAmong(store.firstTickers(2000))) {
    const a = facts.assurance;
    const score =
      (facts.penalties.length > 0 ? 1 : 0) +
      (facts.flags.length > 0 ? 1 : 0) +
      (a && a.verifications.length > 0 ? 1 : 0) +
      (facts.disclosure ? 1 : 0) +
      (a ? 1 : 0);
    if (score > bestScore) [best, bestScore] = [facts, score];
    if (bestScore === 5) break;
  }
  if (!best) throw new Error('OpenAPI examples: the snapshot has no company');
  return best;
}

type Read = (url: string) => any;

/** A row of disclosure conduct from the first company (in code order, of the first 2,000) that has one. */
function conductExample(store: SnapshotStore, read: Read): unknown {
  const facts = store.factsAmong(store.firstTickers(2000)).find((f) => f.conduct.length > 0);
  return facts ? read(urls.canonical(facts.company.ticker)).disclosure_conduct[0] : undefined;
}
const reader =
  (treeDir: string): Read =>
  (url) =>
    JSON.parse(readFileSync(join(treeDir, fileForUrlPath(url)), 'utf8'));

/** The two companies the examples name: the richest, and the first other one. */
function exampleTickers(store: SnapshotStore, richestFacts: CompanyFacts): [string, string] {
  const t = richestFacts.company.ticker;
  return [t, store.firstTickers(2).find((x) => x !== t)!];
}

function errorFacts(store: SnapshotStore, read: Read, snapshots: SnapshotsResponse, tickers: [string, string]): ErrorExampleFacts {
  return {
    meta: store.meta,
    tickers,
    etfCode: store.etfs()[0]?.etf_code,
    rankingPages: read(urls.rankingPage(1)).meta.page_count,
    changesPages: read(urls.changes).meta.page_count,
    oldestSnapshotId: snapshots.data.at(-1)?.dataset_snapshot_id ?? store.meta.dataset_snapshot_id,
  };
}

/** What the error examples name (their requests are errorExample()'s), for the tests that send them. */
export function openApiErrorFacts(store: SnapshotStore, treeDir: string, snapshots: SnapshotsResponse): ErrorExampleFacts {
  return errorFacts(store, reader(treeDir), snapshots, exampleTickers(store, richest(store)));
}

/**
 * Every operation's examples, one entry per operation id (a missing one fails tsc). Over 80 lines
 * because it is that table: each entry is a line or two of which request shows what, read side by
 * side with the others.
 */
export function openApiExamples(store: SnapshotStore, treeDir: string, snapshots: SnapshotsResponse): OpenApiExamples {
  const meta = store.meta;
  const read = reader(treeDir);
  const facts = richest(store);
  const [t, other] = exampleTickers(store, facts);
  const names = sourceNamesOf(store.sources());

  const company = read(urls.company(t));
  const canonical = read(urls.canonical(t));
  const history = read(urls.history(t));
  const ranked = store.rankedCompanies();
  const ranking = rankingView(meta, { rows: ranked.slice(0, 2), total: ranked.length, page: 1, perPage: 2, mode: 'compact' });
  const compare = compareView(meta, [facts, store.facts(other)!], names);
  const etfs = store.etfs();
  const etf = etfs[0] ? read(urls.etf(etfs[0].etf_code)) : undefined;
  // The owner with the fewest files: a real filtered registry that stays short.
  const sources = store.sources();
  const owner = [...sources].sort((a, b) => a.files.length - b.files.length)[0]?.owner_org;
  const registry = registryView(meta, sources, { ownerOrg: owner });
  const changesPage = read(urls.changes);
  const changes = changesView(meta, changesPage.from_snapshot_id, changesPage.data.slice(0, 2), {
    total: changesPage.meta.total,
    page: 1,
    perPage: 2,
  });
  const change = changes.data.find((c) => c.before && c.after && c.causes.length > 0) ?? changes.data[0];
  // A keyless caller's first call of the day, at the snapshot's publish time.
  const at = Date.parse(meta.published_at);
  const usage = usageView(
    meta,
    'free',
    null,
    QUOTA_BUCKETS.map((bucket) => ({
      bucket,
      limit: TIER_QUOTAS.free[bucket],
      used: TIER_QUOTAS.free[bucket] === 0 ? 0 : 1,
      window: windowOf(bucket, at),
    })),
  );
  const rankingPage = read(urls.rankingPage(1));
  const firstTwo = <T extends { data: unknown[] }>(body: T): T => ({ ...body, data: body.data.slice(0, 2) });
  const errorsFrom = errorFacts(store, read, snapshots, [t, other]);
  const error = errorExample('company', '404', errorsFrom)!.body;
  const tickersBody = { tickers: [t, other] };
  // What POST /batch answers for the request example below (server/routes/batch.ts, item by item).
  const batch = withEnvelope(meta, {
    data: [
      { ticker: t, ok: true, company: company.company },
      { ticker: 'ZZ9999', ok: false, error: { code: 'NOT_FOUND', message: unknownTickers(['ZZ9999']).message } },
    ],
    meta: { requested: 2, found: 1, not_found: 1 },
  });

  return {
    schemas: {
      IndexResponse: read(urls.index),
      CompanyResponse: company,
      CompanySummary: company.company,
      CanonicalView: canonical,
      Penalty: canonical.penalties[0],
      CarbonDisclosure: canonical.carbon_disclosure ?? undefined,
      CarbonFee: canonical.carbon_fee,
      Assurance: canonical.assurance ?? undefined,
      Verification: canonical.assurance?.verifications[0],
      Flag: canonical.flags[0],
      // The richest company may have no conduct record: the first company that has one gives it.
      DisclosureConduct: canonical.disclosure_conduct[0] ?? conductExample(store, read),
      RankingResponse: ranking,
      RankingEntry: ranking.data[0],
      RankingMeta: ranking.meta,
      CompareResponse: compare,
      EtfListResponse: read(urls.etfList),
      EtfResponse: etf,
      RegistryResponse: registry,
      SourceEntry: registry.data[0],
      Licence: registry.data[0]?.licence,
      SourceFile: registry.data[0]?.files[0],
      MethodologyResponse: read(urls.methodology),
      SnapshotsResponse: snapshots,
      SnapshotEntry: snapshots.data[0],
      HistoryResponse: history,
      HistoryEntry: history.data[0],
      ChangesResponse: changes,
      ChangeItem: change,
      ChangeSide: change?.after ?? change?.before ?? undefined,
      ChangeCause: change?.causes[0],
      BatchResponse: batch,
      UsageResponse: usage,
      Error: error,
    },
    responses: {
      index: read(urls.index),
      company,
      canonical,
      history,
      ranking,
      rankingPage: firstTwo(rankingPage),
      compare,
      etfList: read(urls.etfList),
      etf,
      registry,
      methodology: read(urls.methodology),
      snapshots,
      changes,
      changesPage: firstTwo(read(urls.changesPage(1))),
      usage,
      batch,
    },
    requests: {
      batch: { tickers: [t, 'ZZ9999'] },
      packs: tickersBody,
    },
    errors: (operation, status) => errorExample(operation, status, errorsFrom)?.body,
  };
}
